# nodemark show RUN: a saved run as text. Its figures are named in compare's words (the one
# naming, units_metric_words: "bandwidth", "mean latency", never bytes_per_sec), its settings are
# aligned key/value lines (a nested setting key by key, never a JSON blob), the columns line up
# by display width ("µs" and "±" take one column each, not two bytes), and a record without an
# inventory names no machine ("unknown", never "0-core").
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1

mk() { # FILE ID LABEL INVENTORY(json|none)
    python3 - "$@" <<'PY'
import json, sys
path, rid, label, inv = sys.argv[1:5]
jit = [1.0, 1.01, 0.99, 1.004, 0.996, 1.002]
m = lambda nm, unit, dirn, v: {"name": nm, "unit": unit, "direction": dirn, "samples": [v * j for j in jit]}
rec = {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000000000, "time": "",
       "host": "lab", "version": "0.1.0", "command": "disk", "cmdline": "nodemark disk a b", "label": label,
       "tags": {}, "extra": {}, "benches": [
    {"name": "RND4K Q1T1 read", "series": [], "hists": [],
     "settings": {"rw": "randread", "bs": 4096, "direct": True, "target": "/mnt/a",
                  "parameters": {"bs": "4k", "iodepth": "1"}, "cpus": [0, 1, 2], "files": [{"name": "f0", "size": 4096}],
                  "paired": {"reference": "/mnt/b", "ratio": 0.97, "verdict": "no change", "text": "no change beyond ±4%"}},
     "metrics": [m("bytes_per_sec", "B/s", "higher", 22.2e6), m("iops", "op/s", "higher", 5420),
                 m("lat_mean_ns", "ns", "lower", 184e3), m("lat_p99_ns", "ns", "lower", 7.52e6),
                 m("cpu_ns_per_io", "ns", "lower", 950)]},
    {"name": "SEQ1M Q8T1 write", "series": [], "hists": [], "settings": {"rw": "write"},
     "metrics": [m("write_bytes_per_sec", "B/s", "higher", 1.61e9), m("write_clat_mean_ns", "ns", "lower", 5.1e6)]}]}
if inv != "none":
    rec["inventory"] = json.loads(inv)
json.dump(rec, open(path, "w"))
PY
}

# show's text of a run: each bench's key/value lines checked; prints "ok N" (lines checked) or
# what is wrong.  A value starts in one display column per bench (Python counts characters, so
# a padding by bytes would put a "µs" line one column off), and the "±" of the figures lines up.
lines_check() {
    python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
bad, n = [], 0
start = lambda l: re.match(r"    \S+(?: \S+)*  +", l).end() if re.match(r"    \S+(?: \S+)*  +", l) else -1
for block in re.split(r"\n  (?=\S)", text)[1:]:
    rows = [l for l in block.splitlines()[1:] if l.startswith("    ") and not l.startswith("    series ")
            and not l.startswith("    histogram ")]
    settings = [l for l in rows if " (n=" not in l]
    figures = [l for l in rows if " (n=" in l]
    col = {start(l) for l in settings}
    if len(col) > 1 or -1 in col:
        bad.append("settings' values start in columns %s: %r" % (sorted(col), settings))
    # a figure is right-aligned in the value column: the widest starts in it, and the "±"
    # after each lines up (a padding by bytes would put a "µs" line one column off)
    if figures and col and min(start(l) for l in figures) not in col:
        bad.append("figures start in column %d, settings' values in %s" % (min(start(l) for l in figures), sorted(col)))
    pm = {l.index(" ± ") for l in figures if " ± " in l and "unstable" not in l}
    if len(pm) > 1:
        bad.append("the figures' ± in columns %s" % sorted(pm))
    for l in settings:
        if re.search(r"  [\[{]", l):
            bad.append("a JSON blob: %r" % l)
    n += len(rows)
print("ok %d" % n if n and not bad else "checked %d: %s" % (n, "; ".join(bad)))
PY
}

mk full.json 5a0e000000000001 full \
    '{"cpu": {"cores": 4, "threads": 8, "model": "Intel(R) Xeon(R) Gold 6338"}, "memory": {"total": 8589934592}}'
mk empty.json 5a0e000000000002 empty '{}'
mk none.json 5a0e000000000003 none none
mk nocpu.json 5a0e000000000004 nocpu '{"memory": {"total": 8589934592}}'
for f in full empty none nocpu; do
    run_nm import $f.json
    expect_rc 0 "import the $f record"
done

run_nm show full
expect_rc 0 "show full: exit 0"
printf '%s\n' "$out" >full.txt
for words in bandwidth IOPS "mean latency" "p99 latency" "CPU time per I/O" "write bandwidth" \
    "write mean completion latency"; do
    expect_out_matches "^    $words  +[0-9]" "the metric is named in compare's words: $words"
done
if grep -qE '^    (bytes_per_sec|iops|lat_mean_ns|lat_p99_ns|cpu_ns_per_io|write_bytes_per_sec|write_clat_mean_ns) ' full.txt; then
    not_ok "no metric is named by its record key" "$(grep -E '^    [a-z_]+_' full.txt)"
else
    ok "no metric is named by its record key"
fi
expect_out_matches '^    mean latency +184 µs ± [0-9]+% \(n=6, lower is better\)$' "a figure with its unit, as compare shows it (184 µs)"
expect_out_matches '^    paired\.ratio +0\.97$' "a nested setting key by key (paired.ratio), not JSON"
expect_out_matches '^    parameters\.bs +4k$' "a sweep's parameters key by key"
expect_out_matches '^    cpus +0, 1, 2$' "a list of plain values joined"
expect_out_matches '^    files\[0\]\.size +4096$' "a list of objects item by item, not JSON"
expect_out_matches '^    paired\.text +no change beyond ±4%$' "a setting with a multibyte character stays whole"
r=$(lines_check full.txt)
[[ $r == ok* ]] && ok "settings and figures are aligned by display width ($r)" || not_ok "settings and figures are aligned by display width" "$r"$'\n'"$(cat full.txt)"
expect_out_matches '^machine  4-core/8-thread Intel Xeon Gold 6338, 8 GiB RAM$' "a record with an inventory names its machine"

# compare names the same figures with the same words: every metric show names is a head of
# compare's tables of the same run
run_nm compare full
expect_rc 0 "compare full: exit 0"
printf '%s\n' "$out" >compare.txt
missing=$(python3 - full.txt compare.txt <<'PY'
import re, sys
show = open(sys.argv[1], encoding="utf-8").read()
comp = open(sys.argv[2], encoding="utf-8").read()
# show's metric lines: a key, then a figure ("184 µs ± 1% (n=6, ...)")
keys = re.findall(r"^    (\S+(?: \S+)*?)  +\S.* \(n=\d+", show, re.M)
heads = set(re.findall(r"^([A-Za-z][A-Za-z0-9 /%-]*?)(?: \([^)]*\))?(?=  |$)", comp, re.M))
# compare lays read and write of a figure in one family's table ("mean completion latency" with
# a row per direction): show's "write X" is compare's "X"
fam = lambda k: re.sub(r"^(read|write|trim) ", "", k)
print(" ".join("%r" % k for k in keys if fam(k) not in heads) if keys else "no metric lines")
PY
)
[ -z "$missing" ] && ok "each figure show names is a head of compare's table of the same run" ||
    not_ok "each figure show names is a head of compare's table of the same run" "not in compare: $missing"$'\n'"$(cat compare.txt)"

# --- a record without an inventory: no machine it does not know --------------------------------
for f in empty none; do
    run_nm show $f
    expect_rc 0 "show $f: exit 0"
    if grep -q '0-core' <<<"$out"; then not_ok "$f inventory: no '0-core'" "$(grep machine <<<"$out")"
    else ok "$f inventory: no '0-core'"; fi
    expect_out_matches '^machine  unknown' "$f inventory: the machine is unknown"
done
run_nm show nocpu
expect_out_matches '^machine  8 GiB RAM$' "an inventory without the CPU's facts says what it knows, no '0-core'"
