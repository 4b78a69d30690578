# nodemark import --trace: a nextflow trace.txt (fixtures in tests/cli/data/pipeline, in
# nextflow's documented format) as a run: a row per process (the step key), a total, the
# machine from --tag; two machines' traces compare step by step.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1
D="$TESTS_DIR/cli/data/pipeline"

run_nm import --trace "$D/trace-a.txt" --tag machine=a --label nf-a
expect_rc 0 "a nextflow trace imports"
run_nm show nf-a --json
check "a bench per process, the tag dropped from the task name, and a total" \
    test "$(json_get '[b["settings"]["step"] for b in j["benches"]]')" = "['BWA_MEM', 'MARK_DUPLICATES', 'BQSR', 'APPLY_BQSR', 'total']"
wall() { json_get "[m['samples'] for b in j['benches'] if b['name'] == '$1' for m in b['metrics'] if m['name'] == '$2'][0]"; }
check "realtime '1h 1m 58s' is 3718 s" test "$(wall BWA_MEM wall_s)" = "[3718.0]"
check "the failed BQSR attempt is left out, the completed one kept" test "$(wall BQSR wall_s)" = "[845.0]"
check "realtime with a fraction of a second ('16m 57.5s')" test "$(wall APPLY_BQSR wall_s)" = "[1017.5]"
check "the total is the sum of the completed steps" test "$(wall total wall_s)" = "[6873.5]"
check "peak_rss '14.2 GB' in bytes (1024-based, as nextflow's)" test "$(wall BWA_MEM max_rss)" = "[$(python3 -c 'print(14.2*1024**3)')]"
check "wchar '512 KB'" test "$(wall BQSR write_chars)" = "[524288.0]"
check "%cpu '1540.2%'" test "$(wall BWA_MEM cpu_pct)" = "[1540.2]"
check "the machine comes from --tag" test "$(json_get 'j["tags"]["machine"]')" = a

run_nm import --trace "$D/trace-b.txt" --tag machine=b --label nf-b
run_nm compare nf-a nf-b
rows=$(awk '/wall time/{t=1; next} t && /^[A-Za-z]/{print $1} t && /^$/{exit}' <<<"$out" | tr '\n' ' ')
[ "$rows" = "BWA_MEM MARK_DUPLICATES BQSR APPLY_BQSR total geomean " ] && ok "two machines' traces: step × machine with a total" \
    || not_ok "compare rows" "$rows"
expect_out_matches '^total +1h54m34s .* 1h29m26s ' "the totals side by side"

# trace.raw = true: milliseconds and bytes.
printf 'name\tstatus\trealtime\tpeak_rss\n' >raw.txt
printf 'STEP (x)\tCOMPLETED\t1500\t2048\n' >>raw.txt
run_nm import --trace raw.txt --label raw
run_nm show raw --json
check "raw realtime in milliseconds" test "$(wall STEP wall_s)" = "[1.5]"
check "raw peak_rss in bytes" test "$(wall STEP max_rss)" = "[2048.0]"

# Bad input: one line, exit 2.
printf 'a\tb\n1\t2\n' >nohead.txt
run_nm import --trace nohead.txt
expect_refused "a file without a trace header" "not a nextflow trace header"
printf 'name\tstatus\trealtime\nX\tCOMPLETED\t3 fortnights\n' >baddur.txt
run_nm import --trace baddur.txt
expect_refused "a realtime that is not a duration" "line 2"
printf 'name\tstatus\trealtime\nX\tCOMPLETED\n' >short.txt
run_nm import --trace short.txt
expect_refused "a line with fewer fields than the header" "fields"
run_nm import --trace no-such-trace.txt
check "a missing trace names the file" grep -q "no-such-trace.txt" <<<"$err"
run_nm import --tag machine=a x.json
expect_refused "--tag without --trace" "--trace"

# import --snakemake DIR: snakemake's benchmark files (one per rule, a line per repeat) as a run.
run_nm import --snakemake "$D/snakemake-a" --tag machine=a --label sm-a
expect_rc 0 "a directory of snakemake benchmark files imports"
run_nm show sm-a --json
check "a step per file (its name up to the first dot) and a total" \
    test "$(json_get '[b["settings"]["step"] for b in j["benches"]]')" = "['apply_bqsr', 'bqsr', 'bwa_mem', 'mark_duplicates', 'total']"
check "s: one sample per repeat" test "$(wall bqsr wall_s)" = "[845.33, 851.902]"
check "the total of each repeat is the sum of the steps'" python3 -c '
import json, sys
j = json.loads(sys.argv[1]); w = {b["name"]: [m for m in b["metrics"] if m["name"] == "wall_s"][0]["samples"] for b in j["benches"]}
for k in range(2):
    assert abs(sum(v[k] for n, v in w.items() if n != "total") - w["total"][k]) < 1e-6
' "$out"
check "max_rss in MB (1024 * 1024 bytes)" test "$(wall bqsr max_rss)" = "[$(python3 -c 'print(3481.6*1048576)'), $(python3 -c 'print(3482.11*1048576)')]"
run_nm import --snakemake "$D/snakemake-b" --tag machine=b --label sm-b
run_nm compare sm-a sm-b
rows=$(awk '/wall time/{t=1; next} t && /^[A-Za-z]/{print $1} t && /^$/{exit}' <<<"$out" | tr '\n' ' ')
[ "$rows" = "apply_bqsr bqsr bwa_mem mark_duplicates total geomean " ] && ok "two machines' snakemake benchmarks: step × machine with a total" \
    || not_ok "snakemake compare rows" "$rows"
mkdir -p badsm && printf 's\th:m:s\n12.5\t0:00:12\nx\t0:00:01\n' >badsm/r.tsv
run_nm import --snakemake badsm
expect_refused "a benchmark file with a bad number" "badsm/r.tsv"
mkdir -p emptysm
run_nm import --snakemake emptysm
expect_refused "a directory without benchmark files" "no benchmark file"
run_nm import --snakemake no-such-dir
expect_rc 1 "a missing directory is an I/O failure"
expect_err_has "no-such-dir" "the message names it"
printf 'name\tstatus\trealtime\tpeak_rss\nX\tCOMPLETED\t1s\tlots\n' >badsize.txt
run_nm import --trace badsize.txt
expect_refused "a peak_rss that is not a size" 'peak_rss "lots"'
