#!/usr/bin/env bash
# The piece store's write path against the pure hash rate, worker scaling, and log vs files.
#
#   bench/pieces.sh [ROUNDS] [DISK_DIR]     (default 5 rounds, DISK_DIR=/var/tmp)
#
# In each round, on tmpfs (/dev/shm):
#   B  = nodemark hash --algo blake3 --threads 1 (the pure BLAKE3 rate of this round)
#   P1 = nodemark pieces --hash blake3 --no-sync --workers 1 (write MB/s)
#   P2 = the same with --workers 2
# and on DISK_DIR (the machine's disk), with --sync:
#   F  = --backend files --sync          L = --backend log --sync-batch 16
# Printed: P1/B (goal >= 0.75), P2/P1 (goal >= 1.6 where 2 CPUs are free), L/F.
# Medians of the per-round ratios: the machine may be shared and noisy.
set -eu
cd "$(dirname "$0")/.."
NM=${NODEMARK:-build/nodemark}
rounds=${1:-5}
disk=${2:-/var/tmp}
count=${COUNT:-400}
disk_count=${DISK_COUNT:-100}
[ -x "$NM" ] || make -s "$NM"

shm=$(mktemp -d /dev/shm/nodemark-bench.XXXXXX)
trap 'rm -rf "$shm"' EXIT

median() { python3 -c 'import sys, statistics; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
write_rate() { "$NM" pieces "$@" --json --no-save | python3 -c 'import json,sys; print(json.load(sys.stdin)["write"]["bytes_per_sec"])'; }
hash_rate() { "$NM" hash --algo blake3 --threads 1 --size 1GiB --json --no-save | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["bytes_per_sec"])'; }
mb() { python3 -c "print('%.0f' % ($1 / 1e6))"; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "disk dir: $disk ($(df -T "$disk" | awk 'NR==2 {print $1, $2}')); tmpfs: $shm; $rounds rounds"
echo "tmpfs: $count pieces of 2314240 B, blake3, no sync; disk: $disk_count pieces, blake3, --sync"
echo

r1=() r2=() rl=() bs=() p1s=() p2s=() fs=() ls=()
for r in $(seq "$rounds"); do
    b=$(hash_rate)
    p1=$(write_rate "$shm" --count "$count" --hash blake3 --no-sync --workers 1)
    p2=$(write_rate "$shm" --count "$count" --hash blake3 --no-sync --workers 2)
    f=$(write_rate "$disk" --count "$disk_count" --hash blake3 --sync --backend files)
    l=$(write_rate "$disk" --count "$disk_count" --hash blake3 --sync --backend log --sync-batch 16)
    bs+=("$b") p1s+=("$p1") p2s+=("$p2") fs+=("$f") ls+=("$l")
    r1+=("$(python3 -c "print($p1 / $b)")") r2+=("$(python3 -c "print($p2 / $p1)")") rl+=("$(python3 -c "print($l / $f)")")
    printf 'round %d: BLAKE3 %s MB/s, pieces 1 worker %s MB/s (%.2fx), 2 workers %s MB/s (%.2fx); disk --sync files %s MB/s, log %s MB/s (%.2fx)\n' \
        "$r" "$(mb "$b")" "$(mb "$p1")" "${r1[-1]}" "$(mb "$p2")" "${r2[-1]}" "$(mb "$f")" "$(mb "$l")" "${rl[-1]}"
done
echo
printf 'pieces tmpfs blake3 nosync 1 worker / pure BLAKE3 1 thread: %.2f (median %s vs %s MB/s; goal >= 0.75)\n' \
    "$(median "${r1[@]}")" "$(mb "$(median "${p1s[@]}")")" "$(mb "$(median "${bs[@]}")")"
printf 'pieces tmpfs 2 workers / 1 worker: %.2f (median %s vs %s MB/s; goal >= 1.6 with 2 free CPUs)\n' \
    "$(median "${r2[@]}")" "$(mb "$(median "${p2s[@]}")")" "$(mb "$(median "${p1s[@]}")")"
printf 'disk --sync, log (--sync-batch 16) / files: %.2f (median %s vs %s MB/s)\n' \
    "$(median "${rl[@]}")" "$(mb "$(median "${ls[@]}")")" "$(mb "$(median "${fs[@]}")")"
