#!/usr/bin/env bash
# Does nodemark cry wolf?  A/A, busy A/A and A/B experiments on `nodemark run --quick`, counting
# the calls `nodemark compare` makes about each pair of runs (the same calls `run` prints).
#
#   bench/aa.sh [PAIRS] [EXPERIMENTS]     (default 10 pairs; experiments: aa,busy,busyab,ab)
#   PHASES=memory,hash bench/aa.sh 3 aa   (the phases of the A/A runs; default all)
#   KEEP=DIR bench/aa.sh ...               (keep each run's output as DIR/<experiment>-<label>.txt,
#                                           and each experiment's store as DIR/<experiment>.db)
#
#   aa    two runs back to back, nothing changed: every call is a false call
#         (goal: at most 1 in 10 pairs, over all metrics, on a quiet machine)
#   busy  the same, with a CPU hog (one `yes` per CPU) and an I/O hog (dd writing with O_DIRECT)
#         started by this script during the second run: goal 0 calls, and every row that
#         benchstat calls significant says why it was not compared, or that it was judged on
#         CPU time (a busy run's hash figures: bytes per CPU-second of the hashing threads)
#   busyab the hash phase: the second run busy (the hogs of busy) and with SHA-NI turned off in
#         OpenSSL (OPENSSL_ia32cap), so each SHA-256 figure costs about 3x the CPU time per byte: a
#         real CPU-cost change that the CPU-time basis must call on a busy machine; the BLAKE3
#         rows are the control (goal: every sha256 row called a regression in 10 of 10 pairs, no
#         blake3 row called).  A third, quiet run with SHA-NI off gives the injected change.
#   ab    the hash phase, the second run pinned to one CPU with taskset (in a directory of its
#         own, so that each configuration's history is its own A/A spread): the */Nt figures lose
#         their other threads, so each Nt figure falls to what one CPU does in that minute: the
#         injected change is the pinned run's own 1t figure over the baseline's Nt figure, minus
#         1 (the single-thread speed of this VM drifts by 20% between minutes, so the baseline's
#         1t would carry that drift into the reference); the 1t figures are the control.  Goal: >= 9 in 10 pairs call every Nt figure a regression
#         with a size within 10 points of the injected one, and no 1t figure.
#
# Each pair uses its own results store under a temporary directory, shared by the pairs of one
# experiment, so later pairs have A/A history (the noise floor) from earlier ones.
set -u
cd "$(dirname "$0")/.."
pairs=${1:-10}
experiments=${2:-aa,busy,busyab,ab}
phases=${PHASES:-inventory,memory,hash,disk,pieces}
nm=${NM_BIN:-$PWD/build/nodemark}
[ -x "$nm" ] || { echo "bench/aa.sh: build nodemark first (make)" >&2; exit 2; }
[ -n "${KEEP:-}" ] && { mkdir -p "$KEEP" || exit 2; }
tmp=$(mktemp -d)
hogs=()
stop_hogs() { for p in "${hogs[@]}"; do pkill -P "$p" 2>/dev/null; kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; hogs=(); rm -f "$tmp/hog"; }
# a CPU hog (one `yes` per CPU) and an I/O hog (dd writing with O_DIRECT)
start_hogs() {
    for _ in $(seq "$(nproc)"); do yes >/dev/null & hogs+=($!); done
    # (its stderr closed: the loop's shell says "Terminated" when the hog's dd is killed)
    (while :; do dd if=/dev/zero of="$tmp/hog" bs=1M count=256 oflag=direct status=none; done) 2>/dev/null & hogs+=($!)
}
trap 'stop_hogs; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

echo "machine: $(nproc) CPUs; $(uptime)"
echo "nodemark $($nm --version 2>/dev/null | head -1); pairs: $pairs; phases (aa, busy): $phases"

# run_one LABEL PHASES [PREFIX...]: one quick run into the experiment's store; prints its id
run_one() {
    local label=$1 ph=$2 dir=$tmp/dir
    shift 2
    # ab: the pinned runs are another configuration, with a history of their own (a directory's
    # history is its A/A spread; B's runs mixed into A's would widen A's floor by the slowdown)
    case $exp:$label in ab:b* | busyab:b*) dir=$tmp/dirB ;; busyab:c*) dir=$tmp/dirC ;; esac
    "$@" "$nm" run "$dir" --quick --no-report --phases "$ph" --label "$label" >"$tmp/out.txt" 2>"$tmp/err.txt" ||
        { echo "bench/aa.sh: run failed: $(tail -3 "$tmp/err.txt")" >&2; return 1; }
    [ -n "${KEEP:-}" ] && cat "$tmp/err.txt" "$tmp/out.txt" >"$KEEP/$exp-$label.txt"
    sed -n 's/^saved run \([0-9a-f]*\).*/\1/p' "$tmp/out.txt" "$tmp/err.txt" | head -1
}

# injected A C: the change from run A to run C per bytes_per_sec row, in percent, as JSON
injected() {
    "$nm" compare "$1" "$2" --format json >"$tmp/inj.json" || return 1
    python3 -c '
import json, sys
j = json.load(open(sys.argv[1])); out = {}
for t in j["tables"]:
    if t["metric"] != "bytes_per_sec": continue
    for r in t["rows"]:
        if len(r["cells"]) > 1 and r["cells"][0] and r["cells"][1]:
            out[r["name"]] = (r["cells"][1]["median"] / r["cells"][0]["median"] - 1) * 100
print(json.dumps(out))' "$tmp/inj.json"
}

# summarize A B EXPERIMENT: the calls compare makes about B against A, one line, plus the
# verdict of the pair for the experiment ("pass"/"fail") as the last word
summarize() {
    "$nm" compare "$1" "$2" --format json >"$tmp/cmp.json" || return 1
    python3 - "$tmp/cmp.json" "$3" <<'PY'
import json, os, sys
j = json.load(open(sys.argv[1])); exp = sys.argv[2]
calls = j.get("calls", [])
kind = lambda c: c["call"]
called = [c for c in calls if kind(c) in ("regression", "improvement", "changed")]
nc = [c for c in calls if kind(c) == "not compared"]
busy = [c for c in nc if "busy machine" in c["why"]]
on_cpu = [c for c in calls if c.get("basis") == "cpu_time"]
# rows benchstat calls significant, by (metric, name)
sig = set()
for t in j["tables"]:
    for r in t["rows"]:
        c = r["cells"][-1] if r["cells"] else None
        if c and c.get("significant"):
            sig.add((t["metric"], r["name"]))
unexplained = [c for c in calls if (c["metric"], c["name"]) in sig and kind(c) != "not compared" and c not in called]
line = "%d rows: %d called, %d unchanged, %d not compared (%d busy); judged on CPU time: %d; benchstat significant: %d" % (
    len(calls), len(called), len(calls) - len(called) - len(nc), len(nc), len(busy), len(on_cpu), len(sig))
if on_cpu:
    line += " (CPU-time rows: " + ", ".join("%s %+.1f%%" % (c["name"], c["delta_pct"] or 0) for c in on_cpu) + ")"
if called:
    line += "; calls: " + ", ".join("%s %s %+.1f%% (floor %.0f%%)" % (c["name"], c["metric"], c["delta_pct"], c["floor_pct"]) for c in called)
ok = True
if exp == "busy":
    ok = not called and all(kind(c) == "not compared" or c.get("basis") == "cpu_time"
                            for c in calls if (c["metric"], c["name"]) in sig)
elif exp == "busyab":
    # the injected change: the quiet SHA-NI-off run (its medians in the environment) over A
    ref = json.loads(os.environ["NM_INJECTED"])
    bad = []
    for c in calls:
        if c["metric"] != "bytes_per_sec": continue
        if c["name"].startswith("hash/blake3/"):
            if kind(c) in ("regression", "improvement", "changed"): bad.append(c["name"] + " called")
            continue
        want = ref.get(c["name"])
        line += "; %s %s %+.1f%% (injected %s)" % (c["name"], kind(c), c["delta_pct"] or 0,
                                                 "%+.1f%%" % want if want is not None else "?")
        if kind(c) != "regression": bad.append(c["name"])
    ok = not bad
elif exp == "ab":
    # the pinned run's 1t over the baseline's Nt gives the injected change of the Nt rows
    med, pinned = {}, {}
    for t in j["tables"]:
        if t["metric"] != "bytes_per_sec": continue
        for r in t["rows"]:
            if r["cells"][0]: med[r["name"]] = r["cells"][0]["median"]
            if len(r["cells"]) > 1 and r["cells"][1]: pinned[r["name"]] = r["cells"][1]["median"]
    bad = []
    for c in calls:
        if c["metric"] != "bytes_per_sec": continue
        algo, threads = c["name"].split("/")[1:3]
        if threads == "1t":
            if kind(c) != "unchanged" and kind(c) != "not compared": bad.append(c["name"] + " called")
            continue
        want = (pinned["hash/%s/1t" % algo] / med[c["name"]] - 1) * 100
        line += "; %s %+.1f%% (injected %+.1f%%)" % (c["name"], c["delta_pct"] or 0, want)
        if kind(c) != "regression" or c["delta_pct"] is None or abs(c["delta_pct"] - want) > 10: bad.append(c["name"])
    ok = not bad
else:
    ok = len(called) == 0
print(line, "pass" if ok else "fail")
PY
}

for exp in ${experiments//,/ }; do
    rm -rf "$tmp/dir" "$tmp/dirB" "$tmp/dirC" && mkdir "$tmp/dir" "$tmp/dirB" "$tmp/dirC"
    export NODEMARK_DB=$tmp/$exp.db
    passed=0 total_calls=0 done_pairs=0
    for i in $(seq "$pairs"); do
        case $exp in
        aa)
            a=$(run_one "a$i" "$phases") && b=$(run_one "b$i" "$phases") || break ;;
        busy)
            a=$(run_one "a$i" "$phases") || break
            start_hogs
            b=$(run_one "b$i" "$phases")
            stop_hogs
            [ -n "$b" ] || break ;;
        ab)
            a=$(run_one "a$i" hash) && b=$(run_one "b$i" hash taskset -c 0) || break ;;
        busyab)
            a=$(run_one "a$i" hash) || break
            c=$(run_one "c$i" hash env OPENSSL_ia32cap=":~0x20000000") || break
            start_hogs
            b=$(run_one "b$i" hash env OPENSSL_ia32cap=":~0x20000000")
            stop_hogs
            [ -n "$b" ] || break
            NM_INJECTED=$(injected "$a" "$c") || break
            export NM_INJECTED ;;
        *)
            echo "bench/aa.sh: unknown experiment $exp (aa, busy, busyab, ab)" >&2; exit 2 ;;
        esac
        s=$(summarize "$a" "$b" "$exp") || break
        echo "$exp pair $i: $s"
        done_pairs=$((done_pairs + 1))
        [ "${s##* }" = pass ] && passed=$((passed + 1))
        n=$(sed -E 's/.*: ([0-9]+) called.*/\1/' <<<"$s")
        total_calls=$((total_calls + n))
    done
    echo "$exp: $passed of $done_pairs pairs pass; $total_calls calls in all"
    [ -n "${KEEP:-}" ] && cp "$tmp/$exp.db" "$KEEP/$exp.db"
done
echo "after: $(uptime)"
