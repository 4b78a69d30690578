# The fault shim itself (tests/shim/faults.c): each rule fails exactly the calls it names, so the
# fault tests of the commands can trust it. Driven by a small probe program built here.
. "$TESTS_DIR/cli/lib.sh"

SHIM=${SHIM_DIR:?}/faults.so
probe=$PWD/fault_probe
if ! ${CC:-cc} -O1 -o "$probe" "$TESTS_DIR/shim/probe/fault_probe.c" -luring 2>cc.log; then
	not_ok "the probe builds" "$(cat cc.log)"
	exit 0
fi

# faults RULES STEP...: run the probe under the shim; $out has one line per step.
faults() {
	local rules=$1
	shift
	out=$(NM_FAULT=$rules NM_FAULT_LOG=$PWD/fault.log LD_PRELOAD=$SHIM "$probe" "$@" 2>probe.err)
	rc=$?
	err=$(cat probe.err)
}
line_is() {
	if grep -qxF -- "$1" <<<"$out"; then ok "$2"; else not_ok "$2" "expected '$1' in: $out $err"; fi
}

faults "write:ENOSPC:after=3" write:f1:40960
line_is "write:f1:40960 ENOSPC 12288" "write fails after 3 calls with ENOSPC"
check "the file keeps what was written before the fault" test "$(stat -c %s f1)" -eq 12288
check "the fault log names the call" grep -qx "nm-fault: write $PWD/f1: ENOSPC (call 4)" fault.log

faults "pwrite:EIO:bytes=10k" pwrite:f2:40960
line_is "pwrite:f2:40960 EIO 8192" "pwrite fails once 10 KiB would be passed"

faults "pwrite:EIO:path=doomed" pwrite:doomed.dat:8192 pwrite:spared.dat:8192
line_is "pwrite:doomed.dat:8192 EIO 0" "path= picks the file named"
line_is "pwrite:spared.dat:8192 ok 8192" "path= spares the other files"

# The probe stops at a file's first failure: times=1 fails call 2 only, and the next file passes.
faults "pwrite:EIO:after=1:times=1" pwrite:f4:8192 pwrite:f5:8192
line_is "pwrite:f4:8192 EIO 4096" "times=1: the call after the first fails"
line_is "pwrite:f5:8192 ok 8192" "times=1: after the allowed failures, calls pass again"

faults "pwrite:SHORT:times=1" pwrite:f6:10000
line_is "pwrite:f6:10000 ok 10000" "SHORT returns a short write the caller must finish"

faults "fsync:EIO;fdatasync:EDQUOT" fsync:f7 fdatasync:f7
line_is "fsync:f7 EIO 0" "fsync fails with EIO"
line_is "fdatasync:f7 EDQUOT 0" "fdatasync fails with its own errno"

touch r1 r2
faults "rename:EIO:after=1" rename:r1:r1b rename:r2:r2b
line_is "rename:r1:r1b ok 0" "the first rename passes"
line_is "rename:r2:r2b EIO 0" "the second rename fails"
check "a failed rename leaves the old name" test -e r2 -a ! -e r2b

faults "open:EACCES:path=new" open:newfile open:other
line_is "open:newfile EACCES 0" "open for writing fails"
check "no file was created" test ! -e newfile
faults "mkdir:EROFS" mkdir:d1
line_is "mkdir:d1 EROFS 0" "mkdir fails"

faults "uring:EIO:after=2" uring:u1:40960
line_is "uring:u1:40960 EIO 8192" "an io_uring write completes with -EIO after 2 writes"
faults "uring:ENOSPC:bytes=10k" uring-fixed:u2:40960
line_is "uring-fixed:u2:40960 ENOSPC 8192" "registered-file io_uring writes fail too, by bytes"
check "the log resolves the registered file's path" grep -q "nm-fault: uring $PWD/u2: ENOSPC" fault.log
faults "uring_fsync:EIO" uring-fsync:u1
line_is "uring-fsync:u1 EIO 0" "an io_uring fsync fails"
faults "uring:EIO:path=elsewhere" uring:u3:8192
line_is "uring:u3:8192 ok 8192" "io_uring writes to other paths pass"

faults "anywrite:KILL:after=1" write:k1:8192
if [ "$rc" -eq 137 ] && [ "$(stat -c %s k1)" -eq 4096 ]; then ok "KILL kills the process just before the call"
else not_ok "KILL kills the process just before the call" "rc=$rc size=$(stat -c %s k1)"; fi

# Terminals and pipes are never touched, so error messages get out.
out=$(NM_FAULT="write:EIO" LD_PRELOAD=$SHIM sh -c 'echo through-a-pipe' | cat)
if [ "$out" = through-a-pipe ]; then ok "writes to a pipe pass"; else not_ok "writes to a pipe pass" "$out"; fi

out=$(NM_FAULT="write:EIO" LD_PRELOAD=$SHIM env | grep -c '^LD_PRELOAD=')
if [ "$out" = 0 ]; then ok "children do not inherit the shim"; else not_ok "children do not inherit the shim"; fi

NM_FAULT="frobnicate:EIO" LD_PRELOAD=$SHIM "$probe" 2>probe.err
rc=$?
err=$(cat probe.err)
expect_rc 97 "a bad NM_FAULT stops the program"
expect_err_has "unknown operation" "and says what is wrong"
