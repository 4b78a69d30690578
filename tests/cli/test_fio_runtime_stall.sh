# serial: a stalled I/O is timed against the runtime
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

# The cache drop at the open is part of the run, as fio's is (fio opens its files, and drops
# their cache, at the first I/O of its timed loop): one that stalls 1.5 s in a 1 s job leaves
# the job one I/O after it, and the runtime runs over the drop. nodemark used to drop before
# its clock started and then run a full second of I/O, which made buffered writes on a file
# an earlier job left dirty read up to 2x fio's IOPS (the drop waits on that writeback).
# dropstall NAME ENGINE CMD...: the job's read figures as "total_ios runtime_ms"
dropstall() {
	local name=$1 engine=$2
	shift 2
	NM_FAULT='dropcache:DELAY:ms=1500:times=1:path=/D/r' NM_FAULT_LOG=$PWD/$name.faults \
		LD_PRELOAD=$SHIM "$@" --name=r --filename="$PWD/D/r" --rw=randread --bs=4k --size=4m \
		--runtime=1 --time_based --ioengine="$engine" --output-format=json 2>"$name.err" |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["jobs"][0]["read"]
print(r["total_ios"], r["runtime"])' 2>/dev/null
}
head -c 4194304 /dev/urandom >D/r
if [ "$(stat -f -c %T D)" = tmpfs ]; then
	skip "the open's cache drop is inside the run" "D is on tmpfs, where there is no cache to drop"
else
	for engine in psync io_uring; do
		read -r ios rt <<<"$(dropstall "nm-drop-$engine" "$engine" "$NM" fio)"
		if [ -z "${rt:-}" ] || ! grep -q DELAY "nm-drop-$engine.faults" 2>/dev/null; then
			not_ok "$engine: the job ran with its cache drop stalled" "$(cat "nm-drop-$engine.err")"
			continue
		fi
		check "$engine: no I/O before the open's drop, which outlasts the runtime ($ios I/Os)" test "$ios" -le 2
		check "$engine: the runtime runs over the drop (>= 1500 ms: $rt)" test "$rt" -ge 1500
		if command -v fio >/dev/null; then
			read -r fios frt <<<"$(dropstall "fio-drop-$engine" "$engine" fio)"
			if [ -n "${frt:-}" ] && grep -q DELAY "fio-drop-$engine.faults" 2>/dev/null; then
				check "fio $engine, the same stall (the reference): $fios I/Os, runtime $frt ms" \
					test "$fios" -le 2 -a "$frt" -ge 1500
			else
				skip "fio $engine with the same stall" "the shim did not stall fio's drop ($(head -1 "fio-drop-$engine.err"))"
			fi
		fi
	done
fi

# io_uring: what is in flight at the deadline is drained and counted, its time with it: a
# submission stalled 1.5 s in a 1 s job (the shim holds the submitting call) counts, with its
# 1.5 s of slat, and the runtime runs to its completion (fio's do_io drains and counts too).
rm -f D/g
NM_FAULT='uring:DELAY:ms=1500:after=100:times=1:path=/D/g' NM_FAULT_LOG=$PWD/uring.faults \
	LD_PRELOAD=$SHIM "$NM" fio --allow-write="$PWD/D/g" --name=w --filename="$PWD/D/g" --rw=randwrite \
	--bs=4k --size=4m --iodepth=4 --runtime=1 --time_based --ioengine=io_uring --output-format=json \
	2>uring.err | python3 -c 'import json,sys; w=json.load(sys.stdin)["jobs"][0]["write"]
print(w["runtime"], w["slat_ns"]["max"] // 1000000)' >uring.out 2>/dev/null
read -r rt maxs <uring.out
if [ -z "${maxs:-}" ] || ! grep -q DELAY uring.faults 2>/dev/null; then
	not_ok "io_uring: the job ran with a submission stalled" "$(cat uring.err) $(cat uring.faults 2>/dev/null)"
else
	check "io_uring: the I/O submitted after the stall is counted (max slat $maxs ms >= 1500)" test "$maxs" -ge 1500
	check "io_uring: the runtime runs to its completion ($rt ms >= 1500)" test "$rt" -ge 1500
fi
rm -f D/g D/r
