#!/usr/bin/env bash
# The test driver behind `make test` and `make asan`.
#
# Runs the unit-test binary ($UNIT_TESTS) and every CLI test script tests/cli/*.sh against the
# built binary ($NODEMARK). Every test prints "PASS: ...", "FAIL: ..." or "SKIP: ..." (a check
# this machine cannot make, with the reason); this script counts them and ends with the line
# "N passed, N failed" (", N skipped" when any were), exit 1 on any failure.
#
#   tests/run.sh [--cli-only] [--unit-only]      TESTS=pattern limits the CLI scripts
set -u
here=$(cd "$(dirname "$0")" && pwd)
run_unit=1 run_cli=1
for a in "$@"; do
    case $a in
    --cli-only) run_unit=0 ;;
    --unit-only) run_cli=0 ;;
    *) echo "run.sh: unknown argument $a" >&2; exit 2 ;;
    esac
done
: "${NODEMARK:?set NODEMARK to the nodemark binary}"
export NODEMARK SHIM_DIR="${SHIM_DIR:-}" TESTS_DIR="$here"
# Tests never touch the user's results store, and never show progress lines.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/nodemark-tests.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export NODEMARK_DB="$scratch/results.db" NODEMARK_NO_PROGRESS=1 XDG_DATA_HOME="$scratch/xdg"
# A python3 that is a version manager's shim (pyenv: a shell script, ~3 s a start on a busy
# machine) makes json_get slow; the tests only need the system's python3 to read JSON.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
    mkdir -p "$scratch/bin" && ln -s /usr/bin/python3 "$scratch/bin/python3" && PATH="$scratch/bin:$PATH"
fi

log="$scratch/log"
: >"$log"

if [ $run_unit = 1 ] && [ -n "${UNIT_TESTS:-}" ]; then
    echo "== unit tests"
    "$UNIT_TESTS" 2>&1 | tee -a "$log" | grep -v '^PASS: '
    [ "${PIPESTATUS[0]}" -le 1 ] || echo "FAIL: unit-tests: the test binary crashed" | tee -a "$log"
fi

if [ $run_cli = 1 ]; then
    for t in "$here"/cli/*.sh; do
        [ "$(basename "$t")" = lib.sh ] && continue
        case $(basename "$t") in *${TESTS:-}*) ;; *) continue ;; esac
        echo "== $(basename "$t")"
        work="$scratch/$(basename "$t" .sh)"
        mkdir -p "$work"
        start=$(date +%s)
        (cd "$work" && timeout -k 10 "${CLI_TIMEOUT:-900}" bash "$t") >"$scratch/out" 2>&1
        rc=$?
        tee -a "$log" <"$scratch/out" | grep -v '^PASS: '
        [ $rc -eq 124 ] && echo "FAIL: $(basename "$t"): timed out" | tee -a "$log"
        if ! grep -q '^\(PASS\|FAIL\|SKIP\): ' "$scratch/out"; then
            echo "FAIL: $(basename "$t"): ran no checks (exit $rc)" | tee -a "$log"
        fi
        echo "   ($(($(date +%s) - start)) s)"
        rm -rf "$work"
    done
fi

passed=$(grep -c '^PASS: ' "$log")
failed=$(grep -c '^FAIL: ' "$log")
skipped=$(grep -c '^SKIP: ' "$log")
if [ "$failed" -gt 0 ]; then
    echo
    echo "failures:"
    grep '^FAIL: ' "$log"
fi
if [ "$skipped" -gt 0 ]; then
    echo
    echo "skipped:"
    grep '^SKIP: ' "$log"
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
