#!/usr/bin/env bash
# fio reads every whole-number option (its INT, ULL and STR_VAL types) with its size parser, and
# a range (bsrange) as MIN-MAX or MIN:MAX in either order: each such value beside real fio's
# --parse-only (both take it, or both refuse it), then jobs whose figures show the value used.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
scratch_dir

base=(--parse-only --name=a --directory=. --rw=randwrite --size=1m --verify=crc32c)
for o in iodepth=1k numjobs=1k loops=1k nrfiles=1k fsync=1k fdatasync=1k iodepth_batch=1k \
    iodepth_batch_complete_min=1k iodepth_batch_complete_max=1k bwavgtime=1k iopsavgtime=1k \
    verify_interval=1M verify_interval=4k verify_offset=1k verify_backlog=1m verify_backlog_batch=1k \
    log_avg_msec=1k log_hist_msec=1k replay_scale=1k replay_align=4k replay_time_scale=1k \
    rate_iops=1k rate_iops=1k,2k rate_iops_min=1k thinktime_blocks=1k flow_id=1k flow_sleep=1k \
    openfiles=1k randseed=1k number_ios=1k bsrange=512:1M bsrange=512-1M bsrange=1M-512 \
    bsrange=1k:4k,8k-2k bsrange=512/25:1k:25:2k:25:4k/25; do
    fio "${base[@]}" --"$o" >fio.out 2>&1
    frc=$?
    run_nm fio "${base[@]}" --"$o"
    if [ $frc -eq 0 ] && [ "$rc" -eq 0 ]; then
        ok "$o: taken by both"
    else
        not_ok "$o: taken by both" "fio exit $frc ($(head -c 200 fio.out)), nodemark exit $rc (${err:0:200})"
    fi
done

# out of the option's range once the unit is applied: refused by both
for o in flow=1k buffer_compress_percentage=1k rwmixread=1k; do
    fio "${base[@]}" --"$o" >fio.out 2>&1
    frc=$?
    run_nm fio "${base[@]}" --"$o"
    if [ $frc -ne 0 ]; then ok "$o: fio refuses it"; else not_ok "$o: fio refuses it"; fi
    expect_refused "$o: refused (1024 is out of range)" "(1024)"
done
# fio's strtoll would read 1.5k as 1k quietly; nodemark says so instead
run_nm fio "${base[@]}" --iodepth=1.5k
expect_refused "iodepth=1.5k: a fraction is refused" "whole number"

# the values at work: the same figures as fio's
json_like_fio "number_ios=1k: 1024 I/Os" --sizes d --name=n --ioengine=null --size=64m --number_ios=1k
# fio reads a range's ends up to its separators (/ : - ,), the rest unread: fio's own t0023
# job's bsrange=512/25:1k:25:2k:25:4k/25 is 512-1k (bytes and I/Os over the random map)
json_like_fio "bsrange=512/25:1k:25:2k:25:4k/25 (fio's t0023): 512-1k blocks" --sizes d --name=c --rw=randread \
    --filename=d/f --size=64k --bsrange=512/25:1k:25:2k:25:4k/25
json_like_fio "bsrange=16k:16k (a colon): 16 KiB blocks" --sizes d --name=c --rw=read --filename=d/f --size=1m --bsrange=16k:16k
json_like_fio "bsrange=64k-64k,8k:8k: reads and writes each their own range" --sizes d --name=c --rw=rw \
    --filename=d/f --size=1m --bsrange=64k-64k,8k:8k --rwmixread=100
json_like_fio "verify_interval=1k, verify_backlog=1m" --sizes d --name=v --rw=write --filename=d/f --size=2m \
    --bs=64k --verify=crc32c --verify_interval=1k --verify_backlog=1m
