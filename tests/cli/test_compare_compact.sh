# compare of disk and fio runs: one compact table per figure family, a row per job as the user
# named it, a column per run and a ratio; single samples shown alone with one footnote;
# --format benchstat keeps benchstat's per-unit tables.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"

mk() { # FILE ID LABEL SCALE NSAMPLES
    python3 - "$@" <<'PY'
import json, sys
path, rid, label, scale, n = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
def job(name, g, d, iops, bs, lat):
    jit = [1.0, 1.004, 0.996, 1.001, 0.999, 1.002][:n]
    m = lambda nm, unit, dirn, v: {"name": d + "_" + nm, "unit": unit, "direction": dirn, "samples": [v * j for j in jit]}
    return {"name": "%s (group %d, entry %d)" % (name, g, g), "settings": {"groupid": g, "engine": "psync"},
            "series": [], "hists": [], "metrics": [
        m("iops", "op/s", "higher", iops * scale), m("bytes_per_sec", "B/s", "higher", iops * bs * scale),
        m("clat_mean_ns", "ns", "lower", lat / scale)]}
json.dump({"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000000000 + int(rid[-2:]) * 1000,
    "time": "", "host": "lab", "version": "0.1.0", "command": "fio", "cmdline": "nodemark fio cdm.fio", "label": label,
    "tags": {}, "inventory": {}, "extra": {}, "benches": [
        job("SeqQ8T1read", 0, "read", 1400, 1 << 20, 700e3), job("RND4KQ32T1write", 1, "write", 97000, 4096, 10e3)]},
    open(path, "w"))
PY
}
mk one.json 6b0e000000000001 1x 1 1
mk shm.json 6b0e000000000002 shm 2 1

run_nm compare one.json shm.json
expect_rc 0 "compare of two fio runs exits 0"
lines=$(grep -c '' <<<"$out")
[ "$lines" -le 40 ] && ok "the two-target comparison fits in 40 lines ($lines)" || not_ok "the two-target comparison fits in 40 lines" "$out"
expect_out_matches '^SeqQ8T1read read +1400 op/s +2800 op/s +2\.00x$' "a row per job as the user named it, a value per run and the ratio"
expect_out_matches '^RND4KQ32T1write write +700 µs|^RND4KQ32T1write write +10\.0 µs +5\.00 µs +0\.50x$' "latency rows in their family's table"
expect_out_matches '^IOPS \(op/s\) +one\.json +shm\.json +vs one\.json$' "the head names each run and the ratio's base"
if grep -qE '± ∞|entry [0-9]|group [0-9]|p=1\.000|not compared' <<<"$out"; then not_ok "no ± ∞, no fio places, no p or calls of single samples" "$out"
else ok "no ± ∞, no fio places, no p or calls of single samples"; fi
[ "$(grep -c 'single runs get no interval and no verdict' <<<"$out")" = 1 ] && ok "one footnote says single runs get no interval and no verdict" ||
    not_ok "one footnote says single runs get no interval and no verdict" "$out"
[ "$(grep -c '^IOPS\|^bandwidth\|^mean completion latency' <<<"$out")" = 3 ] && ok "one table per figure family, read and write together" ||
    not_ok "one table per figure family, read and write together" "$out"

run_nm compare one.json shm.json --format benchstat
expect_out_matches '^SeqQ8T1read \(group 0, entry 0\) +1400 op/s ± ∞ ¹' "--format benchstat keeps benchstat's per-unit tables"

# six samples a side: the interval and the verdict beside the ratio
mk one6.json 6b0e000000000003 1x 1 6
mk quarter6.json 6b0e000000000004 quarter 0.25 6
run_nm compare one6.json quarter6.json
# a factor of 4 is beyond a disk's default noise floor (100%): called
expect_out_matches '^SeqQ8T1read read +1401 op/s ± 0% +350\.2 op/s ± 0% +0\.25x regression$' "with samples, each value has its interval and the ratio its verdict"
expect_out_matches '^RND4KQ32T1write write +10\.0 µs ± 0% +40\.0 µs ± 0% +4\.00x regression$' "a latency four times as long is the same regression"
if grep -q 'single runs get no interval' <<<"$out"; then not_ok "no single-sample footnote without single samples" "$out"
else ok "no single-sample footnote without single samples"; fi
expect_out_has "calls: a change is called" "the calls are listed when they say more than single samples"
