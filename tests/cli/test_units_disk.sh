# One statistic per figure (issue 27 item 8): disk prints the median of the passes, the figure
# show, compare and report print of the saved run, digit for digit; the best pass is a named
# extra ("best").  And a header's unit is the unit its cells show (no "lat_mean_ns (ns)" over
# values in ms).
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"
mkdir -p d

# --- a custom job: disk's "median of 3 passes" line --------------------------------------------
run_nm disk d --rw randread --bs 4k --size 256k --loops 3 --engine psync --label one
expect_rc 0 "a custom job of 3 passes runs and is saved"
line=$(grep -E '^  median of 3 passes: ' <<<"$out")
[ -n "$line" ] && ok "disk prints the median of the passes" || not_ok "disk prints the median of the passes" "$out"
expect_out_matches '^  best pass [0-9.]+ [kMG]?B/s \(CrystalDiskMark.s score\)' "the best pass is named as such"
# "median of 3 passes: 22.2 MB/s, 5410 IOPS, latency mean 184 µs, p99 3.78 ms; CPU 46.2 µs per I/O"
mapfile -t F < <(sed -E 's/^  median of 3 passes: ([^,]+), ([^,]+), latency mean ([^,]+), p99 ([^;]+); CPU (.+) per I\/O.*/\1\n\2\n\3\n\4\n\5/' <<<"$line")
names=(bytes_per_sec iops lat_mean_ns lat_p99_ns cpu_ns_per_io)
# the words compare heads each with (units_metric_words)
labels=("bandwidth" "IOPS" "mean latency" "p99 latency" "CPU time per I/O")
[ "${#F[@]}" = 5 ] && ok "five figures read from disk's line" || not_ok "five figures read from disk's line" "$line"

run_nm show one
show=$out
run_nm compare one
compare=$out
run_nm report one -o r.md
md=$(cat r.md 2>/dev/null)
run_nm report one -o r.html
html=$(cat r.html 2>/dev/null)
for i in 0 1 2 3 4; do
    fig=${F[$i]:-?} m=${names[$i]}
    # show: "    bandwidth   22.2 MB/s ± ∞ (n=3, ...)", the metric in compare's words
    got=$(sed -nE "s|^    ${labels[$i]} +([0-9.]+ [^ ]+) ±.*|\1|p" <<<"$show")
    [ "$got" = "$fig" ] && ok "show prints disk's $m: $fig" || not_ok "show prints disk's $m: $fig" "show: $got"
    # compare: the table of the metric, its one row
    got=$(grep -A1 -E "^${labels[$i]} " <<<"$compare" | sed -nE 's/^randread 4k Q1T1 +([0-9.]+ [^ ]+).*/\1/p')
    [ "$got" = "$fig" ] && ok "compare prints disk's $m: $fig" || not_ok "compare prints disk's $m: $fig" "compare: $got"
    grep -qF "| randread 4k Q1T1 | $fig ± " <<<"$md" && ok "report (Markdown) prints disk's $m: $fig" ||
        not_ok "report (Markdown) prints disk's $m: $fig" "$(grep 'randread' <<<"$md" | head -5)"
    grep -qF ">$fig<" <<<"$html" || grep -qF ">$fig ±" <<<"$html" && ok "report (HTML) prints disk's $m: $fig" ||
        not_ok "report (HTML) prints disk's $m: $fig" "$(grep -o 'randread 4k Q1T1</td><td[^<]*<[^<]*' <<<"$html" | head -5)"
done

# --- a profile's table: the median columns are the saved run's figures; best apart -----------
run_nm disk d --profile realworld --size 1m --runtime 100ms --loops 3 --interval 0 --label prof
expect_rc 0 "a profile of 3 passes runs and is saved"
expect_out_matches '^test \(median of passes\) +bandwidth \([^)]+\) +IOPS +mean latency \([^)]+\) +p99 latency \([^)]+\) +best \([^)]+\) +spread' "the table's head: the median figures in compare's words, then best"
row=$(grep -E '^RND4K Q1T1 read ' <<<"$out")
# "RND4K Q1T1 read   16.8 MB/s   4104 IOPS   243 µs   3.98 ms   17.7 MB/s   11%   uring O_DIRECT"
mapfile -t P < <(sed -E 's/^RND4K Q1T1 read +([0-9.]+ [^ ]+) +([0-9.]+ [^ ]+) +([0-9.]+ [^ ]+) +([0-9.]+ [^ ]+) .*/\1\n\2\n\3\n\4/' <<<"$row")
run_nm show prof
show=$out
run_nm compare prof
compare=$out
for i in 0 1 2 3; do
    fig=${P[$i]:-?} m=${names[$i]}
    got=$(sed -nE "/^  RND4K Q1T1 read\$/,/^\$/s|^    ${labels[$i]} +([0-9.]+ [^ ]+) ±.*|\1|p" <<<"$show")
    [ "$got" = "$fig" ] && ok "profile: show prints the table's $m: $fig" || not_ok "profile: show prints the table's $m: $fig" "show: $got; row: $row"
    got=$(sed -n "\|^${labels[$i]} |,/^\$/p" <<<"$compare" | sed -nE 's/^RND4K Q1T1 read +([0-9.]+ [^ ]+).*/\1/p')
    [ "$got" = "$fig" ] && ok "profile: compare prints the table's $m: $fig" || not_ok "profile: compare prints the table's $m: $fig" "compare: $got"
done

# --- headers: the unit over a column is the unit its cells show --------------------------------
python3 - <<'PY'
import json
def rec(rid, label, lat):
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000000000 + int(rid[-1]),
            "time": "", "host": "lab", "version": "0.1.0", "command": "disk", "cmdline": "nodemark disk", "label": label,
            "tags": {}, "inventory": {}, "extra": {}, "benches": [
                {"name": n, "settings": {}, "series": [], "hists": [], "metrics": [
                    {"name": "lat_mean_ns", "unit": "ns", "direction": "lower", "samples": [v] * 6},
                    {"name": "bytes_per_sec", "unit": "B/s", "direction": "higher", "samples": [v * 100] * 6}]}
                for n, v in (("RND4K Q1T1 read", lat), ("SEQ1M Q8T1 read", lat * 40))]}
json.dump(rec("6d0e000000000001", "ms", 7.52e6), open("ms.json", "w"))
json.dump(rec("6d0e000000000002", "us", 75.2e3), open("us.json", "w"))
PY
"$NM" import ms.json >/dev/null 2>&1 && "$NM" import us.json >/dev/null 2>&1 || not_ok "the records are imported"
check_heads() { # WHAT: every "METRIC (UNITS)" head in $out names each unit its rows show, and no other
    local r
    printf '%s\n' "$out" >heads.txt
    r=$(python3 - heads.txt <<'PY'
import re, sys
fig = re.compile(r"(?<![\w.])\d[\d.]* ((?:[kMGT]?B/s)|IOPS|op/s|ns|µs|ms|s)(?![\w/])")
head = re.compile(r"^\|? ?(?:│ )?\s*(mean latency|bandwidth|IOPS|p99 latency|CPU time per I/O)(?: \(([^)]*)\))? ?\|?")
bad, heads, units, shown = [], 0, None, set()
def close():
    if units is not None and shown != units:
        bad.append("head %s over cells in %s" % (sorted(units), sorted(shown)))
for line in open(sys.argv[1]).read().splitlines() + [""]:
    if " called, " in line:  # a calls summary: no figures under it
        close()
        units = None
        continue
    m = head.match(line.replace("│", " ").strip())
    if m:
        close()
        heads += 1
        units, shown = set(u.strip() for u in (m.group(2) or "").split(",") if u.strip()), set()
        if m.group(1) == "IOPS" and not units:  # its unit is its name: "IOPS", not "IOPS (IOPS)"
            units = {"IOPS"}
    elif not line.strip():
        close()
        units = None
    elif units is not None:
        shown |= set(fig.findall(line))
print("ok" if heads and not bad else "heads=%d %s" % (heads, "; ".join(bad)))
PY
)
    [ "$r" = ok ] && ok "$1" || not_ok "$1" "$r: ${out:0:600}"
}
run_nm compare ms us
check_heads "compare: each head names the units its cells show"
expect_out_matches '^mean latency \(ms, µs\) ' "compare: milliseconds and microseconds in one column, both named"
# (the calls' summary lines name the record's unit: no figures stand under them)
if grep -vE ' called, ' <<<"$out" | grep -qE '\((ns|B/s)\)'; then not_ok "compare: no head in the unit the figures were scaled from" "$out"
else ok "compare: no head in the unit the figures were scaled from"; fi
run_nm compare ms us --format benchstat
check_heads "compare --format benchstat: each head names the units its cells show"
run_nm compare ms us --format markdown
check_heads "compare --format markdown: each head names the units its cells show"
run_nm compare ms us --format csv
expect_out_has "lat_mean_ns (ns)" "CSV keeps the record's unit: its values are raw nanoseconds"
