# disk and fio under injected I/O errors (tests/shim/faults.c), through every engine: io_uring
# completions, pwrite, fsync, and the layout of the test file. Each reports the file, the
# operation (and offset) and the errno, exits 1, and leaves nothing in the target.
. "$TESTS_DIR/cli/lib.sh"

SHIM=${SHIM_DIR:?}/faults.so

# Row: RULE | COMMAND ARGS... | TEXT the error must hold   (T is the target directory)
rows=$(cat <<'ROWS'
uring:EIO:after=10 | disk T --rw write --engine uring --size 1m --bs 4k | write of 4096 bytes at offset
uring:ENOSPC:bytes=512k | disk T --rw randwrite --engine uring --iodepth 8 --size 1m --bs 4k | No space left on device
pwrite:EIO:after=10 | disk T --rw write --engine psync --size 1m --bs 4k | Input/output error
pwrite:EIO | disk T --rw randread --size 1m --bs 4k | Input/output error
fsync+fdatasync+uring_fsync:EIO:after=2 | disk T --rw write --engine psync --fsync 4 --size 1m --bs 4k | fsync
uring_fsync+fsync:EIO | disk T --rw write --end-fsync --size 1m --bs 4k | fsync
uring:EIO:after=5 | disk T --profile realworld --size 1m --runtime 1s --loops 1 --interval 0 | Input/output error
anywrite:EIO:after=5 | fio --name=j --directory=T --rw=write --size=1m --bs=4k | write of 4096 bytes at offset
anywrite:ENOSPC:after=5 | fio --name=j --directory=T --rw=randwrite --ioengine=io_uring --direct=1 --size=1m --bs=4k | No space left on device
anywrite:EIO | fio --name=j --directory=T --rw=randread --size=1m --bs=4k | Input/output error
ROWS
)
while IFS='|' read -r rule words text; do
	rule=$(echo $rule) text=$(echo $text)
	eval "set -- $words"
	what="$* with $rule"
	rm -rf T fault.log && mkdir T
	NM_FAULT="$rule:path=.nodemark-" NM_FAULT_LOG=$PWD/fault.log LD_PRELOAD=$SHIM "$NM" "$@" --no-save >out.txt 2>err.txt
	rc=$?
	err=$(grep -v 'warning: ' err.txt)
	if [ ! -s fault.log ]; then
		not_ok "$what: the fault fired" "exit $rc: $err"
	elif [ "$rc" -ne 1 ]; then
		not_ok "$what: exits 1" "exit $rc: $err"
	elif [ "$(grep -c . <<<"$err")" -ne 1 ] || [[ $err != nodemark:* ]]; then
		not_ok "$what: one error line" "$err"
	elif [[ $err != *T/.nodemark-*/* ]] || [[ $err != *"$text"* ]]; then
		not_ok "$what: the error names the file, the operation and the errno" "wanted '$text': $err"
	elif [ -n "$(ls -A T)" ]; then
		not_ok "$what: nothing is left in the target" "$(find T | head -5)"
	else
		ok "$what"
	fi
done <<<"$rows"
