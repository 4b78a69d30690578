#!/usr/bin/env bash
# memory/pagecache-read beside reference tools reading the same kind of hot file (issue 16).
#
#   bench/pagecache.sh [DIR] [RUNS]     DIR: where the files go (default /var/tmp); RUNS: how many
#                                       `nodemark run DIR --quick --phases memory` (default 3)
#
# Per nodemark run: its page-cache samples (GB/s), median and spread (max/min).  Then a 64 MiB
# file written and fsynced (as nodemark's) and read hot, 1 MiB blocks, by
#   dd      `dd if=FILE of=/dev/null bs=1M`, 20 times (dd's buffer is page aligned)
#   fio     psync sequential 1 MiB reads, 2 s, --invalidate=0, with --iomem_align=4k (aligned,
#           as nodemark's buffer) and without (malloc's buffer, 16 bytes past a page)
# and the ratios nodemark median / reference.  Figures are throughput of one CPU copying from the
# page cache: on a shared machine they move with the load (printed first).
set -u
cd "$(dirname "$0")/.."
dir=${1:-/var/tmp}
runs=${2:-3}
nm=${NM_BIN:-$PWD/build/nodemark}
[ -x "$nm" ] || { echo "bench/pagecache.sh: build nodemark first (make)" >&2; exit 2; }
tmp=$(mktemp -d "$dir/nm-pagecache.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
export NODEMARK_DB=$tmp/store.db

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), kernel $(uname -r)"
echo "load: $(uptime)"
meds=()
for i in $(seq "$runs"); do
	"$nm" run "$tmp" --quick --phases memory --no-report --label "pc$i" >"$tmp/run$i.log" 2>&1 ||
		{ echo "nodemark run failed:"; tail -5 "$tmp/run$i.log"; exit 1; }
	line=$("$nm" export "pc$i" | python3 -c '
import json, statistics, sys
d = json.load(sys.stdin)
for b in d["benches"]:
    if b["name"] == "memory/pagecache-read":
        s = [x / 1e9 for x in b["metrics"][0]["samples"]]
        st = b["settings"]
        print("%.2f %s max/min %.2f, dirty pages at start: %s, samples %s" % (statistics.median(s), "", max(s) / min(s),
              st.get("pages_dirty", "?"), " ".join("%.2f" % x for x in s)))')
	meds+=("${line%% *}")
	echo "nodemark run $i: median ${line%% *} GB/s, ${line#* }"
done

f=$tmp/hot
dd if=/dev/urandom of="$f" bs=1M count=64 conv=fsync status=none
cat "$f" >/dev/null
dd_rates=()
for _ in $(seq 20); do
	dd_rates+=("$(dd if="$f" of=/dev/null bs=1M 2>&1 | awk '/copied/ {print $1 / $(NF-3) / 1e9}')")
done
dd_med=$(printf '%s\n' "${dd_rates[@]}" | sort -g | awk '{a[NR]=$1} END {print (a[int((NR+1)/2)] + a[int(NR/2)+1]) / 2}')
fio_rate() {
	fio --name=hot --filename="$f" --rw=read --bs=1m --ioengine=psync --size=64m --invalidate=0 \
		--time_based --runtime=2 --output-format=json "$@" 2>/dev/null |
		python3 -c 'import json,sys; print("%.2f" % (json.load(sys.stdin)["jobs"][0]["read"]["bw_bytes"] / 1e9))'
}
fio_al=$(fio_rate --iomem_align=4k)
fio_mal=$(fio_rate)
nm_med=$(printf '%s\n' "${meds[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "dd bs=1M, 20 reads: median $dd_med GB/s (min $(printf '%s\n' "${dd_rates[@]}" | sort -g | head -1), max $(printf '%s\n' "${dd_rates[@]}" | sort -g | tail -1))"
echo "fio psync 1m, aligned buffer: $fio_al GB/s; malloc's buffer: $fio_mal GB/s"
awk -v n="$nm_med" -v d="$dd_med" -v a="$fio_al" -v m="$fio_mal" 'BEGIN {
	printf "nodemark median of run medians %.2f GB/s: / dd %.2f, / fio aligned %.2f, / fio malloc %.2f\n", n, n / d, n / a, n / m }'
echo "load: $(uptime)"
