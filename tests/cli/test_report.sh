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
grep -qE '^\| RND4K \| 102\.5 IOPS ± +[0-9]+% \| 202\.5 IOPS ± +[0-9]+% \| \+97\.56% \(p=0\.002 n=6\) \|$' report.md && ok "markdown carries the compare table" || not_ok "markdown compare table" "$(grep RND4K report.md)"
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
run_nm report base new t1 t2 -o phone.html
expect_rc 0 "a report of disk and track runs"
if command -v chromium >/dev/null; then
    # A copy with a probe that counts what sticks out of a 390 px window (the report has no script).
    python3 - phone.html probe.html <<'PY'
import sys
probe = ("<script>(function(){var w=window.innerWidth,n=0,what=[];"
         "document.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();"
         "if(r.width>0&&r.right>w+1&&!e.closest('table,pre')){n++;if(what.length<3)what.push(e.tagName+'.'+e.className)}});"
         "document.querySelectorAll('table,pre').forEach(function(e){if(e.getBoundingClientRect().right>w+1){n++;what.push(e.tagName)}});"
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
fi
grep -qF "progress over time (s)" phone.html && ok "the track timeline is titled" || not_ok "the track timeline is titled"
[ "$(grep -o 'class="timeline"' phone.html | wc -l)" -ge 2 ] && ok "two track runs overlaid" || not_ok "two track runs overlaid"
