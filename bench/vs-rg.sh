#!/usr/bin/env bash
# `nodemark track --log` against `rg -o` on the same generated replay log, side by side in one
# run, lines/s and the ratio printed (issue 18's speed goal: track >= 1.0x rg -o's lines/s).
#
#   bench/vs-rg.sh [ROUNDS]            ROUNDS per case (default 3), the tools taking turns
#   LINES=2000000 bench/vs-rg.sh       lines in the generated log
#
# The log is the seeds' replay format, one progress line per block batch:
#   2024-01-03T05:00:27.502 database.cpp:385 reindex ] 10000000 of 81583660 blocks = 12.26%
# Both tools read it with the pattern '([0-9]+) of [0-9]+ blocks': rg prints every match (to a
# file: rg stops at the first match when its output is /dev/null), track keeps the number and
# prints its milestones. Cases: track without and with --time-pattern (each line's own time).
# Each figure is wall time from the page cache (the log is read once before); the ratio is
# track's lines/s over rg's in the same round; the median over the rounds is printed last.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
lines=${LINES:-2000000}
nm=${NODEMARK:-$here/build/nodemark}
[ -x "$nm" ] || { echo "build nodemark first (make)" >&2; exit 2; }
command -v rg >/dev/null || { echo "ripgrep is not installed (apt-get install ripgrep)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vs-rg.XXXXXX")
trap 'rm -rf "$work"' EXIT

pattern='([0-9]+) of [0-9]+ blocks'
total=81583660
awk -v n="$lines" -v total="$total" 'BEGIN {
    t = 1704258000; b = 0; step = int(total / n); if (step < 1) step = 1
    for (i = 0; i < n; i++) {
        b += step; s = int(t); ms = int((t - s) * 1000)
        printf "%s.%03d database.cpp:385 reindex ] %d of %d blocks = %.2f%%\n",
               strftime("%Y-%m-%dT%H:%M:%S", s, 1), ms, b, total, b * 100 / total
        t += 0.013
    } }' >"$work/replay.log"
cat "$work/replay.log" >/dev/null

now() { date +%s%N; }
# Seconds a command took (its output to the file $1).
secs() { local out=$1 t0 t1; shift; t0=$(now); "$@" >"$out"; t1=$(now); echo "$(( (t1 - t0) / 1000 ))e-6"; }
rate() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2]) / 1e6))' "$1" "$2"; }
ratio() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) / float(sys.argv[1])))' "$1" "$2"; }
median() { python3 -c 'import statistics,sys; print("%.2f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

run_rg() { secs "$work/rg.out" rg -o "$pattern" "$work/replay.log"; }
run_track() {
    secs "$work/track.out" "$nm" track --no-save --log "$work/replay.log" --pattern "$pattern" --total "$total" --every 10% "$@"
}

echo "# nodemark track vs $(rg --version | sed -n 1p) on $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $lines lines ($(du -m "$work/replay.log" | cut -f1) MB), pattern '$pattern', $rounds rounds, rg first on odd rounds"
# What rg -o finds must be what track reads: one match per line.
rg -o "$pattern" "$work/replay.log" >"$work/rg.out"
[ "$(wc -l <"$work/rg.out")" = "$lines" ] || { echo "rg -o did not match every line" >&2; exit 1; }

for case in plain timed; do
    extra=()
    [ "$case" = timed ] && extra=(--time-pattern '^(\S+)' --time-format '%Y-%m-%dT%H:%M:%S')
    echo
    echo "## track ${extra[*]:-(times as read)} vs rg -o"
    printf '%-6s %12s %12s %8s\n' round "rg M/s" "track M/s" ratio
    rs=() ts=() qs=()
    for r in $(seq "$rounds"); do
        if [ $((r % 2)) = 1 ]; then g=$(run_rg); t=$(run_track "${extra[@]}"); else t=$(run_track "${extra[@]}"); g=$(run_rg); fi
        grep -q "in $lines of $lines lines" "$work/track.out" || { echo "track did not read every line" >&2; exit 1; }
        rs+=("$(rate "$lines" "$g")") ts+=("$(rate "$lines" "$t")") qs+=("$(ratio "$t" "$g")")
        printf '%-6s %12s %12s %8s\n' "$r" "${rs[-1]}" "${ts[-1]}" "${qs[-1]}"
    done
    printf '%-6s %12s %12s %8s\n' median "$(median "${rs[@]}")" "$(median "${ts[@]}")" "$(median "${qs[@]}")"
done
echo
echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
