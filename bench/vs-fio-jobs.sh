#!/usr/bin/env bash
# `nodemark fio` vs fio: the same fio command lines through both tools, side by side in one run,
# and the IOPS ratio (nodemark / fio) of each job. Goal: >= 1.0 on each.
#
#   bench/vs-fio-jobs.sh [DIR] [ROUNDS] [SECONDS]
#
# DIR (default /dev/shm) holds the test files (both tools lay out their own and remove them);
# each job runs ROUNDS times (default 5) per tool for SECONDS (default 3) each, the tools taking
# turns (fio first on odd rounds, nodemark first on even ones) so drift hits both alike. Prints
# per-round ratios and the median ratio per job. The IOPS are read from each tool's JSON
# (read.iops + write.iops of every reported entry).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/dev/shm}
rounds=${2:-5}
secs=${3:-3}
nm=${NODEMARK:-$here/build/nodemark}
[ -x "$nm" ] || { echo "build nodemark first (make)" >&2; exit 2; }
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 2; }
work=$(mktemp -d "$dir/vs-fio-jobs.XXXXXX")
trap 'rm -rf "$work"' EXIT

common="--directory=$work --size=128m --time_based --runtime=$secs --group_reporting"
jobs=(
    "randread-4k|--name=rr --rw=randread --bs=4k"
    "seqread-128k|--name=sr --rw=read --bs=128k"
    "randwrite-4k|--name=rw --rw=randwrite --bs=4k"
    "randrw-4k-2jobs|--name=rrw --rw=randrw --bs=4k --numjobs=2"
    "randread-4k-uring-qd16|--name=ru --rw=randread --bs=4k --ioengine=io_uring --iodepth=16"
)

iops() { # the JSON file: the sum of read and write IOPS over the report entries
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(sum(e["read"]["iops"] + e["write"]["iops"] for e in j["jobs"]))' "$1"
}

echo "# nodemark fio vs fio $(fio --version) on $(uname -r), $(nproc) CPUs, files in $dir"
echo "# $rounds rounds of ${secs}s per tool and job; ratio = nodemark IOPS / fio IOPS"
printf '%-24s %14s %14s %8s\n' job "fio IOPS" "nodemark IOPS" ratio
for spec in "${jobs[@]}"; do
    name=${spec%%|*}
    args=${spec#*|}
    ratios=()
    for r in $(seq 1 "$rounds"); do
        order="fio nm"
        [ $((r % 2)) -eq 0 ] && order="nm fio"
        for tool in $order; do
            if [ "$tool" = fio ]; then
                # shellcheck disable=SC2086
                fio --output-format=json $common $args >"$work/fio.json" 2>/dev/null
            else
                # shellcheck disable=SC2086
                "$nm" fio --no-save --output-format=json $common $args >"$work/nm.json" 2>/dev/null
            fi
        done
        a=$(iops "$work/fio.json")
        b=$(iops "$work/nm.json")
        ratio=$(python3 -c "print('%.2f' % ($b / $a if $a else 0))")
        ratios+=("$ratio")
        printf '%-24s %14.0f %14.0f %8s\n' "$name#$r" "$a" "$b" "$ratio"
    done
    med=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}')
    printf '%-24s %14s %14s %8s   <- median ratio\n' "$name" "" "" "$med"
done
