# nodemark run: the whole-machine suite (short phases only, to stay fast).
. "$TESTS_DIR/cli/lib.sh"

d=$(mktemp -d "$PWD/run.XXXXXX")
no_workdirs() { ! ls -a "$d" | grep -q '^\.nodemark-'; }

run_nm run "$d" --quick --no-save --no-report --phases inventory,memory,hash
expect_rc 0 "run --quick exits 0"
expect_out_matches '^  memory/memcpy/[0-9]+t +[0-9.]+ [kMG]?B/s' "the memory table has the copy bandwidth"
expect_out_matches '^  memory/pagecache-read +[0-9.]+ [kMG]?B/s' "the memory table has the page-cache read"
expect_out_matches '^  hash/blake3/1t +[0-9.]+ [kMG]?B/s' "the hash table has BLAKE3 on one thread"
expect_out_matches '^  hash/sha256/1t +[0-9.]+ [kMG]?B/s' "the hash table has SHA-256 on one thread"
expect_err_has "[3/3] hash" "plain progress lines name each phase when stderr is not a terminal"
check "no .nodemark-* directory is left behind" no_workdirs

run_nm run "$d" --quick --full
expect_rc 2 "--quick with --full is a usage error"
one_line_error "--quick with --full is one line"

run_nm run "$d/nonexistent"
expect_rc 2 "a missing directory is a usage error"
expect_err_has "nonexistent" "the error names the directory"

run_nm run "$d" --phases memory,bogus
expect_rc 2 "an unknown phase is a usage error"
expect_err_has '"bogus"' "the error names the unknown phase"

# Ctrl-C: 130, the finished phases kept, nothing left behind
"$NM" run "$d" --quick --no-save --no-report --phases inventory,memory,hash >"$d.out" 2>"$d.err" &
pid=$!
for _ in $(seq 50); do ls -a "$d" | grep -q '^\.nodemark-' && break; sleep 0.1; done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
expect_rc 130 "SIGINT during the suite exits 130"
# a process killed by the signal would also give 130: the summary proves it ended on its own
if [ -s "$d.out" ] && grep -q . "$d.out"; then ok "SIGINT: what finished is still reported"; else not_ok "SIGINT: what finished is still reported" "$(cat "$d.err")"; fi
check "SIGINT leaves no .nodemark-* directory" no_workdirs
rm -rf "$d" "$d.out" "$d.err"
