# nodemark run: the whole-machine suite. The full quick suite runs twice (the second compares
# against the first); the rest uses the short phases to stay fast.
. "$TESTS_DIR/cli/lib.sh"

d=$(mktemp -d "$PWD/run.XXXXXX")
no_workdirs() { ! ls -a "$d" | grep -q '^\.nodemark-'; }

run_nm run "$d" --quick --label first
expect_rc 0 "run --quick exits 0"
expect_out_matches '^  memory/memcpy/[0-9]+t +[0-9.]+ [kMG]?B/s' "the memory table has the copy bandwidth"
expect_out_matches '^  memory/pagecache-read +[0-9.]+ [kMG]?B/s' "the memory table has the page-cache read"
expect_out_matches '^  hash/blake3/1t +[0-9.]+ [kMG]?B/s' "the hash table has BLAKE3 on one thread"
expect_out_matches '^  (SEQ1M Q8T1|RND4K Q1T1) read +[0-9.]+ [kMG]?B/s' "the disk table has CrystalDiskMark tests"
expect_out_matches '^  pieces/files/sha256/sync/write +[0-9.]+ [kMG]?B/s' "the pieces table has SHA-256 with fsync"
expect_err_has "[5/5] pieces" "plain progress lines name each phase when stderr is not a terminal"
first=$(sed -n 's/^run \([0-9a-f]*\) (quick mode.*/\1/p' <<<"$out")
if [ -n "$first" ]; then ok "the run id is printed"; else not_ok "the run id is printed" "$out"; fi
check "no .nodemark-* directory is left behind" no_workdirs
check "nodemark-report.html is written" test -s nodemark-report.html

run_nm runs --command run
expect_out_has "$first" "the saved run is listed"

run_nm export "$first"
res=$(python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
b = {x["name"]: x for x in j["benches"]}
phases = {x["settings"].get("phase") for x in j["benches"]}
ok = {"memory", "hash", "disk", "pieces"} <= phases
ok = ok and all(m["samples"] for x in j["benches"] for m in x["metrics"])
ok = ok and set(j["extra"]["noise"]) >= {"memory", "hash", "disk", "pieces"}
ok = ok and j["extra"]["run"]["mode"] == "quick" and j["extra"]["run"]["disk"]["profile"] in ("cdm", "cdm-nvme")
ok = ok and "pieces/files/blake3/nosync/write" in b and len(b["pieces/files/blake3/nosync/write"]["metrics"][0]["samples"]) == 4
print(ok)' <<<"$out" 2>&1)
if [ "$res" = True ]; then ok "the record holds every phase, its samples and its noise figures"; else not_ok "the record holds every phase, its samples and its noise figures" "$res"; fi

run_nm run "$d" --quick --no-report --phases inventory,hash
expect_rc 0 "a second run exits 0"
expect_out_has "compared with run $first first" "the second run compares against the first of this directory"
expect_out_matches '^hash/blake3/1t +[0-9.]+' "the comparison has a row per figure in common"
expect_out_matches '(significant changes|no significant change)' "the comparison says what changed"

other=$(mktemp -d "$PWD/other.XXXXXX")
run_nm run "$other" --quick --no-report --no-save --phases inventory,hash
if grep -q "compared with" <<<"$out"; then not_ok "another directory has no baseline" "$out"; else ok "another directory has no baseline"; fi
run_nm run "$other" --quick --no-report --no-save --phases inventory,hash --baseline first
expect_out_has "compared with run $first first" "--baseline names the run to compare with"
run_nm run "$other" --quick --no-report --no-save --phases hash --baseline nosuchlabel
expect_rc 2 "a --baseline that does not exist is a usage error, found before measuring"
if grep -q "hash/" <<<"$out"; then not_ok "nothing is measured for a bad --baseline"; else ok "nothing is measured for a bad --baseline"; fi
expect_err_has "--baseline" "and says so"
rm -rf "$other"

run_nm run "$d" --quick --full
expect_rc 2 "--quick with --full is a usage error"
one_line_error "--quick with --full is one line"

run_nm run "$d/nonexistent"
expect_rc 2 "a missing directory is a usage error"
expect_err_has "nonexistent" "the error names the directory"

run_nm run "$d" --phases memory,bogus
expect_rc 2 "an unknown phase is a usage error"
expect_err_has '"bogus"' "the error names the unknown phase"

# Ctrl-C: 130, the finished phases saved, nothing left behind
"$NM" run "$d" --quick --no-report --label interrupted --phases inventory,hash,memory,pieces >"$d.out" 2>"$d.err" &
pid=$!
for _ in $(seq 100); do grep -q '^\[3/4\]' "$d.err" && break; sleep 0.1; done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
expect_rc 130 "SIGINT during the suite exits 130"
check "SIGINT leaves no .nodemark-* directory" no_workdirs
run_nm export interrupted
res=$(json_get '"hash" in {x["settings"].get("phase") for x in j["benches"]}' 2>&1)
if [ "$res" = True ]; then ok "SIGINT: the finished phases are saved"; else not_ok "SIGINT: the finished phases are saved" "$res $(cat "$d.err")"; fi
rm -rf "$d" "$d.out" "$d.err"
