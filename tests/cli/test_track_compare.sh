# serial: milestone times are compared
# Saved track runs compare milestone by milestone (compare, show, report), as the live
# track --baseline table does: two logs of one job (different files, --name replay), the second
# faster at every milestone by a known amount.
. "$TESTS_DIR/cli/lib.sh"

db=$PWD/t.db
# A log from (seconds since the start, height) pairs, each with a noise line between.
mklog() {
    local f=$1 s0=$2
    shift 2
    : >"$f"
    while [ $# -gt 0 ]; do
        local t
        t=$(date -u -d "@$((s0 + $1))" +%Y-%m-%dT%H:%M:%S)
        printf '%s INFO imported block %s\n%s INFO peers=8\n' "$t" "$2" "$t" >>"$f"
        shift 2
    done
}
# Base segments (every 1000): 10, 40, 80, 60 s, then 30 s to 4500 (partial).
# New: 6, 30, 45, 49, 21 s: -4, -10, -35, -11, -9 s; in all 220 s against 151 s: -69 s.
mklog hived-2204.log 1704258000 0 0 5 500 10 1000 50 2000 130 3000 190 4000 220 4500
mklog hived-2310.log 1706936400 0 0 3 500 6 1000 36 2000 81 3000 130 4000 151 4500
for v in 2204 2310; do
    run_nm track --db "$db" --name replay --log hived-$v.log --pattern 'block (\d+)' --every 1000 \
        --time-pattern '^(\S+)' --label hived-$v
    expect_rc 0 "track saves the run of hived-$v.log"
done

# The live table against the saved base: the deltas the saved comparison must repeat.
run_nm track --no-save --db "$db" --log hived-2310.log --pattern 'block (\d+)' --every 1000 \
    --time-pattern '^(\S+)' --baseline hived-2204
live=$(awk '$1 ~ /^[0-9]+$/ { print $1, $NF }' <<<"$out")
check "the live --baseline table has the injected deltas" test "$live" = "1000 -4.00s
2000 -10.0s
3000 -35.0s
4000 -11.0s
4500 -9.00s"

run_nm compare --db "$db" hived-2204 hived-2310
expect_rc 0 "compare of two track runs exits 0"
expect_out_has "replay: milestone by milestone" "one table for the job, not a row per log file"
saved=$(awk '$1 ~ /^[0-9]+$/ { print $1, $NF }' <<<"$out")
check "compare's deltas per milestone are the live table's" test "$saved" = "$live"
expect_out_matches '^ +3000 +1m20s +x8\.00 +45\.0s +x7\.50 +-35\.0s$' "a row: both segments, x first, vs base"
expect_out_matches '^ +4500 +30\.0s +x6\.00\* +21\.0s +x7\.00\* +-9\.00s$' "the partial last segment is marked"
expect_out_matches '^ +total +3m40s +- +2m31s +- +-1m09s$' "the total row: 220 s against 151 s"
check "no pooled segment_s figure" bash -c '! grep -qE "segment_s|segment time" <<<"$1"' _ "$out"

run_nm compare --db "$db" hived-2204 hived-2310 --format csv
expect_out_has "4000,60,6,49,8.16667,-11" "CSV: plain seconds per milestone"
expect_out_has "total,220,,151,,-69" "CSV: the total row"
run_nm compare --db "$db" hived-2204 hived-2310 --format json
check "JSON: the timeline's total delta" test "$(json_get 'j["timeline"]["total"][1]["vs_base_s"]')" = "-69.0"

run_nm show --db "$db" hived-2310
expect_out_matches '^ +2000 +- +\+30\.0s +30\.0 +x5\.00 +36\.0s ' "show prints the saved run's milestone table"
expect_out_has "total: 2m31s (151.0 s), progress 0 → 4500" "show prints the total"

run_nm report --db "$db" hived-2204 hived-2310 -o report.md
expect_rc 0 "a Markdown report of two track runs"
md=$(sed -n '/^## Timeline/,/^## /p' report.md)
check "the report's timeline table has each delta" bash -c 'for r in "| 1000 | 10.0s | x1.00 | 6.00s | x1.00 | -4.00s |" \
    "| 2000 | 40.0s | x4.00 | 30.0s | x5.00 | -10.0s |" "| 3000 | 1m20s | x8.00 | 45.0s | x7.50 | -35.0s |" \
    "| 4000 | 1m00s | x6.00 | 49.0s | x8.17 | -11.0s |" "| total | 3m40s | - | 2m31s | - | -1m09s |"; do
    grep -qF -- "$r" <<<"$1" || { echo "missing: $r"; exit 1; }; done' _ "$md"
run_nm report --db "$db" hived-2204 hived-2310 -o report.html
check "the HTML report has the table under the track chart" \
    bash -c 'grep -q "<table class=\"milestones\">" report.html && grep -q "<td>-1m09s</td>" report.html'
