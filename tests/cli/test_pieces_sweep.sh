#!/bin/bash
# nodemark pieces -L/-P: a sweep of piece-store settings in turns (issue 28 item 2): a store of
# each setting per round, the order rotated, every combination, each compared with the first
# from the per-round pairs.  The order comes from the run's own sequence ("order") and, as a
# witness outside nodemark, from strace: each store is its own .nodemark-* directory, created
# in the order the runs ran, and only a sync=on store fsyncs its pieces.
source "$(dirname "$0")/lib.sh"
scratch_dir
mkdir -p d
jvals() { mapfile -t V < <(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); [print(eval(e)) for e in sys.argv[1:]]' "$@" <<<"$out"); }

# --- the storage node's matrix: hash x sync, four rows, in one run ----------------------------------
run_nm pieces d -L hash sha256,blake3 -L sync on,off --count 3 --size 64k --runs 6 --read \
    --label sweep-test --json
expect_rc 0 "pieces -L hash sha256,blake3 -L sync on,off: exit 0"
jvals '" ".join(s["parameters"]["hash"] + "/" + s["parameters"]["sync"] for s in j["settings"])' \
    '" ".join(str(a) for a in j["order"])' 'j["rounds"]' \
    'sum(1 for s in j["settings"] if "paired" in s["write"] and "paired" in s["read"])' \
    '",".join(str(len(s["write"]["bytes_per_sec"])) for s in j["settings"])' \
    'j["settings"][1]["write"]["paired"]["verdict"] in ("called", "no change", "can'"'"'t tell")'
check "every combination, the first list varying fastest" \
    test "${V[0]:-}" = "sha256/on blake3/on sha256/off blake3/off"
check "a store of each setting per round, the order rotated" \
    test "${V[1]:-}" = "0 1 2 3 1 2 3 0 2 3 0 1 3 0 1 2 0 1 2 3 1 2 3 0"
check "--runs 6: six rounds" test "${V[2]:-}" = 6
check "three settings paired with the first, write and read" test "${V[3]:-}" = 3
check "a rate per round on each" test "${V[4]:-}" = "6,6,6,6"
check "a verdict in the comparison's words" test "${V[5]:-}" = True
run_nm show sweep-test --json
jvals 'len(j["benches"])' \
    '" ".join(sorted(b["settings"]["parameters"]["hash"] + "/" + b["settings"]["parameters"]["sync"] + "/" + b["name"].split("/")[-1].split()[0] for b in j["benches"]))' \
    'set(len([m for m in b["metrics"] if m["name"] == "bytes_per_sec"][0]["samples"]) for b in j["benches"]) == {6}'
check "a bench per setting and phase" test "${V[0]:-}" = 8
check "each keyed by its parameters" \
    test "${V[1]:-}" = "blake3/off/read blake3/off/write blake3/on/read blake3/on/write sha256/off/read sha256/off/write sha256/on/read sha256/on/write"
check "a sample per round" test "${V[2]:-}" = True
run_nm compare sweep-test --row hash --col sync --filter 'name=*write*'
expect_rc 0 "compare --row hash --col sync on the sweep's keys: exit 0"
expect_out_matches " on +│ +off +│" "a column per sync setting, as the sweep spelled it (on, off)"
expect_out_matches "^sha256 " "a row per hash"

run_nm pieces d -L hash sha256,blake3 -L sync on,off --count 3 --size 64k --runs 2 --no-save
expect_rc 0 "the text table: exit 0"
expect_out_has "4 settings in turns, 2 rounds" "the table says the settings took turns"
expect_out_matches "^hash=sha256 sync=on .*\(reference\)" "the first setting is the reference"
expect_out_matches "^hash=blake3 sync=off +[0-9.]+ [kMG]?B/s +[0-9.]+x " "a row per setting, its figure with its unit, then its ratio"

# --- strace: the stores in the rotated order, fsync only where sync=on ------------------------------
if command -v strace >/dev/null; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -y -e trace=mkdir,mkdirat,fsync \
        -o trace1 "$NM" pieces d -L sync off,on -L hash none --count 2 --size 16k --runs 2 --no-save \
        --json >out.json 2>/dev/null
    got=$(python3 - trace1 <<'EOF2'
import re, sys
stores, synced = [], {}
for l in open(sys.argv[1]):
    m = re.search(r'mkdir(?:at)?\(.*"[^"]*/(\.nodemark-[^"/]*)"', l)
    if m and m.group(1) not in stores:
        stores.append(m.group(1))
    m = re.search(r'fsync\(\d+<[^>]*/(\.nodemark-[^/>]*)/temp/[^>]*\.partial>', l)
    if m:  # a piece synced before its commit
        synced[m.group(1)] = synced.get(m.group(1), 0) + 1
print(" ".join(str(synced.get(s, 0)) for s in stores))
EOF2
)
    order=$(python3 -c 'import json; j=json.load(open("out.json")); print(" ".join(str(a) for a in j["order"]))')
    check "the run's sequence rotates (0 1, then 1 0)" test "$order" = "0 1 1 0"
    check "four stores in that order; the sync=on ones (setting 1) fsync each of their 2 pieces" \
        test "$got" = "0 2 2 0"
else
    skip "the stores in order from strace" "no strace"
fi

# --- -P, --reference, bad input ------------------------------------------------------------------
run_nm pieces d -P count 2 4 -D 2 --size 16k --runs 2 --reference count=4 --no-save --json
expect_rc 0 "-P count 2 4 -D 2 with --reference count=4: exit 0"
jvals '" ".join(s["parameters"]["count"] for s in j["settings"])' 'j["reference"]["count"]' \
    '" ".join(str(int("paired" in s["write"])) for s in j["settings"])'
check "-P: each number from MIN to MAX by -D" test "${V[0]:-}" = "2 4"
check "--reference count=4" test "${V[1]:-}" = 4
check "the other setting is paired with it" test "${V[2]:-}" = "1 0"
run_nm pieces d -L nosuch 1,2 --no-save
expect_refused "an unknown parameter name" "no option a sweep can vary"
run_nm pieces d -L json 1,2 --no-save
expect_refused "an option a sweep cannot vary" "no option a sweep can vary"
run_nm pieces d -L sync on,maybe --no-save
expect_refused "a sync value that is none of on, off, data" "on, off or data"
run_nm pieces d -L hash sha256,md4 --no-save
expect_refused "a bad hash" "blake3, sha256 or none"
run_nm pieces d -L count 1,0 --no-save
expect_refused "a bad count" "count"
run_nm pieces d -L hash sha256 --matrix --no-save
expect_refused "a sweep with --matrix" "--matrix"
run_nm pieces d -L hash sha256,blake3 --reference hash=none --no-save
expect_refused "--reference naming no setting" "none of the sweep's settings"
run_nm pieces d --reference hash=none --no-save
expect_refused "--reference without a sweep" "sweep"
check "nothing is left in the directory" test -z "$(find d -mindepth 1)"
