# serial: it measures how quiet the machine is
# nodemark hash records how quiet the machine was over its run (extra.noise.hash, the figures
# run's hash phase keeps) beside the CPU time of each sample, so compare treats two `nodemark
# hash` runs as it treats run's hash phase (issue 27): a run busy from other processes is judged
# on bytes per CPU-second, one whose hypervisor stole time is not compared, and the why names
# the busy run.  The noise monitor reads a fake /proc (NODEMARK_PROCROOT) whose counters a
# background loop advances: quiet, busy from other processes (93%), or stolen from (30%).
# Mechanisms only: the figures come from the fake counters, never from timings.
. "$TESTS_DIR/cli/lib.sh"
scratch_dir
export NODEMARK_DB=$d/results.db
mkdir -p proc/self
printf '1 (nodemark) R 0 0 0 0 0 0 0 0 0 0 10 10 0 0 20 0 1 0 0 0 0\n' >proc/self/stat
printf 'MemTotal: 1000000 kB\nCached: 0 kB\nDirty: 0 kB\nWriteback: 0 kB\n' >proc/meminfo

# advance proc/stat every 10 ms by (user, idle, steal) ticks per step, until killed
ticker_pid=""
ticker() {
    (
        u=0 i=0 s=0
        while :; do
            u=$((u + $1)) i=$((i + $2)) s=$((s + $3))
            printf 'cpu  %d 0 0 %d 0 0 0 %d\ncpu0 %d 0 0 %d 0 0 0 %d\n' $u $i $s $u $i $s >proc/stat.new
            mv -f proc/stat.new proc/stat
            sleep 0.01
        done
    ) &
    ticker_pid=$!
}
stop_ticker() {
    [ -n "$ticker_pid" ] && kill "$ticker_pid" 2>/dev/null && wait "$ticker_pid" 2>/dev/null
    ticker_pid=""
}
at_exit 'stop_ticker'

# the machine is judged busy over half a second or more: SHA-256 of 512 MiB on one thread, 6 times
hash_args=(hash --algo sha256 --threads 1 --size 512MiB --runs 6)
run_as() { # LABEL USER IDLE STEAL
    ticker "$2" "$3" "$4"
    sleep 0.1
    NODEMARK_PROCROOT=$d/proc run_nm "${hash_args[@]}" --label "$1"
    stop_ticker
}

run_as quiet 0 100 0
expect_rc 0 "a quiet nodemark hash exits 0"
run_as busy 93 7 0
expect_rc 0 "a busy nodemark hash exits 0"
expect_err_has "hash: the machine was busy (other processes used 93% of the CPUs)" "a busy run warns, as run's phases do"
run_as stolen 0 70 30
expect_rc 0 "a nodemark hash whose hypervisor stole time exits 0"

run_nm export busy
res=$(json_get '(sorted(j["extra"]["noise"]), {k: j["extra"]["noise"]["hash"][k] for k in ("busy", "other_busy_pct", "steal_pct", "why")},
  sorted(j["extra"]["cpu_time"]["hash/sha256/1t"]), len(j["extra"]["cpu_time"]["hash/sha256/1t"]["cpu_s"]))' 2>&1)
want="(['hash'], {'busy': True, 'other_busy_pct': 93.0, 'steal_pct': 0.0, 'why': 'other processes used 93% of the CPUs'}, ['cpu_s', 'metric', 'threads', 'wall_s'], 6)"
[ "$res" = "$want" ] && ok "the record keeps its noise over the run (extra.noise.hash) and each sample's CPU time" ||
    not_ok "the record keeps its noise over the run (extra.noise.hash) and each sample's CPU time" "$res"
run_nm export quiet
res=$(json_get '(j["extra"]["noise"]["hash"]["busy"], j["extra"]["noise"]["hash"]["other_busy_pct"])' 2>&1)
[ "$res" = "(False, 0.0)" ] && ok "a quiet run's record says quiet" || not_ok "a quiet run's record says quiet" "$res"

# busy from other processes, CPU time for every sample: judged on CPU time, and the why says so
run_nm compare quiet busy --format json
expect_rc 0 "compare of a quiet and a busy hash run exits 0"
res=$(json_get '[(c["name"], c["basis"], c.get("basis_note", "")) for c in j["calls"] if c["metric"] == "bytes_per_sec"]' 2>&1)
[ "$res" = "[('hash/sha256/1t', 'cpu_time', 'judged on CPU time: busy 93%')]" ] &&
    ok "the busy hash run's rate is judged on CPU time (busy 93%), as run's hash phase is" ||
    not_ok "the busy hash run's rate is judged on CPU time (busy 93%), as run's hash phase is" "$res"
res=$(json_get '[c["why"] for c in j["calls"] if c["metric"] == "bytes_per_sec"][0]' 2>&1)
case $res in
*"judged on CPU time: busy 93% (busy: nodemark hash ran on a busy machine (other processes used 93% of the CPUs))"*)
    ok "the why names the busy hash run and why" ;;
*) not_ok "the why names the busy hash run and why" "$res" ;;
esac

# cycles per byte has no CPU time: on wall-clock time a busy run is not compared, as always
res=$(json_get '[(c["call"], c["basis"], c["why"]) for c in j["calls"] if c["metric"] == "cycles_per_byte"]' 2>&1)
if [ "$res" = "[]" ]; then skip "cycles per byte of a busy run is not compared" "no readable cycle counter"
elif [ "$res" = "[('not compared', 'wall', 'not compared: busy: nodemark hash ran on a busy machine (other processes used 93% of the CPUs)')]" ]; then
    ok "cycles per byte (no CPU time) of the busy run is not compared, and the why names it"
else not_ok "cycles per byte (no CPU time) of the busy run is not compared, and the why names it" "$res"; fi

# the hypervisor stole time: CPU time would not leave that out, so not compared, and why
run_nm compare quiet stolen --format json
expect_rc 0 "compare of a quiet and a stolen-from hash run exits 0"
res=$(json_get '[(c["call"], c["basis"], c["why"]) for c in j["calls"] if c["metric"] == "bytes_per_sec"]' 2>&1)
[ "$res" = "[('not compared', 'wall', 'not compared: stolen: nodemark hash ran on a busy machine (the hypervisor stole 30% of the CPU time)')]" ] &&
    ok "a hash run whose hypervisor stole 30% is not compared, and the why names it" ||
    not_ok "a hash run whose hypervisor stole 30% is not compared, and the why names it" "$res"
run_nm compare quiet stolen
expect_out_matches '^  hash/sha256/1t +not compared: stolen: nodemark hash ran on a busy machine \(the hypervisor stole 30% of the CPU time\)$' \
    "the text verdict says so too"
