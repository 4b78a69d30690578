# nodemark report: a self-contained HTML file checked in headless Chromium (charts rendered, the
# expected number of SVG bars, no console errors), and the Markdown report.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"
mk="python3 $TESTS_DIR/cli/data/mkrecord.py"

$mk 00000001aaaa0001 1700000000000 node1 base fs=xfs -- "RND4K=100,101,102,103,104,105" "SEQ=50,51,52,53,54,55" >r1.json
$mk 00000002bbbb0002 1700000100000 node2 new fs=zfs -- "RND4K=200,201,202,203,204,205" "SEQ=40,41,42,43,44,45" >r2.json
$mk 00000003cccc0003 1700000200000 node2 third fs=zfs -- "RND4K=300,301,302,303,304,305" >r3.json
run_nm import r1.json r2.json r3.json

run_nm report base new third --title "Test <report>" -o report.html
expect_rc 0 "report -o report.html exits 0"
check "the report file exists" test -s report.html
html=$(cat report.html)
[[ $html != *"<script"* ]] && ok "no script in the report" || not_ok "no script in the report"
if grep -qE '(src|href)="?(https?:)?//|@import|url\(' report.html; then not_ok "nothing fetched from the network"; else ok "nothing fetched from the network"; fi
[[ $html == *"Test &lt;report&gt;"* ]] && ok "the title is escaped" || not_ok "the title is escaped"
[[ $html == *"node1 test machine"* || $html == *"<b>node1</b>"* ]] && ok "each machine has a line" || not_ok "each machine has a line"
[[ $html == *"<details><summary>inventory</summary>"* ]] && ok "the inventory is included" || not_ok "the inventory is included"
# RND4K: 3 runs, SEQ: 2 runs -> 5 bars; 3 histograms -> 3 curves; 5 series -> 5 timelines
[ "$(grep -o 'class="bar"' report.html | wc -l)" = 5 ] && ok "one bar per benchmark and run" || not_ok "bar count"
[ "$(grep -o 'class="curve"' report.html | wc -l)" = 5 ] && ok "a percentile curve per histogram" || not_ok "curve count"
[ "$(grep -o 'class="timeline"' report.html | wc -l)" = 5 ] && ok "a timeline per series" || not_ok "timeline count"

# In a real browser.
if ! command -v chromium >/dev/null; then
    not_ok "chromium is installed (scripts/deps.sh installs it)"
else
    prof=$(mktemp -d)
    timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
        --enable-logging=stderr --v=0 --window-size=1000,1400 --screenshot="$PWD/shot.png" \
        --dump-dom "file://$PWD/report.html" >dom.html 2>chromium.log
    crc=$?
    rm -rf "$prof"
    [ $crc -eq 0 ] && ok "chromium rendered the report" || not_ok "chromium rendered the report" "exit $crc: $(tail -3 chromium.log)"
    [ "$(grep -o 'class="bar"' dom.html | wc -l)" = 5 ] && ok "the browser's DOM has the 5 SVG bars" || not_ok "DOM bar count" "$(head -c 300 dom.html)"
    if grep -q 'CONSOLE' chromium.log; then not_ok "no console messages" "$(grep CONSOLE chromium.log | head -3)"; else ok "no console messages"; fi
    if [ -s shot.png ]; then
        # width height non-white distinct, then pixels near the first two bar colours
        read -r w h nonwhite distinct blue orange < <(python3 "$TESTS_DIR/cli/data/pngstat.py" shot.png 3b6fb6 e07b39)
        [ "$nonwhite" -gt 20000 ] && [ "$distinct" -gt 20 ] && ok "the screenshot is not blank" || not_ok "the screenshot is not blank" "$nonwhite $distinct"
        [ "$blue" -gt 500 ] && [ "$orange" -gt 500 ] && ok "the bars are drawn in their colours" || not_ok "bar colours in the screenshot" "$blue $orange"
    else
        not_ok "chromium wrote a screenshot"
    fi
fi

run_nm report base new -o report.md
expect_rc 0 "report -o report.md exits 0"
md=$(cat report.md)
[[ $md == "# nodemark report"* ]] && ok "markdown starts with the title" || not_ok "markdown title"
grep -qE '^\| RND4K \| 102\.5 IOPS ± +[0-9]+% \| 202\.5 IOPS ± +[0-9]+% \| \+97\.56% \(p=0\.002 n=6\) \| can.t tell: ±100% noise here \(this figure moves by up to its noise floor between runs \(100% by default\)\); would decide: [^|]+ \|$' report.md && ok "markdown carries the compare table, each row's verdict beside it" || not_ok "markdown compare table" "$(grep RND4K report.md)"
if grep -q '^### Calls' report.md; then not_ok "markdown has no separate calls section" "$(grep -A3 '^### Calls' report.md)"
else ok "markdown has no separate calls section"; fi
[[ $md != *"<svg"* ]] && ok "markdown has no SVG" || not_ok "markdown has no SVG"

run_nm report base
expect_rc 2 "report without -o exits 2"
one_line_error "report without -o is one line"
run_nm report nosuch -o x.html
expect_rc 2 "report of an unknown run exits 2"
one_line_error "report of an unknown run is one line"
check "a failed report writes no file" test ! -e x.html

# The charts as the browser builds them, at a phone's width: every SVG titled, with axis labels
# that name units, no NaN/undefined/empty unit, nothing wider than the window. A track run and
# its baseline give the timeline chart.
printf '%s\n' "2024-05-01T10:00:00 height=0" "2024-05-01T10:05:00 height=100" "2024-05-01T11:10:00 height=200" >replay-2024-05-01.log
printf '%s\n' "2024-05-02T10:00:00 height=0" "2024-05-02T10:04:00 height=100" "2024-05-02T10:50:00 height=200" >replay-2024-05-02.log
run_nm track --log replay-2024-05-01.log --pattern 'height=(\d+)' --total 200 --every 100 --time-pattern '^(\S+)' --label t1
run_nm track --log replay-2024-05-02.log --pattern 'height=(\d+)' --total 200 --every 100 --time-pattern '^(\S+)' --label t2
# The disk panel: CrystalDiskMark's grid, a bar per run with MB/s and IOPS, the change from the first.
mc="python3 $TESTS_DIR/cli/data/mkcharts.py"
$mc disk 00000004dddd0004 d1 1 >d1.json
$mc disk 00000005eeee0005 d2 1.2 >d2.json
$mc time 00000006ffff0006 tm1 0 >tm1.json
$mc time 00000007aaaa0007 tm2 0.05 >tm2.json
$mc time 00000008bbbb0008 tm3 0 30 >tm3.json
run_nm import d1.json d2.json tm1.json tm2.json tm3.json
run_nm report d1 d2 -o disk.html
expect_rc 0 "a report of two disk runs"
[ "$(grep -o 'class="cdm-test"' disk.html | wc -l)" = 4 ] && ok "the disk panel has a row per test" || not_ok "disk panel rows" "$(grep -o 'class="cdm-test"' disk.html | wc -l)"
[ "$(grep -o 'class="cdm-bar"' disk.html | wc -l)" = 16 ] && ok "a bar per test, direction and run" || not_ok "disk panel bars" "$(grep -o 'class="cdm-bar"' disk.html | wc -l)"
grep -qF 'd1 · SEQ1M Q8T1 read: 500 MB/s, 476.8 IOPS</title>' disk.html && ok "a cell says its MB/s and IOPS" || not_ok "disk cell text" "$(grep -o 'd1 · SEQ1M Q8T1 read[^<]*' disk.html)"
grep -qF 'd2 · RND4K Q1T1 write: 48.0 MB/s' disk.html && ok "the write column holds the write test" || not_ok "disk write cell" "$(grep -o 'd2 · RND4K Q1T1 write[^<]*' disk.html)"
[ "$(grep -o '>+20.0%<' disk.html | wc -l)" = 8 ] && ok "the second run's change from the first in every cell" || not_ok "disk panel changes" "$(grep -o '>[+-][0-9.]*%<' disk.html | sort | uniq -c)"
grep -qF '>Read<' disk.html && grep -qF '>Write<' disk.html && ok "read and write columns" || not_ok "read and write columns"
grep -qF 'throughput (MB/s = 10^6 bytes/s, log scale)' disk.html && ok "the panel's axis names its unit" || not_ok "disk panel axis"
run_nm report base new -o nodisk.html
grep -q 'class="chart cdm"' nodisk.html && not_ok "no disk panel without disk tests" || ok "no disk panel without disk tests"

# time runs: a box per command and run, each sample a dot; linear axis here, log past 30-fold.
run_nm report tm1 tm2 -o time.html
expect_rc 0 "a report of two time runs"
[ "$(grep -o 'class="box"' time.html | wc -l)" = 4 ] && ok "a box per command and run" || not_ok "box count" "$(grep -o 'class="box"' time.html | wc -l)"
[ "$(grep -o 'class="sample"' time.html | wc -l)" = 20 ] && ok "every sample is a dot" || not_ok "sample dots" "$(grep -o 'class="sample"' time.html | wc -l)"
grep -qF 'tm1: median 220 ms, quartiles 210 ms to 230 ms, 5 samples' time.html && ok "a box's median and quartiles with units" || not_ok "box figures" "$(grep -o 'tm1: median[^<]*' time.html)"
grep -qF '>wall time (s)<' time.html && ok "a linear axis when the times are alike" || not_ok "linear time axis"
run_nm report tm3 -o timelog.html
grep -qF '>wall time (s, log scale)<' timelog.html && ok "a log axis when they differ 30-fold" || not_ok "log time axis"

# track: each segment's time per unit against the baseline (the first run of the job); the last,
# partial segment compared per unit and marked.
printf '%s\n' "2024-05-03T10:00:00 height=0" "2024-05-03T10:05:00 height=100" "2024-05-03T10:10:00 height=200" "2024-05-03T10:20:00 height=300" >s1.log
printf '%s\n' "2024-05-04T10:00:00 height=0" "2024-05-04T10:04:00 height=100" "2024-05-04T10:10:00 height=200" "2024-05-04T10:15:00 height=250" >s2.log
for n in 1 2; do
    run_nm track --log s$n.log --pattern 'height=(\d+)' --total 300 --every 100 --time-pattern '^(\S+)' --name sync --label t$((n + 2))
done
run_nm report t3 t4 -o seg.html
expect_rc 0 "a report of a track run against its baseline"
[ "$(grep -o 'class="ratio' seg.html | wc -l)" = 3 ] && ok "a ratio bar per segment" || not_ok "segment bars" "$(grep -o 'class="ratio[^"]*"' seg.html)"
[ "$(grep -o 'class="ratio partial"' seg.html | wc -l)" = 1 ] && ok "the partial segment is marked" || not_ok "partial segment"
grep -qF '>x0.80<' seg.html && grep -qF '>x1.20<' seg.html && ok "full segments: time against the baseline's" || not_ok "segment ratios" "$(grep -o '>x[0-9.]*\*\?<' seg.html)"
grep -qF '>x1.00*<' seg.html && ok "the partial one per unit (50 in 5 min against 100 in 10)" || not_ok "partial ratio" "$(grep -o '>x[0-9.]*\*\?<' seg.html)"
grep -qF 'sync: each segment&#39;s time per unit against t3' seg.html || grep -qF "sync: each segment's time per unit against t3" seg.html && ok "the segments chart names the job and baseline" || not_ok "segments title"

run_nm report base new t1 t2 d1 d2 tm1 tm2 t3 t4 -o phone.html
expect_rc 0 "a report of disk and track runs"
if command -v chromium >/dev/null; then
    # A copy with a probe that counts what sticks out of a 390 px window (the report has no script;
    # tables and charts scroll sideways in their own box, which must fit).
    python3 - phone.html probe.html <<'PY'
import sys
probe = ("<script>(function(){var w=window.innerWidth,n=0,what=[];"
         "document.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();"
         "if(r.width>0&&r.right>w+1&&!e.closest('table,pre,.chart-box')){n++;if(what.length<3)what.push(e.tagName+'.'+e.className)}});"
         "document.querySelectorAll('table,pre,.chart-box').forEach(function(e){if(e.getBoundingClientRect().right>w+1){n++;what.push(e.tagName)}});"
         "document.body.setAttribute('data-wide',String(n));document.body.setAttribute('data-what',what.join(' '));})();</script>")
html = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(html.replace("</body>", probe + "</body>"))
PY
    prof=$(mktemp -d)
    timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
        --window-size=390,2400 --screenshot="$PWD/phone.png" --dump-dom "file://$PWD/probe.html" >phone-dom.html 2>/dev/null
    rm -rf "$prof"
    res=$(python3 "$TESTS_DIR/cli/data/report_dom_check.py" phone-dom.html)
    [ $? -eq 0 ] && ok "every chart titled, axes with units, nothing wider than a phone ($res)" || not_ok "charts in the browser" "$res"
    check "a phone-width screenshot" test -s phone.png
    for kind in cdm time-boxes segments; do
        grep -q "<svg class=\"chart $kind\"" phone-dom.html && ok "the browser drew the $kind chart" || not_ok "the browser drew the $kind chart"
    done
    read -r _ _ _ _ green < <(python3 "$TESTS_DIR/cli/data/pngstat.py" phone.png 4f8a4c)
    [ "${green:-0}" -gt 300 ] && ok "the disk panel's test tiles are on screen" || not_ok "disk panel in the screenshot" "${green:-none}"
fi
grep -qF "progress over time (s)" phone.html && ok "the track timeline is titled" || not_ok "the track timeline is titled"
[ "$(grep -o 'class="timeline"' phone.html | wc -l)" -ge 2 ] && ok "two track runs overlaid" || not_ok "two track runs overlaid"

# --- a metric is named in words with the units its figures show, the same in the tables, the
# charts and the calls (issue 27): "bandwidth (MB/s)", "mean latency (ms)", never the record's
# keys bytes_per_sec or lat_mean_ns.  Two quiet runs of 6 samples, the second at half the bandwidth.
python3 $TESTS_DIR/cli/data/mkhalfbw.py
run_nm report lbl-a.json lbl-b.json -o lbl.html
expect_rc 0 "report of two runs with bandwidth and latency exits 0"
for want in 'class="chart-title"[^>]*>bandwidth \(MB/s\), higher is better' 'class="chart-title"[^>]*>mean latency \(ms\), lower is better' \
    '<th>bandwidth \(MB/s\)</th>' '<th>mean latency \(ms\)</th>' 'class="axis-label"[^>]*>bandwidth \(MB/s\)<'; do
    grep -qE "$want" lbl.html && ok "report (HTML): $want" || not_ok "report (HTML): $want" "$(grep -oE 'class="chart-title"[^<]*|<th>[^<]*' lbl.html)"
done
# the record's keys stay only where a program reads them (data-metric)
if grep -oE 'class="(chart-title|axis-label)"[^<]*|<th>[^<]*|<h3>[^<]*' lbl.html | grep -qE 'bytes_per_sec|lat_mean_ns|\((B/s|ns)\)'; then
    not_ok "report (HTML): no title, axis or head names a record key or the unscaled unit" "$(grep -oE 'class="chart-title"[^<]*|<th>[^<]*|<h3>[^<]*' lbl.html)"
else ok "report (HTML): no title, axis or head names a record key or the unscaled unit"; fi
run_nm report lbl-a.json lbl-b.json -o lbl.md
if grep -q '^| bandwidth (MB/s) |' lbl.md && ! grep -qE 'bytes_per_sec|lat_mean_ns' lbl.md; then ok "report (Markdown): the table head in words with its unit"
else not_ok "report (Markdown): the table head in words with its unit" "$(grep '^|' lbl.md | head -4)"; fi
