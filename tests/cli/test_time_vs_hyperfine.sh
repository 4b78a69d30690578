# serial: run counts follow the commands' measured times, in both tools
# nodemark time beside the real hyperfine on the same command lines: the order of parameter
# combinations, what --show-output and --command-name print, the reference's place, the exit
# statuses.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1
if ! command -v hyperfine >/dev/null; then
    skip "nodemark time beside hyperfine" "hyperfine is not installed"
    exit 0
fi

# The commands of each result, in order, from --export-json's file.
commands() { python3 -c 'import json,sys; print(" | ".join(r["command"] for r in json.load(open(sys.argv[1]))["results"]))' "$1"; }
# What the report shows of each benchmark and of its runs' output: the headers and the lines
# the command printed (out-...), in order.
shown() { grep -E '^(Benchmark [0-9]+: |out-)' <<<"$1"; }

# -L a 1,2,3 -L b x,y: the first list varies fastest (1x 2x 3x 1y 2y 3y).
hyperfine -N -r 1 -L a 1,2,3 -L b x,y --export-json hf.json 'echo {a}{b}' >/dev/null 2>&1
run_nm time --no-save -N -r 1 -L a 1,2,3 -L b x,y --export-json nm.json 'echo {a}{b}'
hf=$(commands hf.json) nm=$(commands nm.json)
[ -n "$hf" ] && [ "$hf" = "$nm" ] && ok "-L a 1,2,3 -L b x,y: hyperfine's order ($nm)" || not_ok "-L order" "hyperfine: $hf; nodemark: $nm"
check "the parameters of each result as hyperfine's" test \
    "$(python3 -c 'import json,sys; print([r["parameters"] for r in json.load(open(sys.argv[1]))["results"]])' nm.json)" = \
    "$(python3 -c 'import json,sys; print([r["parameters"] for r in json.load(open(sys.argv[1]))["results"]])' hf.json)"

# --reference with -L: the reference once, as benchmark 1, then every value. This hyperfine
# (Debian's) may predate --reference: then nodemark's order is the reference and hyperfine's
# order without it.
if hyperfine --help 2>/dev/null | grep -q -- '--reference'; then
    hyperfine -N -r 1 --reference 'echo ref' -L a 1,2 --export-json hfr.json 'echo {a}' >/dev/null 2>&1
    want=$(commands hfr.json)
else
    hyperfine -N -r 1 -L a 1,2 --export-json hfr.json 'echo {a}' >/dev/null 2>&1
    want="echo ref | $(commands hfr.json)"
fi
run_nm time --no-save -N -r 1 --reference 'echo ref' -L a 1,2 --export-json nmr.json 'echo {a}'
got=$(commands nmr.json)
[ "$got" = "$want" ] && ok "--reference with -L runs the reference once, first ($got)" || not_ok "--reference with -L" "want: $want; got: $got"
expect_out_matches '^Benchmark 1: echo ref$' "the reference is benchmark 1"
check "the reference is run once, not per value" test "$(grep -c '^Benchmark [0-9]*: echo ref$' <<<"$out")" = 1

# --show-output: each benchmark's header, then its runs' output (warmups too), as hyperfine.
hyperfine -N -w 1 -r 2 --show-output -L a 1,2 'echo out-{a}' >hf.out 2>/dev/null
run_nm time --no-save -N -w 1 -r 2 --show-output -L a 1,2 'echo out-{a}'
hf=$(shown "$(cat hf.out)") nm=$(shown "$out")
[ "$(grep -c . <<<"$hf")" = 8 ] && [ "$hf" = "$nm" ] && ok "--show-output: the header, then each run's output, as hyperfine" \
    || not_ok "--show-output order" "hyperfine: $(tr '\n' '/' <<<"$hf"); nodemark: $(tr '\n' '/' <<<"$nm")"

# --command-name: the header shows just the name.
hyperfine -N -r 1 -n first -n second 'echo out-a' 'echo out-b' >hf.out 2>/dev/null
run_nm time --no-save -N -r 1 -n first -n second 'echo out-a' 'echo out-b'
hf=$(grep '^Benchmark' hf.out) nm=$(grep '^Benchmark' <<<"$out")
[ "$hf" = "$(printf 'Benchmark 1: first\nBenchmark 2: second')" ] && [ "$hf" = "$nm" ] \
    && ok "--command-name: the header is the name alone, as hyperfine's" || not_ok "--command-name header" "hyperfine: $hf; nodemark: $nm"

# Exit statuses, case by case, against hyperfine's.
while IFS= read -r args; do
    eval "hyperfine --style none $args" >/dev/null 2>&1
    want=$?
    eval "run_nm time --no-save --style none $args"
    [ "$rc" = "$want" ] && ok "exit status $rc as hyperfine's: $args" || not_ok "exit status: $args" "hyperfine $want, nodemark $rc"
done <<'CASES'
-r 1 'exit 3'
-r 1 -i 'exit 3'
-r 1 -N 'sh -c "exit 4"'
--no-such-option true
-r 1 -D 0.1 true
-r 1 -u hours true
--style fancy true
-r 1 --prepare false true
-r 1 --setup false true
-r 1 --cleanup false true
-r 2 -L a 0,3 'exit {a}'
CASES

# The automatic run count, as hyperfine's: 3 s over the first run's whole cycle (the command,
# its shell and its --prepare), rounded down, within -m/-M. A 1.6 s prepare: 1.875, so one run
# (counting only the command would run -M 3 times; rounding up, twice).
runs() { python3 -c 'import json,sys; print(" ".join(str(len(r["times"])) for r in json.load(open(sys.argv[1]))["results"]))' "$1"; }
hyperfine -N -m 1 -M 3 --prepare 'sleep 1.6' --export-json hfn.json true >/dev/null 2>&1
run_nm time --no-save -N -m 1 -M 3 --prepare 'sleep 1.6' --export-json nmn.json true
hf=$(runs hfn.json) nm=$(runs nmn.json)
[ "$hf" = 1 ] && [ "$hf" = "$nm" ] && ok "the run count counts --prepare's time and rounds down, as hyperfine's ($nm run)" \
    || not_ok "run count with --prepare" "hyperfine: $hf runs; nodemark: $nm"

# The report's figures right-aligned in 8 columns, as hyperfine's (its tests read these lines):
# the Time and Range lines, digits aside, up to the standard deviation and the maximum.
aligned() { grep -E '^  (Time \(mean|Range \(min)' <<<"$1" | sed -E 's/[0-9]/N/g; s/^(.*: +[N.]+ [^ ]+ (±|…)).*/\1/'; }
for unit in "" "-u second"; do
    hf=$(aligned "$(hyperfine -N -r 2 $unit 'sleep 0.01' 2>/dev/null)")
    run_nm time --no-save -N -r 2 $unit 'sleep 0.01'
    nm=$(aligned "$out")
    [ "$(grep -c . <<<"$hf")" = 2 ] && [ "$hf" = "$nm" ] && ok "the report's Time and Range columns as hyperfine's (${unit:-ms})" \
        || not_ok "report alignment ${unit:-ms}" "hyperfine: $(tr '\n' '/' <<<"$hf"); nodemark: $(tr '\n' '/' <<<"$nm")"
done
