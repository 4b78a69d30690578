# nodemark compare: benchstat's numbers on Go benchmark text, formats, keys, warnings, bad input.
# Expected values are worked out by hand in the comments (benchstat's algorithms, docs/compare.md).
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"

{
    echo "goos: linux"
    echo "pkg: example.com/x"
    for i in 0 1 2 3 4 5 6 7 8 9; do
        echo "BenchmarkFoo-2   1000   $((100 + i)) ns/op   $((10 + i)).5 MB/s"
        echo "BenchmarkBar-2   1000   $((200 + i)) ns/op"
    done
    echo "PASS"
} >old.txt
{
    echo "goos: linux"
    echo "pkg: example.com/x"
    for i in 0 1 2 3 4 5 6 7 8 9; do
        echo "BenchmarkFoo-2   1000   $((90 + i)) ns/op   $((20 + i)).5 MB/s"
        echo "BenchmarkBar-2   1000   $((200 + i)).5 ns/op"
    done
} >new.txt

run_nm compare old.txt new.txt
expect_rc 0 "compare of two Go benchmark files exits 0"
expect_out_has "goos: linux" "configuration common to both files heads the output"
# Foo: medians 104.5 and 94.5 ns; CI from the 2nd and 9th values: 101..108 is ±3.35%, 91..98
# is ±3.70%; every new value is below every old one: p = 2/C(20,10) = 0.00001 -> 0.000;
# 94.5/104.5 - 1 = -9.57%.  The row shares the scale of 94.5n: two decimals.
expect_out_matches 'Foo-2 +104\.50n ± 3% +94\.50n ± 4% +-9\.57% \(p=0\.000 n=10\)' "Foo: medians, CI, delta and p as benchstat"
# Bar: old values take ranks 1,3,...,19 of 20: U = 45, P(U <= 45) * 2 = 2 * 68301 / 184756 = 0.739
expect_out_matches 'Bar-2 +204\.5n ± 2% +205\.0n ± 2% +~ \(p=0\.739 n=10\)' "Bar: not significant, p from the exact U distribution"
# geomean sqrt(104.5 * 204.5) = 146.19, sqrt(94.5 * 205) = 139.19, ratio -4.79%
expect_out_matches '^geomean +146\.2n +139\.2n +-4\.79%$' "the geomean row"
# MB/s is tidied to B/s and scaled by 1024: medians 15 MB/s = 14.31 MiB/s, 25 MB/s = 23.84 MiB/s
expect_out_matches 'Foo-2 +14\.31Mi ± +[0-9]+% +23\.84Mi ± +[0-9]+% +\+66\.67%' "MB/s becomes B/s with binary prefixes"
expect_out_has "sec/op" "ns/op is shown as sec/op"

run_nm compare old.txt new.txt --format json
[ "$(json_get 'round(j["tables"][0]["rows"][1]["cells"][1]["p"], 3)')" = 0.739 ] && ok "json carries the p-value" || not_ok "json p-value" "$out"
[ "$(json_get 'j["tables"][0]["rows"][0]["cells"][1]["delta"]')" = "-9.57%" ] && ok "json carries the delta" || not_ok "json delta" "$out"
run_nm compare old.txt new.txt --format csv
expect_out_matches '^Foo-2,1\.045e-07,3%,9\.45e-08,4%,-9\.57%,p=0\.000 n=10$' "csv rows hold raw medians"
# each column's name sits over its own median, as benchstat's CSV has it (",old.txt,,new.txt,,,"):
# the base column has 2 fields (median, CI), each other 4 (median, CI, vs base, P)
res=$(python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
head, units = rows[0], rows[1]
named = {v: i for i, v in enumerate(head) if v}
print(named, units[named["old.txt"]], units[named["new.txt"]], units[named["new.txt"] + 2], len(head) == len(units))' <<<"$out")
if [ "$res" = "{'old.txt': 1, 'new.txt': 3} sec/op sec/op vs base True" ]; then ok "csv header names sit over their own value columns"
else not_ok "csv header names sit over their own value columns" "$res / $(head -2 <<<"$out")"; fi
run_nm compare old.txt new.txt --format markdown
expect_out_matches '^\| Bar-2 \| 204\.5n ± 2% \| 205\.0n ± 2% \| ~ \(p=0\.739 n=10\) \|$' "markdown table rows"
expect_out_matches '^\|---\|' "markdown has a header separator"

run_nm compare old.txt new.txt --filter 'name=Foo*'
expect_rc 0 "--filter exits 0"
[[ $out != *Bar-2* ]] && ok "--filter drops other benchmarks" || not_ok "--filter drops other benchmarks" "$out"
[[ $out != *geomean* ]] && ok "a single row has no geomean row" || not_ok "single row no geomean" "$out"

# Too few samples: benchstat's footnotes.
printf 'BenchmarkX 1 100 ns/op\nBenchmarkX 1 101 ns/op\nBenchmarkX 1 102 ns/op\n' >few-a.txt
printf 'BenchmarkX 1 110 ns/op\nBenchmarkX 1 111 ns/op\nBenchmarkX 1 112 ns/op\n' >few-b.txt
run_nm compare few-a.txt few-b.txt
expect_out_has "101.0n ± ∞ ¹" "a 3-sample cell has an infinite interval with a footnote"
expect_out_has "¹ need >= 6 samples for confidence interval at level 0.95" "the CI footnote as benchstat"
# 3 vs 3 fully separated: p = 2/C(6,3) = 0.1 > 0.05
expect_out_has "~ (p=0.100 n=3) ²" "p=0.100 with 3 samples each"
expect_out_has "² need >= 4 samples to detect a difference at alpha level 0.05" "the U-test footnote as benchstat"

# Runs and JSON records, columns by a key.
python3 $TESTS_DIR/cli/data/mkrecord.py 00000001aaaa0001 1700000000000 node1 "" fs=xfs -- "RND4K=100,101,102,103,104,105" "SEQ=5,6,7,8,9,10" >r1.json
python3 $TESTS_DIR/cli/data/mkrecord.py 00000002bbbb0002 1700000100000 node2 "" fs=zfs -- "RND4K=200,201,202,203,204,205" "SEQ=5,6,7,8,9,10" >r2.json
python3 $TESTS_DIR/cli/data/mkrecord.py 00000003cccc0003 1700000200000 node2 "" fs=zfs -- "RND4K=206,207,208,209,210,211" >r3.json
run_nm import r1.json r2.json r3.json
run_nm compare --col host 00000001 00000002 00000003 --format benchstat
expect_rc 0 "compare of runs by host exits 0"
expect_out_matches '│ +node1 +│ +node2 +│' "columns are hosts"
# node2 pools runs 2 and 3: 12 samples, median (205 + 206) / 2 = 205.5; vs node1 median 102.5: +100.49%
expect_out_matches 'RND4K +102\.5 IOPS ± +[0-9]+% +205\.5 IOPS ± +[0-9]+% +\+100\.49% \(p=0\.000 n=6\+12\)' "runs with one key pool into one column"
expect_out_matches '│ +IOPS +│ +IOPS +' "a record's metric is titled in words (its unit, IOPS, is the same word)"
run_nm compare --col host 00000001 00000002 00000003
expect_out_matches '^RND4K +102\.5 IOPS ± +[0-9]+% +205\.5 IOPS ± +[0-9]+% +2\.00x' "the compact table of disk runs pools by host too"
run_nm compare r1.json r2.json
[[ $out != *"fs: "* ]] && ok "a tag that differs is not shown as common configuration" || not_ok "differing tag" "$out"

# Bad input
printf 'BenchmarkX 1 100 ns/op extra\n' >odd.txt
run_nm compare odd.txt old.txt
expect_rc 2 "an odd field count exits 2"
one_line_error "an odd field count is one line"
expect_err_has "odd.txt: line 1:" "the error names the file and line"
printf 'BenchmarkX one 100 ns/op\n' >iters.txt
run_nm compare iters.txt
expect_rc 2 "a bad iteration count exits 2"
printf '{"format": "nodemark-record", "format_version": 1, "id": 5}\n' >bad.json
run_nm compare bad.json old.txt
expect_rc 2 "a bad JSON record exits 2"
one_line_error "a bad JSON record is one line"
run_nm compare nosuchrun old.txt
expect_rc 2 "an unknown run exits 2"
one_line_error "an unknown run is one line"
run_nm compare old.txt --format yaml
expect_rc 2 "an unknown format exits 2"
run_nm compare old.txt --filter nokey
expect_rc 2 "a filter without = exits 2"
run_nm compare old.txt new.txt --filter 'name=Nothing*'
expect_rc 2 "filtering everything away exits 2"
one_line_error "filtering everything away is one line"

# A spread past 100% of the median is shown as such (issue 32 item 5), not "± 1404%": the
# compact table, benchstat's text, show and the JSON's flag; a spread under it keeps its ±.
python3 $TESTS_DIR/cli/data/mkrecord.py 00000009aaaa0009 1700000900000 node1 wild -- \
    "RND4K=7,7.5,7.48,1.2,95,90,7.2,7.3,7.6,7.4" "SEQ=100,101,102,103,104,105" >wild.json
python3 $TESTS_DIR/cli/data/mkrecord.py 0000000abbbb000a 1700000910000 node1 calm -- \
    "RND4K=7,7.1,7.2,7.3,7.4,7.5,7.1,7.2,7.3,7.4" "SEQ=100,101,102,103,104,105" >calm.json
run_nm import wild.json calm.json
run_nm compare wild calm
expect_out_matches '^RND4K +unstable: 7\.44 IOPS, range 7 IOPS to 90 IOPS +7\.25 IOPS ± 2%' "compact: the wild row is unstable with its range"
expect_out_matches '^SEQ +102\.5 IOPS ± 2%' "compact: a narrow spread keeps its ±"
check "compact: no ± past 100%" bash -c '! grep -qE "± [0-9]{3,}%" <<<"$1"' _ "$out"
expect_out_has "can't tell: noise past ±100% here" "the verdict's noise past 100% is said so"
run_nm compare wild calm --format benchstat
expect_out_matches '^RND4K +unstable: 7\.44 IOPS, range 7 IOPS to 90 IOPS +7\.25 IOPS ± 2%' "benchstat text: unstable with its range"
run_nm show wild
expect_out_matches '^    IOPS +unstable: 7\.44 IOPS, range 7 IOPS to 90 IOPS \(n=10' "show: unstable with its range"
run_nm compare wild calm --format json
check "json: the cell says unstable, the range figure stays" test "$(json_get '[c.get("unstable", False) for t in j["tables"] for r in t["rows"] for c in r["cells"] if c][:1]')" = "[True]"

# --- a metric is named in words with the units its figures show, the same in the tables, the
# charts and the calls (issue 27): "bandwidth (MB/s)", "mean latency (ms)", never the record's
# keys bytes_per_sec or lat_mean_ns.  Two quiet runs of 6 samples, the second at half the bandwidth.
python3 $TESTS_DIR/cli/data/mkhalfbw.py
run_nm compare lbl-a.json lbl-b.json
expect_out_matches '^ +│ bandwidth \(MB/s\) +│ bandwidth \(MB/s\) +vs base +│$' "text: the table's head in words, with the unit its cells show"
expect_out_matches '^ +│ mean latency \(ms\) +│ mean latency \(ms\) +vs base +│$' "text: mean latency in ms"
expect_out_matches '^bandwidth \(MB/s\), lbl-b\.json vs lbl-a\.json: 1 called, 0 unchanged, 0 not compared$' "calls: the summary names the metric as the table does"
expect_out_matches '^mean latency \(ms\), lbl-b\.json vs lbl-a\.json: 1 called' "calls: the latency's summary too"
if grep -qE 'bytes_per_sec|lat_mean_ns|\((B/s|ns)\)' <<<"$out"; then not_ok "text: no record key, no unscaled unit" "$out"
else ok "text: no record key, no unscaled unit"; fi
run_nm compare lbl-a.json lbl-b.json --format json
check "json: the tables keep the record's metric and unit" \
    test "$(json_get '[(t["metric"], t["unit"]) for t in j["tables"]]')" = "[('bytes_per_sec', 'B/s'), ('lat_mean_ns', 'ns')]"
