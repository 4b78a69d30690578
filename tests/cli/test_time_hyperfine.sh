# serial: run counts follow the commands' measured times
# nodemark time takes hyperfine's command lines: its option names and syntax, its exports and
# the order of its results; what is saved with the run (hooks, cwd).
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1

# -P NAME MIN MAX with -D after it, as in hyperfine's README.
run_nm time --no-save -r 1 --parameter-scan delay 0.1 0.3 -D 0.1 --export-json - 'true {delay}'
expect_rc 0 "--parameter-scan NAME MIN MAX -D DELTA exits 0"
check "-P/-D give MIN, MIN+D, ..., MAX" test "$(json_get '[r["command"] for r in j["results"]]')" = "['true 0.1', 'true 0.2', 'true 0.3']"
check "the parameter is kept per result" test "$(json_get 'j["results"][2]["parameters"]["delay"]')" = 0.3
run_nm time --no-save -r 1 -P threads 1 3 --export-json - 'true -j {threads}'
check "-P without -D steps by 1" test "$(json_get 'len(j["results"])')" = 3
run_nm time --no-save -r 1 -L compiler gcc,clang --export-json - '{compiler} -O2 main.cpp; true'
check "-L NAME a,b" test "$(json_get '[r["parameters"]["compiler"] for r in j["results"]]')" = "['gcc', 'clang']"
run_nm time --no-save -r 1 -D 0.1 'true'
expect_rc 2 "-D without -P is refused"

# -N: the string's words run without a shell; --shell picks another shell.
run_nm time --no-save -r 2 -N --export-json - 'printf "%s" a b'
expect_rc 0 "-N exits 0"
check "-N runs without a shell" test "$(json_get 'j["results"][0]["command"]')" = 'printf "%s" a b'
run_nm time --no-save -r 1 -N 'nosuchcommand-xyz'
expect_rc 2 "-N with an unknown program exits 2"
run_nm time --no-save -r 1 --shell bash --show-output 'echo {a,b}x'
expect_out_has "ax bx" "--shell bash runs the command with bash (brace expansion)"
run_nm time --no-save -r 1 --shell=none --show-output 'echo {a,b}x'
expect_out_has "{a,b}x" "--shell=none is -N"

# Names, the summary in hyperfine's order and wording, --sort command.
run_nm time --no-save -r 3 -N --command-name slow --command-name fast 'sleep 0.2' 'sleep 0.01'
expect_out_has "  fast ran" "the summary starts with the fastest"
expect_out_matches "^ +[0-9.]+ ± [0-9.]+ times faster than slow" "then how much faster it is than the others"
run_nm time --no-save -r 2 -N --sort command 'sleep 0.2' 'sleep 0.01'
expect_out_has "Relative speed comparison" "--sort command lists the commands in order"
expect_out_matches "^ +1\.00 +sleep 0\.01$" "the fastest is 1.00, without an uncertainty"

# Exports: markup tables with one unit (the first command's, or --time-unit), in command order.
run_nm time --no-save -r 2 -N --export-markdown t.md --export-asciidoc t.adoc --export-orgmode t.org 'sleep 0.2' 'sleep 0.01'
expect_rc 0 "the markup exports exit 0"
check "Markdown header as hyperfine's" test "$(head -2 t.md | tr '\n' '#')" = "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |#|:---|---:|---:|---:|---:|#"
check "Markdown rows in command order, the fastest 1.00" test "$(sed -n 4p t.md | sed 's/|.*| //')" = "1.00 |"
check "Markdown ms values with one decimal" grep -Eq '^\| `sleep 0\.2` \| [0-9]+\.[0-9] ± [0-9]+\.[0-9] \| [0-9]+\.[0-9] \|' t.md
check "AsciiDoc table as hyperfine's" test "$(head -3 t.adoc | tr '\n' '#')" = '[cols="<,>,>,>,>"]#|===#| Command #'
check "AsciiDoc closes the table" test "$(tail -1 t.adoc)" = "|==="
check "org-mode header and divider" test "$(head -2 t.org | tr '\n' '#')" = "| Command  |  Mean [ms] |  Min [ms] |  Max [ms] |  Relative |#|--+--+--+--+--|#"
check "org-mode commands as =code=" grep -q '^| =sleep 0.01=  |' t.org
run_nm time --no-save -r 2 -N -u second --export-markdown s.md 'sleep 0.01'
check "--time-unit second: [s] with three decimals" grep -Eq '^\| `sleep 0\.01` \| 0\.0[0-9]{2} ± 0\.0[0-9]{2} \|' s.md
expect_out_matches "Time \(mean ± σ\): +0\.0[0-9]{2} s ± " "--time-unit applies to the report"
run_nm time --no-save -r 2 -N --sort mean-time --export-markdown m.md 'sleep 0.2' 'sleep 0.01'
check "--sort mean-time orders the table by mean" test "$(sed -n 3p m.md | cut -d'`' -f2)" = "sleep 0.01"

# --json, --style none, --output, --input, --ignore-failure=CODES, HYPERFINE_ITERATION.
run_nm time --no-save -r 2 --json -N 'true'
check "--json puts hyperfine's JSON on stdout" test "$(json_get 'len(j["results"][0]["times"])')" = 2
check "--json moves the report to stderr" grep -q "Benchmark 1" <<<"$err"
run_nm time --no-save -r 1 --style none -N 'true'
check "--style none prints no report" test -z "$out"
run_nm time --no-save -r 2 --output out.log 'echo line'
check "--output FILE collects every run's output" test "$(cat out.log)" = "$(printf 'line\nline')"
echo from-input >in.txt
run_nm time --no-save -r 2 --input in.txt --output got.txt 'cat'
check "--input FILE is every run's stdin, from its start" test "$(cat got.txt)" = "$(printf 'from-input\nfrom-input')"
run_nm time --no-save -r 1 --output pipe 'seq 200000'
expect_rc 0 "--output pipe drains the output"
run_nm time --no-save -r 2 --ignore-failure=3 -- sh -c 'exit 3'
expect_rc 0 "--ignore-failure=3 ignores exit code 3"
run_nm time --no-save -r 1 --ignore-failure=4 -- sh -c 'exit 3'
expect_rc 1 "--ignore-failure=4 still fails on exit code 3"
run_nm time --no-save -w 1 -r 2 'echo x > it-${HYPERFINE_ITERATION}.log'
check "HYPERFINE_ITERATION names each run (warmups too)" test "$(ls it-*.log | tr '\n' ' ')" = "it-0.log it-1.log it-warmup-0.log "
run_nm time --no-save -r 1 --prepare 'echo a >> per' --prepare 'echo b >> per' 'true' 'true'
check "--prepare given once per command" test "$(tr -d '\n' <per)" = "ab"
run_nm time --no-save -r 1 --prepare 'true' --prepare 'true' --prepare 'true' 'true' 'true'
expect_rc 2 "three --prepare for two commands is refused"
run_nm time --no-save -r 1 --reference 'sleep 0.05' -N 'sleep 0.01'
expect_out_has "Benchmark 1: sleep 0.05" "--reference is timed first"
expect_out_matches "times slower than sleep 0.01" "the others are compared with the reference"
run_nm time --no-save -r 1 --style fancy 'true'
expect_rc 2 "an unknown --style is refused"

# The run keeps how it was made: its hooks and the directory it ran in.
run_nm time -r 1 --label hooked --prepare 'true' --conclude 'true' -N 'true'
run_nm show hooked --json
check "the saved run keeps --prepare" test "$(json_get '[b["settings"].get("prepare") for b in j["benches"]][0]')" = true
check "the saved run keeps the working directory" test "$(json_get 'j["extra"]["cwd"]')" = "$PWD"
