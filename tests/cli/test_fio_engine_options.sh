#!/usr/bin/env bash
# fio's options that tune the engine (iomem_align, fadvise_hint, iodepth_batch, bwavgtime and
# iopsavgtime) do in `nodemark fio` what they do in fio: checked through what each process
# tells the kernel (tests/shim/iotrace.c, strace) and, where fio is installed, against fio run
# with the same options. Mechanisms, never timings.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
SHIM=${SHIM_DIR:?}/iotrace.so
scratch_dir
log=$d/trace.log
head -c $((1 << 20)) /dev/urandom >"$d/file"
job=(--name=t --filename="$d/file" --size=256k --bs=4k --ioengine=psync)
# traced TOOL ARGS: run nodemark fio (TOOL=nm) or fio under the shim, reading and writing pread lines
traced() {
    local tool=$1
    shift
    : >"$log"
    if [ "$tool" = nm ]; then NM_IOTRACE=$log NM_IOTRACE_RW=1 LD_PRELOAD=$SHIM run_nm fio --no-save "$@"
    else NM_IOTRACE=$log NM_IOTRACE_RW=1 LD_PRELOAD=$SHIM fio --output-format=json "$@" >/dev/null 2>&1; fi
}
# the distinct buffer offsets of the reads of the file, "16" or "0 16"
bufoffs() { grep "^pread $d/file " "$log" | sed 's/.*bufoff=//' | sort -un | tr '\n' ' ' | sed 's/ $//'; }
hints() { grep "^fadvise $d/file " "$log" | awk '$3 != "dontneed" {print $3}' | sort -u | tr '\n' ' ' | sed 's/ $//'; }

# --- iomem_align: where the buffers start --------------------------------------------------
traced nm "${job[@]}" --rw=read
expect_rc 0 "a buffered psync read runs under the shim"
[ "$(bufoffs)" = 0 ] && ok "buffers are page aligned by default" ||
    not_ok "buffers are page aligned by default" "offsets: $(bufoffs); $(head -3 "$log")"
traced nm "${job[@]}" --rw=read --iomem_align=16
[ "$(bufoffs)" = 16 ] && ok "iomem_align=16: every buffer starts 16 bytes past a page" ||
    not_ok "iomem_align=16: every buffer starts 16 bytes past a page" "offsets: $(bufoffs)"
traced nm "${job[@]}" --allow-write="$d/file" --rw=write --mem_align=512
[ "$(grep -c "^pwrite $d/file bufoff=512" "$log")" -ge 1 ] && [ "$(grep -c "^pwrite $d/file bufoff=[^5]" "$log")" -eq 0 ] &&
    ok "mem_align (the alias) moves the write buffers too" ||
    not_ok "mem_align (the alias) moves the write buffers too" "$(grep "^pwrite" "$log" | head -3)"
if [ $HAVE_FIO = 1 ]; then
    for a in 16 4k; do
        traced fio "${job[@]}" --rw=read --iomem_align=$a
        f=$(bufoffs)
        traced nm "${job[@]}" --rw=read --iomem_align=$a
        n=$(bufoffs)
        [ -n "$f" ] && [ "$f" = "$n" ] && ok "iomem_align=$a: the buffers start where fio's do ($n)" ||
            not_ok "iomem_align=$a: the buffers start where fio's do" "fio: '$f', nodemark: '$n'"
    done
else skip "iomem_align against fio" "fio is not installed"; fi

# --- fadvise_hint --------------------------------------------------------------------------
for case in "randread 1 random" "read 1 sequential" "randread 0 " "randread sequential sequential" "read random random"; do
    set -- $case
    traced nm "${job[@]}" --rw="$1" --fadvise_hint="$2"
    got=$(hints)
    [ "$got" = "${3:-}" ] && ok "rw=$1 fadvise_hint=$2: hint '${3:-none}'" ||
        not_ok "rw=$1 fadvise_hint=$2: hint '${3:-none}'" "got '$got'"
    if [ $HAVE_FIO = 1 ]; then
        traced fio "${job[@]}" --rw="$1" --fadvise_hint="$2"
        [ "$(hints)" = "$got" ] && ok "rw=$1 fadvise_hint=$2: the hint fio gives" ||
            not_ok "rw=$1 fadvise_hint=$2: the hint fio gives" "fio '$(hints)', nodemark '$got'"
    fi
done
run_nm fio --no-save "${job[@]}" --rw=read --fadvise_hint=sometimes
expect_rc 2 "fadvise_hint=sometimes is refused"
one_line_error "fadvise_hint=sometimes: one line"

# --- iodepth_batch: I/Os per submitting call (io_uring_enter's to_submit) ------------------
if [ $HAVE_STRACE = 1 ]; then
    # to_submit of each io_uring_enter of TOOL's job, the largest one
    max_submit() {
        local tool=$1
        shift
        local a=(--name=b --filename="$d/file" --size=256k --bs=4k --ioengine=io_uring --iodepth=8 --rw=read "$@")
        strace_fio "$tool" "$d/st" -e trace=io_uring_enter -- "${a[@]}" >/dev/null 2>&1
        grep -o 'io_uring_enter([0-9]*, [0-9]*' "$d/st" | awk -F', ' '$2 > m {m = $2} END {print m + 0}'
    }
    n1=$(max_submit nm)
    n0=$(max_submit nm --iodepth_batch=0)
    n4=$(max_submit nm --iodepth_batch_submit=4)
    [ "$n1" -eq 1 ] && ok "iodepth_batch=1 (the default): one I/O per submitting call" ||
        not_ok "iodepth_batch=1 (the default): one I/O per submitting call" "largest to_submit $n1"
    [ "$n0" -eq 8 ] && ok "iodepth_batch=0: the whole queue (iodepth=8) in one call" ||
        not_ok "iodepth_batch=0: the whole queue (iodepth=8) in one call" "largest to_submit $n0"
    [ "$n4" -eq 4 ] && ok "iodepth_batch_submit=4: four I/Os per call" ||
        not_ok "iodepth_batch_submit=4: four I/Os per call" "largest to_submit $n4"
    # the submitting calls ask for events without waiting for any (to_submit > 0, min_complete
    # 0, IORING_ENTER_GETEVENTS), as fio's commit does: the ring's pending completion work runs
    # before the new I/Os
    submits() { grep -E 'io_uring_enter\([0-9]+, [1-9][0-9]*, 0,' "$d/st"; }
    max_submit nm >/dev/null
    total=$(submits | wc -l) getev=$(submits | grep -c 'IORING_ENTER_GETEVENTS')
    [ "$total" -gt 0 ] && [ "$getev" -eq "$total" ] && ok "every submitting io_uring_enter asks for events, min 0 ($total calls)" ||
        not_ok "every submitting io_uring_enter asks for events, min 0" "$getev of $total: $(submits | head -3)"
    if [ $HAVE_FIO = 1 ]; then
        max_submit fio >/dev/null
        [ "$(submits | grep -c 'IORING_ENTER_GETEVENTS')" -ge 1 ] && ok "so do fio's" ||
            not_ok "so do fio's" "$(submits | head -3)"
        f0=$(max_submit fio --iodepth_batch=0) f4=$(max_submit fio --iodepth_batch_submit=4)
        [ "$f0" = "$n0" ] && [ "$f4" = "$n4" ] && ok "iodepth_batch: the batches fio submits ($f0, $f4)" ||
            not_ok "iodepth_batch: the batches fio submits" "fio $f0 and $f4, nodemark $n0 and $n4"
    fi
else skip "iodepth_batch (io_uring_enter's to_submit)" "strace is not installed"; fi

# --- iodepth_batch_complete_max: taken, and the default keeps the queue full as fio's ----------
depths() { json_get "' '.join('%s=%.1f' % (k, v) for k, v in j['jobs'][0]['iodepth_level'].items() if v)"; }
qd=(--name=q --filename="$d/file" --size=1m --bs=4k --ioengine=io_uring --iodepth=32 --rw=randread --output-format=json)
run_nm fio --no-save "${qd[@]}" --iodepth_batch_complete_max=1
expect_rc 0 "iodepth_batch_complete_max=1 runs"
grep -q "iodepth_batch_complete_max" <<<"$err" && not_ok "iodepth_batch_complete_max is not ignored" "$err" ||
    ok "iodepth_batch_complete_max is not ignored"
run_nm fio --no-save "${qd[@]}"
n=$(depths)
# 256 I/Os: 31 submitted while the queue first fills (1, 2, 4, 8, 16 of them), the rest at 32
[ "$n" = "1=0.4 2=0.8 4=1.6 8=3.1 16=6.2 32=87.9" ] && ok "iodepth=32: every I/O after the first fill is submitted at depth 32 ($n)" ||
    not_ok "iodepth=32: every I/O after the first fill is submitted at depth 32" "$n"
if [ $HAVE_FIO = 1 ]; then
    out=$(fio "${qd[@]}" 2>/dev/null)
    [ "$(depths)" = "$n" ] && ok "fio's IO depths columns are the same" || not_ok "fio's IO depths columns are the same" "fio $(depths), nodemark $n"
fi
# iodepth_batch_complete_min=8: each wait waits for 8 and takes 8 (the max follows the min), so
# the queue refills from 24: 7 of each 8 I/Os are submitted at depths 25-31 (the 16 column)
run_nm fio --no-save "${qd[@]}" --iodepth_batch_complete_min=8
expect_rc 0 "iodepth_batch_complete_min=8 runs"
grep -q "iodepth_batch_complete" <<<"$err" && not_ok "iodepth_batch_complete_min is not ignored" "$err" ||
    ok "iodepth_batch_complete_min is not ignored"
n8=$(depths)
col() { sed -n "s/.*\b$1=\([0-9.]*\).*/\1/p" <<<"$2"; }
python3 -c "import sys; sys.exit(not float('$(col 16 "$n8")' or 0) > float('$(col 32 "$n8")' or 0))" 2>/dev/null &&
    ok "iodepth_batch_complete_min=8: most I/Os go in at depths 16-31 ($n8)" ||
    not_ok "iodepth_batch_complete_min=8: most I/Os go in at depths 16-31" "$n8"
if [ $HAVE_FIO = 1 ]; then
    out=$(fio "${qd[@]}" --iodepth_batch_complete_min=8 2>/dev/null)
    [ "$(depths)" = "$n8" ] && ok "fio's IO depths columns with iodepth_batch_complete_min=8 are the same ($n8)" ||
        not_ok "fio's IO depths columns with iodepth_batch_complete_min=8 are the same" "fio $(depths), nodemark $n8"
fi

# --- bwavgtime, iopsavgtime: each rate sampled on its own interval --------------------------
samples() { json_get "str(j['jobs'][0]['read']['bw_samples']) + ' ' + str(j['jobs'][0]['read']['iops_samples'])"; }
run_nm fio --no-save --output-format=json "${job[@]}" --rw=read --time_based --runtime=1 --bwavgtime=250 --iopsavgtime=1000
expect_rc 0 "bwavgtime=250 iopsavgtime=1000 runs"
read -r bw io <<<"$(samples)"
# 1 s: 4 bw samples, 1 iops sample (one late wake-up on a busy machine may lose one)
[ "$bw" -ge 3 ] && [ "$bw" -le 4 ] && [ "$io" -eq 1 ] && ok "bw every 250 ms, iops every 1000 ms ($bw and $io samples)" ||
    not_ok "bw every 250 ms, iops every 1000 ms" "bw_samples $bw, iops_samples $io"
run_nm fio --no-save --output-format=json "${job[@]}" --rw=read --time_based --runtime=1 --iopsavgtime=250
read -r bw2 io2 <<<"$(samples)"
[ "$bw2" -le 2 ] && [ "$io2" -ge 3 ] && ok "iopsavgtime alone leaves bw at 500 ms ($bw2 and $io2 samples)" ||
    not_ok "iopsavgtime alone leaves bw at 500 ms" "bw_samples $bw2, iops_samples $io2"
run_nm fio --no-save --output-format=json "${job[@]}" --rw=read --time_based --runtime=1 --bwavgtime=250
read -r bw3 io3 <<<"$(samples)"
[ "$bw3" -ge 3 ] && [ "$io3" -le 2 ] && ok "bwavgtime alone leaves iops at 500 ms ($bw3 and $io3 samples)" ||
    not_ok "bwavgtime alone leaves iops at 500 ms" "bw_samples $bw3, iops_samples $io3"
if [ $HAVE_FIO = 1 ]; then
    out=$(fio --output-format=json "${job[@]}" --rw=read --time_based --runtime=1 --bwavgtime=250 --iopsavgtime=1000 2>/dev/null)
    read -r fbw fio_io <<<"$(samples)"
    [ $((fbw - bw)) -le 1 ] && [ $((bw - fbw)) -le 1 ] && [ "$fio_io" -le 1 ] &&
        ok "the sample counts are fio's, within one (fio $fbw and $fio_io)" ||
        not_ok "the sample counts are fio's, within one" "fio $fbw and $fio_io, nodemark $bw and $io"
fi
run_nm fio --no-save "${job[@]}" --rw=read --bwavgtime=0
expect_rc 2 "bwavgtime=0 is refused"

# --- sqthread_poll: a ring entry is free only once the kernel thread took it --------------------
# A buffered random write at QD1 with SQPOLL found no free entry now and then (the thread had
# not taken the last one yet) and failed with "cannot queue I/O: Device or resource busy" in 2
# of 6 runs, where fio runs it; the engine now waits for the thread to make room. Ten runs.
sq_fail=0 sq_bytes=""
for i in 1 2 3 4 5 6 7 8 9 10; do
    run_nm fio --no-save --output-format=json --name=sq --directory="$d" --ioengine=io_uring --sqthread_poll \
        --rw=randwrite --bs=4k --size=4m
    if [ "$rc" -ne 0 ]; then sq_fail=$((sq_fail + 1)); sq_err=$err; continue; fi
    sq_bytes="$sq_bytes $(json_get 'j["jobs"][0]["write"]["io_bytes"]')"
done
[ "$sq_fail" = 0 ] && [ "$(tr ' ' '\n' <<<"$sq_bytes" | sort -u | tr -d '\n')" = 4194304 ] &&
    ok "sqthread_poll, buffered randwrite at QD1: 10 of 10 runs write the whole 4 MiB" ||
    not_ok "sqthread_poll, buffered randwrite at QD1: every run succeeds" "$sq_fail failed ($sq_err); bytes:$sq_bytes"
if [ $HAVE_FIO = 1 ]; then
    fb=$(cd "$d" && fio --output-format=json --name=sq --directory="$d" --ioengine=io_uring --sqthread_poll \
        --rw=randwrite --bs=4k --size=4m 2>/dev/null | py 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["write"]["io_bytes"])')
    [ "$fb" = 4194304 ] && ok "fio writes the same 4 MiB with sqthread_poll" || not_ok "fio's bytes with sqthread_poll" "$fb"
fi
