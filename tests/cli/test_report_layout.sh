# The report's charts as headless Chromium lays them out, at a desktop's (1280 px) and a phone's
# (375 px) width: no SVG text leaves its SVG, no two labels overlap, text never drawn under
# 11 px. Two reports (each browser start costs seconds): two runs with long row labels, and one
# holding a disk-profile comparison (read and write axes side by side), a track comparison and
# a chart of 14 latency curves (4 runs with 3 or 4 benches).
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"
mk="python3 $TESTS_DIR/cli/data/mkrecord.py"
mc="python3 $TESTS_DIR/cli/data/mkcharts.py"
if ! command -v chromium >/dev/null; then
    not_ok "chromium is installed (scripts/deps.sh installs it)"
    exit 0
fi

long="memory/pagecache-read-sequential-1m-sixteen-threads-hugepages"
$mk 00000001aaaa0001 1700000000000 node1 baseline-before-the-upgrade -- "$long=100,101,102,103,104,105" "hash/blake3-multithreaded=50,51,52,53,54,55" "SEQ=5,6,5,6,5,6" >r1.json
$mk 00000002bbbb0002 1700000100000 node2 after-the-kernel-upgrade -- "$long=200,201,202,203,204,205" "hash/blake3-multithreaded=40,41,42,43,44,45" "SEQ=5,6,5,6,5,6" >r2.json
for i in 3 4; do
    $mk 0000000${i}cccc000$i 170000${i}00000000 node$i run$i -- "a=$i,2,3" "b=4,5,$i" "c=1,$i,3" "d=$i,1,1" >r$i.json
done
$mc disk 00000005dddd0005 d1 1 >d1.json
$mc disk 00000006eeee0006 d2 20 >d2.json   # reads to 10 GB/s: the read axis ends where the write axis starts
run_nm import r1.json r2.json r3.json r4.json d1.json d2.json
printf '%s\n' "2024-05-03T10:00:00 height=0" "2024-05-03T10:05:00 height=100" "2024-05-03T10:10:00 height=200" "2024-05-03T10:20:00 height=300" >s1.log
printf '%s\n' "2024-05-04T10:00:00 height=0" "2024-05-04T10:04:00 height=100" "2024-05-04T10:10:00 height=200" "2024-05-04T10:15:00 height=250" >s2.log
for n in 1 2; do
    run_nm track --log s$n.log --pattern 'height=(\d+)' --total 300 --every 100 --time-pattern '^(\S+)' \
        --name sync-of-a-long-job-name --label track-day-$n
done

run_nm report baseline-before-the-upgrade after-the-kernel-upgrade -o two.html
run_nm report d1 d2 track-day-1 track-day-2 baseline-before-the-upgrade after-the-kernel-upgrade run3 run4 -o many.html
[ "$(grep -o 'class="curve"' many.html | wc -l)" = 14 ] && ok "14 latency curves" || not_ok "14 latency curves" "$(grep -o 'class="curve"' many.html | wc -l)"
[ "$(grep -o 'class="chart percentiles"' many.html | wc -l)" = 2 ] && ok "14 curves as two small multiples of 7" || not_ok "percentile charts" "$(grep -o 'class="chart percentiles"' many.html | wc -l)"
grep -qF '<svg class="chart cdm"' many.html && grep -qF '>10 GB/s<' many.html && ok "the disk panel's read axis reaches 10 GB/s" || not_ok "disk panel axis" "$(grep -o '>[0-9]* [kMG]B/s<' many.html | sort -u | tr '\n' ' ')"
grep -q '<svg class="chart segments"' many.html && ok "the report has the track's segments chart" || not_ok "segments chart"
grep -qF "<title>$long</title>" two.html && ok "a row label too long is cut, its whole text its tooltip" || not_ok "long label tooltip"

for page in two many; do
    python3 -c 'import sys; h = open(sys.argv[1], encoding="utf-8").read(); p = open(sys.argv[2], encoding="utf-8").read()
open(sys.argv[3], "w", encoding="utf-8").write(h.replace("</body>", "<script>\n" + p + "</script></body>"))' \
        $page.html "$TESTS_DIR/cli/data/layout_probe.js" $page-probe.html
    for width in 1280 375; do
        prof=$(mktemp -d)
        timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
            --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
            --window-size=$width,2000 --dump-dom "file://$PWD/$page-probe.html" >$page-$width.dom 2>/dev/null
        rm -rf "$prof"
        res=$(python3 - $page-$width.dom <<'PY'
import html, json, re, sys
m = re.search(r'data-layout="([^"]*)"', open(sys.argv[1], encoding="utf-8").read())
if not m:
    print("no layout measured"); sys.exit(1)
d = json.loads(html.unescape(m.group(1)))
ok = d["svgs"] > 0 and d["texts"] > 10 and d["nbad"] == 0 and d["min_font"] >= 10.9
print("%d charts, %d texts, smallest %s px; %s" % (d["svgs"], d["texts"], d["min_font"], "; ".join(d["bad"]) or "none bad"))
sys.exit(0 if ok else 1)
PY
)
        [ $? -eq 0 ] && ok "$page at $width px: no text leaves its chart or overlaps another, none under 11 px ($res)" \
            || not_ok "$page at $width px: layout" "$res"
    done
done
