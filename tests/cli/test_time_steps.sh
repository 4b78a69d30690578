# serial: step times are compared
# nodemark time --step NAME=CMD: a pipeline's steps timed in turn as one run, a row per step and
# a total; saved with the step as a key and compared step by step, machine beside machine.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1

run_nm time --no-save --runs 2 --export-json - --step align='echo align >>order; sleep 0.02' \
    --step dedup='echo dedup >>order' --step bqsr='echo bqsr >>order; sleep 0.01'
expect_rc 0 "a pipeline of three steps exits 0"
check "each run does the steps in order" test "$(tr '\n' ' ' <order)" = "align dedup bqsr align dedup bqsr "
check "a row per step and a total" test "$(json_get '[r["command"] for r in j["results"]]')" = "['align', 'dedup', 'bqsr', 'total']"
check "the total of each run is the sum of its steps" python3 -c '
import json, sys
r = json.loads(sys.argv[1])["results"]
steps, total = r[:3], r[3]
assert len(total["times"]) == 2
for k in range(2):
    assert abs(sum(s["times"][k] for s in steps) - total["times"][k]) < 1e-9
' "$out"
expect_err_has "Benchmark 4: total" "the report ends with the total"

# Two machines (tags), compared: one table, a row per step and the total.
for m in a b; do
    run_nm time --runs 2 --tag machine=$m --label pipe-$m --step align='sleep 0.01' --step dedup='true' \
        --step bqsr='true' --step apply='sleep 0.01'
done
run_nm show pipe-a --json
check "each step is saved with its name as the step key" test "$(json_get '[b["settings"]["step"] for b in j["benches"]]')" = \
    "['align', 'dedup', 'bqsr', 'apply', 'total']"
check "the machine tag is kept" test "$(json_get 'j["tags"]["machine"]')" = a
run_nm compare pipe-a pipe-b
expect_rc 0 "the two machines' pipelines compare"
rows=$(awk '/wall time/{t=1; next} t && /^[a-z]/{print $1} t && /^$/{exit}' <<<"$out" | tr '\n' ' ')
[ "$rows" = "align dedup bqsr apply total geomean " ] && ok "compare: step × machine with a total row" \
    || not_ok "compare rows" "$rows; ${out:0:400}"

# Bad input: one line, exit 2.
run_nm time --no-save --step align
expect_refused "--step without NAME=" "NAME=CMD"
run_nm time --no-save --step =true
expect_refused "--step with an empty name" "NAME=CMD"
run_nm time --no-save --step a=true 'true'
expect_refused "--step beside a plain command" "--step"
run_nm time --no-save --step a=true -L x 1,2
expect_refused "--step with parameters" "--step"

# --steps FILE: the same pipeline as "name: command" lines, comments and blank lines skipped
rm -f order
cat >pipeline.steps <<'STEPS'
# the lab's pipeline, in order
align: echo align >>order; sleep 0.01

dedup :echo dedup >>order
bqsr:   echo bqsr >>order   # a '#' inside a command is the shell's
STEPS
run_nm time --no-save --runs 2 --export-json - --steps pipeline.steps
expect_rc 0 "--steps FILE exits 0"
check "--steps: each run does the file's steps in order" test "$(tr '\n' ' ' <order)" = "align dedup bqsr align dedup bqsr "
check "--steps: a row per step and a total" test "$(json_get '[r["command"] for r in j["results"]]')" = "['align', 'dedup', 'bqsr', 'total']"
rm -f order
run_nm time --no-save --steps pipeline.steps --step apply='echo apply >>order'
expect_rc 0 "--steps then --step: one pipeline"
check "--steps then --step: the file's steps, then the option's" test "$(tr '\n' ' ' <order)" = "align dedup bqsr apply "

# a bad line: one line naming the file and the line, exit 2
printf 'align: true\n\n# fine so far\nmark dups true\n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: a line without 'name: command'" "bad.steps:4:"
printf 'align: true\n: true\n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: a line without a name" "bad.steps:2:"
printf 'align:   \n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: a step without a command" "bad.steps:1:"
printf '# nothing\n\n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: a file without steps" "no steps"
run_nm time --no-save --steps no-such.steps
expect_refused "--steps: a missing file" "no-such.steps"
run_nm time --no-save --steps pipeline.steps 'true'
expect_refused "--steps beside a plain command" "--step"
run_nm time --steps pipeline.steps --export-json pipeline.steps
expect_refused "--steps: an export over the steps file" "pipeline.steps"
check "the steps file is unchanged" grep -q '^align: ' pipeline.steps

# A steps file's own hooks: indented 'setup:', 'prepare:', 'conclude:', 'cleanup:' under a step,
# run as the command line's are (setup once before the runs, prepare and conclude around every
# run of that step, cleanup once after); a step without its own hook keeps the command line's.
rm -f order
cat >hooks.steps <<'STEPS'
align: echo run-align >>order
  setup: echo setup-align >>order
  prepare: echo prepare-align >>order
  conclude: echo conclude-align >>order
  cleanup: echo cleanup-align >>order
dedup: echo run-dedup >>order
	prepare: echo prepare-dedup >>order   # a tab indents too
bqsr: echo run-bqsr >>order
STEPS
run_nm time --runs 2 --label hooked --steps hooks.steps --prepare 'echo prepare-cli >>order'
expect_rc 0 "--steps with hooks exits 0"
want="setup-align prepare-align run-align conclude-align prepare-dedup run-dedup prepare-cli run-bqsr"
want="$want prepare-align run-align conclude-align prepare-dedup run-dedup prepare-cli run-bqsr cleanup-align "
got=$(tr '\n' ' ' <order)
[ "$got" = "$want" ] && ok "--steps hooks: each step's own, in order, setup/cleanup once, prepare per run" \
    || not_ok "--steps hooks order" "$got"
run_nm show hooked --json
check "--steps hooks: saved with each step's bench" test \
    "$(json_get '[(b["settings"].get("setup"), b["settings"].get("prepare")) for b in j["benches"][:3]]')" = \
    "[('echo setup-align >>order', 'echo prepare-align >>order'), (None, 'echo prepare-dedup >>order   # a tab indents too'), (None, 'echo prepare-cli >>order')]"

# bad hook lines: one line naming the file and the line, exit 2
printf 'align: true\n  prep: true\n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: an indented line that is no hook" "bad.steps:2: an indented line is a hook"
printf '# hooks\n  setup: true\nalign: true\n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: a hook before any step" "bad.steps:2:"
printf 'align: true\n  setup: true\n  setup: false\n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: a hook given twice for a step" "bad.steps:3: a second 'setup:'"
printf 'align: true\n  cleanup:\n' >bad.steps
run_nm time --no-save --steps bad.steps
expect_refused "--steps: a hook without a command" "bad.steps:2:"
