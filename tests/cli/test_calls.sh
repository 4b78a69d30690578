# serial: calls depend on whether the machine was busy
# nodemark's calls after benchstat's tables: a change is called only when neither run was busy,
# both have enough samples, the test says so and the change exceeds the noise floor.  The runs
# are JSON records written here, so every input of the rule is known.
. "$TESTS_DIR/cli/lib.sh"

d=$(mktemp -d "$PWD/rule.XXXXXX")
python3 - "$d" <<'PY'
import json, sys, copy
d = sys.argv[1]
def bench(name, phase, samples):
    return {"name": name, "settings": {"phase": phase},
            "metrics": [{"name": "bytes_per_sec", "unit": "B/s", "direction": "higher", "samples": samples}],
            "series": [], "hists": []}
quiet = {"busy": False, "other_busy_pct": 1.0, "steal_pct": 0.0}
busy = {"busy": True, "other_busy_pct": 93.0, "steal_pct": 0.0, "why": "other processes used 93% of the CPUs"}
def record(rid, label, scale, disk_scale, noise_hash, floor=None, sampling=None):
    r = {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1796119242862, "host": "vm",
         "version": "0.1.0", "command": "run", "cmdline": "nodemark run", "label": label, "tags": {},
         "extra": {"run": {"dir": "/data", "mode": "default"},
                   "noise": {"hash": noise_hash, "disk": quiet, "pieces": quiet}},
         "benches": [bench("hash/blake3/1t", "hash", [v * scale for v in [100e6, 101e6, 99e6, 100.5e6, 99.5e6, 100.2e6]]),
                     bench("SEQ1M Q8T1 read", "disk", [v * disk_scale for v in [500e6, 505e6, 495e6, 502e6, 498e6, 501e6]]),
                     bench("pieces/files/blake3/sync/write", "pieces", [v * scale for v in [50e6, 51e6, 49e6, 50.5e6]])]}
    if floor:
        r["extra"]["noise_floor"] = floor
    if sampling:
        r["extra"]["sampling"] = sampling
    return r
def save(name, r):
    json.dump(r, open(f"{d}/{name}.json", "w"))
save("base", record("6b0e000000000001", "base", 1.0, 1.0, quiet))
# hash -30% (a call), disk -5% (significant, inside the disk's 100% default floor), pieces 4 samples
save("slow", record("6b0e000000000002", "slow", 0.7, 0.95, quiet,
                    sampling={"pieces/files/blake3/sync/write": {"samples": 4, "stopped": "budget"}}))
save("busy", record("6b0e000000000003", "busy", 0.7, 0.95, busy))
save("floor", record("6b0e000000000004", "floor", 0.7, 0.95, quiet,
                     floor={"hash/blake3/1t": {"bytes_per_sec": {"pct": 50.0, "runs": 6}}}))
PY
cd "$d" || exit 1

run_nm compare base.json slow.json
expect_rc 0 "compare of two runs exits 0"
expect_out_matches 'hash/blake3/1t +.*-30\.00% \(p=0\.002 n=6\)' "benchstat's row is unchanged above the calls"
expect_out_matches '^  hash/blake3/1t +regression: -30\.0% \(p=0\.002 n=6\+6, noise floor 35% by default\)' \
    "a -30% change (a factor of 1.43), quiet runs, 6+6 samples, over the 35% default floor is called a regression"
if grep -q '^  SEQ1M Q8T1 read.*regression' <<<"$out"; then
    not_ok "a significant -5% inside the disk's 100% default floor is not called" "$out"
else ok "a significant -5% inside the disk's 100% default floor is not called"; fi
expect_out_matches '^  SEQ1M Q8T1 read +no change beyond ±[0-9]+%$' \
    "an unchanged row ends in its verdict: the change's interval bounds it (issue 27 item 5)"
expect_out_matches '^ +can.t tell: ±100% noise here; would decide: more samples \(--runs' \
    "a row with too few samples: can't tell, the noise known (the floor), and what would decide it"
expect_out_has "not compared: too few samples (4+4; a call needs 6 each: the time budget ran out (slow.json))" \
    "4 samples are too few, and the time budget that cut them short is named"
expect_out_has "bandwidth (MB/s), slow.json vs base.json: 1 called, 1 unchanged, 1 not compared" "the counts are given"

run_nm compare base.json busy.json
expect_out_has "hash/blake3/1t                 not compared: busy.json: the hash phase ran on a busy machine (other processes used 93% of the CPUs)" \
    "a busy phase is not compared, and the reason says which run and why"
if grep -q "regression" <<<"$out"; then not_ok "nothing is called against a busy run" "$out"; else ok "nothing is called against a busy run"; fi
expect_out_matches 'hash/blake3/1t +.*-30\.00% \(p=0\.002 n=6\)' "benchstat's numbers stay available for the busy run"

run_nm compare base.json floor.json
expect_out_has "floor.json vs base.json: 0 called, 2 unchanged, 1 not compared" "the noise floor saved with a run (50%) keeps -30% (a factor of 1.43) from being called"
run_nm compare base.json floor.json --format json
res=$(json_get '[(c["name"], c["call"], c["floor_from"], c["floor_runs"], c["why"]) for c in j["calls"] if c["name"] != "pieces/files/blake3/sync/write"]' 2>&1)
if [ "$res" = "[('hash/blake3/1t', 'unchanged', 'history', 6, 'unchanged: -30.0% is within the noise floor (50% from 6 runs)'), ('SEQ1M Q8T1 read', 'unchanged', 'default', 0, 'unchanged: -5.0% is within the noise floor (100% by default)')]" ]; then
    ok "each call says whether its floor came from history (and how many runs) or is the default"
else not_ok "each call says whether its floor came from history (and how many runs) or is the default" "$res"; fi

# a change that came between two runs widens the floors of the runs after it (their history holds
# it); the older run's floor, from the runs before it, is the one the change is judged by
python3 - <<'PY'
import json
for name, src, t, pct in [("before", "base.json", 1796119242862 - 86400000, 20.0), ("after", "slow.json", 1796119242862, 400.0)]:
    r = json.load(open(src))
    r["time_ms"] = t
    r["extra"]["noise_floor"] = {"hash/blake3/1t": {"bytes_per_sec": {"pct": pct, "runs": 8}}}
    json.dump(r, open(name + ".json", "w"))
PY
run_nm compare before.json after.json
expect_out_matches '^  hash/blake3/1t +regression: -30\.0% \(p=0\.002 n=6\+6, noise floor 20% from 8 runs\)' \
    "a change is judged by the older run's floor, not by the newer one's that its own history widened"
run_nm compare after.json before.json
expect_out_matches '^  hash/blake3/1t +improvement: \+42\.9% \(p=0\.002 n=6\+6, noise floor 20% from 8 runs\)' \
    "the other way round the same floor is used"

run_nm compare base.json slow.json busy.json --format json
res=$(json_get '[(c["name"], c["column"], c["call"], c["n"], round(c["floor_pct"])) for c in j["calls"] if c["name"] == "hash/blake3/1t"]' 2>&1)
if [ "$res" = "[('hash/blake3/1t', 'slow.json', 'regression', [6, 6], 35), ('hash/blake3/1t', 'busy.json', 'not compared', [6, 6], 35)]" ]; then
    ok "--format json has the calls with column, kind, counts and floor"
else not_ok "--format json has the calls with column, kind, counts and floor" "$res"; fi

run_nm report base.json busy.json slow.json -o "$d/r.html"
expect_rc 0 "report exits 0"
check "the report shows each row's verdict beside it, classed by its kind" \
    grep -qE '<td class="call-regression" data-metric="bytes_per_sec" data-row="hash/blake3/1t" data-col="slow.json" data-verdict="called" title="regression: -30.0% \(p=0.002[^"]*">worse: -30.0% \(95% interval' "$d/r.html"
check "the report names a busy run's row as not compared, with why, beside it" \
    grep -qE '<td class="call-not-compared" data-metric="bytes_per_sec" data-row="hash/blake3/1t" data-col="busy.json" data-verdict="can.t tell" title="not compared: busy.json: the hash phase ran on a busy machine[^"]*; would decide: a quiet window[^"]*">can&#39;t tell: ±35% noise here</td>' "$d/r.html"
# the colour of a delta comes from its verdict alone: the busy run's -30% (p=0.002) is not
# coloured, the called one is, and exactly the called rows are coloured
row=$(grep -o '<tr><td>hash/blake3/1t</td>.*</tr>' "$d/r.html" | head -1)
if grep -qE '<td class="same">-30\.00% \(p=0\.002 n=6\)</td><td class="call-not-compared"' <<<"$row" &&
    grep -qE '<td class="worse">-30\.00% \(p=0\.002 n=6\)</td><td class="call-regression"' <<<"$row"; then
    ok "a cell is coloured from its verdict, not from its p-value"
else not_ok "a cell is coloured from its verdict, not from its p-value" "$row"; fi
coloured=$(grep -oE '<td class="(worse|better|changed)">[^<]*</td><td class="call-[a-z-]+"' "$d/r.html" | sed -E 's/.*class="call-([a-z-]+)"$/\1/' | sort -u | tr '\n' ' ')
called=$(grep -oE '<td class="call-(regression|improvement|changed)"' "$d/r.html" | wc -l)
ncoloured=$(grep -oE '<td class="(worse|better|changed)">' "$d/r.html" | wc -l)
if [ "$coloured" = "regression " ] && [ "$called" = "$ncoloured" ]; then ok "the report colours exactly the rows it calls"
else not_ok "the report colours exactly the rows it calls" "coloured: $coloured ($ncoloured cells), called: $called"; fi
if grep -q '<h2>Calls</h2>' "$d/r.html"; then not_ok "the report has no separate calls section" ""; else ok "the report has no separate calls section"; fi

# a call run re-measured: confirmed when the new samples make the same call against the same
# baseline, withdrawn when they do not (the samples saved in extra.confirm, so compare decides
# as run did)
python3 - <<'PY'
import json
for name, scale, against in [("again_same", 0.7, "6b0e000000000001"), ("again_back", 1.0, "6b0e000000000001"),
                             ("again_other", 1.0, "6b0e0000000000aa")]:
    r = json.load(open("slow.json"))
    r["id"] = {"again_same": "6b0e000000000021", "again_back": "6b0e000000000022", "again_other": "6b0e000000000023"}[name]
    r["extra"]["confirm"] = {"baseline": against, "rounds": 3, "per_round": 2,
                             "noise": {"hash": {"busy": False}},
                             "benches": {"hash/blake3/1t": {"bytes_per_sec": [v * scale for v in [100e6, 100.4e6, 99.6e6, 100.1e6, 99.9e6, 100.2e6]]}}}
    json.dump(r, open(name + ".json", "w"))
PY
run_nm compare base.json again_same.json
expect_out_matches '^  hash/blake3/1t +regression: -30\.0% \(p=0\.002 n=6\+6, noise floor 35% by default\); confirmed by a re-measure: -30\.0% \(p=0\.002 n=6\+6\)$' \
    "a call whose re-measure makes the same call is confirmed"
expect_out_has "1 called, 1 unchanged, 1 not compared; re-measured: 1 confirmed, 0 withdrawn" "the counts say so"
run_nm compare base.json again_back.json
expect_out_matches '^  hash/blake3/1t +withdrawn after a re-measure: unchanged: [-+]0\.0% is not significant .*\(the run.s samples said regression -30\.0%\)$' \
    "a call whose re-measure sees no change is withdrawn, shown with what the run's samples said"
expect_out_has "0 called, 2 unchanged, 1 not compared; re-measured: 0 confirmed, 1 withdrawn" "the withdrawn call is counted"
run_nm compare base.json again_other.json
expect_out_matches '^  hash/blake3/1t +regression: -30\.0% \(p=0\.002 n=6\+6, noise floor 35% by default\)$' \
    "a re-measure against another baseline does not touch this comparison's call"

# rows of one phase not compared for one reason share a line, with the count
python3 - <<'PY'
import json
quiet = {"busy": False, "other_busy_pct": 1.0, "steal_pct": 0.0}
busy = {"busy": True, "other_busy_pct": 93.0, "steal_pct": 0.0, "why": "other processes used 93% of the CPUs"}
def rec(rid, label, noise):
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1796119242862, "host": "vm",
            "version": "0.1.0", "command": "run", "cmdline": "nodemark run", "label": label, "tags": {},
            "extra": {"run": {"dir": "/data", "mode": "default"}, "noise": {"hash": noise, "memory": quiet}},
            "benches": [{"name": n, "settings": {"phase": ph}, "series": [], "hists": [],
                         "metrics": [{"name": "bytes_per_sec", "unit": "B/s", "direction": "higher",
                                      "samples": [100e6 + k for k in range(s)]}]}
                        for n, ph, s in [("hash/blake3/1t", "hash", 6), ("hash/blake3/2t", "hash", 6),
                                         ("hash/sha256/1t", "hash", 6), ("memory/memcpy/2t", "memory", 4),
                                         ("memory/pagecache-read", "memory", 4)]]}
json.dump(rec("6b0e000000000011", "g1", quiet), open("g1.json", "w"))
json.dump(rec("6b0e000000000012", "g2", busy), open("g2.json", "w"))
PY
run_nm compare g1.json g2.json
expect_out_has "g2.json vs g1.json: 0 called, 0 unchanged, 5 not compared" "five rows not compared"
expect_out_matches '^  hash phase, 3 figures +not compared: g2.json: the hash phase ran on a busy machine \(other processes used 93% of the CPUs\)$' \
    "the three busy hash rows share one line with their count and reason"
expect_out_matches '^  memory phase, 2 figures +not compared: too few samples \(4\+4' "rows with the same too-few reason share one too"
if grep -qE '^  hash/' <<<"$out"; then not_ok "no hash row is repeated on its own line" "$out"; else ok "no hash row is repeated on its own line"; fi
run_nm compare g1.json g2.json --format json
res=$(json_get 'len([c for c in j["calls"] if c["call"] == "not compared"])' 2>&1)
if [ "$res" = 5 ]; then ok "--format json keeps one call per row"; else not_ok "--format json keeps one call per row" "$res"; fi

# storage on a virtual machine: the host sets the disk's pace, so a storage figure needs a change
# of a factor of 8 (700%) until a full history (20 runs) says otherwise; the CPU's figures keep
# their floors
python3 - <<'PY'
import json
quiet = {"busy": False, "other_busy_pct": 1.0, "steal_pct": 0.0}
def rec(rid, label, virt, disk_scale, hist_floor=None, hist_runs=8):
    def bench(n, ph, scale):
        return {"name": n, "settings": {"phase": ph}, "series": [], "hists": [],
                "metrics": [{"name": "bytes_per_sec", "unit": "B/s", "direction": "higher",
                             "samples": [scale * v for v in [500e6, 505e6, 495e6, 502e6, 498e6, 501e6]]}]}
    r = {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1796119242862 + int(rid[-2:]),
         "host": "vm", "version": "0.1.0", "command": "run", "cmdline": "nodemark run", "label": label, "tags": {},
         "inventory": {"os": {"virtualization": {"type": virt, "source": "test"}}},
         "extra": {"run": {"dir": "/data", "mode": "default"}, "noise": {"hash": quiet, "disk": quiet}},
         "benches": [bench("hash/blake3/1t", "hash", 0.7 if label.endswith("new") else 1.0),
                     bench("SEQ1M Q1T1 read", "disk", disk_scale)]}
    if hist_floor:
        r["extra"]["noise_floor"] = {"SEQ1M Q1T1 read": {"bytes_per_sec": {"pct": hist_floor, "runs": hist_runs, "source": "history"}}}
    return r
for virt, tag in (("kvm", "vm"), ("none", "metal")):
    json.dump(rec("6b0e0000000000%d1" % len(tag), tag + "-old", virt, 1.0, hist_floor=10.0), open(tag + "-old.json", "w"))
    json.dump(rec("6b0e0000000000%d2" % len(tag), tag + "-new", virt, 0.4), open(tag + "-new.json", "w"))
    json.dump(rec("6b0e0000000000%d3" % len(tag), tag + "-gone", virt, 0.1), open(tag + "-gone.json", "w"))
json.dump(rec("6b0e000000000009", "vm-long", "kvm", 1.0, hist_floor=10.0, hist_runs=20), open("vm-long.json", "w"))
PY
run_nm compare vm-old.json vm-new.json
if grep -q '^  SEQ1M Q1T1 read.*regression' <<<"$out"; then
    not_ok "on a virtual machine a storage figure that fell by a factor of 2.5 is not called, though its history floor is 10%" "$out"
else ok "on a virtual machine a storage figure that fell by a factor of 2.5 is not called, though its history floor is 10%"; fi
expect_out_matches "^  SEQ1M Q1T1 read +can't tell: noise past ±100% here \(a virtual machine's storage.*would decide: measuring in turns with \`disk A B\`" \
    "and says it can't tell, why (the host sets a VM's storage pace) and what would decide it"
expect_out_matches '^  hash/blake3/1t +regression: -30\.0% \(p=0\.002 n=6\+6, noise floor 35% by default\)$' \
    "on a virtual machine the hash figures keep their own floor"
run_nm compare vm-old.json vm-new.json --format json
res=$(json_get '[(c["name"], c["floor_from"], round(c["floor_pct"]), c["why"]) for c in j["calls"]][1]' 2>&1)
if [ "$res" = "('SEQ1M Q1T1 read', 'host-paced', 700, \"unchanged: -60.0% is within the noise floor (700% for a virtual machine's storage)\")" ]; then
    ok "--format json says the storage floor is the virtual machine's (host-paced, 700%)"
else not_ok "--format json says the storage floor is the virtual machine's (host-paced, 700%)" "$res"; fi
run_nm compare vm-old.json vm-gone.json
expect_out_matches '^  SEQ1M Q1T1 read +regression: -90\.0% \(p=0\.002 n=6\+6, noise floor 700% for a virtual machine.s storage\)$' \
    "on a virtual machine a storage figure that fell by a factor of 10 is still called"
run_nm compare vm-long.json vm-new.json
expect_out_matches '^  SEQ1M Q1T1 read +regression: -60\.0% \(p=0\.002 n=6\+6, noise floor 10% from 20 runs\)$' \
    "on a virtual machine a floor from a full history of 20 quiet runs replaces the least floor"
run_nm compare metal-old.json metal-new.json
expect_out_matches '^  SEQ1M Q1T1 read +regression: -60\.0% \(p=0\.002 n=6\+6, noise floor 10% from 8 runs\)$' \
    "on bare metal the same records are called, against their history floor"

# a busy hash phase with CPU time per sample (issue 27 item 9): judged on bytes per CPU-second
# and saying so; the busy run's wall-clock rate fell 30% (another process had the CPU), its CPU
# cost did not move (cpu_busy) or rose by half (cpu_slow); a record without CPU time is as before
python3 - <<'PY'
import json
base = json.load(open("base.json")); busy = json.load(open("busy.json"))
def cpu(r, scale):
    s = r["benches"][0]["metrics"][0]["samples"]
    # 1 GB per sample: wall seconds from the rate, CPU seconds from the unloaded rate over scale
    r["extra"]["cpu_time"] = {"hash/blake3/1t": {"metric": "bytes_per_sec", "threads": 1,
                              "wall_s": [1e9 / v for v in s], "cpu_s": [1e9 / (v0 * scale) for v0 in
                              [100e6, 101e6, 99e6, 100.5e6, 99.5e6, 100.2e6]]}}
    return r
json.dump(cpu(base, 1.0), open("cbase.json", "w"))
busy["id"] = "6b0e000000000031"; json.dump(cpu(busy, 1.0), open("cpu_busy.json", "w"))
slow = json.load(open("busy.json")); slow["id"] = "6b0e000000000032"
json.dump(cpu(slow, 0.5), open("cpu_slow.json", "w"))
steal = cpu(json.load(open("busy.json")), 1.0); steal["id"] = "6b0e000000000033"
steal["extra"]["noise"]["hash"] = {"busy": True, "other_busy_pct": 30.0, "steal_pct": 12.0,
    "why": "other processes used 30% of the CPUs and the hypervisor stole 12%"}
json.dump(steal, open("cpu_steal.json", "w"))
PY
run_nm compare cbase.json cpu_busy.json
expect_out_matches '^  hash/blake3/1t +no change beyond ±[0-9]+% \(judged on CPU time: busy 93%\)$' \
    "a busy hash row with CPU time is judged on bytes per CPU-second: its verdict says so, and how busy"
expect_out_has "(a busy run's hash figures are judged on their bytes per CPU-second)" "the calls' header says so"
run_nm compare cbase.json cpu_busy.json --format json
res=$(json_get '[(c["call"], c["basis"], c["verdict"]) for c in j["calls"] if c["name"] == "hash/blake3/1t"]' 2>&1)
if [ "$res" = "[('unchanged', 'cpu_time', 'no change')]" ]; then ok "JSON names the basis (cpu_time)"
else not_ok "JSON names the basis (cpu_time)" "$res"; fi
res=$(json_get '[c["why"] for c in j["calls"] if c["name"] == "hash/blake3/1t"][0]' 2>&1)
case $res in
"unchanged: "*"; judged on CPU time: busy 93% (cpu_busy.json: the hash phase ran on a busy machine (other processes used 93% of the CPUs))")
    ok "the why says what was judged and names the busy run" ;;
*) not_ok "the why says what was judged and names the busy run" "$res" ;;
esac
run_nm compare cbase.json cpu_slow.json
expect_out_matches "^  hash/blake3/1t +regression: -50\\.0% \\(p=0\\.002 n=6\\+6, noise floor 89%: 35% by default, widened by 40% for other processes' load\\); judged on CPU time: busy 93%" \
    "a busy run whose CPU cost per byte doubled is still called, on CPU time, past the floor widened for the load"
run_nm compare cbase.json cpu_steal.json
expect_out_matches '^  hash/blake3/1t +not compared: cpu_steal\.json: the hash phase ran on a busy machine \(other processes used 30% of the CPUs and the hypervisor stole 12%\)$' \
    "steal is not left out by a guest's CPU time: not compared, as before"
run_nm compare base.json cpu_busy.json
expect_out_matches '^  hash/blake3/1t +not compared: cpu_busy\.json: the hash phase ran on a busy machine' \
    "a baseline without CPU time (an older record): not compared, as before"
run_nm compare cbase.json slow.json --format json
res=$(json_get '[(c["call"], c["basis"]) for c in j["calls"] if c["name"] == "hash/blake3/1t"]' 2>&1)
if [ "$res" = "[('regression', 'wall')]" ]; then ok "quiet runs are judged on their own samples (basis wall)"
else not_ok "quiet runs are judged on their own samples (basis wall)" "$res"; fi

# a re-measure that ran busy is judged on its own CPU time (extra.confirm.cpu_time) where it kept
# it: a quiet run's -50% call is confirmed by a busy re-measure that sees -50% per CPU-second; a
# -30% call is withdrawn by one that sees -30% (inside the floor widened for the load); without
# CPU time the call is withdrawn, as before
python3 - <<'PY'
import json
for name, rid, with_cpu, scale in [("again_busy_cpu", "6b0e000000000041", True, 0.5), ("again_busy", "6b0e000000000042", False, 0.5),
                                   ("again_busy_cpu30", "6b0e000000000043", True, 0.7)]:
    r = json.load(open("slow.json")); r["id"] = rid
    s = [v * scale for v in [100e6, 100.4e6, 99.6e6, 100.1e6, 99.9e6, 100.2e6]]
    r["benches"][0]["metrics"][0]["samples"] = list(s)
    r["extra"]["confirm"] = {"baseline": "6b0e000000000001", "rounds": 3, "per_round": 2,
        "noise": {"hash": {"busy": True, "other_busy_pct": 90.0, "steal_pct": 0.0, "why": "other processes used 90% of the CPUs"}},
        "benches": {"hash/blake3/1t": {"bytes_per_sec": [v * 0.6 for v in s]}}}
    if with_cpu:  # the wall rate fell further under the load; the CPU time per byte is the slow run's
        r["extra"]["confirm"]["cpu_time"] = {"hash/blake3/1t": {"metric": "bytes_per_sec", "threads": 1,
            "wall_s": [1e9 / (v * 0.6) for v in s], "cpu_s": [1e9 / v for v in s]}}
    b = json.load(open("cbase.json")); b["id"] = "6b0e000000000001"
    json.dump(b, open("cbase1.json", "w"))
    json.dump(r, open(name + ".json", "w"))
PY
run_nm compare cbase1.json again_busy_cpu.json
expect_out_matches '^  hash/blake3/1t +regression: -50\.0% .*; confirmed by a re-measure: -50\.0% \(p=0\.002 n=6\+6, judged on CPU time: busy 90%\)$' \
    "a busy re-measure with CPU time confirms the call on CPU time, and says so"
run_nm compare cbase1.json again_busy_cpu30.json
expect_out_matches "^  hash/blake3/1t +withdrawn after a re-measure: unchanged: -30\\.0% is within the noise floor \\(89%: 35% by default, widened by 40% for other processes' load\\); judged on CPU time" \
    "a busy re-measure that sees -30% per CPU-second withdraws a -30% call: inside the floor widened for the load"
run_nm compare cbase1.json again_busy.json
expect_out_matches '^  hash/blake3/1t +withdrawn after a re-measure: not compared: the re-measure ran on a busy machine' \
    "a busy re-measure without CPU time withdraws the call, as before"

# Go benchmark text is benchstat's contract: no calls section
printf 'BenchmarkA 1 100 ns/op\nBenchmarkA 1 101 ns/op\n' >old.txt
printf 'BenchmarkA 1 200 ns/op\nBenchmarkA 1 201 ns/op\n' >new.txt
run_nm compare old.txt new.txt
if grep -q "calls" <<<"$out"; then not_ok "Go text gets no calls" "$out"; else ok "Go text gets no calls"; fi
cd .. && rm -rf "$d"
