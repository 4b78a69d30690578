#!/usr/bin/env bash
# The test driver behind `make test` and `make asan`.
#
# Runs the unit-test binary ($UNIT_TESTS) and every CLI test script tests/cli/*.sh against the
# built binary ($NODEMARK). Every test prints "PASS: ...", "FAIL: ..." or "SKIP: ..." (a check
# this machine cannot make, with the reason); this script counts them and ends with the line
# "N passed, N failed" (", N skipped" when any were), exit 1 on any failure.
#
#   tests/run.sh [--cli-only] [--unit-only]      TESTS=pattern limits the CLI scripts,
#                                                TEST_JOBS=N runs N scripts at a time
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

# one_script T: runs the CLI test script T in its own directory, with its own results store
# (scripts never share state), and writes what it printed (T.out) and the block the driver
# shows for it (T.block: the header, every line but PASS, the time) into $scratch/res.
one_script() {
    local t=$1 name work start rc
    name=$(basename "$t" .sh)
    work="$scratch/$name"
    mkdir -p "$work" "$scratch/state/$name"
    start=$(date +%s)
    (cd "$work" && NODEMARK_DB="$scratch/state/$name/results.db" XDG_DATA_HOME="$scratch/state/$name/xdg" \
        timeout -k 10 "${CLI_TIMEOUT:-900}" bash "$t") >"$scratch/res/$name.out" 2>&1
    rc=$?
    {
        [ $rc -eq 124 ] && echo "FAIL: $name.sh: timed out"
        grep -q '^\(PASS\|FAIL\|SKIP\): ' "$scratch/res/$name.out" ||
            echo "FAIL: $name.sh: ran no checks (exit $rc)"
    } >>"$scratch/res/$name.out"
    { echo "== $name.sh"; grep -v '^PASS: ' "$scratch/res/$name.out"; echo "   ($(($(date +%s) - start)) s)"; } \
        >"$scratch/res/$name.block"
    rm -rf "$work" "$scratch/state/$name"
}

# show_done: prints the blocks of the scripts that have finished, once each, and adds their
# lines to the log
show_done() {
    local b
    for b in "$scratch"/res/*.block; do
        [ -e "$b" ] || continue
        cat "$b"
        cat "${b%.block}.out" >>"$log"
        rm -f "$b"
    done
}

# TEST_JOBS scripts run at a time (default 1). A script whose checks depend on a quiet machine
# (its header has a line "# serial: WHY": verdicts, noise, busy detection, timed progress) runs
# alone, after the others; the others only compare what tools did (counts, bytes, calls,
# files), which another script running beside them does not change.
if [ $run_cli = 1 ]; then
    mkdir -p "$scratch/res"
    jobs_max=${TEST_JOBS:-1}
    serial=()
    for t in "$here"/cli/*.sh; do
        [ "$(basename "$t")" = lib.sh ] && continue
        case $(basename "$t") in *${TESTS:-}*) ;; *) continue ;; esac
        if [ "$jobs_max" -le 1 ] || grep -q '^# serial:' "$t"; then
            serial+=("$t")
            [ "$jobs_max" -le 1 ] && { one_script "$t"; show_done; }
            continue
        fi
        while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
            wait -n
            show_done
        done
        one_script "$t" &
    done
    wait
    show_done
    if [ "$jobs_max" -gt 1 ]; then
        for t in "${serial[@]}"; do
            one_script "$t"
            show_done
        done
    fi
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
