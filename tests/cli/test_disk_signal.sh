# nodemark disk on a signal: exit 130, the tests that finished saved in the store, the test files
# and the private directory removed, also when a second signal comes while the first is handled.
. "$TESTS_DIR/cli/lib.sh"

# threads PID: the process's thread count (0 when it is gone)
threads() { awk '/^Threads:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

# wait_between_tests PID: the first test's pass has run (worker threads came and went) and the
# process has had one thread for a second: it is in the pause after that pass.
wait_between_tests() {
	local seen=0 single=0
	for _ in $(seq 300); do
		kill -0 "$1" 2>/dev/null || return 1
		local n
		n=$(threads "$1")
		if [ "$n" -gt 1 ]; then seen=1 single=0
		elif [ $seen = 1 ]; then single=$((single + 1)); [ $single -ge 10 ] && return 0
		fi
		sleep 0.1
	done
	return 1
}

# wait_running PID: worker threads are doing I/O.
wait_running() {
	for _ in $(seq 300); do
		kill -0 "$1" 2>/dev/null || return 1
		[ "$(threads "$1")" -gt 1 ] && return 0
		sleep 0.1
	done
	return 1
}

# The first test (SEQ1M Q1T1 read: a preparing pass and one pass) finishes, then a minute's
# pause: the signal comes in the pause. The second test never ran.
n=0
for sig in INT TERM; do
	rm -rf T && mkdir T
	label=sig-disk-$sig
	"$NM" disk T --profile realworld --size 4m --runtime 300ms --loops 1 --interval 60s --engine psync \
		--label $label >out.txt 2>err.txt &
	pid=$!
	if ! wait_between_tests $pid; then
		kill -KILL $pid 2>/dev/null
		wait $pid 2>/dev/null
		not_ok "SIG$sig: the first test ran" "$(cat err.txt)"
		continue
	fi
	kill -$sig $pid
	wait $pid
	rc=$?
	err=$(cat err.txt)
	expect_rc 130 "SIG$sig after the first test: exit 130"
	expect_err_has "interrupted: saving the 1 test that finished" "SIG$sig: says what it saves"
	if [ -z "$(ls -A T)" ]; then ok "SIG$sig: the private directory is removed"
	else not_ok "SIG$sig: the private directory is removed" "$(find T | head -5)"; fi
	id=$("$NM" runs --label $label --json 2>/dev/null |
		python3 -c 'import json,sys; r=json.load(sys.stdin); print(r[0]["id"] if len(r) == 1 else "")')
	if [ -z "$id" ]; then
		not_ok "SIG$sig: the run is saved" "$("$NM" runs 2>&1 | tail -3)"
		continue
	fi
	ok "SIG$sig: the run is saved"
	saved=$("$NM" export "$id" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
b = j["benches"]
print(",".join(x["name"] for x in b), "|",
      ",".join(str(len(m["samples"])) for x in b for m in x["metrics"] if m["name"] in ("bytes_per_sec", "iops")),
      "|", int(all(s > 0 for x in b for m in x["metrics"] if m["name"] == "bytes_per_sec" for s in m["samples"])))')
	check "SIG$sig: the finished test and only it, one sample per pass, figures above 0" \
		test "$saved" = "SEQ1M Q1T1 read | 1,1 | 1"
done

# Interrupted before any test finished: nothing saved, nothing left.
rm -rf T && mkdir T
"$NM" disk T --rw randread --size 4m --runtime 60s --engine psync --label sig-disk-none >out.txt 2>err.txt &
pid=$!
if wait_running $pid; then
	kill -INT $pid
	wait $pid
	rc=$?
	err=$(cat err.txt)
	expect_rc 130 "SIGINT in the only test: exit 130"
	expect_err_has "nothing to save" "SIGINT in the only test: says nothing is saved"
	check "SIGINT in the only test: no run saved" test "$("$NM" runs --label sig-disk-none 2>/dev/null | grep -c sig-disk-none)" = 0
	if [ -z "$(ls -A T)" ]; then ok "SIGINT in the only test: the private directory is removed"
	else not_ok "SIGINT in the only test: the private directory is removed" "$(find T | head -5)"; fi
else
	kill -KILL $pid 2>/dev/null
	not_ok "SIGINT in the only test: the run started" "$(cat err.txt)"
fi

# Two signals mid-run: the process is stopped, gets SIGINT and SIGTERM (two different signals,
# so neither is merged into the other) and is continued. Whichever way the two handlers meet
# (the second one exits at once, or both land as one request to stop), it exits 130 with the
# test file and its directory removed. The handler's own removal of a whole tree is checked
# deterministically in tests/unit/test_cleanup.c.
for round in 1 2; do
	rm -rf T && mkdir T
	"$NM" disk T --rw randread --size 4m --runtime 60s --engine psync --no-save >/dev/null 2>err.txt &
	pid=$!
	if ! wait_running $pid; then
		kill -KILL $pid 2>/dev/null
		not_ok "two signals ($round): the run started" "$(cat err.txt)"
		continue
	fi
	kill -STOP $pid
	files=$(find T -type f | wc -l)
	kill -INT $pid
	kill -TERM $pid
	kill -CONT $pid
	wait $pid
	rc=$?
	if [ "$files" -eq 0 ]; then not_ok "two signals ($round): the test file was there" "$(find T)"
	elif [ $rc -ne 130 ]; then not_ok "two signals ($round): exit 130" "exit $rc: $(cat err.txt)"
	elif [ -n "$(ls -A T)" ]; then not_ok "two signals ($round): the private directory is removed" "$(find T | head -5)"
	else ok "two signals ($round): exit 130, the test file and its directory removed"; fi
done
