# nodemark disk: bad input, custom jobs (JSON figures that follow from the job), several
# targets, write protection of files, profiles, I/O errors and Ctrl-C. Tiny files, short runs.
. "$TESTS_DIR/cli/lib.sh"

mkdir -p d1 d2
# One python start per JSON document (each start is slow on a busy machine): jvals EXPR...
# evaluates every expression on $out (j = the document) into the array V.
PY=$(python3 -c 'import sys; print(sys.executable)')
jvals() {
    mapfile -t V < <("$PY" -c 'import json,sys; j=json.loads(sys.stdin.read()); [print(eval(e)) for e in sys.argv[1:]]' "$@" <<<"$out")
}
no_leftovers() { # DIR...: no .nodemark-* left behind
    local n
    n=$(find "$@" -maxdepth 1 -name '.nodemark-*' | wc -l)
    if [ "$n" -eq 0 ]; then ok "$1: private directories removed"; else not_ok "$1: private directories removed" "$(ls -a "$@")"; fi
}

# --- bad input: one line, exit 2 -------------------------------------------------------
for bad in "--bs 0" "--bs 4q" "--rw randrd" "--iodepth 70000" "--iodepth 0" "--bs 1000" "--jobs 0" \
    "--rwmix 101" "--engine spdk" "--runtime 0" "--profile cdm9"; do
    # shellcheck disable=SC2086
    run_nm disk d1 --rw read --size 64k --no-save $bad
    [[ $bad == --profile* ]] && run_nm disk d1 --size 64k --no-save $bad
    expect_rc 2 "$bad: exit 2"
    one_line_error "$bad: one line"
done
run_nm disk d1 --rw read --bs 4q --no-save
expect_err_has '--bs: "4q"' "a bad size names the option and the value"

run_nm disk --rw read --no-save
expect_rc 2 "no target: exit 2"
one_line_error "no target: one line"
expect_err_has "missing target" "no target: says so"

run_nm disk ./does-not-exist --rw read --no-save
expect_rc 2 "a missing target: exit 2"
expect_err_has "does-not-exist" "a missing target is named"

mkfifo fifo
run_nm disk fifo --rw read --no-save
expect_rc 2 "a fifo target: exit 2"
one_line_error "a fifo target: one line"

# --- a custom job: the figures follow from the job --------------------------------------
run_nm disk d1 --rw randread --bs 4k --size 1m --iodepth 4 --engine psync --json --no-save
expect_rc 0 "randread size-based: exit 0"
jvals 'j["tests"][0]["total"]["io_bytes"]' 'j["tests"][0]["total"]["ios"]' 'j["tests"][0]["total"]["lat_ns"]["n"]' 'int(j["tests"][0]["total"]["lat_ns"]["p50"] <= j["tests"][0]["total"]["lat_ns"]["p99"] <= j["tests"][0]["total"]["lat_ns"]["max"] * 1.01)' 'int(abs(j["tests"][0]["total"]["iops"] - 256e9 / j["tests"][0]["total"]["runtime_ns"]) < 1)' 'j["tests"][0]["total"]["engine"]' 'int(j["tests"][0]["total"]["usr_cpu_ns"] + j["tests"][0]["total"]["sys_cpu_ns"] > 0)'
check "one random pass reads every block once: io_bytes = size" test "${V[0]:-}" = 1048576
check "256 I/Os of 4 KiB" test "${V[1]:-}" = 256
check "every I/O has a latency" test "${V[2]:-}" = 256
check "p50 <= p99 <= max" test "${V[3]:-}" = 1
check "iops = ios / runtime" test "${V[4]:-}" = 1
check "the engine asked for is reported" test "${V[5]:-}" = psync
check "CPU time is reported" test "${V[6]:-}" = 1
no_leftovers d1

run_nm disk d1 --rw randrw --rwmix 70 --size 2m --engine uring --iodepth 8 --json --no-save
expect_rc 0 "randrw with uring: exit 0"
jvals 'j["tests"][0]["total"]["read"]["ios"] + j["tests"][0]["total"]["write"]["ios"]' 'int(0.6 < j["tests"][0]["total"]["read"]["ios"] / 512 < 0.8)' 'type(j["tests"][0]["total"]["direct"]).__name__'
check "reads + writes = 512 I/Os" test "${V[0]:-}" = 512
check "about 70% reads" test "${V[1]:-}" = 1
check "uring reports its direct mode as a boolean" test "${V[2]:-}" = bool

run_nm disk d1 --rw read --bs 64k --size 1m --engine mmap --no-save
expect_rc 0 "mmap engine, text report: exit 0"
expect_out_matches "read 64k Q1T1: mmap, buffered" "the report names the engine and mode"
expect_out_matches "IOPS .* MB/s, .* MiB/s" "the report has IOPS, MB/s and MiB/s"
expect_out_matches "p50 .*p90 .*p99 .*p99.9 .*p99.99 " "the report has the percentiles"
expect_out_has "per I/O" "the report has CPU per I/O"

# --- several targets --together: threads spread, results per target -----------------------------------
run_nm disk d1 d2 --together --rw write --bs 64k --size 1m --jobs 4 --engine psync --end-fsync --json --no-save
expect_rc 0 "two targets, four jobs: exit 0"
jvals 'len(j["tests"][0]["targets"])' '",".join(str(t["io_bytes"]) for t in j["tests"][0]["targets"])' 'len(j["tests"][0]["jobs"])' 'j["tests"][0]["jobs"][1]["target"]' 'int(j["tests"][0]["total"]["sync_ios"] >= 4)'
check "a result per target" test "${V[0]:-}" = 2
check "each target did two jobs' bytes" test "${V[1]:-}" = "2097152,2097152"
check "a result per job" test "${V[2]:-}" = 4
check "jobs alternate targets" test "${V[3]:-}" = d2
check "end fsync counted" test "${V[4]:-}" = 1
no_leftovers d1 d2

# --- time-based, null engine ----------------------------------------------------------------
# The measured window ends at the deadline, or at the end of an I/O that finished after it (a
# thread descheduled across the deadline on a busy machine), so it is never shorter than the
# runtime asked for, and never longer than the command ran: the bounds load cannot move.
t0=$(date +%s%N)
run_nm disk --engine null --rw randread --runtime 1s --jobs 2 --json --no-save
wall=$(($(date +%s%N) - t0))
expect_rc 0 "null engine, time-based: exit 0"
jvals "int(1e9 - 1e3 <= j['tests'][0]['total']['runtime_ns'] <= $wall)" 'int(j["tests"][0]["total"]["ios"] > 1000)'
check "the measured time is the runtime asked for, within the command's own time" test "${V[0]:-}" = 1
check "the null engine did I/Os" test "${V[1]:-}" = 1

# --- io_uring options: a kernel thread polling the SQ; polled completions ---------------------
run_nm disk d1 --engine uring --sqpoll --rw randread --bs 4k --iodepth 8 --size 1m --runtime 300ms --json --no-save
expect_rc 0 "--sqpoll: exit 0"
jvals 'j["tests"][0]["total"]["engine"]' 'int(j["tests"][0]["total"]["ios"] > 0)'
check "--sqpoll runs on the uring engine" test "${V[0]:-}" = uring
check "--sqpoll did I/Os" test "${V[1]:-}" = 1
no_leftovers d1
# Polled I/O needs a device with poll queues: where there are none, every I/O fails with
# EOPNOTSUPP, and the message must say what --hipri needs rather than a bare errno.
run_nm disk d1 --engine uring --hipri --rw randread --bs 4k --iodepth 4 --size 1m --runtime 300ms --no-save
if [ "$rc" -eq 0 ]; then
    ok "--hipri: this device polls (nothing to explain)"
else
    expect_rc 1 "--hipri without poll queues: exit 1"
    expect_err_has "--hipri needs O_DIRECT on a device with poll queues" "--hipri: the failure says what polling needs"
fi
no_leftovers d1
# --sqpoll and --hipri set uring's options by name on the job's engine: with auto they go to
# uring (its ring is set up with SQPOLL where auto picks it: iodepth 8), and an engine without
# them refuses them.
if [ $HAVE_STRACE = 1 ]; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -o st.log -e trace=io_uring_setup \
        "$NM" disk d1 --sqpoll --rw randread --bs 4k --iodepth 8 --size 1m --runtime 300ms --no-save >/dev/null 2>&1
    grep -q 'io_uring_setup(8, {flags=IORING_SETUP_SQPOLL' st.log && ok "--sqpoll with engine auto: uring's ring polls" ||
        not_ok "--sqpoll with engine auto: uring's ring polls" "$(grep io_uring_setup st.log | cut -c1-120)"
    rm -f st.log
    no_leftovers d1
else skip "--sqpoll with engine auto" "strace is not installed"; fi
for flag in --sqpoll --hipri; do
    run_nm disk d1 --engine psync $flag --rw read --size 64k --runtime 100ms --no-save
    expect_rc 2 "$flag on the psync engine is refused"
    one_line_error "$flag on psync: one line"
    expect_err_has "$flag: the psync engine has no such option" "$flag on psync: the refusal names the engine"
done

# --- files nodemark did not create are only read -------------------------------------------
head -c 262144 /dev/urandom >data.bin
sum_before=$(cksum <data.bin)
run_nm disk data.bin --rw randread --bs 4k --engine psync --json --no-save
expect_rc 0 "reading an existing file: exit 0"
jvals 'j["tests"][0]["total"]["io_bytes"]'
check "the whole file is read once" test "${V[0]:-}" = 262144
run_nm disk data.bin --rw write --no-save
expect_rc 2 "writing to an existing file without --allow-write: exit 2"
one_line_error "writing to an existing file: one line"
check "the file is untouched" test "$(cksum <data.bin)" = "$sum_before"
run_nm disk data.bin --rw write --bs 4k --engine psync --allow-write data.bin --no-save
expect_rc 0 "with --allow-write the file may be written"
run_nm disk d1 --rw read --size 64k --allow-write data.bin --no-save
expect_rc 2 "--allow-write of a path that is not a target: exit 2"

# --- a profile, scaled down ----------------------------------------------------------------
run_nm disk d1 --profile realworld --size 2m --runtime 200ms --loops 2 --interval 0 --json --no-save
expect_rc 0 "realworld profile: exit 0"
jvals '",".join(t["name"] for t in j["tests"])' '",".join(str(len(t["passes"])) for t in j["tests"])' 'int(all(t["total"]["bytes_per_sec"] == max(p["bytes_per_sec"] for p in t["passes"]) for t in j["tests"]))'
check "reads then writes: 4 tests" test "${V[0]:-}" = "SEQ1M Q1T1 read,RND4K Q1T1 read,SEQ1M Q1T1 write,RND4K Q1T1 write"
check "two passes each" test "${V[1]:-}" = "2,2,2,2"
check "the best pass is the fastest" test "${V[2]:-}" = 1
run_nm disk d1 --profile realworld --size 2m --runtime 100ms --loops 1 --interval 0 --no-save
expect_rc 0 "profile table: exit 0"
expect_out_matches "^RND4K Q1T1 write +[0-9.]+ [kMG]?B/s +[0-9.]+ IOPS +[0-9.]+ (n|µ|m)?s +[0-9.]+ (n|µ|m)?s +[0-9.]+ [kMG]?B/s " \
    "the table has bandwidth, IOPS, mean and p99 latency and the best pass per test, each with its unit"
expect_out_has "test (median of passes)" "the table is of the median of the passes"
no_leftovers d1

# --- I/O errors mid-run name the file, offset and errno; exit 1 ---------------------------
SHIM=${SHIM_DIR:-}/faults.so
if [ -f "$SHIM" ]; then
    for eng in psync uring; do
        o=$(NM_FAULT="pwrite+uring:EIO:path=.nodemark-:after=8" LD_PRELOAD=$SHIM "$NM" disk d1 --rw write \
            --size 1m --engine $eng --no-save 2>err.txt)
        rc=$?
        err=$(cat err.txt)
        expect_rc 1 "$eng: an I/O error mid-run: exit 1"
        expect_err_has "at offset" "$eng: the error names the offset"
        expect_err_has "Input/output error" "$eng: the error names the errno"
        expect_err_has ".nodemark-" "$eng: the error names the file"
        no_leftovers d1
    done
else
    not_ok "the fault shim is built" "$SHIM missing"
fi

# --- Ctrl-C: stop, remove the files, exit 130 ----------------------------------------------
run_interrupted 1 "$NM" disk d1 --rw randread --size 1m --runtime 30s --engine psync --no-save
expect_rc 130 "Ctrl-C: exit 130"
no_leftovers d1

# Ctrl-C in a profile once a test has finished (the progress lines name a later test): the
# finished tests' table is printed, exit 130, and they are saved, the same tests in both.
env -u NODEMARK_NO_PROGRESS "$NM" disk d1 --profile cdm --size 1m --runtime 1s --loops 1 --interval 0 --engine psync \
    --label cut --progress 1 >cut.out 2>cut.err &
pid=$!
for _ in $(seq 600); do
    grep -qE '] (SEQ1M Q1T1|RND4K)' cut.err 2>/dev/null && break
    sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C in a profile: exit 130" test "$rc" = 130
rows=$(awk '/^test \(/{t=1; next} t && /^$/{exit} t{print substr($0, 1, 24)}' cut.out | sed 's/ *$//')
check "Ctrl-C: the finished tests' table is printed" test -n "$rows"
check "Ctrl-C: not the tests that did not run" bash -c '! grep -q "RND4K Q1T1 write" cut.out'
run_nm show cut --json
saved=$(json_get '"\n".join(b["name"] for b in j["benches"])')
[ -n "$rows" ] && [ "$rows" = "$saved" ] && ok "Ctrl-C: the printed tests are the saved ones" \
    || not_ok "Ctrl-C: printed and saved tests" "printed [$rows] saved [$saved]; $(cat cut.err)"
no_leftovers d1

# --- the saved record: a bench per test, a sample per pass, the latency histogram ------------
run_nm disk d1 --rw randread --size 256k --loops 3 --engine psync --label disk-test
expect_rc 0 "a saved run: exit 0"
expect_err_has "saved run" "the run id is printed"
run_nm show disk-test --json
jvals 'j["benches"][0]["name"]' '",".join(str(len(m["samples"])) for m in j["benches"][0]["metrics"] if m["name"] in ("bytes_per_sec", "iops", "lat_mean_ns"))' 'sum(j["benches"][0]["hists"][0]["count"]) if isinstance(j["benches"][0]["hists"][0].get("count"), list) else sum(c for _, c in j["benches"][0]["hists"][0].get("pairs", []))'
check "the bench is named after the test" test "${V[0]:-}" = "randread 4k Q1T1"
check "one sample per pass" test "${V[1]:-}" = "3,3,3"
check "the histogram holds the best pass's 64 I/Os" test "${V[2]:-}" = 64

# Two directories and one job per target: the session lays out a file in each target before it
# probes O_DIRECT there (it used to open the second target's file before creating it).
mkdir -p two/a two/b
run_nm disk two/a two/b --together --rw read --size 256k --runtime 0.3 --no-save --json
expect_rc 0 "disk A B with the default --jobs 1 runs"
n=$(json_get 'len(j["tests"][0]["targets"])' 2>/dev/null)
if [ "$n" = 2 ]; then ok "disk A B reports both targets"; else not_ok "disk A B reports both targets" "targets: $n; ${out:0:300}"; fi
if [ -z "$(find two/a two/b -mindepth 1)" ]; then ok "disk A B removes its files from both"; else not_ok "disk A B removes its files from both" "$(ls -AR two)"; fi
