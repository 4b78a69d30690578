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
