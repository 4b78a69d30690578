# nodemark pieces under injected faults (tests/shim/faults.c): an I/O error anywhere in the write
# path is reported with the file and the operation, exit 1, and nothing is left in the target;
# short writes are completed; and a crash at an exact point of a --sync run (the shim's KILL,
# a deterministic kill -9) leaves only whole committed pieces for `pieces verify`.
. "$TESTS_DIR/cli/lib.sh"

SHIM=${SHIM_DIR:?}/faults.so
small=(--count 12 --size 96k --block 16k --no-save)

# under_fault RULE ARGS...: run nodemark with the shim; sets rc, out, err; fired = faults injected.
under_fault() {
	local rule=$1
	shift
	rm -f fault.log
	# (braces: the shell's own "Killed" notice for KILL rules goes nowhere)
	{ NM_FAULT=$rule NM_FAULT_LOG=$PWD/fault.log LD_PRELOAD=$SHIM "$NM" "$@" >out.txt 2>err.txt; } 2>/dev/null
	rc=$?
	out=$(cat out.txt) err=$(cat err.txt)
	fired=$(cat fault.log 2>/dev/null | wc -l)
}

# Row: BACKEND | RULE | OPTIONS | TEXT the error must hold (besides the .nodemark- path)
# A run's first fsync and rename are the PIECES marker's; the log's second fsync is its index's.
rows=$(cat <<'ROWS'
files | pwrite:EIO:after=10 | --sync | write of 16384 bytes at offset
files | pwrite:ENOSPC:bytes=300k | --sync | No space left on device
files | fsync:EIO:after=3 | --sync | fsync: Input/output error
files | fdatasync:EIO:after=3 | --sync=data | Input/output error
files | rename:ENOSPC:after=3 | --sync | rename
files | open:EACCES:after=3 | --sync | Permission denied
files | mkdir:EROFS:after=2 | --sync | Read-only file system
log | pwrite:EIO:after=10 | --sync-batch 4 | write of 16384 bytes at offset
log | pwrite:ENOSPC:bytes=300k | --sync-batch 4 | No space left on device
log | fsync:EIO:after=2 | --sync-batch 4 | fsync: Input/output error
log | mkdir:EROFS:after=1 | --sync-batch 4 | Read-only file system
files | fsync:EIO | --no-sync | PIECES.new: cannot write: Input/output error
log | rename:EIO | --no-sync | PIECES: cannot commit the marker
ROWS
)
while IFS='|' read -r backend rule opts text; do
	backend=$(echo $backend) rule=$(echo $rule) text=$(echo $text)
	what="pieces $backend with $rule"
	rm -rf d && mkdir d
	# shellcheck disable=SC2086
	under_fault "$rule:path=.nodemark-" pieces d --backend "$backend" $opts --read "${small[@]}"
	if [ "$fired" -lt 1 ]; then
		not_ok "$what: the fault fired" "exit $rc: $err"
	elif [ "$rc" -ne 1 ]; then
		not_ok "$what: exits 1" "exit $rc: $err"
	elif [ "$(grep -c . err.txt)" -ne 1 ] || [[ $err != "nodemark: pieces: "* ]]; then
		not_ok "$what: one error line" "$err"
	elif [[ $err != *d/.nodemark-* ]] || [[ $err != *"$text"* ]]; then
		not_ok "$what: the error names the file and the operation" "wanted '$text': $err"
	elif [ -n "$(ls -A d)" ]; then
		not_ok "$what: nothing is left in the target" "$(find d | head -5)"
	else
		ok "$what"
	fi
done <<<"$rows"

# Short writes (as a filling disk may return) are finished, and every piece reads back whole.
for backend in files log; do
	rm -rf d && mkdir d
	under_fault "pwrite:SHORT:path=.nodemark-" pieces d --backend "$backend" --read --json "${small[@]}"
	if [ "$fired" -ge 12 ] && [ "$rc" -eq 0 ] && [ -z "$(ls -A d)" ]; then
		ok "pieces $backend completes short writes and verifies every piece"
	else
		not_ok "pieces $backend completes short writes and verifies every piece" "fired $fired, exit $rc: $err"
	fi
done

# A crash at an exact point: the shim sends SIGKILL just before the chosen call.
# verify_after_kill WHAT RULE BACKEND OPTIONS...; sets pieces (committed pieces verify found).
verify_after_kill() {
	local what=$1 rule=$2 backend=$3
	shift 3
	rm -rf d && mkdir d
	under_fault "$rule:path=.nodemark-" pieces d --backend "$backend" "$@" "${small[@]}"
	if [ "$rc" -ne 137 ] || [ "$fired" -ne 1 ]; then
		not_ok "$what: the run was killed" "exit $rc, fired $fired: $err"
		pieces=-1
		return
	fi
	run_nm pieces verify d --json
	pieces=$(json_get 'j["pieces"]' 2>/dev/null)
	local corrupt
	corrupt=$(json_get 'j["corrupt"]' 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$corrupt" = 0 ]; then
		ok "$what: verify finds no corrupt committed piece"
	else
		not_ok "$what: verify finds no corrupt committed piece" "exit $rc: $out $err"
	fi
	run_nm pieces verify d --repair
	run_nm pieces verify d
	expect_out_has "leftover temp files: 0, unindexed log bytes: 0" "$what: --repair removes the leftovers"
}

verify_after_kill "kill before the 6th commit" rename:KILL:after=6 files --sync
check "kill before the 6th commit: exactly the 5 committed pieces are there" test "$pieces" = 5
verify_after_kill "kill before the 6th fsync" fsync:KILL:after=5 files --sync --dirsync
check "kill before the 6th fsync: committed pieces survive" test "$pieces" -ge 1
verify_after_kill "kill in the middle of a piece's data" pwrite:KILL:after=30 files --sync
check "kill in the middle of a piece's data: committed pieces survive" test "$pieces" -ge 1
verify_after_kill "log: kill before a group commit's sync" fsync:KILL:after=3 log --sync-batch 4
check "log: kill before a group commit's sync: committed pieces survive" test "$pieces" -ge 1
verify_after_kill "log: kill in the middle of an append" pwrite:KILL:after=45 log --sync-batch 4
verify_after_kill "log: kill before an fdatasync" fdatasync:KILL:after=3 log --sync=data
