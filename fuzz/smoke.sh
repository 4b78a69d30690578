#!/usr/bin/env bash
# Run every libFuzzer harness fuzz/fuzz_*.c for a short while: `make fuzz-smoke` (CI) calls it.
#
#   fuzz/smoke.sh [SECONDS]          SECONDS per harness at most (default $FUZZ_SECONDS, else 60)
#
# Time: harnesses run FUZZ_JOBS at a time (default 2, the CI machine's cores), and each fuzzes
# for SECONDS, or less when that would pass the wall-clock budget FUZZ_BUDGET (default 600 s):
# then each gets FUZZ_BUDGET x FUZZ_JOBS / harnesses seconds (at least 10). So with ~18
# harnesses and FUZZ_SECONDS=60 the whole run stays about 10 minutes, and adding a harness
# shortens the others instead of lengthening CI.
#
# Each harness first replays its whole seed corpus fuzz/corpus/<name>/ (name without "fuzz_",
# "fuzz/corpus/fuzz_<name>/" is accepted too), then fuzzes with ASan+UBSan and leak detection.
# New inputs go to a scratch directory, never into the committed corpus. A crash, leak, timeout
# or a harness without a seed corpus fails the run (exit 1); the input that broke it is kept
# under build/fuzz/artifacts/ and named in the summary.
set -u
cd "$(dirname "$0")/.."
secs=${1:-${FUZZ_SECONDS:-60}}
jobs=${FUZZ_JOBS:-2}
budget=${FUZZ_BUDGET:-600}
for v in "$secs" "$jobs" "$budget"; do
	case $v in '' | *[!0-9]*) echo "smoke.sh: seconds, jobs and budget are whole numbers, not '$v'" >&2; exit 2 ;; esac
done
[ "$jobs" -ge 1 ] || jobs=1

artifacts=build/fuzz/artifacts
mkdir -p "$artifacts"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/nodemark-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Leaks count as failures; keep memory bounded on small CI machines.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
common=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1)

harnesses=(fuzz/fuzz_*.c)
n=${#harnesses[@]}
fair=$((budget * jobs / (n > 0 ? n : 1)))
[ "$fair" -lt 10 ] && fair=10
[ "$secs" -gt "$fair" ] && secs=$fair
echo "fuzz-smoke: $n harnesses, $jobs at a time, ${secs} s of fuzzing each"

# One harness; its verdict goes to $scratch/NAME.result ("ok: ..." or "FAIL: ..."), its log
# to $scratch/NAME.log.
run_one() {
	local src=$1 name short bin corpus d log work runs
	name=$(basename "$src" .c)
	short=${name#fuzz_}
	bin=build/fuzz/$name
	log=$scratch/$name.log
	if [ ! -x "$bin" ]; then
		echo "FAIL: $name: not built (run 'make fuzz')" >"$scratch/$name.result"
		return
	fi
	corpus=""
	for d in "fuzz/corpus/$short" "fuzz/corpus/$name"; do
		[ -d "$d" ] && [ -n "$(ls -A "$d")" ] && corpus=$d && break
	done
	if [ -z "$corpus" ]; then
		echo "FAIL: $name: no seed corpus in fuzz/corpus/$short/" >"$scratch/$name.result"
		return
	fi
	work=$scratch/$name
	mkdir -p "$work"
	# 1. every seed once: a regression test for inputs that once broke a parser.
	if ! "$bin" "${common[@]}" -runs=0 -artifact_prefix="$artifacts/$name-" "$corpus" >"$log" 2>&1; then
		echo "FAIL: $name: a seed input fails (see $artifacts/$name-*)" >"$scratch/$name.result"
		return
	fi
	# 2. fuzz from the seeds.
	if ! "$bin" "${common[@]}" -max_total_time="$secs" -artifact_prefix="$artifacts/$name-" \
		"$work" "$corpus" >"$log" 2>&1; then
		echo "FAIL: $name: failed while fuzzing (see $artifacts/$name-*)" >"$scratch/$name.result"
		return
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "ok: $name: ${runs:-?} inputs, $(find "$work" -type f | wc -l) new in the corpus" >"$scratch/$name.result"
}

running=0
for src in "${harnesses[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	echo "== $(basename "$src" .c): seeds, then ${secs} s"
	run_one "$src" &
	running=$((running + 1))
done
wait

failed=0 passed=0
for src in "${harnesses[@]}"; do
	name=$(basename "$src" .c)
	result=$(cat "$scratch/$name.result" 2>/dev/null || echo "FAIL: $name: no result")
	echo "   $result"
	case $result in
	ok:*) passed=$((passed + 1)) ;;
	*)
		failed=$((failed + 1))
		tail -30 "$scratch/$name.log" 2>/dev/null
		;;
	esac
done
echo
echo "fuzz-smoke: $passed harnesses passed, $failed failed"
[ "$failed" -eq 0 ]
