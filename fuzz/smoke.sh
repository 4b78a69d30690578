#!/usr/bin/env bash
# Run every libFuzzer harness fuzz/fuzz_*.c for a short while: `make fuzz-smoke` (CI) calls it.
#
#   fuzz/smoke.sh [SECONDS]          SECONDS per harness (default $FUZZ_SECONDS, else 60)
#
# Each harness first replays its whole seed corpus fuzz/corpus/<name>/ (name without "fuzz_",
# "fuzz/corpus/fuzz_<name>/" is accepted too), then fuzzes for SECONDS with ASan+UBSan and
# leak detection. New inputs go to a scratch directory, never into the committed corpus.
# A crash, leak, timeout or a harness without a seed corpus fails the run (exit 1); the input
# that broke it is kept under build/fuzz/artifacts/ and named in the summary.
set -u
cd "$(dirname "$0")/.."
secs=${1:-${FUZZ_SECONDS:-60}}
case $secs in '' | *[!0-9]*) echo "smoke.sh: seconds must be a whole number, not '$secs'" >&2; exit 2 ;; esac

artifacts=build/fuzz/artifacts
mkdir -p "$artifacts"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/nodemark-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Leaks count as failures; keep memory bounded on small CI machines.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
common=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1)

failed=() passed=0
for src in fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	short=${name#fuzz_}
	bin=build/fuzz/$name
	if [ ! -x "$bin" ]; then
		echo "smoke.sh: $bin is missing (run 'make fuzz')" >&2
		failed+=("$name: not built")
		continue
	fi
	corpus=""
	for d in "fuzz/corpus/$short" "fuzz/corpus/$name"; do
		[ -d "$d" ] && [ -n "$(ls -A "$d")" ] && corpus=$d && break
	done
	if [ -z "$corpus" ]; then
		failed+=("$name: no seed corpus in fuzz/corpus/$short/")
		continue
	fi
	log=$scratch/$name.log
	work=$scratch/$name
	mkdir -p "$work"
	echo "== $name: seeds from $corpus, then ${secs} s"
	# 1. every seed once: a regression test for inputs that once broke a parser.
	if ! "$bin" "${common[@]}" -runs=0 -artifact_prefix="$artifacts/$name-" "$corpus" >"$log" 2>&1; then
		tail -30 "$log"
		failed+=("$name: a seed input fails (see $artifacts/$name-*)")
		continue
	fi
	# 2. fuzz from the seeds.
	if ! "$bin" "${common[@]}" -max_total_time="$secs" -artifact_prefix="$artifacts/$name-" \
		"$work" "$corpus" >"$log" 2>&1; then
		tail -40 "$log"
		failed+=("$name: failed while fuzzing (see $artifacts/$name-*)")
		continue
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "   ok: ${runs:-?} inputs, $(find "$work" -type f | wc -l) new in the corpus"
	passed=$((passed + 1))
done

echo
for f in "${failed[@]}"; do echo "FAIL: $f"; done
echo "fuzz-smoke: $passed harnesses passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
