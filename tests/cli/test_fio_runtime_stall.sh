# A time-based sync job whose last I/O stalls past the runtime (one pwrite held 1.5 s by the
# fault shim's DELAY, in a 1 s job): the I/O counts, so its time counts too. The runtime runs to
# its end, as fio's does, and IOPS is I/Os over that runtime, not over the nominal 1 s (which
# read 1.5x too high before).
. "$TESTS_DIR/cli/lib.sh"

SHIM=${SHIM_DIR:?}/faults.so
mkdir -p D
# stall NAME CMD...: the job's write figures as "total_ios runtime_ms iops max_clat_ms"
stall() {
	local name=$1
	shift
	rm -f D/g
	NM_FAULT='pwrite:DELAY:ms=1500:after=100:times=1:path=/D/g' NM_FAULT_LOG=$PWD/$name.faults \
		LD_PRELOAD=$SHIM "$@" --name=w --filename="$PWD/D/g" --rw=randwrite --bs=4k --size=4m \
		--runtime=1 --time_based --ioengine=psync --output-format=json 2>"$name.err" |
		python3 -c 'import json,sys; w=json.load(sys.stdin)["jobs"][0]["write"]
print(w["total_ios"], w["runtime"], w["iops"], w["clat_ns"]["max"] // 1000000)' 2>/dev/null
	rm -f D/g
}
read -r ios rt iops maxc <<<"$(stall nm "$NM" fio --allow-write="$PWD/D/g")"
if [ -z "${maxc:-}" ] || ! grep -q DELAY nm.faults 2>/dev/null; then
	not_ok "the stalled job ran with the stall injected" "$(cat nm.err) $(cat nm.faults 2>/dev/null)"
	exit 0
fi
check "the stalled I/O is counted (max clat >= 1.5 s)" test "$maxc" -ge 1500
check "the runtime runs to the end of the stalled I/O (>= 1500 ms, not the nominal 1000)" test "$rt" -ge 1500
check "IOPS is the I/Os over that runtime" python3 -c "import sys; sys.exit(abs($iops - $ios * 1000.0 / $rt) > 0.02 * $iops + 1)"

if command -v fio >/dev/null; then
	read -r fios frt fiops fmaxc <<<"$(stall fio fio)"
	if [ -n "${fmaxc:-}" ] && [ "$fmaxc" -ge 1500 ]; then
		check "fio, the same stall: its runtime runs past the stall too (the reference)" test "$frt" -ge 1500
	else
		skip "fio with the same stall" "the shim did not stall fio's writes here ($(cat fio.err | head -1))"
	fi
fi
