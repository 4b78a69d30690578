# nodemark pieces: JSON numbers, both backends, workers over directories, --keep + verify,
# the matrix table, bad input (one line, exit 2, nothing left behind), SIGINT.
. "$TESTS_DIR/cli/lib.sh"
. "$TESTS_DIR/cli/helpers/json_checks.sh"

mkdir -p d0 d1
left_behind() { find d0 d1 -mindepth 1 | head -3; }

run_nm pieces d0 --count 6 --size 64k --block 16k --read --json --no-save
expect_rc 0 "files backend with --read exits 0"
json_checks \
    'j["write"]["pieces"] == 6' "write phase counts the pieces" \
    'j["write"]["bytes"] == 6 * 65536' "write phase counts the bytes" \
    'j["read"]["pieces"] == 6' "read phase read every piece" \
    'all(isinstance(j[p][k], float) and j[p][k] > 0 for p in ("write","read") for k in ("bytes_per_sec","pieces_per_sec","ns_per_op"))' "rates are positive numbers" \
    'j["write"]["commit_lat_ns"]["p50"] <= j["write"]["commit_lat_ns"]["p99"] <= j["write"]["commit_lat_ns"]["max"] and j["write"]["commit_lat_ns"]["p50"] > 0' "commit latency percentiles are ordered numbers" \
    'j["read"]["lat_ns"]["p99.9"] > 0' "read latency percentiles are there" \
    'abs(j["write"]["ns_per_op"] * j["write"]["pieces_per_sec"] - 1e9) < 1e3' "ns_per_op is 1e9 / pieces_per_sec"
check "nothing is left in the directory" test -z "$(left_behind)"

run_nm pieces d0 --backend log --sync=data --sync-batch 3 --count 7 --size 32k --hash sha256 --json --no-save
expect_rc 0 "log backend with group commit exits 0"
json_checks \
    '(j["backend"], j["sync"], j["sync_batch"], j["hash"]) == ("log", "syncdata-batch3", 3, "sha256")' "log backend reports its settings" \
    'j["write"]["pieces"] == 7' "log backend commits every piece"
check "log backend leaves nothing behind" test -z "$(left_behind)"

run_nm pieces d0 --count 3 --size 8k --hash none --sync --dirsync --no-save
expect_rc 0 "text output exits 0"
expect_out_has "files backend, 3 pieces" "text output names the backend and count"
expect_out_matches '^  write +3 ' "text output has the write row"
expect_out_has "write commit" "text output has the commit latency row"

# Workers over two directories, kept, then verified.
run_nm pieces d0 d1 --workers 2 --count 5 --size 16k --keep --no-save
expect_rc 0 "--keep over two directories exits 0"
expect_err_has "kept piece store: d0/.nodemark-" "--keep names the store in d0"
expect_err_has "kept piece store: d1/.nodemark-" "--keep names the store in d1"
kept0=$(ls -d d0/.nodemark-* 2>/dev/null | head -1)
run_nm pieces verify "$kept0"
expect_rc 0 "verify of a kept store exits 0"
expect_out_has "3 pieces, 3 ok, 0 corrupt" "verify finds worker 0's 3 pieces in d0"
run_nm pieces verify d1 --json
expect_rc 0 "verify of the parent directory exits 0"
json_checks \
    '(j["pieces"], j["ok"], j["corrupt"]) == (2, 2, 0)' "verify --json counts worker 1's 2 pieces in d1"

blob=$(find "$kept0/blobs" -name '*.sj1' | head -1)
printf 'X' | dd of="$blob" bs=1 seek=2000 conv=notrunc status=none
run_nm pieces verify "$kept0"
expect_rc 1 "verify exits 1 on a corrupt piece"
expect_out_has "corrupt: $blob: hash mismatch" "verify names the corrupt piece and why"
rm -rf d0/.nodemark-* d1/.nodemark-*

# The matrix: benchstat-style rows, median ± interval, n.
run_nm pieces d0 --matrix --runs 2 --count 2 --size 8k --read --no-save
expect_rc 0 "--matrix exits 0"
for row in Write/nosync-SHA256 Write/nosync-BLAKE3 Write/sync-BLAKE3 Read/sync-SHA256 ReadWrite/nosync-BLAKE3; do
    expect_out_matches "^$row +[0-9.]+ [kMGT]?B/s ± ([0-9]+%|∞)  n=2\$" "--matrix has the row $row"
done
run_nm pieces d0 --matrix --runs 1 --count 1 --size 4k --json --no-save
expect_rc 0 "--matrix --json exits 0"
json_checks \
    'sorted(r["name"] for r in j["results"]) == ["Write/nosync-BLAKE3", "Write/nosync-SHA256", "Write/sync-BLAKE3", "Write/sync-SHA256"]' "--matrix --json has the four write cells" \
    'all(r["median"] > 0 and len(r["samples"]) == 1 for r in j["results"])' "--matrix --json medians are numbers"
check "--matrix leaves nothing behind" test -z "$(left_behind)"

# Bad input: one line, exit 2, no temp files.
: >afile
for bad in "d0 --size 0" "d0 --count 0" "d0 --hash md5" "d0 --backend foo" "nonexistent-dir" "afile" \
    "d0 --count 1000000 --size 1TiB" "d0 --sync=bogus" "d0 --sync-batch 4" "d0 --backend log --dirsync" \
    "d0 --matrix --hash sha256" "d0 --runs 3" "d0 --workers 0" "d0 --block 4q" ""; do
    # shellcheck disable=SC2086
    run_nm pieces $bad --no-save
    expect_rc 2 "bad input '$bad' exits 2"
    one_line_error "bad input '$bad' is one line"
done
check "bad input leaves nothing behind" test -z "$(left_behind)"
run_nm pieces verify d0
expect_rc 2 "verify of a directory without a store exits 2"
one_line_error "verify of a directory without a store is one line"

# SIGINT: stops, exits 130, removes what it wrote.
"$NM" pieces d0 --count 100000 --size 64k --no-save >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -n "$(find d0 -name '*.sj1' 2>/dev/null | head -1)" ] && break; sleep 0.1; done
kill -INT $pid
wait $pid
rc=$?
expect_rc 130 "SIGINT exits 130"
check "SIGINT leaves nothing behind" test -z "$(left_behind)"

# Ctrl-C in the middle: exit 130, the pieces written so far are reported and saved, nothing left.
mkdir -p intdir
NODEMARK_DB="$PWD/int.db" run_interrupted 1 "$NM" pieces intdir --count 100000 --size 64k
expect_rc 130 "pieces: SIGINT exits 130"
if grep -q "pieces were written" <<<"$err" && grep -qE '^ +write +[0-9]+' <<<"$out"; then
    ok "pieces: SIGINT reports the pieces written so far"
else
    not_ok "pieces: SIGINT reports the pieces written so far" "$err"
fi
if NODEMARK_DB="$PWD/int.db" "$NM" runs 2>/dev/null | grep -q " pieces "; then
    ok "pieces: SIGINT saves the finished part"
else
    not_ok "pieces: SIGINT saves the finished part"
fi
if [ -z "$(ls -A intdir)" ]; then ok "pieces: SIGINT leaves no files"; else not_ok "pieces: SIGINT leaves no files" "$(ls -A intdir)"; fi

# Several directories: each one's share, as disk reports per target (in the order given).
mkdir -p pd/a pd/b
run_nm pieces pd/a pd/b --count 12 --workers 2 --read --no-save --json
expect_rc 0 "pieces over two directories exits 0"
res=$(json_get 'all(len(j[ph]["per_dir"]) == 2 and sum(d["pieces"] for d in j[ph]["per_dir"]) == j[ph]["pieces"]
    and all(d["pieces"] > 0 and d["bytes"] == d["pieces"] * j["size"] and d["bytes_per_sec"] > 0 for d in j[ph]["per_dir"])
    for ph in ("write", "read"))' 2>&1)
if [ "$res" = True ]; then ok "pieces --json: per_dir shares add up to the phase, for write and read"; else not_ok "pieces --json: per_dir shares add up to the phase, for write and read" "$res ${out:0:300}"; fi
res=$(json_get 'all(abs(sum(d["bytes_per_sec"] for d in j[ph]["per_dir"]) / j[ph]["bytes_per_sec"] - 1) < 0.001
    and abs(sum(d["pieces_per_sec"] for d in j[ph]["per_dir"]) / j[ph]["pieces_per_sec"] - 1) < 0.001 for ph in ("write", "read"))' 2>&1)
if [ "$res" = True ]; then ok "pieces --json: the directories' rates add up to the phase's rate"; else not_ok "pieces --json: the directories' rates add up to the phase's rate" "$res"; fi
run_nm pieces pd/a pd/b --count 12 --workers 2 --no-save
if grep -qE '^    write +6 .* pd/a$' <<<"$out" && grep -qE '^    write +6 .* pd/b$' <<<"$out"; then
    ok "pieces text: a row per directory with its share"
else
    not_ok "pieces text: a row per directory with its share" "$out"
fi
