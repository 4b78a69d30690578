# One signal policy for every command (src/util/cleanup.h): the first SIGINT, SIGTERM or SIGHUP
# stops the work (at the next safe point, or at once for a command that has none, which also
# ends a blocking read), removes what was written, exits 130 and says what it did.
#  - commands that read a slow input (standard input that never ends): benchstat, compare,
#    import; the store import writes to is left as it was;
#  - a long pieces verify (a log whose tail is a 1 TiB hole: its walk would take minutes):
#    it stops, gives no verdict and, with --repair, repairs nothing.
. "$TESTS_DIR/cli/lib.sh"
scratch_dir

# handler_ready PID [pipe]: nodemark has installed its SIGTERM handler (bit 15 of SigCgt), so
# what the signal does from then on is ours; with "pipe", then, for up to 5 s, until it blocks
# in a pipe read (where /proc shows it): the signal must end that read.
handler_ready() {
	local cgt
	for _ in $(seq 100); do
		cgt=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 1
		[ -n "$cgt" ] && (( 0x$cgt & 0x4000 )) && break
		sleep 0.05
	done
	[ "${2:-}" = pipe ] || return 0
	for _ in $(seq 50); do
		grep -q pipe "/proc/$1/wchan" 2>/dev/null && return 0
		sleep 0.1
	done
	return 0
}

# slow_input CMD ARGS...: CMD reads standard input that gives one line and then nothing for a
# minute; SIGTERM once it waits for more. Sets rc and err.
slow_input() {
	exec 3< <(printf 'BenchmarkSlow 1 100 ns/op\n'; exec sleep 60 2>/dev/null)
	local writer=$!
	"$NM" "$@" <&3 >out.txt 2>err.txt &
	local pid=$!
	exec 3<&-
	handler_ready $pid pipe || true
	kill -TERM $pid
	wait $pid
	rc=$?
	kill $writer 2>/dev/null
	err=$(cat err.txt)
}

# What a command without safe points says: one line, the signal, nothing left to remove.
said_stopped() { # CMD
	[ "$err" = "nodemark: $1: stopped by SIGTERM: it had written nothing to remove" ]
}

slow_input benchstat -
check "benchstat reading a slow standard input: SIGTERM exits 130" test "$rc" = 130
check "benchstat: one line says it stopped and removed nothing" said_stopped benchstat

before=$(ls -A | grep -v '^\(out\|err\).txt$')
slow_input compare - -o cmp.json
check "compare - -o FILE reading a slow input: SIGTERM exits 130" test "$rc" = 130
check "compare: one line says it stopped" said_stopped compare
after=$(ls -A | grep -v '^\(out\|err\).txt$')
check "compare: no output file and no temp file left" test "$before" = "$after"

# import into a store that holds one run: the store is unchanged.
export NODEMARK_DB="$d/store.db"
"$NM" hash --size 64k --runs 1 --algo sha256 --label sig-import >/dev/null 2>&1
runs_before=$("$NM" runs --json 2>/dev/null | py 'import json,sys; print(len(json.load(sys.stdin)))')
slow_input import -
check "import - reading a slow input: SIGTERM exits 130" test "$rc" = 130
check "import: one line says it stopped" said_stopped import
runs_after=$("$NM" runs --json 2>/dev/null | py 'import json,sys; print(len(json.load(sys.stdin)))')
check "import: the store still holds its one run and opens clean" test "$runs_before" = 1 -a "$runs_after" = 1
unset NODEMARK_DB

# A long pieces verify. A finished log store whose log then grows by a 1 TiB hole: the walk
# looks for a piece footer in all of it, which takes minutes, so the signal always lands in it.
mkdir S
if "$NM" pieces S --backend log --count 20 --size 4k --keep --no-save >/dev/null 2>&1; then
	store=$(ls -d S/.nodemark-*)
	log=$(ls "$store"/log/w*/log-*.log | head -1)
	if truncate -s +1T "$log" 2>/dev/null; then
		size=$(stat -c %s "$log")
		for repair in "" --repair; do
			"$NM" pieces verify "$store" $repair >out.txt 2>err.txt &
			pid=$!
			handler_ready $pid || true
			sleep 0.5 # into the walk (a signal before it stops the walk as well)
			kill -TERM $pid
			wait $pid
			rc=$?
			err=$(cat err.txt)
			what="pieces verify $repair on SIGTERM"
			check "$what: exits 130" test "$rc" = 130
			expect_err_has "verify: stopped by a signal after checking" "$what: says it stopped with no verdict"
			expect_err_has "no verdict" "$what: no verdict is given"
			expect_err_has "stopped by SIGTERM: it had written nothing to remove" "$what: says what it removed"
			check "$what: no verdict printed on stdout" test -z "$(grep -E '^verified' out.txt)"
			check "$what: the log is as it was (no tail cut)" test "$(stat -c %s "$log")" = "$size"
			check "$what: no index rebuilt aside" test -z "$(find "$store" -name 'index.tbl.new')"
		done
		[ -n "$repair" ] && expect_err_has "nothing repaired" "pieces verify --repair: says nothing was repaired"
	else
		skip "pieces verify on a signal" "this file system has no room for a 1 TiB hole"
	fi
else
	not_ok "pieces verify on a signal: the store was made"
fi
