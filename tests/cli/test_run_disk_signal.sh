# Ctrl-C in the middle of run's disk phase: the disk tests that finished all their passes are
# saved with the run, as `nodemark disk` saves them; the one in progress is not.
. "$TESTS_DIR/cli/lib.sh"

if ! command -v script >/dev/null; then
	skip "run's disk phase on SIGINT" "no script(1) to give the run a terminal for its progress line"
	exit 0
fi
rm -rf T && mkdir T
# The progress line (only drawn on a terminal) names the test under way: once it names the
# second test, the first has finished.
NODEMARK_NO_PROGRESS= script -qfec "exec env -u NODEMARK_NO_PROGRESS '$NM' run T --quick --no-report --phases disk --label sig-disk" \
	/dev/null >tty.txt 2>&1 &
spid=$!
pid=""
for _ in $(seq 300); do
	[ -z "$pid" ] && pid=$(pgrep -f -n "run T --quick --no-report --phases disk --label sig-disk" | grep -v "^$spid$" | head -1)
	tr '\r' '\n' <tty.txt | grep -aq "SEQ1M Q1T1 read pass" && break
	kill -0 $spid 2>/dev/null || break
	sleep 0.1
done
if [ -z "$pid" ] || ! tr '\r' '\n' <tty.txt | grep -aq "SEQ1M Q1T1 read pass"; then
	kill -KILL $spid $pid 2>/dev/null
	not_ok "run's disk phase reached its second test" "$(tr '\r' '\n' <tty.txt | tail -3)"
	exit 0
fi
kill -INT "$pid"
wait $spid
tr '\r' '\n' <tty.txt | grep -aq "interrupted" && ok "run on SIGINT in the disk phase says it was interrupted" ||
	not_ok "run on SIGINT in the disk phase says it was interrupted" "$(tr '\r' '\n' <tty.txt | tail -3)"
check "the private directory is removed" test -z "$(find T -mindepth 1 | head -1)"

id=$("$NM" runs --label sig-disk --json | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r[0]["id"] if r else "")')
if [ -z "$id" ]; then
	not_ok "the interrupted run is saved" "$("$NM" runs 2>&1)"
	exit 0
fi
ok "the interrupted run is saved"
"$NM" export "$id" >run.json
names=$(python3 -c '
import json
j = json.load(open("run.json"))
print("\n".join(b["name"] for b in j["benches"] if all(m["samples"] for m in b["metrics"])))' )
nall=$(python3 -c 'import json; print(len(json.load(open("run.json"))["benches"]))')
grep -qx "SEQ1M Q8T1 read" <<<"$names" && ok "the finished first disk test is saved" ||
	not_ok "the finished first disk test is saved" "benches: $names"
[ "$nall" -ge 1 ] && [ "$nall" -lt 8 ] && [ "$(wc -l <<<"$names")" -eq "$nall" ] &&
	ok "only finished disk tests are saved, each with samples" ||
	not_ok "only finished disk tests are saved, each with samples" "$nall benches; with samples: $names"
