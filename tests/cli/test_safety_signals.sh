# SIGINT, SIGTERM and SIGHUP in the middle of a run: exit 130, the private .nodemark-* directory
# and every temp file removed, no child process left behind, no partial --output file.
. "$TESTS_DIR/cli/lib.sh"

landed=" pieces time run "
# Row: COMMAND ARGS... (T is the target directory; they must run far longer than the test waits)
# run is saved (label sig-run): the phases it finished must be in the store afterwards.
rows=$(cat <<'ROWS'
pieces T --count 200000 --size 4k --sync --no-save --output out.json
pieces T --backend log --sync-batch 2 --count 200000 --size 4k --no-save --output out.json
time --no-save -r 100000 --export-json out.json -- sleep 0.05
run T --quick --no-report --phases inventory,pieces --label sig-run
ROWS
)

# saved_run_ok N: N interrupted runs labelled sig-run are saved, the newest with its inventory
# (the phase that finished before the signal) and only benchmarks that have samples.
saved_run_ok() {
	local ids
	ids=$("$NM" runs --label sig-run --json 2>/dev/null |
		python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)))')
	[ "$(wc -w <<<"$ids")" -eq "$1" ] || return 1
	"$NM" export "${ids%% *}" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["command"] == "run" and j["inventory"], "no inventory"
assert all(m["samples"] for b in j["benches"] for m in b["metrics"]), "a bench without samples"'
}
nrun=0

# wait_started PID: poll up to ~20 s until the run is under way (its private directory exists,
# or, for time, a child runs); fails at once when the process is gone.
wait_started() {
	for _ in $(seq 200); do
		kill -0 "$1" 2>/dev/null || return 1
		[ -n "$(ls -A T 2>/dev/null)" ] && return 0
		pgrep -P "$1" >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

while IFS= read -r row; do
	eval "set -- $row"
	case $landed in *" $1 "*) ;; *) continue ;; esac
	for sig in INT TERM HUP; do
		rm -rf T && mkdir T
		rm -f out.json
		"$NM" "$@" >out.txt 2>err.txt &
		pid=$!
		what="$1 ($row) on SIG$sig"
		if ! wait_started $pid; then
			kill -KILL $pid 2>/dev/null
			wait $pid 2>/dev/null
			not_ok "$what: the run started" "$(cat err.txt)"
			continue
		fi
		# run: the signal must land after the inventory phase has finished (it is what the
		# store must then hold), so wait for the next phase's line, not for a fixed time.
		if [ "$1" = run ]; then
			for _ in $(seq 200); do grep -q '^\[2/' err.txt && break; sleep 0.1; done
		fi
		sleep 0.3
		kill -$sig $pid
		wait $pid
		rc=$?
		[ "$1" = run ] && nrun=$((nrun + 1))
		children=$(pgrep -P $pid | wc -l)
		if [ "$rc" -ne 130 ]; then
			not_ok "$what: exits 130" "exit $rc: $(cat err.txt)"
		elif [ -n "$(ls -A T)" ]; then
			not_ok "$what: the private directory is removed" "$(find T | head -5)"
		elif [ -n "$(ls -A | grep -v '^\(T\|out.txt\|err.txt\|out.json\)$')" ] || ls out.json.tmp-* >/dev/null 2>&1; then
			not_ok "$what: no temp file is left" "$(ls -A)"
		elif [ -e out.json ] && ! python3 -c 'import json,sys; json.load(open("out.json"))' 2>/dev/null; then
			not_ok "$what: no partial --output file" "$(head -c 200 out.json)"
		elif [ "$children" -ne 0 ]; then
			not_ok "$what: no child process is left" "$(pgrep -a -P $pid)"
		elif [ "$1" = run ] && ! saved_run_ok $nrun; then
			not_ok "$what: the finished phases are saved" "$("$NM" runs --label sig-run 2>&1) $(cat err.txt)"
		else
			ok "$what"
		fi
	done
done <<<"$rows"

# A second signal while the first is being handled (the run stopping, its store being removed,
# the finished part being saved) means "now": the handler removes the store itself and exits 130
# at once, saying so. Pieces of 4k without sync: thousands of files to remove when it comes.
two_signals() { # SIG LABEL BACKEND
	rm -rf T && mkdir T
	"$NM" pieces T --backend "$3" --count 2000000 --size 4k --label "$2" >/dev/null 2>err.txt &
	pid=$!
	if ! wait_started $pid; then
		kill -KILL $pid
		not_ok "two signals ($1, $3): the run started"
		return
	fi
	sleep 1
	kill -"$1" $pid
	sleep 0.05
	kill -"$1" $pid
	wait $pid
	rc=$?
	if [ "$rc" -ne 130 ]; then
		not_ok "two signals ($1, $3): exit 130" "exit $rc: $(cat err.txt)"
	elif [ -n "$(ls -A T)" ]; then
		not_ok "two signals ($1, $3): the store is removed" "$(find T | wc -l) entries left"
	elif ! grep -q "stopped at once by a second signal (SIG$1): removed what it had written" err.txt; then
		not_ok "two signals ($1, $3): says it quit at once and removed the store" "$(cat err.txt)"
	else
		ok "two signals ($1, $3): exit 130 at once, the store removed, said so"
	fi
}
two_signals INT sig2-a files
two_signals TERM sig2-b files
two_signals INT sig2-c log

# The reader of the output goes away (`| head -1`): SIGPIPE must not skip the cleanup.
rm -rf T && mkdir T
"$NM" fio --name=j --directory=T --rw=write --size=1m --bs=4k --no-save 2>/dev/null | head -1 >/dev/null
if [ -z "$(ls -A T)" ]; then ok "fio | head -1: the private directory is removed"
else not_ok "fio | head -1: the private directory is removed" "$(find T | head -5)"; fi
rm -rf T && mkdir T
"$NM" pieces T --count 20 --size 64k --no-save --json 2>/dev/null | head -c 1 >/dev/null
if [ -z "$(ls -A T)" ]; then ok "pieces | head -c 1: the private directory is removed"
else not_ok "pieces | head -c 1: the private directory is removed" "$(find T | head -5)"; fi
