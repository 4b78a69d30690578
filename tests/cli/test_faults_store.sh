# The results store under crashes and I/O errors (tests/shim/faults.c): a run is saved in one
# transaction, so a kill -9 at any write or sync of the store (the shim's KILL: an exact point,
# no timing) leaves a store that opens and lists every run committed before; an I/O error while
# saving says so, exits 1 and still prints the measurement; an import is all or nothing.
. "$TESTS_DIR/cli/lib.sh"

SHIM=${SHIM_DIR:?}/faults.so
db=$PWD/store.db
quick=(--db "$db" --size 64k --threads 1 --algo sha256)

labels() { "$NM" runs --db "$db" 2>/dev/null | tail -n +2 | awk '{print $6}' | sort | tr '\n' ' '; }

for i in 1 2 3; do
	run_nm hash "${quick[@]}" --label before$i
done
check "three runs are saved" test "$(labels)" = "before1 before2 before3 "

# Kill points: the first, a middle and a late write of the transaction to the WAL, its sync,
# and the sync after the commit (then the run is in).
n=0
for rule in pwrite:KILL:after=0:path=store.db-wal pwrite:KILL:after=3:path=store.db-wal \
	pwrite:KILL:after=12:path=store.db-wal fsync+fdatasync:KILL:path=store.db-wal \
	pwrite+write:KILL:after=0:path=store.db-shm; do
	n=$((n + 1))
	rm -f fault.log
	{ NM_FAULT=$rule NM_FAULT_LOG=$PWD/fault.log LD_PRELOAD=$SHIM "$NM" hash "${quick[@]}" --label killed$n >/dev/null 2>&1; } 2>/dev/null
	rc=$?
	if [ "$rc" -ne 137 ] || [ ! -s fault.log ]; then
		not_ok "kill -9 at $rule: the save was killed" "exit $rc: $(cat fault.log 2>/dev/null)"
		continue
	fi
	got=$(labels)
	if [ "$got" = "before1 before2 before3 " ]; then
		ok "kill -9 at $rule: the store opens and lists the runs committed before, not the torn one"
	else
		not_ok "kill -9 at $rule: the store lists the runs committed before" "runs: $got"
	fi
done
run_nm hash "${quick[@]}" --label after
expect_rc 0 "after the crashes the store takes new runs"
check "and lists them with the old ones" test "$(labels)" = "after before1 before2 before3 "

# The kill comes after the commit's first sync: the run is in, whole.
{ NM_FAULT=fsync+fdatasync:KILL:after=1:path=store.db LD_PRELOAD=$SHIM "$NM" hash "${quick[@]}" --label committed >/dev/null 2>&1; } 2>/dev/null
run_nm show --db "$db" committed
expect_rc 0 "a run committed just before the kill can be shown"
expect_out_has "sha256" "and it is whole"

# An I/O error while saving: exit 1, one line, the measurement still printed, the store intact.
NM_FAULT=pwrite:EIO:path=store.db-wal LD_PRELOAD=$SHIM "$NM" hash "${quick[@]}" --label eio >out.txt 2>err.txt
rc=$?
err=$(cat err.txt) out=$(cat out.txt)
expect_rc 1 "an I/O error while saving exits 1"
one_line_error "an I/O error while saving is one line"
expect_err_has "cannot save the run" "the error says the run was not saved"
expect_out_has "sha256" "the measurement is still printed"
check "the failed run is not in the store, the others are" test "$(labels)" = "after before1 before2 before3 committed "

# Import: all records of all files, or none.
run_nm export --db "$db" before1 before2
expect_rc 0 "export of two runs"
printf '%s\n' "$out" >two.json
{ cat two.json; echo '{"format": "nodemark-record", "id": '; } >bad.json
run_nm import --db other.db two.json bad.json
expect_rc 2 "an import with a bad record exits 2"
check "and imports nothing" test -z "$("$NM" runs --db other.db 2>/dev/null | tail -n +2)"
{ NM_FAULT=pwrite:KILL:after=2:path=other.db-wal LD_PRELOAD=$SHIM "$NM" import --db other.db two.json >/dev/null 2>&1; } 2>/dev/null
check "an import killed mid-transaction leaves no run" test -z "$("$NM" runs --db other.db 2>/dev/null | tail -n +2)"
run_nm import --db other.db two.json
expect_rc 0 "the same import then succeeds"
check "with both runs" test "$("$NM" runs --db other.db | tail -n +2 | wc -l)" = 2

# A full disk under the store: import and rm fail with exit 1 (an I/O failure, not bad input),
# the store as it was. (The store exists: one the full disk keeps from being made is refused
# at open, as any store that cannot be opened.)
"$NM" runs --db third.db >/dev/null 2>&1
run_cmd env NM_FAULT=pwrite+write:ENOSPC:path=third.db LD_PRELOAD=$SHIM "$NM" import --db third.db two.json
check "import on a full disk exits 1 (exit $rc: ${err:0:200})" test "$rc" = 1
check "and imports nothing" test -z "$("$NM" runs --db third.db 2>/dev/null | tail -n +2)"
run_nm import --db third.db two.json
id=$("$NM" runs --db third.db --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
run_cmd env NM_FAULT=pwrite+write:ENOSPC:path=third.db LD_PRELOAD=$SHIM "$NM" rm --db third.db "$id"
check "rm on a full disk exits 1 (exit $rc: ${err:0:200})" test "$rc" = 1
check "and the run is still there" test "$("$NM" runs --db third.db | tail -n +2 | wc -l)" = 2
