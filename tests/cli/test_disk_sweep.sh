#!/bin/bash
# nodemark disk -L/-P: a sweep's settings measured in turns like targets (issue 28 item 2).
# Each setting is its own session with its own .nodemark-* directory in the target, laid out
# in the order of the settings; strace -y names the file behind each descriptor, so the worker
# threads' opens, in order, are the order of the passes, and their reads' sizes show which
# block size each pass used.
source "$(dirname "$0")/lib.sh"
scratch_dir
skip_without strace "the order of passes from a trace of the opened files"
mkdir -p a b
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -y "$@"; }
jvals() { mapfile -t V < <(python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); [print(eval(e)) for e in sys.argv[1:]]' "$@" <<<"$out"); }

# Per worker pass: the setting (its directory's rank in the order the main thread laid them
# out) and the sizes its reads asked for.
passes() { # TRACE
    python3 - "$1" <<'EOF2'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
main = lines[0].split()[0]
dirs, out, fdpass = [], [], {}
for l in lines:
    pid = l.split()[0]
    m = re.search(r'openat\(.* = (\d+)<([^>]*/\.nodemark-[^/>]*)/nodemark\.0\.0>', l)
    if m:
        if m.group(2) not in dirs:
            dirs.append(m.group(2))
        if pid != main:
            out.append([dirs.index(m.group(2)), set()])
            fdpass[(pid, m.group(1))] = out[-1]
        continue
    m = re.search(r'pread64\((\d+)<[^>]*/\.nodemark-[^>]*>, "?[^,]*,? ?(\d+), \d+\)', l)
    if m and (pid, m.group(1)) in fdpass:
        fdpass[(pid, m.group(1))][1].add(int(m.group(2)))
print(" ".join("%d:%s" % (a, ",".join(str(s) for s in sorted(z))) for a, z in out))
EOF2
}

# --- -L bs 4k,8k,16k: three settings, one pass of each per round, the order rotated -------------
run_cmd traced -e trace=openat,pread64 -e abbrev=all -e verbose=none -s 0 -o trace1 "$NM" disk a \
    --rw read --size 64k --loops 4 --engine psync --interval 0 -L bs 4k,8k,16k --no-save
expect_rc 0 "disk a -L bs 4k,8k,16k: exit 0"
got=$(passes trace1)
check "one pass of each setting per round, the order rotated (012 120 201 012)" \
    test "$(sed 's/:[0-9,]*//g' <<<"$got")" = "0 1 2 1 2 0 2 0 1 0 1 2"
check "each pass reads in its own setting's block size (4k, 8k, 16k)" \
    test "$(tr ' ' '\n' <<<"$got" | sort -u | tr '\n' ' ')" = "0:4096 1:8192 2:16384 "
expect_out_has "3 settings in turns, 4 rounds" "the table says the settings took turns"
expect_out_matches "A +bs=4k +a " "the first setting is lettered A"
expect_out_matches "C +bs=16k +a " "the third C"
expect_out_has "B/A" "a ratio column against the first setting"
expect_out_has "C/A" "and one for the third"

# --- several lists: every combination, hyperfine's order, keys of the saved run -----------------
run_nm disk a --rw read --size 64k --loops 6 --engine psync --interval 0 \
    -L bs 4k,8k -L size 64k,128k --label sweep-test --json
expect_rc 0 "two lists: exit 0"
jvals '" ".join(t["parameters"]["bs"] + "/" + t["parameters"]["size"] for t in j["targets"])' \
    'len(j["tests"][0]["paired"])' 'j["tests"][0]["paired"][0]["n"]' \
    'j["tests"][0]["paired"][2]["parameters"]["size"]'
check "every combination, the first list varying fastest" \
    test "${V[0]:-}" = "4k/64k 8k/64k 4k/128k 8k/128k"
check "three paired comparisons against the first setting" test "${V[1]:-}" = 3
check "from 6 pairs" test "${V[2]:-}" = 6
check "a pair names its setting" test "${V[3]:-}" = 128k
run_nm show sweep-test --json
jvals 'len(j["benches"])' \
    '" ".join(sorted(b["settings"]["parameters"]["bs"] + "/" + b["settings"]["parameters"]["size"] for b in j["benches"]))' \
    '",".join(str(len([m for m in b["metrics"] if m["name"] == "bytes_per_sec"][0]["samples"])) for b in j["benches"])'
check "a bench per setting" test "${V[0]:-}" = 4
check "each keyed by its parameters" test "${V[1]:-}" = "4k/128k 4k/64k 8k/128k 8k/64k"
check "a sample per pass on each" test "${V[2]:-}" = "6,6,6,6"
run_nm compare sweep-test --row size --col bs
expect_rc 0 "compare --row size --col bs on the sweep's keys: exit 0"
expect_out_matches "^bandwidth.* 4k +8k" "a column per block size, as the sweep spelled it"
expect_out_matches "^128k " "a row per size, as spelled"

# --- compare shows a setting as the sweep spelled it, in its numbers' order --------------------
run_nm disk a --rw read --size 1m --loops 6 --engine psync --interval 0 -L bs 64k,4k,1m --label sweep-order -q
expect_rc 0 "-L bs 64k,4k,1m: exit 0"
run_nm compare sweep-order --row bs --metric bytes_per_sec
check "--row bs: the rows read 4k, 64k, 1m (spelled as given, ordered by the number behind them)" \
    test "$(sed -n '2,4p' <<<"$out" | awk '{print $1}' | xargs)" = "4k 64k 1m"
run_nm compare sweep-order --row bs --metric bytes_per_sec --filter bs=4k
check "--filter bs=4k matches the spelling" test "$(sed -n '2,$p' <<<"$out" | grep -c .)" = 1
run_nm compare sweep-order --row bs --metric bytes_per_sec --filter bs=4096
check "--filter bs=4096 matches the number behind it" test "$(sed -n '2p' <<<"$out" | awk '{print $1}')" = 4k
run_nm disk a --rw read --size 1m --loops 3 --engine psync --interval 0 --bs 4096 --label plain-4k -q
run_nm compare sweep-order plain-4k --row bs --metric bytes_per_sec
# A cell may read "unstable: 30.6 MB/s, range ..." on a busy host; the ratio at the row's end is what
# shows the plain run's cell sits in the 4k row rather than a row of its own.
expect_out_matches "^4k +(unstable: )?[0-9.]+ [kMG]?B/s.* +(unstable: )?[0-9.]+ [kMG]?B/s.* [0-9.]+x *$" \
    "a run without the sweep (--bs 4096) shares the row of 4k: rows are found by the value"

# --- -P, --reference a setting, targets x settings ----------------------------------------------
run_nm disk a --rw read --size 64k --loops 6 --engine psync --interval 0 -P bs 4096 12288 -D 4096 \
    --reference bs=8192 --no-save --json
expect_rc 0 "-P bs 4096 12288 -D 4096: exit 0"
jvals '" ".join(t["parameters"]["bs"] for t in j["targets"])' \
    '" ".join(p["parameters"]["bs"] for p in j["tests"][0]["paired"])' 'j["tests"][0]["paired"][0]["reference_parameters"]["bs"]'
check "-P: each number from MIN to MAX by -D" test "${V[0]:-}" = "4096 8192 12288"
check "--reference bs=8192: the others are compared with it" test "${V[1]:-}" = "4096 12288"
check "and the pairs name it" test "${V[2]:-}" = 8192
run_nm disk a b --rw read --size 64k --loops 2 --engine psync --interval 0 -L bs 4k,8k --no-save --json
expect_rc 0 "two targets, two settings: exit 0"
check "every target with every setting" \
    test "$(json_get '" ".join(t["target"] + ":" + t["parameters"]["bs"] for t in j["targets"])')" = "a:4k a:8k b:4k b:8k"

# --- bad input: one line, exit 2 -----------------------------------------------------------------
run_nm disk a --rw read --size 64k -L nosuch 1,2 --no-save
expect_refused "an unknown parameter name" "no option a sweep can vary"
run_nm disk a --rw read --size 64k -L json 1,2 --no-save
expect_refused "an option a sweep cannot vary" "no option a sweep can vary"
run_nm disk a --rw read --size 64k -L bs 4k,0 --no-save
expect_refused "a bad value in a list" "at least 1 byte"
run_nm disk a --rw read --size 64k -L iodepth 1,x --no-save
expect_refused "a value that is no number" "iodepth"
run_nm disk a --rw read --size 64k -L bs 4k,4k=2 --no-save
expect_refused "a value that is no size" "bs"
run_nm disk a --rw read --size 64k -P iodepth 4 1 --no-save
expect_refused "-P with MIN above MAX" "lo <= hi"
run_nm disk a --rw read --size 64k -D 2 --no-save
expect_refused "-D without -P" "step of -P"
run_nm disk a --rw read --size 64k -L bs 4k,8k -L bs 16k --no-save
expect_refused "a parameter named twice" "bs"
run_nm disk a --rw read --size 64k -L bs 4k,8k --reference bs=1m --no-save
expect_refused "--reference naming no setting" "none of the sweep's settings"
run_nm disk a b --together --rw read --size 64k -L bs 4k,8k --no-save
expect_refused "a sweep with --together" "not with --together"
run_nm disk a -L bs 4k,8k --size 64k --no-save
expect_refused "-L bs with a profile" "custom jobs"
if [ -z "$(find a b -mindepth 1)" ]; then ok "no test files left in the target"; else not_ok "no test files left" "$(ls -AR a b)"; fi
