#!/bin/bash
# hyperfine 1.15's integration tests (tests/integration_tests.rs, tests/execution_order_tests.rs),
# each as its command line and what it asserts, run against a tool: hyperfine itself or
# `nodemark time`. The 7 tests built on --debug-mode (mocked times) run here with real commands:
# what does not depend on the mocked figures (the unit and the columns, the run count from the
# estimate, the summary, the benchmarks of a scan) is checked, within what real timing allows.
#
#   scripts/hyperfine-tests.sh hyperfine
#   NODEMARK_NO_PROGRESS=1 scripts/hyperfine-tests.sh build/nodemark time --no-save
#
# Prints PASS/FAIL per test and the count; takes about 30 s per tool.
[ $# -gt 0 ] || { echo "usage: $0 TOOL [ARGS...]" >&2; exit 2; }
T=("$@")
case $1 in */*) T[0]=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") ;; esac
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 2
N=0 P=0
res() { N=$((N + 1)); if [ "$2" = 0 ]; then P=$((P + 1)); echo "PASS $1"; else echo "FAIL $1: $3"; fi; }
t() { out=$("${T[@]}" "$@" 2>err); rc=$?; err=$(cat err); }
has() { grep -qF -- "$1" <<<"$2"; }
has_re() { grep -qE -- "$1" <<<"$2"; }
nruns() { sed -nE 's/.* ([0-9]+) runs$/\1/p' <<<"$out" | head -1; }
between() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
NOPE=some-nonexisting-program-b5d9574198b7e4b12a71fa4747c0a577

# integration_tests.rs: without --debug-mode
t --runs=2 "echo dummy benchmark"; res runs_successfully $rc "exit $rc"
t --runs=1 "echo dummy benchmark"; res one_run_is_supported $rc "exit $rc"
t --runs=1 --show-output --shell=none "echo 'hello world' argument2"
[ $rc = 0 ] && has "hello world argument2" "$out"; res can_run_commands_without_a_shell $? "exit $rc"
t --command-name=a --command-name=b "echo a"; [ $rc != 0 ]; res fails_with_wrong_number_of_command_name_arguments $? "exit $rc"
t --runs=1 --prepare="echo a" --prepare="echo b" "echo a" "echo b"; r1=$rc
t --runs=1 --prepare="echo a" --prepare="echo b" "echo a" "echo b" "echo c"
[ $r1 = 0 ] && [ $rc != 0 ]; res fails_with_wrong_number_of_prepare_options $? "exit $r1, then $rc"
t --parameter-list x 1,2,3 --parameter-list x a,b,c "echo test"; [ $rc != 0 ]; res fails_with_duplicate_parameter_names $? "exit $rc"
t --runs=1 $NOPE; [ $rc != 0 ]; res fails_for_unknown_command $? "exit $rc"
t --shell=none --runs=1 $NOPE; [ $rc != 0 ]; res fails_for_unknown_command_without_shell $? "exit $rc"
t --shell=none --runs=1 false; [ $rc != 0 ]; res fails_for_failing_command_without_shell $? "exit $rc"
t --runs=1 --setup=$NOPE "echo test"; [ $rc != 0 ]; res fails_for_unknown_setup_command $? "exit $rc"
t --runs=1 --cleanup=$NOPE "echo test"; [ $rc != 0 ]; res fails_for_unknown_cleanup_command $? "exit $rc"
t --prepare=$NOPE "echo test"; [ $rc != 0 ]; res fails_for_unknown_prepare_command $? "exit $rc"
t false; r1=$rc; t --runs=1 --ignore-failure false
[ $r1 != 0 ] && [ $rc = 0 ]; res can_run_failing_commands_with_ignore_failure_option $? "exit $r1, then $rc"
t --runs=2 --command-name=dummy --show-output "echo 4fd47015"
[ $rc = 0 ] && [ "$(grep -o 4fd47015 <<<"$out" | wc -l)" = 2 ]; res shows_output_of_benchmarked_command $? "exit $rc"
t --runs=1 --show-output --shell "echo 'custom_shell' '--shell-arg'" "echo benchmark"
[ $rc = 0 ] && has "custom_shell --shell-arg -c echo benchmark" "$out"; res runs_commands_using_user_defined_shell $? "exit $rc"

# integration_tests.rs: the --debug-mode tests, with real commands
t -N -r 2 "sleep 1.01"; a=$out; t -N -r 2 "sleep 0.12"; b=$out; t -N -r 2 -u millisecond "sleep 1.01"
has_re '^  Time \(mean ± σ\):      1\.0[0-9]{2} s ±' "$a" && has_re '^  Time \(mean ± σ\):     12[0-9]\.[0-9] ms ±' "$b" &&
    has_re '^  Time \(mean ± σ\):     10[0-9]{2}\.[0-9] ms ±' "$out"
res returns_mean_time_in_correct_unit $? "$(grep -h 'Time (' <<<"$a$b$out" | tr '\n' '/')"
t "sleep 0.31"; [ "$(nruns)" = 10 ]; res performs_ten_runs_for_slow_commands $? "$(nruns) runs"
t "sleep 0.01"; between "$(nruns)" 200 300; res performs_three_seconds_of_benchmarking_for_fast_commands $? "$(nruns) runs"
printf '#!/bin/sh\nsleep %s\nexec /bin/sh "$@"\n' 0.02 >slowsh20 && printf '#!/bin/sh\nsleep %s\nexec /bin/sh "$@"\n' 0.01 >slowsh10
chmod +x slowsh20 slowsh10
t --shell="$W/slowsh20" "sleep 0.01"; between "$(nruns)" 75 100
res takes_shell_spawning_time_into_account_for_computing_number_of_runs $? "$(nruns) runs"
t --prepare="sleep 0.02" "sleep 0.01"; n1=$(nruns); t --shell="$W/slowsh10" --prepare="sleep 0.03" "sleep 0.05"
between "$n1" 75 100 && between "$(nruns)" 24 30
res takes_preparation_command_into_account_for_computing_number_of_runs $? "$n1 and $(nruns) runs"
t -N -r 3 "sleep 0.05" "sleep 0.1" "sleep 0.15"
has_re '^ +(1\.[89]|2\.[01])[0-9] ± [0-9.]+ times faster' "$out" && has_re '^ +(2\.[789]|3\.[0-2])[0-9] ± [0-9.]+ times faster' "$out"
res shows_benchmark_comparison_with_relative_times $? "$(grep 'times faster' <<<"$out" | tr '\n' '/')"
t -r 1 --parameter-scan time 30 45 --parameter-step-size 5 "echo {time}"
[ "$(grep '^Benchmark' <<<"$out" | tr '\n' '/')" = "Benchmark 1: echo 30/Benchmark 2: echo 35/Benchmark 3: echo 40/Benchmark 4: echo 45/" ]
res performs_all_benchmarks_in_parameter_scan $? "$(grep '^Benchmark' <<<"$out" | tr '\n' '/')"

# execution_order_tests.rs: every command appends to one log; the log's lines, in order
L=$W/output.log
c() { echo "echo $1 >> $L"; }
eo() {
    local name=$1 want=$2 got
    shift 2
    rm -f "$L"
    "${T[@]}" "$@" >/dev/null 2>err
    rc=$? got=$(tr '\n' / <"$L" 2>/dev/null)
    [ $rc = 0 ] && [ "$got" = "$want" ]
    res "$name" $? "exit $rc, $got"
}
eo benchmarks_are_executed_sequentially_one "command 1/command 2/" --runs=1 "$(c 'command 1')" "$(c 'command 2')"
eo benchmarks_are_executed_sequentially "command 1/command 1/command 2/command 2/" --runs=2 "$(c 'command 1')" "$(c 'command 2')"
eo warmup_runs_are_executed_before_benchmarking_runs "$(printf 'command 1/%.0s' 1 2 3 4 5)" --runs=2 --warmup=3 "$(c 'command 1')"
eo setup_commands_are_executed_before_each_series_of_timing_runs "setup/command 1/command 1/setup/command 2/command 2/" \
    --runs=2 --setup "$(c setup)" "$(c 'command 1')" "$(c 'command 2')"
eo prepare_commands_are_executed_before_each_timing_run "prepare/command 1/prepare/command 1/prepare/command 2/prepare/command 2/" \
    --runs=2 --prepare "$(c prepare)" "$(c 'command 1')" "$(c 'command 2')"
eo prepare_commands_are_executed_before_each_warmup \
    "$(printf 'prepare/command 1/%.0s' 1 2 3)$(printf 'prepare/command 2/%.0s' 1 2 3)" \
    --warmup=2 --runs=1 --prepare "$(c prepare)" "$(c 'command 1')" "$(c 'command 2')"
eo cleanup_commands_are_executed_once_after_each_benchmark "command 1/command 1/cleanup/command 2/command 2/cleanup/" \
    --runs=2 --cleanup "$(c cleanup)" "$(c 'command 1')" "$(c 'command 2')"
eo setup_prepare_cleanup_combined \
    "setup/$(printf 'prepare/command1/%.0s' 1 2 3)cleanup/setup/$(printf 'prepare/command2/%.0s' 1 2 3)cleanup/" \
    --warmup=1 --runs=2 --setup "$(c setup)" --prepare "$(c prepare)" "$(c command1)" "$(c command2)" --cleanup "$(c cleanup)"
eo single_parameter_value "command 1/command 1/command 2/command 2/command 3/command 3/" \
    --runs=2 --parameter-list number 1,2,3 "$(c 'command {number}')"
eo multiple_parameter_values "$(for l in a b; do for n in 1 2 3; do printf 'command %s %s/command %s %s/' $n $l $n $l; done; done)" \
    --runs=2 --parameter-list number 1,2,3 --parameter-list letter a,b "$(c 'command {number} {letter}')"

echo "$P of $N passed"
[ "$P" = "$N" ]
