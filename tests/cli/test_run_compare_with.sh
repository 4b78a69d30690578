#!/bin/bash
# serial: targets in turns and their verdicts depend on a quiet machine
# nodemark run DIR --compare-with DIR2: run's disk and pieces phases on two directories in
# turns, reported as one comparison of DIR2 against DIR with paired verdicts.  strace is the
# witness of the turns: disk's passes are worker threads that each open their target's file (as
# in test_disk_turns), and each piece store is a directory made in its target when it starts.
source "$(dirname "$0")/lib.sh"
scratch_dir
mkdir -p A B
echo x >afile

# --- bad input: one line, exit 2, before anything is measured ------------------------------------
run_nm run A --compare-with nosuch --quick --no-save
expect_refused "--compare-with a missing directory" "nosuch"
run_nm run A --compare-with afile --quick --no-save
expect_refused "--compare-with a file" "not a directory"
run_nm run A --compare-with ./A/ --quick --no-save
expect_refused "--compare-with DIR itself" "itself"
run_nm run A --compare-with B --phases memory --quick --no-save
expect_refused "--compare-with and a phase that measures no directory" "--phases"
run_nm run A --compare-with B --baseline last --quick --no-save
expect_refused "--compare-with and --baseline" "--baseline"

skip_without strace "the order of the passes and stores from a trace"
# LeakSanitizer cannot run under ptrace: the traced runs go without it
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -y "$@"; }

# --- the disk phase: a pass of each directory per round, the order rotated ----------------------
run_cmd traced -e trace=openat -o trace1 "$NM" run A --compare-with B --quick --phases disk \
    --label cw-disk -q
expect_rc 0 "run A --compare-with B --phases disk: exit 0"
order=$(py '
import re, sys
lines = open("trace1").read().splitlines()
main = lines[0].split()[0]
order = []
for l in lines:
    # "openat(" or, cut short by another thread, "<... openat resumed>"
    m = re.search(r"openat.* = \d+<[^>]*/([AB])/\.nodemark-[^>]*/nodemark\.0\.0>", l)
    if m and l.split()[0] != main:
        order.append(m.group(1))
print(" ".join(order))')
# per test: a preparing pass on each, then 6 rounds, each starting with the other directory
want=$(for t in 1 2 3 4 5 6 7 8; do printf 'A B A B B A A B B A A B B A '; done | sed 's/ $//')
if [ "$order" = "$want" ]; then
    ok "each test: a preparing pass of A and of B, then 6 rounds in rotated order (AB BA AB ...)"
else not_ok "each test: a preparing pass of A and of B, then 6 rounds in rotated order (AB BA AB ...)" \
    "passes: $order"; fi
expect_out_has "in turns" "the report says the directories took turns"
expect_out_matches "^disk +SEQ1M Q8T1 read +[0-9.]+ [kMG]?B/s +[0-9.]+ [kMG]?B/s +[0-9.]+x  (called|no change|can't tell)" \
    "one table: a row per test, A and B side by side (each figure with its unit), B/A and a verdict"
expect_out_matches "^phase +bandwidth \([kMG]?B/s(, [kMG]?B/s)*\) +A +B +B/A +verdict$" \
    "the head names the figure as compare does, with the units of its cells"
run_nm export cw-disk
jvals() { mapfile -t V < <(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); [print(eval(e)) for e in sys.argv[1:]]' "$@" <<<"$out"); }
jvals 'len(j["benches"])' \
    '" ".join(sorted({b["settings"]["target"].rsplit("/", 1)[1] for b in j["benches"]}))' \
    'sorted({(b["settings"]["paired"]["target"].rsplit("/", 1)[1], b["settings"]["paired"]["reference"].rsplit("/", 1)[1], b["settings"]["paired"]["n"]) for b in j["benches"] if "paired" in b["settings"]})' \
    'all(b["settings"]["paired"]["verdict"] in ("called", "no change", "can'"'"'t tell") for b in j["benches"] if "paired" in b["settings"])' \
    'j["extra"]["run"]["compare_with"].rsplit("/", 1)[1]' \
    'sum("paired" in b["settings"] for b in j["benches"])' \
    'all(len(m["samples"]) == 6 for b in j["benches"] for m in b["metrics"] if m["name"] == "bytes_per_sec")'
check "a bench per test and directory" test "${V[0]:-}" = 16
check "each keyed by its directory (target), the user's, not the private one" test "${V[1]:-}" = "A B"
check "B's benches paired with A's, from 6 pairs" test "${V[2]:-}" = "[('B', 'A', 6)]"
check "each pair has a verdict" test "${V[3]:-}" = True
check "the run records the second directory" test "${V[4]:-}" = B
check "a pair per test" test "${V[5]:-}" = 8
check "a sample per round on each" test "${V[6]:-}" = True

# --- the pieces phase: a store of each cell on each directory per round, rotated ----------------
run_cmd traced -e trace=mkdir -o trace2 "$NM" run A --compare-with B --quick --phases pieces \
    --label cw-pieces -q --json=cw.json
expect_rc 0 "run A --compare-with B --phases pieces: exit 0"
order=$(py '
import re
sides = []
for l in open("trace2").read().splitlines():
    # the line of the call names the path, finished or cut short ("<unfinished ...>") by another thread
    m = re.search(r"mkdir\(\"[^\"]*/([AB])/\.nodemark-[^/\"]*/\.nodemark-[^/\"]*\"", l)
    if m and " = -1 " in l:
        continue
    if m:
        sides.append(m.group(1))
print(" ".join(sides))')
# 8 stores a round (4 cells x 2 directories, A and B of a cell side by side); round r starts
# with store r, so its first directory alternates
want=$(for r in 1 2 3; do printf 'A B A B A B A B B A B A B A B A '; done | sed 's/ $//')
if [ "$order" = "$want" ]; then ok "each round a store of every cell on A and on B, the order rotated"
else not_ok "each round a store of every cell on A and on B, the order rotated" "stores: $order"; fi
out=$(cat cw.json)
jvals '" ".join(sorted(b["name"].split("/")[3] + "/" + b["settings"]["target"].rsplit("/", 1)[1] for b in j["benches"]))' \
    'sorted({b["settings"]["paired"]["n"] for b in j["benches"] if "paired" in b["settings"]})'
check "a bench per cell and directory" \
    test "${V[0]:-}" = "nosync/A nosync/A nosync/B nosync/B sync/A sync/A sync/B sync/B"
check "each cell of B paired with A's from 6 rounds" test "${V[1]:-}" = "[6]"
if [ -z "$(ls -A A)" ] && [ -z "$(ls -A B)" ]; then ok "nothing left in A or B"
else not_ok "nothing left in A or B" "$(ls -A A B)"; fi

# --- a run --compare-with is no baseline for a plain run of DIR ----------------------------------
run_nm run A --quick --phases pieces --no-report -q
expect_rc 0 "a plain run of A: exit 0"
expect_out_has "no earlier quick run of this host in" "it is not compared with the run in turns"
