# serial: run counts follow the commands' measured times
# nodemark time: runs, exports, hooks, parameters, failures, bad input.
. "$TESTS_DIR/cli/lib.sh"

run_nm time --no-save -r 3 -- true
expect_rc 0 "time -- true exits 0"
expect_out_has "Benchmark 1: true" "the report names the command"
expect_out_has "3 runs" "--runs 3 gives 3 runs"
expect_out_matches 'Time \(mean ± σ\): +[0-9.]+ (µs|ms|s) ± +[0-9.]+' "mean ± sigma is printed"
expect_out_has "Peak memory (RSS):" "peak memory is printed"
expect_out_has "Energy:" "energy is printed or said to be unreadable"

run_nm time --no-save -r 4 --export-json - -- sh -c 'exit 0'
expect_rc 0 "--export-json - exits 0"
check "--export-json - puts hyperfine JSON on stdout" test "$(json_get 'len(j["results"][0]["times"])')" = 4
check "exit_codes holds one code per run" test "$(json_get 'j["results"][0]["exit_codes"]')" = "[0, 0, 0, 0]"
check "the command is named as typed" test "$(json_get 'j["results"][0]["command"]')" = "sh -c 'exit 0'"
check "mean lies between min and max" test "$(json_get 'int(j["results"][0]["min"] <= j["results"][0]["mean"] <= j["results"][0]["max"])')" = 1
check "stddev, median, user, system are there" test \
    "$(json_get 'sorted(k for k in ["mean","stddev","median","user","system","min","max"] if k in j["results"][0])' | tr -d "[]', ")" = "maxmeanmedianminstddevsystemuser"
check "no parameters: the key is left out, as hyperfine does" test "$(json_get 'int("parameters" in j["results"][0])')" = 0
check "the report moved to stderr" grep -q "Benchmark 1" <<<"$err"

run_nm time --no-save -r 1 --export-json - -- python3 -c 'b = bytearray(64 << 20); b[::4096] = b"x" * len(b[::4096])'
check "peak RSS counts the child's memory" test "$(json_get 'int(j["results"][0]["memory_usage_byte"][0] >= 64 << 20)')" = 1

run_nm time --no-save -r 1 --export-json - -- sh -c 'head -c 300000 /dev/zero > /dev/null'
check "bytes through write() come from /proc/PID/io" test "$(json_get 'int("write_bytes" in j["results"][0])')" = 1

# Two shell commands, names, relative speed. The quick one sleeps too: the shell's start-up is
# subtracted, as hyperfine does, and `sleep 0` on a loaded machine then reads as 0 s (no ratio).
run_nm time --no-save -r 5 -n quick -n slow 'sleep 0.05' 'sleep 0.3'
expect_rc 0 "two shell commands exit 0"
expect_out_matches "^Benchmark 2: slow$" "--name names each command in order (the name alone, as hyperfine)"
expect_out_has "  quick ran" "the summary names the fastest, as hyperfine prints it"
expect_out_matches "^ +[0-9.]+ ± [0-9.]+ times faster than slow" "the summary gives the relative speed"
expect_out_matches "Mann-Whitney U p=0\.0[0-4][0-9]: significant" "a clear difference is significant (Mann-Whitney U)"

# Parameters.
run_nm time --no-save -r 1 -L comp=a,b -P n=1:3 --export-json - 'true {comp} {n}'
expect_rc 0 "--param and --scan exit 0"
check "--param x --scan gives every combination" test "$(json_get 'len(j["results"])')" = 6
# The first parameter varies fastest, as in hyperfine: a1 b1 a2 b2 a3 b3.
check "parameters are substituted and recorded" test "$(json_get '[r["command"] for r in j["results"]][4]')" = "true a 3"
check "the parameters object has the values" test "$(json_get 'j["results"][5]["parameters"]["n"]')" = 3

# Hooks: setup/cleanup once per command, prepare/conclude around each run (warmups too).
run_nm time --no-save -w 1 -r 2 --setup 'echo s >> hooks' --prepare 'echo p >> hooks' \
    --conclude 'echo c >> hooks' --cleanup 'echo x >> hooks' 'true'
expect_rc 0 "hooks exit 0"
check "hooks run in order: setup, 3 x (prepare, conclude), cleanup" test "$(tr -d '\n' <hooks)" = "spcpcpcx"

run_nm time --no-save -r 1 --prepare 'exit 7' 'true'
expect_rc 1 "a failing hook exits 1"
one_line_error "a failing hook is one line"
expect_err_has "exit code 7" "the hook's exit code is named"

# Interleaving.
run_nm time --no-save -r 3 --interleave 'echo a >> order' 'echo b >> order'
check "--interleave alternates the commands" test "$(tr -d '\n' <order)" = "ababab"
rm -f order
run_nm time --no-save -r 2 'echo a >> order' 'echo b >> order'
check "without --interleave each command runs in a block" test "$(tr -d '\n' <order)" = "aabb"

# Output.
run_nm time --no-save -r 1 --show-output 'echo visible-output'
expect_out_has "visible-output" "--show-output shows the command's output"
run_nm time --no-save -r 1 "printf 'hidden%s' 42"
check "the output is hidden by default" bash -c '! grep -q hidden42 <<<"$1"' _ "$out"

# Failures.
run_nm time --no-save -r 2 -- sh -c 'exit 3'
expect_rc 1 "a failing command exits 1"
one_line_error "a failing command is one line"
expect_err_has "exit code 3" "the exit code is named"
run_nm time --no-save -r 2 -i --export-json - -- sh -c 'exit 3'
expect_rc 0 "--ignore-failure keeps timing"
check "exit codes are recorded" test "$(json_get 'j["results"][0]["exit_codes"]')" = "[3, 3]"
run_nm time --no-save -r 1 -i --timeout 200ms --export-json - -- sleep 5
check "--timeout kills the run (SIGKILL: 137)" test "$(json_get 'j["results"][0]["exit_codes"]')" = "[137]"
run_nm time --no-save -r 1 --timeout 200ms -- sleep 5
expect_rc 1 "a timed-out run fails without --ignore-failure"
expect_err_has "timed out" "the timeout is named"

# Exports to files.
run_nm time --no-save -r 2 --export-csv t.csv --export-markdown t.md --export-json t.json -n x 'true'
expect_rc 0 "file exports exit 0"
check "CSV header as hyperfine's" test "$(head -1 t.csv)" = "command,mean,stddev,median,user,system,min,max"
check "CSV row" grep -q '^x,' t.csv
check "Markdown table" grep -q '^| `x` | .* | 1.00 |$' t.md
check "JSON file" python3 -c 'import json,sys; assert json.load(open("t.json"))["results"][0]["command"] == "x"'
check "no temp files are left" test "$(ls | grep -c nodemark)" = 0

# Bad input: exit 2, one line.
for bad in "--runs 0 true" "--runs x true" "--scan n=3:1 true" "--param n= true" "--timeout 0 true" \
    "--min-runs 5 --max-runs 2 true" "-n a -n b true" "" "-- no-such-command-nm" "--export-json - --export-csv - true"; do
    # shellcheck disable=SC2086
    run_nm time --no-save $bad
    expect_rc 2 "time $bad: exit 2"
    one_line_error "time $bad: one line"
done
run_nm time --no-save 'true' -- true
expect_rc 2 "shell commands and -- together are refused"

# Saved: one bench per command, one sample per run.
run_nm time -r 3 --suite pipeline -n step1 -- true
expect_rc 0 "a saved time run exits 0"
expect_err_has "saved run" "the run is saved"
run_nm export last
check "the saved run holds 3 wall_s samples for step1" test "$(json_get '[len(m["samples"]) for b in (j if isinstance(j, list) else [j])[0]["benches"] if b["name"] == "step1" for m in b["metrics"] if m["name"] == "wall_s"]')" = "[3]"
check "the suite is a tag" test "$(json_get '(j if isinstance(j, list) else [j])[0]["tags"]["suite"]')" = pipeline

# Ctrl-C in the middle: exit 130, the runs that finished are reported and saved.
db_int="$PWD/interrupt.db"
NODEMARK_DB="$db_int" run_interrupted 1.5 "$NM" time --runs 100 -- sleep 0.1
expect_rc 130 "time: SIGINT exits 130"
if grep -q "runs that finished" <<<"$err" && grep -qE '[0-9]+ runs' <<<"$out"; then
    ok "time: SIGINT reports the finished runs"
else
    not_ok "time: SIGINT reports the finished runs" "$err"
fi
n=$(NODEMARK_DB="$db_int" "$NM" export last 2>/dev/null |
    python3 -c 'import json,sys; r=json.load(sys.stdin); r=r[0] if isinstance(r,list) else r; r=r.get("records",[r])[0] if "records" in r else r; print(len([m for b in r["benches"] for m in b["metrics"] if m["name"]=="wall_s"][0]["samples"]))' 2>/dev/null)
if [ -n "$n" ] && [ "$n" -ge 2 ] && [ "$n" -lt 100 ]; then
    ok "time: SIGINT saves the finished runs ($n samples)"
else
    not_ok "time: SIGINT saves the finished runs" "samples: '$n'"
fi
