# compare/report: runs chosen by tag (--where), metrics by name (--metric), and a total row for
# the steps of a pipeline (--total): the genomics write-up's table, machines as columns.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"

# Two machines ran a pipeline of two steps; a third run is of something else.
mk() { # ID HOST PIPELINE BWA_S MARKDUP_S
    python3 - "$@" <<'PY'
import json, sys
rid, host, pipeline, bwa, md = sys.argv[1:6]
def step(name, s):
    return {"name": name, "settings": {}, "series": [], "hists": [], "metrics": [
        {"name": "wall_s", "unit": "s", "direction": "lower", "samples": [float(s)] * 6},
        {"name": "max_rss_bytes", "unit": "B", "direction": "lower", "samples": [1e9] * 6}]}
print(json.dumps({"format": "nodemark-record", "format_version": 1, "id": rid,
    "time_ms": 1700000000000 + int(rid[-2:]) * 1000, "time": "", "host": host, "version": "0.1.0",
    "command": "time", "cmdline": "nodemark time", "label": None, "tags": {"pipeline": pipeline},
    "inventory": {}, "extra": {}, "benches": [step("bwa", bwa), step("markdup", md)]}))
PY
}
mk 00000001aaaa0001 a gatk 3600 1200 >1.json
mk 00000002bbbb0002 b gatk 1800 1500 >2.json
mk 00000003cccc0003 c other 10 10 >3.json
run_nm import 1.json 2.json 3.json
expect_rc 0 "three runs imported"

run_nm compare --where pipeline=gatk --col host --metric wall_s --total
expect_rc 0 "compare --where --metric --total exits 0"
expect_out_matches '│ +a +│ +b +│' "the runs of the pipeline, machines as columns"
expect_out_matches '^bwa +1h00m00s ± 0% +30m00s ± 0% +-50\.00% ' "a step per row"
expect_out_matches '^total +1h20m00s ± 0% +55m00s ± 0% +-31\.25%' "the total row: the steps summed, and its change"
check "--metric keeps only wall_s" bash -c '! grep -q max_rss <<<"$1"' _ "$out"
check "--where leaves out the other pipeline" bash -c '! grep -q "│ *c *│" <<<"$1"' _ "$out"

run_nm compare --where host=a --where pipeline=gatk --metric 'wall*'
expect_out_matches '^bwa +1h00m00s' "two --where both hold"
check "no total row without --total" bash -c '! grep -q "^total" <<<"$1"' _ "$out"

run_nm report --where pipeline=gatk --col host --metric wall_s --total -o r.md
expect_rc 0 "report takes them too"
grep -qE '^\| total \| 1h20m00s ± 0% \| 55m00s ± 0% \| -31\.25% \|$' r.md && ok "report: the total row" || not_ok "report: the total row" "$(grep total r.md)"

run_nm compare --where pipeline=none
expect_rc 2 "no run matches --where: bad input"
one_line_error "no match: one line"
run_nm compare --where pipeline=gatk --metric nothing_like_it
expect_rc 2 "no metric matches --metric: bad input"
one_line_error "no metric: one line"
run_nm compare --where novalue
expect_rc 2 "--where without a value"
one_line_error "--where without '=': one line"
