# serial: noise floors and verdicts depend on a quiet machine
# nodemark run with A/A history in the store: each figure's noise floor comes from the spread of
# the earlier quiet runs of the same host, directory and mode, for the calls and for how many
# samples the figure takes; without enough history, the documented default, and the run says
# which.  The history is imported records, so its spread is known.  History is per CPU set: a run
# pinned with taskset takes none of the unpinned runs' spread (issue 27).
. "$TESTS_DIR/cli/lib.sh"

d=$(mktemp -d "$PWD/hist.XXXXXX")
# the noise monitor reads a quiet fake /proc: every run here is quiet, so each is history
export NODEMARK_DB=$d/results.db NODEMARK_PROCROOT=$d/proc
mkdir -p "$d/data" "$d/proc/self"
printf 'cpu  100 0 100 1000 0 0 0 0\ncpu0 100 0 100 1000 0 0 0 0\n' >"$d/proc/stat"
printf '1 (nodemark) R 0 0 0 0 0 0 0 0 0 0 10 10 0 0 20 0 1 0 0 0 0\n' >"$d/proc/self/stat"
printf 'MemTotal: 1000000 kB\nCached: 0 kB\nDirty: 0 kB\nWriteback: 0 kB\n' >"$d/proc/meminfo"
# the CPUs this shell (and the runs it starts) may use: the history's are the same
mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
python3 - "$d" "$(hostname)" "$(realpath "$d/data")" "$mine" <<'PY'
import json, sys, time
d, host, data, mine = sys.argv[1:5]
n = 0
for r in mine.split(","):
    a, _, b = r.partition("-"); n += int(b or a) - int(a) + 1
now = int(time.time() * 1000)
recs = []
# five quiet runs: hash/blake3/1t medians 100, 101, 99, 100, 100 MB/s: floor (101/99)^2 - 1 = 4.1%
for i, med in enumerate([100e6, 101e6, 99e6, 100e6, 100e6]):
    recs.append({"format": "nodemark-record", "format_version": 1, "id": "6b0e00000000%04x" % i,
                 "time_ms": now - 3600000 + i, "host": host, "version": "0.1.0", "command": "run",
                 "cmdline": "nodemark run", "label": "h%d" % i, "tags": {},
                 "extra": {"run": {"dir": data, "mode": "quick"}, "cpus_allowed": {"list": mine, "count": n},
                           "noise": {"hash": {"busy": False, "other_busy_pct": 1.0, "steal_pct": 0.0}}},
                 "benches": [{"name": "hash/blake3/1t", "settings": {"phase": "hash"},
                              "metrics": [{"name": "bytes_per_sec", "unit": "B/s", "direction": "higher",
                                           "samples": [med * 0.99, med, med * 1.01]}],
                              "series": [], "hists": []}]})
json.dump(recs, open(d + "/history.json", "w"))
PY
run_nm import "$d/history.json"
expect_rc 0 "the history imports"

run_nm run "$d/data" --quick --no-report --phases hash --label now
expect_rc 0 "run with history exits 0"
id=$(sed -n 's/^run \([0-9a-f]*\) (quick mode.*/\1/p' <<<"$out")
run_nm export "$id"
res=$(json_get '(
  {k: round(v, 1) if k == "pct" else v for k, v in j["extra"]["noise_floor"]["hash/blake3/1t"]["bytes_per_sec"].items()},
  {k: round(j["extra"]["sampling"]["hash/blake3/1t"][k], 1) if k == "target_pct" else j["extra"]["sampling"]["hash/blake3/1t"][k]
   for k in ("target_pct", "target_from", "floor_runs")},
  j["extra"]["noise_floor"]["hash/sha256/1t"]["bytes_per_sec"]["source"],
  {k: j["extra"]["sampling"]["hash/sha256/1t"][k] for k in ("target_pct", "target_from", "floor_runs")})' 2>&1)
want="({'pct': 4.1, 'runs': 5, 'source': 'history'}, {'target_pct': 2.0, 'target_from': 'history', 'floor_runs': 5}, 'default', {'target_pct': 17.5, 'target_from': 'default', 'floor_runs': 0})"
if [ "$res" = "$want" ]; then
    ok "a figure with 5 earlier quiet runs takes its floor (4.1%) and sampling target (2%) from them; one without keeps the default"
else not_ok "a figure with 5 earlier quiet runs takes its floor (4.1%) and sampling target (2%) from them; one without keeps the default" "$res"; fi

# an algorithm's thread counts take turns (suite/phase_hash.c): one sampler, so the same number
# of samples, the tighter target (the 1t figure's, from history) and the two budgets pooled
res=$(json_get '(lambda s: "one CPU" if "hash/blake3/2t" not in s else
  [(s[b]["samples"] == s[b[:-2] + "1t"]["samples"], round(s[b]["target_pct"], 1), s[b]["budget_s"])
   for b in ("hash/blake3/2t", "hash/sha256/2t")])(j["extra"]["sampling"])' 2>&1)
if [ "$res" = "one CPU" ]; then skip "the hash figures take turns (one CPU: no all-CPU figure)"
elif [ "$res" = "[(True, 2.0, 6.0), (True, 17.5, 6.0)]" ]; then
    ok "an algorithm's 1-thread and all-CPU figures take turns: the same samples, the tighter target, a pooled budget"
else not_ok "an algorithm's 1-thread and all-CPU figures take turns: the same samples, the tighter target, a pooled budget" "$res"; fi

run_nm compare h4 now --format json
res=$(json_get '[(c["floor_from"], c["floor_runs"], round(c["floor_pct"])) for c in j["calls"] if c["name"] == "hash/blake3/1t"]' 2>&1)
if [ "$res" = "[('history', 5, 4)]" ]; then ok "compare uses the floor saved with the run and says it came from 5 runs"
else not_ok "compare uses the floor saved with the run and says it came from 5 runs" "$res"; fi

# the same directory and mode under taskset -c FIRST: none of the unpinned runs above (the five
# imported ones and "now") is its history, so its floors are the default
first=${mine%%[-,]*}
if ! command -v taskset >/dev/null; then skip "a pinned run's floor is not the unpinned runs'" "no taskset"
elif [ "$mine" = "$first" ]; then skip "a pinned run's floor is not the unpinned runs'" "this process may use one CPU ($mine)"
else
    run_cmd taskset -c "$first" "$NM" run "$d/data" --quick --no-report --phases hash --label pinned
    expect_rc 0 "the run under taskset -c $first exits 0"
    run_nm export pinned
    res=$(json_get '(j["extra"]["cpus_allowed"]["list"], j["extra"]["noise_floor"]["hash/blake3/1t"]["bytes_per_sec"],
      {k: j["extra"]["sampling"]["hash/blake3/1t"][k] for k in ("target_from", "floor_runs")})' 2>&1)
    want="('$first', {'pct': 35.0, 'runs': 0, 'source': 'default'}, {'target_from': 'default', 'floor_runs': 0})"
    if [ "$res" = "$want" ]; then ok "a run pinned with taskset -c $first takes no floor from the unpinned runs: the default, 0 runs"
    else not_ok "a run pinned with taskset -c $first takes no floor from the unpinned runs: the default, 0 runs" "$res"; fi
    # and the next unpinned run still has its six
    run_nm run "$d/data" --quick --no-report --phases hash --label again
    expect_rc 0 "the next unpinned run exits 0"
    run_nm export again
    res=$(json_get '{k: v for k, v in j["extra"]["noise_floor"]["hash/blake3/1t"]["bytes_per_sec"].items() if k != "pct"}' 2>&1)
    if [ "$res" = "{'runs': 6, 'source': 'history'}" ]; then ok "the next unpinned run's floor comes from the 6 unpinned runs, not the pinned one"
    else not_ok "the next unpinned run's floor comes from the 6 unpinned runs, not the pinned one" "$res"; fi
fi
rm -rf "$d"
