#!/bin/bash
# serial: the paired verdicts of targets in turns depend on a quiet machine
# nodemark disk A B C: targets measured in turns.  strace (-y names the file behind each
# descriptor) is the witness: every pass is a worker thread that opens its target's file, so
# the worker threads' opens, in order, are the order of the passes; the main thread's writes
# before them are each target's preparation; its sleeps between them are the pauses.
source "$(dirname "$0")/lib.sh"
scratch_dir
skip_without strace "the order of passes from a trace of the opened targets"
mkdir -p a b c
# LeakSanitizer cannot run under ptrace: the traced runs go without it (untraced ones keep it)
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -y "$@"; }
jvals() { mapfile -t V < <(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); [print(eval(e)) for e in sys.argv[1:]]' "$@" <<<"$out"); }

# The targets whose data file the worker threads (not the main thread) opened, in order.
pass_order() { # TRACE
    python3 - "$1" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
main = lines[0].split()[0]
order = []
for l in lines:
    pid = l.split()[0]
    # "openat(" or, cut by another thread's line, "<... openat resumed>"
    m = re.search(r'openat.* = \d+<[^>]*/([abc])/\.nodemark-[^>]*/nodemark\.0\.0>', l)
    if m and pid != main:
        order.append(m.group(1))
print(" ".join(order))
EOF
}

# --- a custom job: no preparing pass, 4 rounds of 3 targets, the order rotated ----------------
run_cmd traced -e trace=openat -o trace1 "$NM" disk a b c --rw read --bs 4k --size 64k --loops 4 \
    --engine psync --no-save
expect_rc 0 "disk a b c in turns: exit 0"
order=$(pass_order trace1)
check "one pass of each target per round, the order rotated (abc bca cab abc)" \
    test "$order" = "a b c b c a c a b a b c"
expect_out_has "3 targets in turns, 4 rounds" "the table says the targets took turns"
expect_out_matches "^(randread|read 4k Q1T1) +[0-9.]+ [kMG]?B/s +[0-9.]+ [kMG]?B/s +[0-9.]+ [kMG]?B/s +[0-9.]+x " \
    "a row per test, a column per target, each figure with its unit, then the ratio"
expect_out_matches "^bandwidth \([kMG]?B/s(, [kMG]?B/s)*\) +A +B +C +B/A +verdict +C/A +verdict$" \
    "the head names the figure as compare does, with the units of its cells"
expect_out_has "B/A" "a ratio column against the first target"
expect_out_has "C/A" "and one for the third"
expect_out_has "can't tell: too few pairs" "4 pairs give no interval, and the verdict says so"
expect_out_has "an interval needs 6" "and why"

# --- a profile: a preparing round first, the same preparation and pauses for each target -----
run_cmd traced -e trace=openat,pwrite64,fsync,clock_nanosleep,nanosleep -o trace2 "$NM" disk a b \
    --profile realworld --size 2m --runtime 100ms --loops 2 --interval 50ms --no-save --reference b
expect_rc 0 "a profile in turns: exit 0"
order=$(pass_order trace2)
# per test: the preparing round (a b), round 1 (a b), round 2 rotated (b a); four tests
check "each test: a preparing pass of each target, then rounds in rotated order" \
    test "$order" = "$(for i in 1 2 3 4; do printf 'a b a b b a '; done | sed 's/ $//')"
py '
import re, sys
lines = open("trace2").read().splitlines()
main = lines[0].split()[0]
written = {}
for l in lines:
    m = re.search(r"pwrite64\(\d+</[^>]*/([ab])/\.nodemark-[^>]*/nodemark\.0\.0>.* = (\d+)$", l)
    if m and l.split()[0] == main:
        written[m.group(1)] = written.get(m.group(1), 0) + int(m.group(2))
sys.exit(0 if written.get("a") == written.get("b") == 2 * 1024 * 1024 else 1)
' && ok "each target'\''s file is laid out alike (2 MiB of data written before its first pass)" ||
    not_ok "each target's file is laid out alike" "$(grep pwrite64 trace2 | head -4)"
# pauses: the main thread sleeps between two measured passes, after none of the preparing
# ones, and not after the run's last pass
py '
import re, sys
lines = open("trace2").read().splitlines()
main = lines[0].split()[0]
events = []
for l in lines:
    pid = l.split()[0]
    if pid != main and re.search(r"openat\(.* = \d+<[^>]*/[ab]/\.nodemark-[^>]*/nodemark\.0\.0>", l):
        events.append("P")
    elif pid == main and "nanosleep(" in l and (not events or events[-1] != "s"):
        events.append("s")
seq = "".join(events).lstrip("s")  # sleeps before the first pass belong to the layout
want = "PPPsPsPsPs" * 3 + "PPPsPsPsP"  # per test: two preparing passes, then four measured
sys.exit(0 if seq == want else print(seq) or 1)
' && ok "a pause after every measured pass but the last, none after a preparing pass" ||
    not_ok "the pauses fall between passes" "$(grep -c nanosleep trace2) sleeps"
expect_out_has "B   b" "the second target is lettered B"
expect_out_has "(reference)" "the reference is marked"
expect_out_has "A/B" "--reference b: the ratio is A against B"

# --- the saved run: a bench per test and target, keyed by the target and what it is ----------
run_nm disk a b --rw read --bs 4k --size 64k --loops 6 --engine psync --label turns-test --json
expect_rc 0 "a saved run in turns: exit 0"
jvals 'j["mode"]' 'len(j["tests"][0]["paired"])' 'j["tests"][0]["paired"][0]["n"]' \
    'j["tests"][0]["paired"][0]["verdict"] in ("called", "no change", "can'"'"'t tell")' \
    'int(j["tests"][0]["paired"][0]["lo"] <= j["tests"][0]["paired"][0]["ratio"] <= j["tests"][0]["paired"][0]["hi"])'
check "JSON says the run took turns" test "${V[0]:-}" = turns
check "one paired comparison (b against a)" test "${V[1]:-}" = 1
check "from 6 pairs" test "${V[2]:-}" = 6
check "with a verdict in the comparison's words" test "${V[3]:-}" = True
check "the ratio lies inside its interval" test "${V[4]:-}" = 1
run_nm show turns-test --json
jvals 'len(j["benches"])' '",".join(sorted(b["settings"]["target"] for b in j["benches"]))' \
    'int(all(b["settings"]["fs"] and b["settings"]["device"] and b["settings"]["mount_options"] for b in j["benches"]))' \
    '",".join(str(len([m for m in b["metrics"] if m["name"] == "bytes_per_sec"][0]["samples"])) for b in j["benches"])' \
    'int("paired" in [b for b in j["benches"] if b["settings"]["target"] == "b"][0]["settings"])'
check "a bench per target" test "${V[0]:-}" = 2
check "each keyed by its target" test "${V[1]:-}" = "a,b"
check "and by its file system, device and mount options" test "${V[2]:-}" = 1
check "a sample per pass on each" test "${V[3]:-}" = "6,6"
check "the paired verdict is kept with the compared target" test "${V[4]:-}" = 1
fs=$(df --output=fstype . 2>/dev/null | tail -1 | tr -d ' ')
if [ -z "$fs" ] || [ "$fs" = - ]; then
    # In a chroot df finds no mount entry for the directory; there is nothing to check against.
    skip "the fs key is the target's own" "df names no file system for $(pwd) (a chroot?)"
else
    run_nm show turns-test --json
    got=$(json_get 'j["benches"][0]["settings"]["fs"]' 2>/dev/null)
    check "the fs key is the target's own ($fs)" test "$got" = "$fs"
fi

# --- together, and bad input -----------------------------------------------------------------
run_cmd traced -e trace=openat -o trace3 "$NM" disk a b --together --rw read --bs 4k --size 64k \
    --jobs 2 --loops 2 --engine psync --no-save --json
expect_rc 0 "--together: exit 0"
check "--together: both targets in every pass, at once (no turns)" \
    test "$(json_get 'len(j["tests"][0]["passes"])')" = 2
run_nm disk a b --reference c --rw read --size 64k --no-save
expect_refused "--reference that is not a target" "not one of the targets"
run_nm disk a --reference a --rw read --size 64k --no-save
expect_refused "--reference with one target" "two or more"
run_nm disk a b --together --reference a --rw read --size 64k --no-save
expect_refused "--reference with --together" "without --together"
if [ -z "$(find a b c -mindepth 1)" ]; then ok "no test files left in any target"; else not_ok "no test files left" "$(ls -AR a b c)"; fi
