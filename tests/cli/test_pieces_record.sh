# The saved run: one bench per phase and configuration, the issue's metrics, one sample per
# repetition of --matrix; and nodemark hash's benches. Uses the store the test runner points
# NODEMARK_DB at.
. "$TESTS_DIR/cli/lib.sh"

db=${NODEMARK_DB:?}
q() { sqlite3 "$db" "$1"; }
mkdir -p d0

run_nm pieces d0 --count 3 --size 8k --read --label piecesrec
expect_rc 0 "pieces saves its run"
expect_err_has "saved run" "pieces says the run was saved"
id=$(q "select id from runs where label = 'piecesrec'")
check "the run is in the store" test -n "$id"
check "the write and read phases are benches" test "$(q "select group_concat(name, ' ') from (select name from benches where run_id = '$id' order by seq)")" = \
    "pieces/files/blake3/nosync/write pieces/files/blake3/nosync/read"
metrics=$(q "select group_concat(m.name, ' ') from metrics m join benches b using (bench_id) where b.run_id = '$id' and b.name like '%/write'")
for m in bytes_per_sec pieces_per_sec ns_per_op commit_p50_ns commit_p99_ns; do
    check "the write bench has $m" grep -qw "$m" <<<"$metrics"
done
check "the write bench keeps its commit latency histogram" test "$(q "select count(*) from hists h join benches b using (bench_id) where b.run_id = '$id'")" -ge 1

run_nm pieces d0 --matrix --runs 2 --count 1 --size 4k --label matrixrec
expect_rc 0 "--matrix saves its run"
id=$(q "select id from runs where label = 'matrixrec'")
check "--matrix saves one bench per cell" test "$(q "select count(*) from benches where run_id = '$id'")" = 4
check "--matrix saves one sample per repetition" test "$(q "select count(*) from samples s join metrics m using (metric_id) join benches b using (bench_id) where b.run_id = '$id' and b.name = 'pieces/files/sha256/sync/write' and m.name = 'bytes_per_sec'")" = 2

run_nm hash --algo blake3,sha256 --threads 1 --size 1MiB --runs 2 --label hashrec
expect_rc 0 "hash saves its run"
id=$(q "select id from runs where label = 'hashrec'")
check "hash saves a bench per algorithm" test "$(q "select group_concat(name, ' ') from (select name from benches where run_id = '$id' order by seq)")" = "hash/blake3/1t hash/sha256/1t"
check "hash saves one sample per run" test "$(q "select count(*) from samples s join metrics m using (metric_id) join benches b using (bench_id) where b.run_id = '$id' and b.name = 'hash/blake3/1t' and m.name = 'bytes_per_sec'")" = 2
