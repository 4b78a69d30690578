# nodemark hash: digests of files agree with b3sum and sha256sum, the JSON schema, bad input.
. "$TESTS_DIR/cli/lib.sh"
. "$TESTS_DIR/cli/helpers/json_checks.sh"

# Digests of random files of the lengths where block and chunk boundaries fall.
mismatch=""
for n in 1 63 64 65 1023 1024 1025 4097 65537 1048577; do
    head -c "$n" /dev/urandom >in.bin
    run_nm hash --file in.bin --algo blake3,sha256 --threads 1 --block 4k --json --no-save
    [ "$rc" -eq 0 ] || { mismatch="$mismatch rc=$rc@$n"; continue; }
    # grep, not python: one interpreter start per length would dominate this test's time
    digests=$(grep -o '"digest": "[0-9a-f]*"' <<<"$out" | cut -d'"' -f4)
    ours_b3=$(sed -n 1p <<<"$digests")
    ours_sha=$(sed -n 2p <<<"$digests")
    if command -v b3sum >/dev/null; then
        [ "$ours_b3" = "$(b3sum in.bin | cut -d' ' -f1)" ] || mismatch="$mismatch blake3@$n"
    fi
    [ "$ours_sha" = "$(sha256sum in.bin | cut -d' ' -f1)" ] || mismatch="$mismatch sha256@$n"
done
if [ -z "$mismatch" ]; then ok "--file digests agree with b3sum and sha256sum"; else not_ok "--file digests agree" "$mismatch"; fi

run_nm hash --file in.bin --algo sha256 --threads 1 --no-save
expect_rc 0 "text output with --file exits 0"
expect_out_has "$(sha256sum in.bin | cut -d' ' -f1)  in.bin" "text output prints the digest and file name"

# The JSON schema of the issue, numeric, one result per algorithm and thread count.
run_nm hash --algo blake3,sha256,none --size 3MiB --block 64KiB --threads 1,2 --json --no-save
expect_rc 0 "--json exits 0"
json_checks \
    'len(j["results"]) == 6' "--json has one result per algorithm and thread count" \
    'all(set(["algo","threads","block","bytes","seconds","bytes_per_sec"]) <= set(r) for r in j["results"])' "--json results have the issue's keys" \
    'all(isinstance(r["bytes_per_sec"], float) and r["bytes_per_sec"] > 0 and isinstance(r["seconds"], float) for r in j["results"])' "--json numbers are numbers" \
    'set(r["bytes"] for r in j["results"]) == {3145728}' "--json bytes is --size" \
    'set(r["block"] for r in j["results"]) == {65536}' "--json block is --block" \
    '[r["threads"] for r in j["results"]] == [1, 2, 1, 2, 1, 2]' "--json threads follow --threads" \
    '[r["algo"] for r in j["results"]][::2] == ["blake3", "sha256", "none"]' "--json algos follow --algo" \
    'len(j["cpu_features"]) > 0' "--json names the CPU features"

run_nm hash --algo blake3 --size 1MiB --threads 1 --runs 3 --no-save
expect_rc 0 "text output exits 0"
expect_out_has "CPU features:" "text output lists the CPU features"
expect_out_matches '^blake3 +[A-Za-z0-9.-]+ +1 +256 KiB +[0-9]+\.[0-9] +([0-9]+\.[0-9]+|n/a)$' "text output has a row per algorithm"
expect_out_has "median of the runs" "--runs says the median is shown"

run_nm hash --algo sha256 --size 1MiB --threads 1 --output out.json --no-save
expect_rc 0 "--output exits 0"
check "--output writes the JSON to the file" python3 -c 'import json; assert json.load(open("out.json"))["results"][0]["algo"] == "sha256"'

for bad in "--algo md5" "--algo blake3,,sha256" "--size 0" "--size 4q" "--block 0" "--threads 0" \
    "--threads x" "--runs 0" "--file nonexistent.bin" "extra-arg" "--frobnicate"; do
    # shellcheck disable=SC2086
    run_nm hash $bad --no-save
    expect_rc 2 "bad input '$bad' exits 2"
    one_line_error "bad input '$bad' is one line"
done
: >empty.bin
run_nm hash --file empty.bin --no-save
expect_rc 2 "an empty --file exits 2"
expect_err_has "not empty" "an empty --file says why"

# cycles/B is counted over the span each thread hashed, as its time is: on one thread, cycles/B
# times bytes/s is then the cycle counter's rate, the same for every algorithm whatever their
# speed (counted around the threads' start and join, a 1 MiB run gave 9.16 cycles/B beside a
# throughput that meant 0.47, and the product was 20x the counter's rate).
run_nm hash --algo blake3,sha256 --threads 1 --size 1m --runs 1 --json --no-save
res=$(python3 -c '
import json, sys
j = json.load(sys.stdin)
hz = [r["cycles_per_byte"] * r["bytes_per_sec"] for r in j["results"] if r["cycles_per_byte"] is not None]
if len(hz) < 2: print("skip"); sys.exit()
print("ok" if max(hz) / min(hz) < 1.05 else "bad %s" % hz)' <<<"$out" 2>&1)
case $res in
ok) ok "cycles/B x throughput is one rate (the cycle counter's) for every algorithm, on a 1 MiB run" ;;
skip) skip "cycles/B against throughput" "this CPU has no readable cycle counter" ;;
*) not_ok "cycles/B x throughput is one rate (the cycle counter's) for every algorithm, on a 1 MiB run" "$res" ;;
esac

# A saved run keeps the CPU time of the hashing threads per sample (extra.cpu_time, issue 27
# item 9): more than nothing, and never more than the wall time times the threads (the CPU
# clock is read inside each thread's span; 1% for the two clocks' rates).
run_nm hash --algo blake3 --size 4MiB --threads 1,2 --runs 3
expect_rc 0 "a saved hash run"
run_nm show last --json
res=$(python3 -c '
import json, sys
j = json.load(sys.stdin)
ct = j["extra"].get("cpu_time", {})
bad = []
for b in j["benches"]:
    c = ct.get(b["name"])
    n = len(b["metrics"][0]["samples"])
    if not c or c["metric"] != "bytes_per_sec" or len(c["cpu_s"]) != n or len(c["wall_s"]) != n:
        bad.append("%s: %s" % (b["name"], c)); continue
    for w, s in zip(c["wall_s"], c["cpu_s"]):
        if not (0 < s <= w * c["threads"] * 1.01): bad.append("%s: cpu %g wall %g x %d" % (b["name"], s, w, c["threads"]))
print("ok %d" % len(ct) if not bad else "bad %s" % bad)' <<<"$out" 2>&1)
if [ "$res" = "ok 2" ]; then ok "each sample of a saved hash run has its CPU time: 0 < cpu <= wall x threads"
else not_ok "each sample of a saved hash run has its CPU time: 0 < cpu <= wall x threads" "$res"; fi
