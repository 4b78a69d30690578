# serial: progress lines come at set times
# Long commands show progress on stderr: a live line (phase, elapsed, ETA) on a terminal; in a
# log (stderr a file) a plain time-stamped line every 10 s (--progress N); nothing with --quiet
# or NODEMARK_NO_PROGRESS (which the test driver sets).
. "$TESTS_DIR/cli/lib.sh"
mkdir -p store
run_nm pieces store --count 200 --no-save
expect_rc 0 "pieces without a terminal exits 0"
check "pieces: no progress line with NODEMARK_NO_PROGRESS" bash -c '! grep -q "pieces write:" <<<"$1"' _ "$err"
if command -v script >/dev/null; then
    script -qec "env -u NODEMARK_NO_PROGRESS $NM pieces store --count 200 --no-save >/dev/null" /dev/null >tty.out 2>&1
    grep -qE 'pieces write: [0-9]+/200 pieces \([0-9]+%\), elapsed [0-9.]+(n|µ|m)?s, ETA ' tty.out \
        && ok "pieces: phase, count, elapsed and ETA on a terminal" || not_ok "pieces progress line" "$(tr '\r' '\n' <tty.out | head -3)"
fi

# stderr to a file: a time-based disk test of 3 passes of 2 s prints plain lines, one a second
# with --progress 1, each a line of its own (no carriage return redrawing it).
mkdir -p dk
line='^\[[0-9]{2}:[0-9]{2}:[0-9]{2}\] read 1m Q1T1: (preparing|pass [0-9]+/[0-9]+), [0-9.]+ [kMG]?B/s, ETA '
env -u NODEMARK_NO_PROGRESS "$NM" disk dk --rw read --bs 1m --size 16m --runtime 2 --loops 3 --progress 1 --no-save \
    >disk.out 2>disk.err
n=$(grep -cE "$line" disk.err)
if [ "$n" -ge 2 ] && ! grep -q $'\r' disk.err; then ok "disk with stderr in a file: a plain progress line every --progress seconds ($n lines)"; else
    not_ok "disk with stderr in a file: a plain progress line every --progress seconds" "$(head -5 disk.err)"; fi
grep -qE '^read 1m Q1T1: ' disk.out && ok "the report still goes to stdout" || not_ok "the report still goes to stdout" "$(head -3 disk.out)"
env -u NODEMARK_NO_PROGRESS "$NM" disk dk --rw read --bs 1m --size 16m --runtime 2 --loops 3 --progress 1 --quiet --no-save \
    >/dev/null 2>quiet.err
n=$(grep -cE "$line" quiet.err)
[ "$n" -eq 0 ] && ok "--quiet: no progress lines" || not_ok "--quiet: no progress lines" "$(head -3 quiet.err)"
# The default interval, 10 s, is longer than this job: a short job's log gets no progress line.
env -u NODEMARK_NO_PROGRESS "$NM" disk dk --rw read --bs 1m --size 16m --runtime 1 --loops 2 --no-save >/dev/null 2>short.err
n=$(grep -cE "$line" short.err)
[ "$n" -eq 0 ] && ok "a job shorter than the 10 s default leaves no progress line in a log" || not_ok "a job shorter than the 10 s default leaves no progress line in a log" "$(head -3 short.err)"
run_nm disk dk --progress 0
expect_refused "--progress 0 is refused" "--progress"
# On a terminal, the session's notes (the engine picked) are said once, in the report, not also
# as a warning before it.
if command -v script >/dev/null; then
    script -qec "env -u NODEMARK_NO_PROGRESS $NM disk dk --rw read --bs 1m --size 16m --runtime 1 --loops 1 --no-save" /dev/null >tty2.out 2>&1
    n=$(tr '\r' '\n' <tty2.out | grep -c 'engine auto picked')
    [ "$n" -eq 1 ] && ok "disk on a terminal says the engine it picked once" || not_ok "disk on a terminal says the engine it picked once" "$n times: $(tr '\r' '\n' <tty2.out | grep picked)"
fi
