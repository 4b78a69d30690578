# nodemark run's disk phase and nodemark disk with the same plan: the same tests in the same
# order, each with the same settings and the same metrics, one sample per pass (run calls
# src/disk/ in-process; this checks it builds the plan disk builds).  run's passes are adaptive
# (a test stops once its interval is narrow enough, extra.sampling), so its sample counts are
# checked against what it says it took, and disk's against the plan's loops.
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

# shape RUN: per bench, its name, the settings that define it and its metrics; then per bench
# its sample counts (one line: the counts, and what extra.sampling says, when it says)
shape() {
	"$NM" export "$1" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
for b in j["benches"]:
    s = b["settings"]
    keys = ("rw", "bs", "iodepth", "numjobs", "size", "runtime_ns", "engine", "direct")
    print(b["name"], [s.get(k) for k in keys], [m["name"] for m in b["metrics"]],
          [h["name"] for h in b.get("hists", [])])
smp = j["extra"].get("sampling", {})
print("samples", sorted({len(m["samples"]) for b in j["benches"] for m in b["metrics"]}),
      all(len(m["samples"]) == smp[b["name"]]["samples"] for b in j["benches"] for m in b["metrics"]) if smp else None)'
}
a=$(shape rd-run)
b=$(shape rd-disk)
check "run's disk phase ran tests" test "$(wc -l <<<"$a")" -ge 5
if [ -n "$a" ] && [ "$(grep -v '^samples' <<<"$a")" = "$(grep -v '^samples' <<<"$b")" ]; then
	ok "run's disk benches have disk's tests, settings and metrics"
else not_ok "run's disk benches have disk's tests, settings and metrics" "run: ${a:0:300} / disk: ${b:0:300}"; fi
check "disk: one sample per pass of the plan" grep -qx "samples \[$loops\] None" <<<"$b"
res=$(python3 -c '
import sys
line = [l for l in sys.stdin.read().splitlines() if l.startswith("samples")][0]
counts = eval(line[len("samples "):line.rindex("]") + 1]); said = line.endswith("True")
print(said and all(1 <= n <= int(sys.argv[1]) for n in counts))' "$loops" <<<"$a" 2>&1)
if [ "$res" = True ]; then ok "run: every test took at most loops passes, as extra.sampling says"
else not_ok "run: every test took at most loops passes, as extra.sampling says" "$a"; fi
if [ -z "$(ls -A D)" ]; then ok "nothing left in D"; else not_ok "nothing left in D" "$(ls -A D)"; fi
# What the session decided for the target (the engine auto picked, buffered where O_DIRECT is
# refused) is a note of disk's output; run keeps the same notes with its disk phase.
dnotes=$(grep '^note: ' <<<"$out" | sed 's/^note: //; s/\.nodemark-[^:/ ]*//g' | sort -u)
rnotes=$("$NM" export rd-run 2>/dev/null | python3 -c '
import json, re, sys
for n in json.load(sys.stdin)["extra"]["run"].get("notes", []):
    print(re.sub(r"\.nodemark-[^:/ ]*", "", n))')
missing=$(while IFS= read -r n; do [ -n "$n" ] && ! grep -qF -- "${n#*: }" <<<"$rnotes" && echo "$n"; done <<<"$dnotes")
if [ -n "$dnotes" ] && [ -z "$missing" ]; then ok "run's disk phase keeps the engine's notes disk shows"
else not_ok "run's disk phase keeps the engine's notes disk shows" "disk: $dnotes / run: $rnotes"; fi
