# compare's keys: time's -P/-L parameters, settings and inventory facts as --col/--row/--filter;
# a key no run has is refused naming the keys there are; two benchmarks of one run never pool.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db"

run_nm time -L n 1,3 --runs 3 --label sweep -- sleep 0.0{n}
expect_rc 0 "a sweep over -L n saves a run"

run_nm compare sweep --col n --metric wall_s
expect_rc 0 "compare --col n exits 0"
# the columns are n's values, the row the command as written: 10 ms beside 30 ms
expect_out_matches '^ +│ +1 +│ +3 +│$' "--col n makes a column per value of n"
expect_out_matches '^sleep 0\.0\{n\} +[0-9.]+ ms ± ∞ ¹ +[0-9.]+ ms ± ∞ ¹' "the row is the command as written, its values side by side"
run_nm compare sweep --row n --metric wall_s
expect_out_matches '^1 +[0-9.]+ ms' "--row n makes a row per value of n"
expect_out_matches '^3 +[0-9.]+ ms' "... one for each value"
run_nm compare sweep --filter n=3 --metric wall_s --format json
[ "$(json_get '[r["name"] for r in j["tables"][0]["rows"]]')" = "['sleep 0.03']" ] && ok "--filter n=3 keeps the n=3 benchmark" ||
    not_ok "--filter n=3 keeps the n=3 benchmark" "$out"
run_nm compare sweep --col fs --metric wall_s
expect_rc 0 "an inventory fact (fs) is a key"

run_nm compare sweep --row nosuchkey
expect_refused "--row with a key no run has is refused" "--row nosuchkey: no input has this key; keys: input, name, id, host"
[[ $err == *", n,"* && $err == *"kernel"* ]] && ok "the refusal names the keys there are (n, kernel)" ||
    not_ok "the refusal names the keys there are (n, kernel)" "$err"
run_nm compare sweep --col nosuchkey
expect_refused "--col with an unknown key is refused" "--col nosuchkey:"
run_nm compare sweep --filter nosuchkey=x
expect_refused "--filter with an unknown key is refused" "--filter nosuchkey:"
# host is the same for both benchmarks: rows by it would pool 10 ms with 30 ms into one median
run_nm compare sweep --row host
expect_refused "rows that would pool two benchmarks of one run are refused" '"sleep 0.01" and "sleep 0.03" of sweep would pool into one cell'

# --- two benchmarks of one name; names with dots (issues 27 and 29) ----------------------------
# Saved records as disk --turns makes them: each test once per target, under one name (6 samples
# each); the second run's randread on the second target is 4 times slower. fio runs with two
# jobs named x. A run whose job option is named "a.b", one with b under a setting a, one tagged
# a.b=1.
. "$TESTS_DIR/cli/helpers/json_checks.sh"
python3 - <<'PY'
import json
def rec(rid, label, command, benches, tags=None, inv=None):
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000200000 + int(rid[-2:], 16) * 1000,
            "time": "", "host": "lab", "version": "0.1.0", "command": command, "cmdline": "nodemark " + command,
            "label": label, "tags": tags or {}, "inventory": inv or {"os": {"kernel": "6.1.0"}},
            "extra": {}, "benches": benches}
def bench(name, settings, v):
    return {"name": name, "settings": settings, "series": [], "hists": [],
            "metrics": [{"name": "iops", "unit": "op/s", "direction": "higher",
                         "samples": [v * f for f in (1.0, 1.004, 0.996, 1.001, 0.999, 1.002)]}]}
def turns(slow):
    return [bench(t, {"target": tgt, "bs": 4096, "rw": t}, v / (4 if slow and t == "randread" and tgt == "/b" else 1))
            for tgt in ("/a", "/b") for t, v in (("randread", 1000), ("randwrite", 500))]
def fio(bs):
    return [bench("x (group 0, entry %d)" % i, {"job_options": {"rw": "read", "bs": bs if i else "4k"}}, 100 + 100 * i)
            for i in range(2)]
for f, r in [("turns1.json", rec("6c10000000000001", "turns-a", "disk", turns(False))),
             ("turns2.json", rec("6c10000000000002", "turns-b", "disk", turns(True))),
             ("fiox1.json", rec("6c10000000000003", "fiox-a", "fio", fio("4k"))),
             ("fiox2.json", rec("6c10000000000004", "fiox-b", "fio", fio("8k"))),
             ("dot1.json", rec("6c10000000000005", "dotted", "fio", [bench("j", {"job_options": {"a.b": "1"}}, 1)], {"a.b": "1"})),
             ("dot2.json", rec("6c10000000000006", "nested", "fio", [bench("j", {"a": {"b": "2"}}, 1)]))]:
    json.dump(r, open(f, "w"))
PY
for f in turns1 turns2 fiox1 fiox2 dot1 dot2; do "$NM" import $f.json >/dev/null 2>&1 || not_ok "import $f.json"; done

run_nm compare turns-a turns-b --format json
expect_rc 0 "two benchmarks of one name in each run: compared, not refused as pooling"
json_checks \
    '[r["name"] for r in j["tables"][0]["rows"]] == ["randread", "randwrite", "randread #2", "randwrite #2"]' "each has its row: the second of a name is NAME #2" \
    '[round(c["median"]) for c in j["tables"][0]["rows"][2]["cells"]] == [1000, 250]' "randread #2 pairs the second randread of each run (1000 -> 250 op/s)" \
    '[round(c["median"]) for c in j["tables"][0]["rows"][0]["cells"]] == [1000, 1000]' "and randread the first (unchanged)"
run_nm compare turns-a turns-b
expect_out_matches '^randread #2 +' "the text names the second randread 'randread #2'"
run_nm compare turns-a turns-b --row name --format json
json_checks '[r["name"] for r in j["tables"][0]["rows"]] == ["randread", "randwrite", "randread #2", "randwrite #2"]' "--row name: the same rows"
run_nm compare turns-a turns-b --col target --format json
json_checks \
    'j["columns"] == ["/a", "/b"] and [r["name"] for r in j["tables"][0]["rows"]] == ["randread", "randwrite"]' "--col target: a column per target, a row per test"
run_nm compare turns-a --row rw
expect_refused "rows by a key two benchmarks of a run share are still refused" '"randread" and "randread" of turns-a would pool into one cell'
run_nm compare fiox-a fiox-b
expect_rc 0 "fio runs with two jobs named x compare"
expect_out_matches '^x #2 +[0-9]' "the compact table names the second job x #2"
expect_out_matches '^x +[0-9]' "and the first x"

run_nm compare dotted --col a.b --format json
json_checks 'j["columns"] == ["1"]' "--col a.b is the job option named a.b"
run_nm compare nested --col a.b
expect_refused "b under a setting a is not the key a.b" "--col a.b: no input has this key"
run_nm compare dotted nested --col a --format json
expect_refused "a setting that holds an object is no key" "--col a: no input has this key"
run_nm compare --where a.b=1 --format json
json_checks 'j["columns"] == ["dotted"]' "--where a.b=1 takes the tag a.b whole"
