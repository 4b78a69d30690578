# The results store commands: import, runs, show, export, rm, and their bad input.
. "$TESTS_DIR/cli/lib.sh"
mk="python3 $TESTS_DIR/cli/data/mkrecord.py"
export NODEMARK_DB="$PWD/store.db"

$mk 00000001aaaa0001 1700000000000 node1 base fs=xfs os=debian -- "RND4K=100,110,105" >a.json
$mk 00000002bbbb0002 1700000100000 node2 base fs=zfs -- "RND4K=200,210,205" >b.json
$mk 00000003cccc0003 1700000200000 node1 "" fs=xfs -- "RND4K=300" >c.json

run_nm import a.json b.json c.json
expect_rc 0 "import of three records exits 0"
expect_out_has "imported 3 runs" "import says how many runs it added"
run_nm import a.json
expect_out_has "imported 0 runs (1 already stored)" "importing the same run again skips it"

run_nm runs
expect_rc 0 "runs exits 0"
first=$(sed -n 2p <<<"$out")
[[ $first == 00000003cccc0003* ]] && ok "runs lists the newest first" || not_ok "runs lists the newest first" "$first"
run_nm runs --host node1 --json
[ "$(json_get 'len(j)')" = 2 ] && ok "runs --host filters" || not_ok "runs --host filters" "$out"
run_nm runs --tag fs=zfs --json
[ "$(json_get 'j[0]["id"]')" = 00000002bbbb0002 ] && ok "runs --tag filters by value" || not_ok "runs --tag filters by value" "$out"
run_nm runs --label base --command disk --json
[ "$(json_get 'len(j)')" = 2 ] && ok "runs --label --command filter" || not_ok "runs --label --command filter" "$out"
run_nm runs --tag os --json
[ "$(json_get 'j[0]["tags"]["os"]')" = debian ] && ok "runs --tag KEY matches any value" || not_ok "runs --tag KEY matches any value" "$out"

run_nm show base
expect_rc 0 "show by label exits 0"
expect_out_has "run      00000002bbbb0002  label base" "a label names the newest run with it"
expect_out_has " 205 IOPS ± " "show prints the median of the samples, with its unit"
run_nm show 00000001 --json
[ "$(json_get 'j["benches"][0]["metrics"][0]["samples"]')" = "[100.0, 110.0, 105.0]" ] && ok "show --json by id prefix gives the samples" || not_ok "show --json by id prefix" "$out"
run_nm show last --json
[ "$(json_get 'j["id"]')" = 00000003cccc0003 ] && ok "last is the newest run" || not_ok "last is the newest run" "$out"

run_nm show 0000000
expect_rc 2 "an ambiguous prefix exits 2"
one_line_error "an ambiguous prefix is one line"
expect_err_has "ambiguous" "the error says ambiguous"
run_nm show nosuch
expect_rc 2 "an unknown run exits 2"
one_line_error "an unknown run is one line"

run_nm export 00000001aaaa0001 last -o exported.json
expect_rc 0 "export to a file exits 0"
NODEMARK_DB="$PWD/other.db" run_nm import exported.json
expect_out_has "imported 2 runs" "exported records import into another store"
NODEMARK_DB="$PWD/other.db" run_nm export --all
python3 - "$out" <<'PY' && ok "a record survives import, export, import, export unchanged" || not_ok "record round trip"
import json, sys
first, _ = json.JSONDecoder().raw_decode(sys.argv[1].lstrip())
orig = json.load(open("a.json"))
sys.exit(0 if all(first[k] == orig[k] for k in ("id", "benches", "tags", "inventory", "label")) else 1)
PY

# bad input: nothing written
printf '{"format": "nodemark-record", "format_version": 1,' >broken.json
run_nm import a.json broken.json
expect_rc 2 "corrupt JSON exits 2"
one_line_error "corrupt JSON is one line"
expect_err_has "broken.json" "the error names the file"
python3 - <<'PY'
import json
r = json.load(open("b.json")); r["id"] = "00000009dddd0009"; r["benches"][0]["metrics"][0]["samples"][1] = "fast"
open("bad.json", "w").write(json.dumps(r))
r["id"] = "0000000aeeee000a"; r["benches"][0]["metrics"][0]["samples"][1] = 1
open("good.json", "w").write(json.dumps(r))
PY
run_nm import good.json bad.json
expect_rc 2 "a mistyped sample exits 2"
expect_err_has "benches[0].metrics[0].samples[1]: expected a number" "the error names the field"
run_nm runs --json
[ "$(json_get 'len(j)')" = 3 ] && ok "a failed import writes nothing" || not_ok "a failed import writes nothing" "$out"

run_nm rm 00000002bbbb0002 nosuch
expect_rc 2 "rm with an unknown run exits 2"
run_nm runs --json
[ "$(json_get 'len(j)')" = 3 ] && ok "rm with an unknown run deletes nothing" || not_ok "rm deletes nothing" "$out"
run_nm rm 00000002bbbb0002
expect_rc 0 "rm exits 0"
run_nm show 00000002bbbb0002
expect_rc 2 "a deleted run is gone"

printf 'garbage that is not sqlite at all, but long enough for a header.......................\n' >bad.db
run_nm runs --db bad.db
expect_rc 2 "a corrupt store exits 2"
one_line_error "a corrupt store is one line"
expect_err_has "not a results store or damaged" "the error says what is wrong"
[ "$(head -c 7 bad.db)" = garbage ] && ok "a corrupt store is not written" || not_ok "a corrupt store is not written"

( echo "BEGIN EXCLUSIVE;"; sleep 2; echo "COMMIT;" ) | sqlite3 "$NODEMARK_DB" &
lock=$!
sleep 0.5
NODEMARK_DB_BUSY_MS=100 run_nm import good.json
expect_rc 1 "a locked store exits 1 (the store could not be written: a failure, not bad input, as a full disk)"
one_line_error "a locked store is one line"
expect_err_has "locked by another process" "the error says the store is locked"
wait $lock
run_nm runs --json
[ "$(json_get 'len(j)')" = 2 ] && ok "a locked store was not half-written" || not_ok "locked store state" "$out"

run_nm show
expect_rc 2 "show without a run exits 2"
run_nm runs --limit 0
expect_rc 2 "runs --limit 0 exits 2"
one_line_error "runs --limit 0 is one line"
