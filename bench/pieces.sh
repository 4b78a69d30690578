#!/usr/bin/env bash
# The piece store's write path against the pure hash rate, worker scaling, and log vs files.
#
#   bench/pieces.sh [ROUNDS] [DISK_DIR]     (default 5 rounds, DISK_DIR=/var/tmp)
#
# In each round, on tmpfs (/dev/shm):
#   B  = nodemark hash --algo blake3 --threads 1 (the pure BLAKE3 rate of this round)
#   P1 = nodemark pieces --hash blake3 --no-sync --workers 1 (write MB/s)
#   P2 = the same with --workers 2
#   P0 = --hash none, 1 worker: the write path alone, per CPU-second (what the kernel's copy into
#        tmpfs costs); 1 / (1 + B/P0) per CPU-second is the most P1/B can be on this machine
# and on DISK_DIR (the machine's disk), with --sync:
#   F  = --backend files --sync          L = --backend log --sync-batch 16
# Printed: P1/B (goal >= 0.75), also per CPU-second used (robust to other load on the machine),
# P2/P1 (goal >= 1.6 where 2 CPUs are free), L/F.
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
# "wall-clock rate  CPU rate" (bytes per second of wall time, and per CPU-second used)
write_rates() { "$NM" pieces "$@" --json --no-save | python3 -c 'import json,sys; w=json.load(sys.stdin)["write"]; print(w["bytes_per_sec"], w["bytes"] / w["cpu_seconds"])'; }
hash_rates() { "$NM" hash --algo blake3 --threads 1 --size 1GiB --json --no-save | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; print(r["bytes_per_sec"], r["bytes"] / r["cpu_seconds"])'; }
mb() { python3 -c "print('%.0f' % ($1 / 1e6))"; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "disk dir: $disk ($(df -T "$disk" | awk 'NR==2 {print $1, $2}')); tmpfs: $shm; $rounds rounds"
echo "tmpfs: $count pieces of 2314240 B, blake3, no sync; disk: $disk_count pieces, blake3, --sync"
echo

r1=() r1c=() r2=() rl=() bs=() p1s=() p2s=() fs=() ls=() bound=() p0s=()
for r in $(seq "$rounds"); do
    read -r b bc < <(hash_rates)
    read -r p1 p1c < <(write_rates "$shm" --count "$count" --hash blake3 --no-sync --workers 1)
    read -r p2 _ < <(write_rates "$shm" --count "$count" --hash blake3 --no-sync --workers 2)
    read -r _ p0c < <(write_rates "$shm" --count "$count" --hash none --no-sync --workers 1)
    p0s+=("$p0c") bound+=("$(python3 -c "print(1 / (1 + $bc / $p0c))")")
    read -r f _ < <(write_rates "$disk" --count "$disk_count" --hash blake3 --sync --backend files)
    read -r l _ < <(write_rates "$disk" --count "$disk_count" --hash blake3 --sync --backend log --sync-batch 16)
    bs+=("$b") p1s+=("$p1") p2s+=("$p2") fs+=("$f") ls+=("$l")
    r1+=("$(python3 -c "print($p1 / $b)")") r1c+=("$(python3 -c "print($p1c / $bc)")")
    r2+=("$(python3 -c "print($p2 / $p1)")") rl+=("$(python3 -c "print($l / $f)")")
    printf 'round %d: BLAKE3 %s MB/s, pieces 1 worker %s MB/s (%.2fx; per CPU-second %.2fx), 2 workers %s MB/s (%.2fx); disk --sync files %s MB/s, log %s MB/s (%.2fx)\n' \
        "$r" "$(mb "$b")" "$(mb "$p1")" "${r1[-1]}" "${r1c[-1]}" "$(mb "$p2")" "${r2[-1]}" "$(mb "$f")" "$(mb "$l")" "${rl[-1]}"
done
echo
printf 'pieces tmpfs blake3 nosync 1 worker / pure BLAKE3 1 thread: %.2f (median %s vs %s MB/s; goal >= 0.75)\n' \
    "$(median "${r1[@]}")" "$(mb "$(median "${p1s[@]}")")" "$(mb "$(median "${bs[@]}")")"
printf 'the same per CPU-second used (load-independent): %.2f; the write path alone (--hash none) %s MB per CPU-second, so at most %.2f is possible here\n' \
    "$(median "${r1c[@]}")" "$(mb "$(median "${p0s[@]}")")" "$(median "${bound[@]}")"
printf 'pieces tmpfs 2 workers / 1 worker: %.2f (median %s vs %s MB/s; goal >= 1.6 with 2 free CPUs)\n' \
    "$(median "${r2[@]}")" "$(mb "$(median "${p2s[@]}")")" "$(mb "$(median "${p1s[@]}")")"
printf 'disk --sync, log (--sync-batch 16) / files: %.2f (median %s vs %s MB/s)\n' \
    "$(median "${rl[@]}")" "$(mb "$(median "${ls[@]}")")" "$(mb "$(median "${fs[@]}")")"
