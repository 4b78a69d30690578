#!/usr/bin/env bash
# nodemark hash vs the tools people use: b3sum and openssl speed, side by side in one run.
#
#   bench/vs-hash.sh [ROUNDS]        (default 5; NODEMARK=path/to/nodemark, SIZE=1GiB)
#
# BLAKE3: `b3sum --num-threads 1 FILE` and `nodemark hash --file FILE --algo blake3 --threads 1`
#   on the same file in tmpfs (/dev/shm), each timed as a whole process (start, map, hash, exit).
# SHA-256: `openssl speed -evp sha256 -bytes 16384` and `nodemark hash --algo sha256 --block 16KiB
#   --threads 1`, each as its own reported rate. openssl gets -elapsed: by default it divides by
#   its user CPU time, which on a shared machine makes it look faster than any wall clock.
# Rounds alternate the tools; the ratio of each round is nodemark / reference, and the medians
# of rates and of ratios are printed (the machine may be shared and noisy: read the ratios).
set -eu
cd "$(dirname "$0")/.."
NM=${NODEMARK:-build/nodemark}
rounds=${1:-5}
size=${SIZE:-1GiB}
[ -x "$NM" ] || make -s "$NM"
for t in b3sum openssl python3; do command -v $t >/dev/null || { echo "vs-hash.sh: needs $t" >&2; exit 2; }; done

dir=$(mktemp -d /dev/shm/nodemark-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
file=$dir/data
bytes=$(python3 -c "import sys; u={'':1,'k':1<<10,'m':1<<20,'g':1<<30}; s=sys.argv[1].lower().replace('ib','').replace('b',''); print(int(float(s.rstrip('kmg')) * u[s[-1] if s[-1] in 'kmg' else '']))" "$size")
head -c "$bytes" /dev/urandom >"$file"

now() { date +%s%N; }
median() { python3 -c 'import sys, statistics; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "versions: $("$NM" --version), $(b3sum --version), $(openssl version | cut -d' ' -f1-2)"
echo "file: $file ($bytes bytes, tmpfs); $rounds rounds"
echo

b3_ref=() b3_nm=() b3_ratio=() sha_ref=() sha_nm=() sha_ratio=()
for r in $(seq "$rounds"); do
    t0=$(now); b3sum --num-threads 1 "$file" >/dev/null; t1=$(now)
    "$NM" hash --file "$file" --algo blake3 --threads 1 --no-save >/dev/null; t2=$(now)
    ref=$(python3 -c "print($bytes / (($t1 - $t0) / 1e9))")
    ours=$(python3 -c "print($bytes / (($t2 - $t1) / 1e9))")
    b3_ref+=("$ref") b3_nm+=("$ours") b3_ratio+=("$(python3 -c "print($ours / $ref)")")

    ref=$(openssl speed -evp sha256 -bytes 16384 -seconds 2 -elapsed -mr 2>/dev/null | awk -F: '/^\+F:/ {print $4}')
    ours=$("$NM" hash --algo sha256 --block 16KiB --size 2GiB --threads 1 --json --no-save |
           python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["bytes_per_sec"])')
    sha_ref+=("$ref") sha_nm+=("$ours") sha_ratio+=("$(python3 -c "print($ours / $ref)")")
    printf 'round %d: BLAKE3 b3sum %.0f MB/s nodemark %.0f MB/s (%.3fx) | SHA-256 openssl %.0f MB/s nodemark %.0f MB/s (%.3fx)\n' \
        "$r" "$(python3 -c "print(${b3_ref[-1]} / 1e6)")" "$(python3 -c "print(${b3_nm[-1]} / 1e6)")" "${b3_ratio[-1]}" \
        "$(python3 -c "print($ref / 1e6)")" "$(python3 -c "print($ours / 1e6)")" "${sha_ratio[-1]}"
done
echo
printf 'BLAKE3 1 thread, %s tmpfs file:  b3sum --num-threads 1  %.0f MB/s   nodemark hash  %.0f MB/s   ratio %.3f (median of %d rounds; goal >= 0.95)\n' \
    "$size" "$(python3 -c "print($(median "${b3_ref[@]}") / 1e6)")" "$(python3 -c "print($(median "${b3_nm[@]}") / 1e6)")" "$(median "${b3_ratio[@]}")" "$rounds"
printf 'SHA-256 1 thread, 16 KiB blocks:  openssl speed -evp sha256  %.0f MB/s   nodemark hash  %.0f MB/s   ratio %.3f (median of %d rounds; goal >= 0.95)\n' \
    "$(python3 -c "print($(median "${sha_ref[@]}") / 1e6)")" "$(python3 -c "print($(median "${sha_nm[@]}") / 1e6)")" "$(median "${sha_ratio[@]}")" "$rounds"
