# SIGINT, SIGTERM and SIGHUP in the middle of a run: exit 130, the private .nodemark-* directory
# and every temp file removed, no child process left behind, no partial --output file.
. "$TESTS_DIR/cli/lib.sh"

landed=" pieces time "
# Row: COMMAND ARGS... (T is the target directory; they must run far longer than the test waits)
rows=$(cat <<'ROWS'
pieces T --count 200000 --size 4k --sync --no-save --output out.json
pieces T --backend log --sync-batch 2 --count 200000 --size 4k --no-save --output out.json
time --no-save -r 100000 --export-json out.json -- sleep 0.05
ROWS
)

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
		sleep 0.3
		kill -$sig $pid
		wait $pid
		rc=$?
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
		else
			ok "$what"
		fi
	done
done <<<"$rows"

# A second signal while the first is being handled still gets out, with 130.
rm -rf T && mkdir T
"$NM" pieces T --count 200000 --size 4k --sync --no-save >/dev/null 2>err.txt &
pid=$!
if wait_started $pid; then
	kill -TERM $pid
	kill -TERM $pid
	wait $pid
	rc=$?
	if [ "$rc" -eq 130 ]; then ok "two quick signals: exit 130"; else not_ok "two quick signals: exit 130" "exit $rc"; fi
else
	kill -KILL $pid
	not_ok "two quick signals: the run started"
fi

# The reader of the output goes away (`| head -1`): SIGPIPE must not skip the cleanup.
rm -rf T && mkdir T
"$NM" fio --name=j --directory=T --rw=write --size=1m --bs=4k --no-save 2>/dev/null | head -1 >/dev/null
if [ -z "$(ls -A T)" ]; then ok "fio | head -1: the private directory is removed"
else not_ok "fio | head -1: the private directory is removed" "$(find T | head -5)"; fi
rm -rf T && mkdir T
"$NM" pieces T --count 20 --size 64k --no-save --json 2>/dev/null | head -c 1 >/dev/null
if [ -z "$(ls -A T)" ]; then ok "pieces | head -c 1: the private directory is removed"
else not_ok "pieces | head -c 1: the private directory is removed" "$(find T | head -5)"; fi
