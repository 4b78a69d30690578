#!/usr/bin/env bash
# How far does another process's load move a CPU-bound figure measured per CPU-second?
#
#   bench/cpu-basis.sh [ROUNDS]      (default 5)
#
# When a run is busy, compare judges hashing figures on bytes per CPU-second of the hashing
# threads (docs/compare.md): that basis leaves out the time a thread waited for the CPU, but not
# what the other processes did to the CPU while it ran (caches and TLBs refilled after their
# timeslices, the host's clock under more active cores).  This script measures that residue,
# interleaved so the host's drift falls on every condition alike: each round runs
# `nodemark hash` (sha256 and blake3, 1 thread and all CPUs) quiet, beside one `yes` per CPU,
# beside a parallel compile of nodemark's own sources (gcc -O2, two per CPU), beside a dd
# writing with O_DIRECT alone, and beside bench/aa.sh's busy hogs (one `yes` per CPU and that
# dd), and prints each condition's bytes per CPU-second over the same round's quiet figure.
# The dd conditions ask whether I/O (the host's work for the guest's virtual disk) moves the
# figure by more than CPU load does.
# The largest drop it prints is what verdict.h's VERDICT_CPU_CONTENTION_PCT must cover.
set -u
cd "$(dirname "$0")/.."
rounds=${1:-5}
nm=${NM_BIN:-$PWD/build/nodemark}
[ -x "$nm" ] || { echo "bench/cpu-basis.sh: build nodemark first (make)" >&2; exit 2; }
case $rounds in '' | *[!0-9]*) echo "bench/cpu-basis.sh: ROUNDS is a whole number" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
hogs=()
stop_hogs() {
    # each hog leads its own process group (setsid), so its children (xargs, gcc) go with it
    for p in "${hogs[@]}"; do kill -- -"$p" 2>/dev/null; kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    hogs=()
    sleep 0.3
}
trap 'stop_hogs; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# the compile: every C file of nodemark through gcc -O2 to assembly thrown away, 2 per CPU
compile_loop='while :; do find src -name "*.c" -print0 | xargs -0 -P '$(($(nproc) * 2))' -I{} gcc -O2 -D_GNU_SOURCE -Isrc -S -o /dev/null {} 2>/dev/null; done'

# the I/O hog of bench/aa.sh's busy runs: 256 MiB at a time, O_DIRECT, in this script's directory
dd_loop='while :; do dd if=/dev/zero of="'$tmp'/hog" bs=1M count=256 oflag=direct status=none; done 2>/dev/null'

echo "machine: $(nproc) CPUs; $(uptime)"
measure() { # CONDITION ROUND: one line per figure, "CONDITION ROUND algo/Nt bytes-per-cpu-second"
    "$nm" hash --algo sha256,blake3 --threads "1,$(nproc)" --size 128m --runs 6 --json -q --no-save 2>/dev/null |
        python3 -c '
import json, sys
for x in json.load(sys.stdin)["results"]:
    print(sys.argv[1], sys.argv[2], "%s/%dt" % (x["algo"], x["threads"]), x["bytes"] / x["cpu_seconds"])' "$1" "$2"
}
for r in $(seq "$rounds"); do
    measure quiet "$r"
    for _ in $(seq "$(nproc)"); do setsid yes >/dev/null & hogs+=($!); done
    sleep 1
    measure yes "$r"
    stop_hogs
    setsid bash -c "$compile_loop" &
    hogs+=($!)
    sleep 3
    measure compile "$r"
    stop_hogs
    setsid bash -c "$dd_loop" &
    hogs+=($!)
    sleep 1
    measure dd "$r"
    for _ in $(seq "$(nproc)"); do setsid yes >/dev/null & hogs+=($!); done
    sleep 1
    measure yes+dd "$r"
    stop_hogs
done >"$tmp/all.txt"
python3 - "$tmp/all.txt" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
quiet = {(r[1], r[2]): float(r[3]) for r in rows if r[0] == "quiet"}
figs = sorted({r[2] for r in rows})
print("bytes per CPU-second beside the load, over the same round's quiet figure (median, min, max of rounds)")
conds = ("yes", "compile", "dd", "yes+dd")
print("%-14s %-20s %-20s %-20s %-20s" % ("figure", "one yes per CPU", "parallel compile", "dd O_DIRECT", "yes per CPU + dd"))
worst = {c: 1.0 for c in conds}
for f in figs:
    cells = []
    for cond in conds:
        q = [float(r[3]) / quiet[(r[1], f)] for r in rows if r[0] == cond and r[2] == f and (r[1], f) in quiet]
        worst[cond] = min([worst[cond]] + q)
        cells.append("%.2f (%.2f-%.2f)" % (statistics.median(q), min(q), max(q)) if q else "-")
    print("%-14s %-20s %-20s %-20s %-20s" % (f, *cells))
for cond in conds:
    print("largest drop beside %-8s %3.0f%% (as a factor: %.0f%%)" % (cond + ":", (1 - worst[cond]) * 100, (1 / worst[cond] - 1) * 100))
PY
echo "after: $(uptime)"
