# nodemark track: milestones from a command's output or a log, time stamps, signals, bad input.
. "$TESTS_DIR/cli/lib.sh"

run_nm track --no-save --pattern 'step (\d+)' --every 2 -- sh -c 'for i in 1 2 3 4 5; do echo "step $i"; done; exit 3'
expect_rc 3 "track exits with the command's status"
expect_out_matches '^ +2 +- +\+' "a row at milestone 2"
expect_out_matches '^ +4 +- +\+' "a row at milestone 4"
check "no row between milestones" bash -c '! grep -qE "^ +3 " <<<"$1"' _ "$out"
expect_out_matches 'progress 0 → 5 in 5 of 5 lines' "the end line counts progress and lines"

run_nm track --no-save --pattern 'step (\d+)' --total 2 -- sh -c 'echo "step 1"; echo "step 2"; echo done >&2'
expect_rc 0 "a command that succeeds gives 0"
expect_out_matches '^ +2 +100\.0%' "--total gives the percentage"
check "the output is not passed through without --tee" bash -c '! grep -q "^step 1" <<<"$1$2"' _ "$out" "$err"
run_nm track --no-save --tee --pattern 'step (\d+)' --total 2 -- sh -c 'echo "step 1"; echo "step 2"; echo done >&2'
expect_err_has "step 1" "--tee passes stdout through (to stderr)"
expect_err_has "done" "--tee passes stderr through"

# A log with its own time stamps: 0 at 00:00:00, 100 at 00:00:10, 200 at 00:00:30.
cat >replay.log <<'LOG'
2024-05-01T10:00:00 starting
2024-05-01T10:00:00 imported height=0
2024-05-01T10:00:04 peers=8
2024-05-01T10:00:10 imported height=100
2024-05-01T10:00:20 imported height=150
2024-05-01T10:00:30 imported height=200
LOG
run_nm track --no-save --log replay.log --pattern 'height=(?P<h>\d+)' --total 200 --every 50% \
    --time-pattern '^(\S+)' --time-format '%Y-%m-%dT%H:%M:%S'
expect_rc 0 "track --log exits 0"
expect_out_matches '^ +100 +50\.0% +\+10\.0s +10\.0 +x1\.00 +10\.0s +10 ' "first segment from the log's own times"
expect_out_matches '^ +200 +100\.0% +\+20\.0s +20\.0 +x2\.00 +30\.0s +5 +0s' "second segment: twice as long, rate and ETA"
expect_out_has "total: 30.0s" "the total comes from the first and last time stamps"

# The seeds' replay table: 10000000 of 81583660 blocks after 5m46s (346 s, x1), the next
# 10000000 after 1h07m13s, then the last 1583660 blocks: a partial segment, compared per block.
cat >seedtable.log <<'LOG'
2024-01-03T05:00:00.000 database.cpp:385 reindex ] 0 of 81583660 blocks = 0.00%
2024-01-03T05:05:46.000 database.cpp:385 reindex ] 10000000 of 81583660 blocks = 12.26%
2024-01-03T06:12:59.000 database.cpp:385 reindex ] 20000000 of 81583660 blocks = 24.51%
2024-01-03T06:14:10.000 database.cpp:385 reindex ] 21583660 of 81583660 blocks = 26.46%
LOG
run_nm track --no-save --log seedtable.log --pattern '([0-9]+) of [0-9]+ blocks' --every 10000000 \
    --time-pattern '^(\S+)'
expect_out_matches '^ +10000000 +- +\+5m46s +346 +x1\.00 +5m46s ' "the seed's first row, to the second"
expect_out_matches '^ +20000000 +- +\+1h07m13s +4033 +x11\.66 +1h12m59s ' "an hour-long segment keeps its seconds"
expect_out_matches '^ +21583660 +- +\+1m11s +71\.0 +x1\.30\* ' "the last, partial segment: marked, per block"
expect_out_has "* a partial segment" "the mark is explained"
expect_out_has "total: 1h14m10s (4450.0 s)" "the total to the second"

printf '%s done %s\n' 1700000000 0 1700000060 10 1700000180 20 >epoch.log
run_nm track --no-save --log epoch.log --pattern 'done (\d+)' --every 10 --time-pattern '^(\d+)' --time-format %s
expect_out_matches '^ +20 .* x2\.00 ' "--time-format %s reads epoch seconds"

printf 'nothing\nto see\n' >empty.log
run_nm track --no-save --log empty.log --pattern 'x=(\d+)' --every 1
expect_rc 1 "a log without progress fails"
expect_err_has "no line matched" "says that nothing matched"

# --follow: reads on as the log grows, stops at --total.
printf 'n=1\n' >grow.log
( sleep 0.5; printf 'n=2\n' >>grow.log; sleep 0.3; printf 'n=3\n' >>grow.log ) &
writer=$!
run_nm track --no-save --log grow.log --follow --pattern 'n=(\d+)' --total 3 --every 1
wait $writer
expect_rc 0 "--follow stops at the total"
expect_out_matches '^ +3 +100\.0%' "--follow saw the lines written later"

# Signals reach the command; track exits with its status.
o=$(mktemp)
"$NM" track --no-save --pattern 'step (\d+)' --every 1 -- \
    sh -c 'trap "echo caught; exit 7" TERM; echo "step 1"; while :; do sleep 0.1; done' >"$o" 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
out=$(cat "$o")
rm -f "$o"
expect_rc 7 "SIGTERM is passed on and the command's status returned"

# Bad input: exit 2, one line.
run_nm track --no-save -- true
expect_rc 2 "--pattern is required"
one_line_error "--pattern missing: one line"
run_nm track --no-save --pattern 'x (\d+)' --every 10% -- true
expect_rc 2 "--every 10% needs --total"
one_line_error "--every %: one line"
run_nm track --no-save --pattern 'x \d+' --every 1 -- true
expect_rc 2 "a pattern without a group"
expect_err_has "group" "says a group is needed"
run_nm track --no-save --pattern 'x (\d+' --every 1 -- true
expect_rc 2 "an invalid pattern"
one_line_error "invalid pattern: one line"
run_nm track --no-save --pattern 'x (?<n\d+)' --every 1 -- true
expect_rc 2 "a broken named group"
one_line_error "broken named group: one line"
expect_err_has "offset" "the error says where in the pattern"

# Patterns PCRE2 takes that the old matcher did not: no literal before the number, a lookahead,
# a lazy quantifier, case folding, anchors; the replay log of the seeds.
cat >seed.log <<'LOG'
2024-01-03T05:00:00.000 database.cpp:385 reindex ] 0 of 400 blocks = 0.00%
2024-01-03T05:00:10.500 database.cpp:385 reindex ] 100 of 400 blocks = 25.00%
2024-01-03T05:00:20.000 other line 150 of 400 blockss
2024-01-03T05:00:30.000 database.cpp:385 reindex ] 200 of 400 blocks = 50.00%
LOG
run_nm track --no-save --log seed.log --pattern '([0-9]+) of [0-9]+ blocks' --every 100 --time-pattern '^(\S+)'
expect_out_matches '^ +100 +- +\+10\.5s ' "no literal before the number: found, fraction of the time kept"
expect_out_matches '^ +200 +- +\+19\.5s ' "the next milestone from the log's times"
run_nm track --no-save --log seed.log --pattern '(\d+)(?= of 400 blocks =)' --every 100
expect_out_has "progress 0 → 200 in 3 of 4 lines" "a lookahead: the 'blockss' line is not taken"
run_nm track --no-save --log seed.log --pattern '(?i)REINDEX \] (\d+?) ' --every 100
expect_out_has "progress 0 → 200" "case folding and a lazy quantifier"
run_nm track --no-save --log seed.log --pattern '^\S+ other line (\d+)' --every 100
expect_out_has "progress 150 → 150" "an anchor holds at the line's start"
run_nm track --no-save --pattern 'x (\d+)' --every 1 --log replay.log -- true
expect_rc 2 "both --log and a command"
run_nm track --no-save --pattern 'x (\d+)' --every 1 --follow -- true
expect_rc 2 "--follow without --log"
run_nm track --no-save --pattern 'x (\d+)' --every 0 --log replay.log
expect_rc 2 "--every 0"
run_nm track --no-save --pattern 'x (\d+)' --every 1 --log no-such.log
expect_rc 1 "a missing log is an I/O failure"
expect_err_has "no-such.log" "the message names the file"
run_nm track --no-save --pattern 'x (\d+)' --every 1 -- no-such-command-nm
expect_rc 2 "an unknown command"
one_line_error "unknown command: one line"

# The timeline is saved; a later run compares its segments with it (--baseline).
cat >second.log <<'LOG'
2024-05-02T10:00:00 imported height=0
2024-05-02T10:00:12 imported height=100
2024-05-02T10:00:27 imported height=200
LOG
run_nm track --log replay.log --pattern 'height=(\d+)' --total 200 --every 100 --time-pattern '^(\S+)' --label replay-a
expect_rc 0 "a saved track run exits 0"
expect_err_has "saved run" "the timeline is saved"
run_nm track --no-save --log second.log --pattern 'height=(\d+)' --total 200 --every 100 --time-pattern '^(\S+)' \
    --baseline replay-a
expect_rc 0 "--baseline exits 0"
expect_out_matches '^ +100 .* \+2\.00s$' "first segment: 12 s against the baseline's 10 s"
expect_out_matches '^ +200 .* -5\.00s$' "second segment: 15 s against the baseline's 20 s"
expect_out_has "baseline: 30.0s to the same progress (-3.00s)" "the totals are compared"
run_nm track --no-save --log second.log --pattern 'height=(\d+)' --every 100 --baseline no-such-run
expect_rc 2 "an unknown baseline is bad input"
one_line_error "unknown baseline: one line"

# Runs are named after the job, never the log: the same job's logs on two OS versions
# (hived-2204.log, hived-2310.log) line up on one row; each log is kept as a setting.
cp replay.log hived-2204.log
cp second.log hived-2310.log
run_nm track --log hived-2204.log --pattern 'height=(\d+)' --total 200 --every 100 --time-pattern '^(\S+)' --label day1
run_nm track --log hived-2310.log --pattern 'height=(\d+)' --total 200 --every 100 --time-pattern '^(\S+)' --label day2
run_nm show day1 --json
n1=$(json_get '" | ".join(b["name"] for b in j["benches"])') l1=$(json_get '" | ".join(b["settings"]["log"] for b in j["benches"])')
run_nm show day2 --json
n2=$(json_get '" | ".join(b["name"] for b in j["benches"])') l2=$(json_get '" | ".join(b["settings"]["log"] for b in j["benches"])')
[ "$n1" = 'height=(\d+)' ] && [ "$n1" = "$n2" ] && ok "two logs of one job: the same name, the pattern's" \
    || not_ok "two logs of one job: the same name" "$n1 / $n2"
[ "$l1" = hived-2204.log ] && [ "$l2" = hived-2310.log ] && ok "each run keeps its log as a setting" \
    || not_ok "the log as a setting" "$l1 / $l2"
run_nm compare day1 day2
expect_out_has 'height=(\d+): milestone by milestone' "two logs of one job: one table in compare"
expect_out_matches '^ +total +30\.0s +- +27\.0s +- +-3\.00s$' "two logs of one job: their totals on one row"
run_nm track --log hived-2204.log --pattern 'height=(\d+)' --every 100 --name hived-replay --label named
run_nm show named --json
[ "$(json_get '" | ".join(b["name"] for b in j["benches"])')" = hived-replay ] && ok "--name comes first" || not_ok "--name" "${out:0:300}"
run_nm track --pattern 'step (\d+)' --every 1 --label cmdrun -- sh -c 'echo "step 1"'
run_nm show cmdrun --json
[ "$(json_get '" | ".join(b["name"] for b in j["benches"])')" = 'sh -c echo "step 1"' ] && ok "a command's run is named after the command" \
    || not_ok "a command's name" "$(json_get '" | ".join(b["name"] for b in j["benches"])')"
run_nm report day1 day2 -o track.html
html=$(cat track.html 2>/dev/null)
if grep -qF "progress over time (s)" <<<"$html"; then ok "the timeline's title says what it shows"
else not_ok "the timeline's title says what it shows" "$(grep -o '<h3>[^<]*' <<<"$html")"; fi

# --json: the rows and totals as JSON instead of the table.
run_nm track --no-save --json --log seedtable.log --pattern '([0-9]+) of [0-9]+ blocks' --every 10000000 \
    --time-pattern '^(\S+)'
expect_rc 0 "track --json exits 0"
[ "$(json_get 'len(j["rows"])')" = 3 ] && ok "--json: a row per milestone" || not_ok "--json rows" "${out:0:300}"
[ "$(json_get 'j["rows"][1]["segment_s"]')" = 4033.0 ] && ok "--json: the segment in seconds" || not_ok "--json segment" "${out:0:300}"
[ "$(json_get 'j["rows"][2]["partial"]')" = True ] && ok "--json: the partial segment is marked" || not_ok "--json partial"
[ "$(json_get 'j["total_s"]')" = 4450.0 ] && ok "--json: the total" || not_ok "--json total"
check "--json: no table" bash -c '! grep -qE "^ +milestone +%" <<<"$1"' _ "$out"

# Not a terminal: no progress line on stderr.
printf '2024-01-01T00:00:00 n=%s\n' $(seq 1 70000) >many.log
run_nm track --no-save --log many.log --pattern 'n=(\d+)' --every 10000
check "no progress line when stderr is not a terminal" bash -c '! grep -q "track: reading" <<<"$1"' _ "$err"
if command -v script >/dev/null; then
    NODEMARK_NO_PROGRESS= script -qec "env -u NODEMARK_NO_PROGRESS $NM track --no-save --log many.log --pattern 'n=(\\d+)' --every 10000 >/dev/null" /dev/null >tty.out 2>&1
    grep -q "track: reading many.log" tty.out && ok "a progress line on a terminal" || not_ok "a progress line on a terminal" "$(head -c 300 tty.out)"
fi

# --until: a live-sync-style log that grows for a few seconds and ends with "entering live mode";
# --follow stops there by itself, and that line's time closes the last, partial segment.
: >live.log
(
    printf '2024-01-03T05:00:00 sync block=0\n'
    for i in 1 2 3 4 5 6 7 8; do
        sleep 0.3
        printf '2024-01-03T05:%02d:00 sync block=%d\n' "$i" $((i * 100))
    done >>live.log
    printf '2024-01-03T05:08:30 sync block=850\n2024-01-03T05:09:15 entering live mode\n' >>live.log
    printf '2024-01-03T05:10:00 sync block=900\n' >>live.log
    sleep 30 # the writer lives on, as a node does: track must not wait for it
) >>live.log &
writer=$!
start=$(date +%s)
timeout 20 "$NM" track --no-save --log live.log --follow --pattern 'block=(\d+)' --every 200 \
    --time-pattern '^(\S+)' --until 'entering live mode' >live.out 2>live.err
rc=$?
kill $writer 2>/dev/null; wait $writer 2>/dev/null
out=$(cat live.out) err=$(cat live.err)
expect_rc 0 "--follow --until ends by itself at the matching line"
[ $(( $(date +%s) - start )) -lt 15 ] && ok "--until did not wait for the writer to end" || not_ok "--until waited"
expect_out_matches '^ +800 +- +\+2m00s +120 +x1\.00 +8m00s .* 2024-01-03T05:08:00$' "the milestones carry their time of day"
expect_out_matches '^ +850 +- +\+1m15s +75\.0 +x2\.50\* +9m15s .* 2024-01-03T05:09:15$' \
    "the last segment: from the last milestone to the --until line's time"
expect_out_has "total: 9m15s (555.0 s), progress 0 → 850" "the total ends at the --until line (the later block=900 is not read)"
expect_out_has "ended: line 11 matched --until, at 2024-01-03T05:09:15" "says which line ended the job"

# A command that goes on after the line (a node in live mode) is stopped there; track exits 0.
run_nm track --no-save --pattern 'step (\d+)' --every 2 --until '^live$' -- \
    sh -c 'for i in 1 2 3; do echo "step $i"; done; echo live; exec sleep 30'
expect_rc 0 "a command is stopped at the --until line and track exits 0"
expect_out_matches '^ +3 +- .*x[0-9.]+\* ' "the command's last, partial segment ends at the line"
expect_out_matches ' [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}$' "without --time-pattern, the clock's time of day"
run_nm track --no-save --log replay.log --pattern 'height=(\d+)' --every 100 --until 'never there'
expect_rc 1 "a log that ends without the --until line fails"
expect_err_has "no line matched --until" "and says so"
run_nm track --no-save --log replay.log --pattern 'height=(\d+)' --every 100 --until-exit
expect_refused "--until-exit goes with a command" "--until-exit"
run_nm track --no-save --pattern 'x (\d+)' --every 1 --until x --until-exit -- true
expect_refused "--until and --until-exit together" "not both"
run_nm track --no-save --pattern 'x (\d+)' --every 1 --until 'a(' -- true
expect_refused "an invalid --until pattern" "--until"
