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

# --- the tables in turns: disk A B, disk -L, pieces -L, run --compare-with -----------------------
# turns KIND FILE WORDS: the table of a run in turns (disk: its head begins with the figure;
# pieces: "setting"; run: "phase"), checked cell by cell: the figure's head is WORDS with the
# units of the figures under it, each figure carries its unit, a ratio is "N.NNx", a verdict is
# in the comparison's words, and every cell lies under its head (right-aligned columns end
# where their head ends, left-aligned ones start where it starts, counted in characters: a
# "±" padded by bytes would end a column short).  Prints "ok UNITS" (the units, sorted) or
# what is wrong.
turns() {
    python3 - "$@" <<'PY'
import re, sys
kind, lines, words = sys.argv[1], open(sys.argv[2], encoding="utf-8").read().splitlines(), sys.argv[3]
first = {"disk": words, "pieces": "setting", "run": "phase"}[kind]
fig = re.compile(r"^\d[\d.]* ((?:[kMGT]?B/s))$")
cells = lambda s: [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", s)]
head_re = re.compile(r"^((?:(?:read|write) )?[a-z][a-z ]*?)(?: \(([^)]*)\))?$")
bad, named, shown, nfig = [], set(), set(), 0
at = [n for n, l in enumerate(lines) if l.startswith(first + " ") or l == first]
if len(at) != 1:
    print("one head line starting %r, found %d" % (first, len(at)))
    sys.exit()
hc = cells(lines[at[0]])
rows = []
for l in lines[at[0] + 1:]:
    if not l.strip():
        break
    rows.append(l)
if not rows:
    bad.append("no rows")
allowed = (words, "read " + words, "write " + words)
for k, (start, end, text) in enumerate(hc):
    m = head_re.match(text)
    ratio = re.fullmatch(r"[A-Z]/[A-Z]|vs ref", text)
    # the figure's head: over the names (disk: first; run: after the phase) or, in pieces,
    # over its figures
    fig_head = (kind == "disk" and k == 0) or (kind == "run" and k == 1) or \
        (kind == "pieces" and k > 0 and not ratio and text != "verdict")
    value_col = re.fullmatch(r"[A-Z]", text) or (kind == "pieces" and fig_head)
    left = k == 0 or text == "verdict" or (kind == "run" and k == 1)
    if fig_head:
        if not (m and m.group(1) in allowed) or "_" in text:
            bad.append("head %r is not compare's words (%r)" % (text, words))
        else:
            named |= {u.strip() for u in (m.group(2) or "").split(",") if u.strip()}
    col = []
    for r in rows:
        rc = cells(r)
        hit = [c for c in rc if (c[0] == start if left else c[1] == end)]
        if not hit:
            # the reference's empty ratio (pieces) is the only cell that may be missing
            if not (kind == "pieces" and ratio and "(reference)" in r):
                bad.append("no cell under %r in %r" % (text, r))
            continue
        col.append(hit[0][2])
    for c in col:
        if value_col:
            f = fig.match(c)
            if not f:
                bad.append("%r under %r is not a figure with its unit" % (c, text))
            else:
                shown.add(f.group(1))
                nfig += 1
        elif ratio and not re.fullmatch(r"\d+(\.\d\d)?x", c):
            bad.append("ratio %r under %r" % (c, text))
        elif text == "verdict" and not re.match(r"(called [+-]|no change beyond ±|can't tell|\(reference\))", c):
            bad.append("verdict %r" % c)
if not nfig:
    bad.append("no figures")
if named != shown:
    bad.append("the heads name %s over figures in %s" % (sorted(named), sorted(shown)))
print("ok " + ",".join(sorted(shown)) if not bad else "; ".join(bad))
PY
}
# compare_units WORDS FILE: the units compare's heads name for the figure WORDS, any layout
# (compact: "bandwidth (GB/s, MB/s)" first on its line; benchstat's: between "│"), sorted
compare_units() {
    python3 - "$@" <<'PY'
import re, sys
words, text = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
found = re.findall(r"(?:^|│) *" + re.escape(words) + r"(?: \(([^)]*)\))?(?=  | *│| *$)", text, re.M)
units = {u.strip() for f in found for u in f.split(",") if u.strip()}
print(",".join(sorted(units)) if found else "none")
PY
}
# a_subset A B: every unit of the ","-list A is in B
a_subset() { python3 -c 'import sys; a, b = (set(x.split(",")) for x in sys.argv[1:3]); sys.exit(not a <= b)' "$1" "$2"; }

mkdir -p ta tb tc
run_nm disk ta tb tc --rw read --bs 4k --size 64k --loops 6 --engine psync --interval 0 --label th-turns
expect_rc 0 "disk A B C in turns: exit 0"
printf '%s\n' "$out" >turns.txt
expect_out_matches '^bandwidth \([kMGT]?B/s(, [kMGT]?B/s)*\) +A +B +C +B/A +verdict +C/A +verdict$' \
    "disk A B C: the table is headed 'bandwidth (UNITS)  A  B  C  B/A  verdict  C/A  verdict'"
r=$(turns disk turns.txt bandwidth)
[[ $r == ok* ]] && ok "disk A B C: each head in compare's words, over cells in its units, aligned ($r)" ||
    not_ok "disk A B C: each head in compare's words, over cells in its units, aligned" "$r"$'\n'"$(cat turns.txt)"
run_nm compare th-turns --col target
printf '%s\n' "$out" >turns-compare.txt
c=$(compare_units bandwidth turns-compare.txt)
# the same medians of the same passes: the same units
check "compare of the saved run heads its bandwidth with the same words and units (${r#ok }: $c)" \
    test "${r#ok }" = "$c"
# three columns: each ratio beside the column it belongs to (two "vs ta" at the end would not
# say which is whose)
expect_out_matches '^bandwidth \([^)]*\) +ta +tb +vs ta +tc +vs ta$' \
    "compare --col target of three: 'bandwidth (UNITS)  ta  tb  vs ta  tc  vs ta'"

run_nm disk ta --rw read --size 64k --loops 2 --engine psync --interval 0 -L bs 4k,8k --label th-sweep
expect_rc 0 "disk -L bs 4k,8k: exit 0"
printf '%s\n' "$out" >sweep.txt
r=$(turns disk sweep.txt bandwidth)
[[ $r == ok* ]] && ok "disk -L: each head in compare's words, over cells in its units, aligned ($r)" ||
    not_ok "disk -L: each head in compare's words, over cells in its units, aligned" "$r"$'\n'"$(cat sweep.txt)"
run_nm compare th-sweep --col bs
printf '%s\n' "$out" >sweep-compare.txt
c=$(compare_units bandwidth sweep-compare.txt)
check "compare of the saved sweep heads its bandwidth with the same words and units (${r#ok }: $c)" \
    test "${r#ok }" = "$c"

mkdir -p tp
run_nm pieces tp -L hash sha256,blake3 --count 3 --size 64k --runs 2 --read --label th-pieces
expect_rc 0 "pieces -L hash sha256,blake3: exit 0"
printf '%s\n' "$out" >pieces.txt
expect_out_matches '^setting +write bandwidth \([^)]*\) +vs ref +verdict +read bandwidth \([^)]*\) +vs ref +verdict$' \
    "pieces -L: 'write bandwidth (UNITS)  vs ref  verdict', and the same for read"
r=$(turns pieces pieces.txt bandwidth)
[[ $r == ok* ]] && ok "pieces -L: each head in compare's words, over cells in its units, aligned ($r)" ||
    not_ok "pieces -L: each head in compare's words, over cells in its units, aligned" "$r"$'\n'"$(cat pieces.txt)"
run_nm compare th-pieces --col hash
printf '%s\n' "$out" >pieces-compare.txt
c=$(compare_units bandwidth pieces-compare.txt)
# compare's head also names its geomean's unit: the sweep's units are among compare's
if [[ $r == ok* ]] && a_subset "${r#ok }" "$c"; then
    ok "compare of the saved sweep heads its bandwidth with the same words (${r#ok } in $c)"
else not_ok "compare of the saved sweep heads its bandwidth with the same words" "sweep ${r#ok }, compare $c"$'\n'"$(cat pieces-compare.txt)"; fi

mkdir -p cwa cwb
run_nm run cwa --compare-with cwb --quick --phases pieces --label th-cw -q
expect_rc 0 "run --compare-with --phases pieces: exit 0"
printf '%s\n' "$out" >cw.txt
expect_out_matches '^phase +bandwidth \([kMGT]?B/s(, [kMGT]?B/s)*\) +A +B +B/A +verdict$' \
    "run --compare-with: 'phase  bandwidth (UNITS)  A  B  B/A  verdict'"
r=$(turns run cw.txt bandwidth)
[[ $r == ok* ]] && ok "run --compare-with: each head in compare's words, over cells in its units, aligned ($r)" ||
    not_ok "run --compare-with: each head in compare's words, over cells in its units, aligned" "$r"$'\n'"$(cat cw.txt)"
run_nm compare th-cw --col target
printf '%s\n' "$out" >cw-compare.txt
c=$(compare_units bandwidth cw-compare.txt)
if [[ $r == ok* ]] && a_subset "${r#ok }" "$c"; then
    ok "compare of the saved run heads its bandwidth with the same words (${r#ok } in $c)"
else not_ok "compare of the saved run heads its bandwidth with the same words" "run ${r#ok }, compare $c"$'\n'"$(cat cw-compare.txt)"; fi
