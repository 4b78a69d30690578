# nodemark run's disk phase and nodemark disk with the same plan: the same tests in the same
# order, each with the same settings and the same metrics, one sample per pass (run calls
# src/disk/ in-process; this checks it builds the plan disk builds).
. "$TESTS_DIR/cli/lib.sh"

mkdir -p D
run_nm run D --quick --no-report --phases disk --label rd-run
expect_rc 0 "run --phases disk: exit 0"
# the plan run chose (profile, size; quick: 0.2 s passes, 4 of them, no pause)
plan=$("$NM" export rd-run 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)["extra"]["run"]["disk"]
print(d["profile"], d["size"], int(round(d["runtime_s"] * 1000)), d["loops"], int(round(d["interval_s"] * 1000)))')
read -r profile size runtime loops interval <<<"$plan"
if [ -z "${interval:-}" ]; then
	not_ok "run records its disk plan" "$plan"
	exit 0
fi
run_nm disk D --profile "$profile" --size "$size" --runtime "${runtime}ms" --loops "$loops" \
	--interval "${interval}ms" --label rd-disk
expect_rc 0 "disk with run's plan: exit 0"

# shape RUN: per bench, its name, the settings that define it and its metrics' sample counts
shape() {
	"$NM" export "$1" 2>/dev/null | python3 -c '
import json, sys
for b in json.load(sys.stdin)["benches"]:
    s = b["settings"]
    keys = ("rw", "bs", "iodepth", "numjobs", "size", "runtime_ns", "engine", "direct")
    print(b["name"], [s.get(k) for k in keys], [(m["name"], len(m["samples"])) for m in b["metrics"]],
          [h["name"] for h in b.get("hists", [])])'
}
a=$(shape rd-run)
b=$(shape rd-disk)
check "run's disk phase ran tests" test "$(wc -l <<<"$a")" -ge 4
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "run's disk benches have disk's tests, settings and samples"
else not_ok "run's disk benches have disk's tests, settings and samples" "run: ${a:0:300} / disk: ${b:0:300}"; fi
check "one sample per pass" grep -q "('bytes_per_sec', $loops)" <<<"$a"
if [ -z "$(ls -A D)" ]; then ok "nothing left in D"; else not_ok "nothing left in D" "$(ls -A D)"; fi
