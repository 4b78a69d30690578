# Run references (issue 27 item 7): "last" beside other runs is the newest run of their kind;
# last:KIND, last~N and last:KIND~N name runs wherever a run is named; mixing kinds is refused.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1

mk() { # ID COMMAND LABEL SECONDS: saved in the order of their ids' last two digits
    python3 - "$@" <<'PY'
import json, sys
rid, cmd, label, s = sys.argv[1:5]
print(json.dumps({"format": "nodemark-record", "format_version": 1, "id": rid,
    "time_ms": 1700000000000 + int(rid[-2:]) * 1000, "time": "", "host": "h", "version": "0.1.0",
    "command": cmd, "cmdline": "nodemark " + cmd, "label": label, "tags": {},
    "inventory": {}, "extra": {}, "benches": [{"name": "step", "settings": {}, "series": [], "hists": [],
    "metrics": [{"name": "wall_s", "unit": "s", "direction": "lower", "samples": [float(s)] * 6}]}]}))
PY
}
mk 00000001aaaa0001 time t1 10 >1.json
mk 00000002aaaa0002 time t2 20 >2.json
mk 00000003aaaa0003 disk d1 30 >3.json
mk 00000004aaaa0004 disk d2 40 >4.json
run_nm import 1.json 2.json 3.json 4.json
expect_rc 0 "four runs imported, the newest two of kind disk"

# "last" beside a time run is the newest time run (t2), not the newest run (d2).
run_nm compare t1 last
expect_rc 0 "compare t1 last"
expect_out_has "t2" "last is the newest run of t1's kind"
check "the newest run of another kind is left out" bash -c '! grep -q d2 <<<"$1"' _ "$out"
run_nm compare t2 last~1
expect_out_has "t1" "last~1 beside a time run is the time run before the newest"

run_nm compare t1 d1
expect_rc 2 "a time run beside a disk run is refused"
one_line_error "the refusal is one line"
expect_err_has "compare runs of one kind" "it says why"
run_nm compare t1 last:disk
expect_rc 2 "last:disk beside a time run is refused too"
run_nm report t1 last -o r.md
expect_rc 0 "report t1 last"
check "report's last is the newest time run" bash -c 'grep -q t2 r.md && ! grep -q d2 r.md'
run_nm report t1 d2 -o r2.md
expect_rc 0 "report takes runs of several kinds named explicitly (a page of each kind's charts)"
run_nm compare last:time~1 last:time
expect_rc 0 "two references of one kind compare"
expect_out_has "t1" "the older time run"

for ref in "last d2" "last~1 d1" "last:time t2" "last:time~1 t1" "last:disk~1 d1"; do
    set -- $ref
    run_nm export "$1"
    expect_rc 0 "export $1"
    expect_out_has "\"label\": \"$2\"" "export $1 is $2"
done
run_nm show last:disk~1
expect_rc 0 "show last:disk~1"
expect_out_has "d1" "show takes a reference"

run_nm show last:time~2
expect_rc 2 "a reference past the oldest run of its kind is refused"
one_line_error "in one line"
for bad in 'last~' 'last:' 'last~x' 'last:disk~1x'; do
    run_nm show "$bad"
    expect_rc 2 "show $bad is refused"
    expect_err_has "bad run reference" "show $bad names the forms"
done
