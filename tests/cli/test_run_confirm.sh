# serial: calls and their re-measures depend on a quiet machine
# nodemark run re-measures a suspected change before calling it: the benches with a call against
# the baseline are measured again (rounds, in turns) and the call is confirmed or withdrawn from
# the new samples; compare makes the same calls later from what was saved.  The machine is
# shared, so the noise monitor reads a quiet fake /proc (NODEMARK_PROCROOT); a slowdown that came
# and went is injected with NODEMARK_TEST_TRANSIENT (the run's samples only, not the re-measure's).
. "$TESTS_DIR/cli/lib.sh"

d=$(mktemp -d "$PWD/confirm.XXXXXX")
export NODEMARK_DB=$d/results.db NODEMARK_PROCROOT=$d/proc
mkdir -p "$d/data" "$d/proc/self"
printf 'cpu  100 0 100 1000 0 0 0 0\ncpu0 100 0 100 1000 0 0 0 0\n' >"$d/proc/stat"
printf '1 (nodemark) R 0 0 0 0 0 0 0 0 0 0 10 10 0 0 20 0 1 0 0 0 0\n' >"$d/proc/self/stat"
printf 'MemTotal: 1000000 kB\nCached: 0 kB\nDirty: 0 kB\nWriteback: 0 kB\n' >"$d/proc/meminfo"

run_nm run "$d/data" --quick --no-report --phases hash --label base
expect_rc 0 "the baseline run exits 0"
run_nm export base
printf '%s\n' "$out" >"$d/base.json"
# A/A history around the baseline's own median (medians x 1, 1.4, 0.6, 1, 1: an 80% floor), and a
# baseline of another mode (left out of the history) 1000 times faster than this machine
python3 - "$d" <<'PY'
import json, sys, copy
d = sys.argv[1]
base = json.load(open(d + "/base.json"))
recs = []
for i, f in enumerate([1.0, 1.4, 0.6, 1.0, 1.0]):
    r = copy.deepcopy(base)
    r["id"] = "6b0e00000000%04x" % i
    r["label"] = "h%d" % i
    r["time_ms"] = base["time_ms"] - 3600000 + i
    r["extra"].pop("noise_floor", None)
    for b in r["benches"]:
        for m in b["metrics"]:
            m["samples"] = [v * f for v in m["samples"]]
    recs.append(r)
fast = copy.deepcopy(base)
fast["id"], fast["label"], fast["time_ms"] = "6b0e0000000000ff", "fast", base["time_ms"] - 7200000
fast["extra"]["run"]["mode"] = "default"
fast["extra"].pop("noise_floor", None)
for b in fast["benches"]:
    for m in b["metrics"]:
        m["samples"] = [v * 1000 for v in m["samples"]]
recs.append(fast)
json.dump(recs, open(d + "/history.json", "w"))
PY
run_nm import "$d/history.json"
expect_rc 0 "the history imports"

# a slowdown that lasts: against a baseline 1000 times faster, every figure with enough samples
# is called, and the re-measure makes the same call (which figures have enough samples depends
# on the machine's speed, so the lines are checked for each call made, not by name)
run_nm run "$d/data" --quick --no-report --phases hash --baseline fast --label slow
expect_rc 0 "a run with a lasting slowdown exits 0"
ncalls=$(grep -cE '^  hash/[a-z0-9]+/[0-9]+t +regression: ' <<<"$out")
if [ "$ncalls" -eq 0 ]; then
    skip "a lasting slowdown is confirmed" "no figure had 6 samples in the time budget on this machine"
else
    nconf=$(grep -cE '^  hash/[a-z0-9]+/[0-9]+t +regression: -(9[0-9]|100)\.[0-9]% .*; confirmed by a re-measure: -(9[0-9]|100)\.[0-9]% \(p=' <<<"$out")
    if [ "$nconf" -eq "$ncalls" ]; then ok "each of the $ncalls calls of a lasting slowdown is confirmed by the re-measure"
    else not_ok "each of the $ncalls calls of a lasting slowdown is confirmed by the re-measure" "$out"; fi
    expect_out_matches "this run [0-9a-f]{8} slow vs baseline [0-9a-f]{8} fast: $ncalls called, .*re-measured: $ncalls confirmed, 0 withdrawn" \
        "the counts say every call was confirmed and none withdrawn"
    if grep -q "withdrawn after a re-measure" <<<"$out"; then not_ok "nothing is withdrawn" "$out"; else ok "nothing is withdrawn"; fi
fi

# a burst that came and went: the run's samples 10 times what the machine does
NODEMARK_TEST_TRANSIENT='hash/blake3/1t=10' run_nm run "$d/data" --quick --no-report --phases hash --baseline base --label blip
expect_rc 0 "a run with a passing slowdown exits 0"
# Too few samples on either side (a loaded machine's 3 s budget may give the baseline only 5)
# leaves nothing to re-measure. The saved comparison says so per figure; the text groups such
# figures in one "hash phase, N figures" line that names none of them.
blip_out=$out blip_err=$err
run_nm compare base blip --format json
few=$(json_get '[c["why"] for c in j["calls"] if c["name"] == "hash/blake3/1t" and c["metric"] == "bytes_per_sec"]' 2>&1)
out=$blip_out err=$blip_err
if [[ $few == *"too few samples"* ]]; then
    skip "the re-measure of a passing burst" "too few samples for a call in the time budget: $few"
    rm -rf "$d"
    exit 0
fi
expect_err_matches() { if grep -qE -- "$1" <<<"$err"; then ok "$2"; else not_ok "$2" "stderr: ${err:0:600}"; fi; }
expect_err_matches '^re-measuring [0-9]+ figures? whose change may be real \(3 rounds, in turns\):.* hash/blake3/1t' \
    "the suspected figure is measured again"
expect_out_matches '^  hash/blake3/1t +withdrawn after a re-measure: .*\(the run.s samples said improvement \+[0-9.]+%\)$' \
    "the burst that came and went is withdrawn, and the line says what the run's samples said"
expect_out_matches 'this run [0-9a-f]{8} blip vs baseline [0-9a-f]{8} base: .*re-measured: [0-9]+ confirmed, [1-9][0-9]* withdrawn' \
    "the counts say how many calls were confirmed and withdrawn"
run_nm export blip
res=$(json_get '(j["extra"]["confirm"]["baseline"] == json.load(open("'"$d"'/base.json"))["id"],
  len(j["extra"]["confirm"]["benches"]["hash/blake3/1t"]["bytes_per_sec"]), "hash" in j["extra"]["confirm"]["noise"])' 2>&1)
if [ "$res" = "(True, 6, True)" ]; then ok "the run saves the re-measured samples (3 rounds of 2), their noise and the baseline they answer"
else not_ok "the run saves the re-measured samples (3 rounds of 2), their noise and the baseline they answer" "$res"; fi
run_nm compare base blip --format json
res=$(json_get '[(c["call"], c["remeasure"]) for c in j["calls"] if c["name"] == "hash/blake3/1t" and c["metric"] == "bytes_per_sec"]' 2>&1)
case $res in
"[('unchanged', {'result': 'withdrawn', 'first_call': 'improvement'})]"|"[('not compared', {'result': 'withdrawn', 'first_call': 'improvement'})]")
    ok "compare withdraws the same call from the saved samples" ;;
*) not_ok "compare withdraws the same call from the saved samples" "$res" ;;
esac

rm -rf "$d"
