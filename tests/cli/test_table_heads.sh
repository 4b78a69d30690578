# The heads of nodemark run's table and of nodemark disk's (issue 27): each names its metric as
# compare does (units_header: the words, then the units its cells show, "mean latency (µs, ms)"),
# never a record key (bytes_per_sec, lat_mean_ns), and the units a head names are exactly the
# units of the figures under it (no "ns" over values in ms, no unit its cells lack).
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1
mkdir -p D

# heads KIND FILE: reads a table (run: a section per phase, left-aligned columns; disk: one
# table, right-aligned), checks each head against the cells under it and prints "ok HEADS" or
# what is wrong; a cell is what lies under its head's columns.
heads() {
    python3 - "$@" <<'PY'
import re, sys
kind, lines = sys.argv[1], open(sys.argv[2], encoding="utf-8").read().splitlines()
fig = re.compile(r"(?<![\w.])\d[\d.]* ((?:[kMGT]?B/s)|IOPS|pieces/s|op/s|ns|µs|ms|s)(?![\w/])")
head_re = re.compile(r"^([A-Za-z][A-Za-z0-9 /%-]*?)(?: \(([^)]*)\))?$")
# compare's words (units_metric_words) for the metrics these tables show
words = {"bandwidth", "IOPS", "mean latency", "p99 latency", "piece rate", "time per op", "best", "spread"}
cells = lambda s: [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", s)]
bad, nheads = [], 0

def check(head, column, where):
    global nheads
    m = head_re.match(head)
    if not m or m.group(1) not in words or "_" in head:
        bad.append("%s: head %r is not compare's words" % (where, head))
        return
    nheads += 1
    named = {u.strip() for u in (m.group(2) or "").split(",") if u.strip()}
    if m.group(1) == "IOPS" and not named:  # its unit is its name
        named = {"IOPS"}
    shown = set()
    for c in column:
        shown |= set(fig.findall(c))
    if m.group(1) == "spread":
        if named or shown or not all(re.fullmatch(r"\d+%|unstable", c) for c in column):
            bad.append("%s: spread %r over %r" % (where, head, column))
    elif not column or named != shown:
        bad.append("%s: head %r names %s over cells in %s: %r" % (where, head, sorted(named), sorted(shown), column))

if kind == "run":
    phases = ("memory", "hash", "disk", "pieces")
    i = 0
    while i < len(lines):
        hc = cells(lines[i])
        if not hc or hc[0][0] != 0 or hc[0][2] not in phases:
            i += 1
            continue
        rows = []
        i += 1
        while i < len(lines) and lines[i].startswith("  "):
            rows.append(lines[i])
            i += 1
        if not rows:
            bad.append("%s: no rows" % hc[0][2])
        for k in range(1, len(hc)):
            start, end = hc[k][0], hc[k + 1][0] if k + 1 < len(hc) else None
            col = []
            for r in rows:
                if len(r) > start and (r[start - 1] != " " or r[start] == " "):
                    bad.append("%s: a cell not under its head %r: %r" % (hc[0][2], hc[k][2], r))
                col.append(r[start:end].strip())
            check(hc[k][2], col, hc[0][2])
else:
    at = [n for n, l in enumerate(lines) if l.startswith("test (median of passes)")]
    if len(at) != 1:
        bad.append("one disk table head, found %d" % len(at))
    else:
        hc = cells(lines[at[0]])[1:-1]  # the test's column and the engine's (left-aligned) apart
        rows = []
        for l in lines[at[0] + 1:]:
            if not l.strip():
                break
            rows.append(l)
        for k, (start, end, text) in enumerate(hc):
            begin = hc[k - 1][1] if k else 24
            col = []
            for r in rows:
                if r[end - 1] == " " or (len(r) > end and r[end] != " "):
                    bad.append("a cell not under its head %r: %r" % (text, r))
                col.append(r[begin:end].strip())
            check(text, col, "disk")
        if [h[2].split(" (")[0] for h in hc] != ["bandwidth", "IOPS", "mean latency", "p99 latency", "best", "spread"]:
            bad.append("disk's heads: %r" % [h[2] for h in hc])
print("ok %d" % nheads if nheads and not bad else "heads=%d: %s" % (nheads, "; ".join(bad)))
PY
}

# --- nodemark run: a head per figure, as compare names it ---------------------------------------
run_nm run D --quick --no-report --phases hash,disk --label heads
expect_rc 0 "run --phases hash,disk: exit 0"
printf '%s\n' "$out" >run.txt
expect_out_matches '^hash +bandwidth \([kMG]?B/s(, [kMG]?B/s)*\)$' "run's hash section is headed 'bandwidth (UNITS)'"
expect_out_matches '^disk +bandwidth \([^)]*\) +IOPS +mean latency \((ns|µs|ms|s)(, (ns|µs|ms|s))*\)$' \
    "run's disk section is headed 'bandwidth (...)  IOPS  mean latency (...)'"
if grep -E '^(memory|hash|disk|pieces) ' run.txt | grep -qE '[a-z]_[a-z]'; then
    not_ok "run's heads name no record key (bytes_per_sec, lat_mean_ns)" "$(grep -E '^(hash|disk) ' run.txt)"
else
    ok "run's heads name no record key (bytes_per_sec, lat_mean_ns)"
fi
r=$(heads run run.txt)
[[ $r == ok* ]] && ok "run: each head's units are the units of the figures under it ($r)" ||
    not_ok "run: each head's units are the units of the figures under it" "$r"$'\n'"$(cat run.txt)"
# the comparison under it says the same words
run_nm compare heads
# (the units of compare's heads are test_units_disk's; here the words alone)
expect_out_matches '(^|│) *mean latency( \([^)]*\))? *(│|$)' "compare heads the saved run's latency with the same words"

# --- nodemark disk: the profile's table ------------------------------------------------------------
run_nm disk D --profile realworld --size 1m --runtime 100ms --loops 3 --interval 0 --no-save
expect_rc 0 "disk --profile realworld: exit 0"
printf '%s\n' "$out" >disk.txt
expect_out_matches '^test \(median of passes\) +bandwidth \([^)]*\) +IOPS +mean latency \([^)]*\) +p99 latency \([^)]*\) +best \([^)]*\) +spread +engine$' \
    "disk's head: compare's words, each with its units"
r=$(heads disk disk.txt)
[[ $r == ok* ]] && ok "disk: each head's units are the units of the figures under it ($r)" ||
    not_ok "disk: each head's units are the units of the figures under it" "$r"$'\n'"$(cat disk.txt)"
