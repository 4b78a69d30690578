# One unit policy (docs/report.md, "Units"): the same run shown by the terminal (show), compare,
# report (HTML) and Markdown gives the same figures with the same units.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"

python3 - >suite.json <<'PY'
import json
def bench(name, phase, metrics):
    return {"name": name, "settings": {"phase": phase},
            "metrics": [{"name": n, "unit": u, "direction": d, "samples": s} for n, u, d, s in metrics],
            "series": [], "hists": []}
print(json.dumps({"format": "nodemark-record", "format_version": 1, "id": "00000001aaaa0001",
    "time_ms": 1700000000000, "time": "", "host": "node1", "version": "0.1.0", "command": "run",
    "cmdline": "nodemark run", "label": "units", "tags": {}, "inventory": {}, "extra": {},
    "benches": [
        bench("memory read", "memory", [("bytes_per_sec", "B/s", "higher", [15.8e9, 15.8e9, 15.8e9])]),
        bench("sha256", "hash", [("bytes_per_sec", "B/s", "higher", [2.1e9, 2.1e9, 2.1e9]),
                                 ("cycles_per_byte", "cycles/B", "lower", [0.6973, 0.6973, 0.6973])]),
        bench("rnd4k", "disk", [("lat_p99_ns", "ns", "lower", [7.52e6, 7.52e6, 7.52e6]),
                                ("iops", "op/s", "higher", [45210, 45210, 45210])]),
        bench("store", "pieces", [("pieces_per_sec", "op/s", "higher", [12345.6, 12345.6, 12345.6])]),
        bench("replay", "track", [("total_s", "s", "lower", [4033, 4033, 4033])])]}))
PY
run_nm import suite.json
expect_rc 0 "the record is imported"

run_nm show units
terminal=$out
run_nm compare units
compare=$out
run_nm report units -o r.html
html=$(cat r.html 2>/dev/null)
run_nm report units -o r.md
md=$(cat r.md 2>/dev/null)

for where in terminal compare html md; do
    text=${!where}
    for fig in "15.8 GB/s" "2.10 GB/s" "7.52 ms" "45210 IOPS" "12346 pieces/s" "0.6973 cycles/B" "1h07m13s"; do
        if grep -qF -- "$fig" <<<"$text"; then ok "$where shows $fig"; else not_ok "$where shows $fig" "${text:0:600}"; fi
    done
    # What the old outputs said instead: binary prefixes, a bare M on nanoseconds, m on cycles.
    for bad in "14.7" "Gi" "7.520M" "697.3m" "12.35k"; do
        if grep -qF -- "$bad" <<<"$text"; then not_ok "$where has no '$bad'" "${text:0:600}"; else ok "$where has no '$bad'"; fi
    done
done
# A geomean over memory, hash, disk and pieces bandwidths means nothing: none is given.
if grep -qF "no geomean: the rows measure different things" <<<"$compare"; then ok "compare: no geomean across kinds"
else not_ok "compare: no geomean across kinds" "$compare"; fi
# One chart per kind: the memory and the hash bandwidths are two charts, not one scale.
[ "$(grep -c 'class="chart-title"[^>]*>bandwidth (GB/s): ' r.html)" = 2 ] && ok "report: a bandwidth chart per kind" \
    || not_ok "report: a bandwidth chart per kind" "$(grep -o 'class="chart-title"[^<]*' r.html)"
