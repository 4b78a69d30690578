#!/usr/bin/env bash
# loops and io_size beside real fio 3.33, no verify: fio's thread loop runs a pass per loop,
# then more while the job is short of io_size by a largest block; a pass ends at the files' end
# (sequential I/O, a random map), at loops x io_size issued over the whole job, or with an
# engine that queues (libaio, null at depth > 1) at size. So io_size=2m loops=2 over a 1 MiB
# file moves 2 MiB (not io_size x loops), and a norandommap job of loops=3 over psync moves
# 3 x size in one pass (size=10000 at 4k: 8 I/Os, not 3 a loop). Both tools' write_iologs must
# hold the same I/Os (direction, offset, length, in order; where nodemark's own order is used,
# one size over a random map, their count), and the JSON the same bytes and I/Os.
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio

# same_moves WHAT offsets|counts|json ARGS... (json: the JSON alone; fio's null engine logs
# the I/Os it gives back unfinished at the end too)
same_moves() {
    local what=$1 how=$2 fig='[j["jobs"][0][d][k] for d in ("read", "write", "trim") for k in ("io_bytes", "total_ios")]'
    shift 2
    rm -f f g f.log g.log
    fio --output-format=json --name=j --filename="$d/f" --write_iolog=f.log "$@" >fio.json 2>fio.err
    local frc=$? fr nr fo= no=
    fr=$(json_file fio.json "$fig")
    run_nm fio --no-save --output-format=json --name=j --filename="$d/g" --write_iolog=g.log "$@"
    printf '%s\n' "$out" >nm.json
    nr=$(json_file nm.json "$fig")
    if [ "$how" = offsets ]; then
        fo=$(awk '$3 == "read" || $3 == "write" || $3 == "trim" {print $3, $4, $5}' f.log | md5sum)
        no=$(awk '$3 == "read" || $3 == "write" || $3 == "trim" {print $3, $4, $5}' g.log | md5sum)
    elif [ "$how" = counts ]; then
        fo=$(grep -cE ' (read|write|trim) ' f.log) no=$(grep -cE ' (read|write|trim) ' g.log)
    fi
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$fr" = "$nr" ] && [ "$fo" = "$no" ]; then
        ok "$what: fio's (read, write, trim: bytes, I/Os) $nr, the same I/Os ($how)"
    else
        not_ok "$what" "fio rc $frc: $fr; nodemark rc $rc: $nr; iologs ($how): $fo / $no ${err:0:200}"
    fi
}

M="--size=1m --bs=4k"
# 1. io_size with loops
same_moves "write io_size=2m loops=2 psync: 2 MiB, not 4" offsets $M --rw=write --io_size=2m --loops=2 --ioengine=psync
same_moves "read io_size=3m loops=2 psync: a third pass for io_size" offsets $M --rw=read --io_size=3m --loops=2 --ioengine=psync
same_moves "write io_size=512k loops=2 psync: one pass over the whole file" offsets $M --rw=write --io_size=512k --loops=2 --ioengine=psync
same_moves "randread io_size=2m loops=2 libaio, random map" counts $M --rw=randread --io_size=2m --loops=2 --ioengine=libaio
same_moves "randread norandommap io_size=2m loops=2 libaio: size a pass" offsets $M --rw=randread --norandommap --io_size=2m --loops=2 --ioengine=libaio
same_moves "randwrite norandommap io_size=2m loops=2 libaio: io_size a pass" offsets $M --rw=randwrite --norandommap --io_size=2m --loops=2 --ioengine=libaio
same_moves "write number_ios=10 loops=2: the job's 20 I/Os in one pass" offsets $M --rw=write --number_ios=10 --loops=2 --ioengine=psync
# 2. loops without a random map
S="--size=10000 --bs=4k --norandommap"
same_moves "randread norandommap loops=3 psync: one pass to 3 x size" offsets $S --rw=randread --loops=3 --ioengine=psync
same_moves "randwrite norandommap loops=3 libaio: the last loop shorter" offsets $S --rw=randwrite --loops=3 --ioengine=libaio
same_moves "randread norandommap loops=3 null iodepth=4: queued, as libaio" json $S --rw=randread --loops=3 --ioengine=null --iodepth=4
same_moves "bsrange=1k-16k randread norandommap loops=3 psync" offsets --size=100k --bsrange=1k-16k --norandommap --rw=randread --loops=3 --ioengine=psync
same_moves "bssplit randwrite norandommap loops=2 psync" offsets --size=100k --bssplit=4k/50:16k/50 --norandommap --rw=randwrite --loops=2 --ioengine=psync
same_moves "randrw 4k norandommap loops=3 psync" offsets --size=100k --bs=4k --norandommap --rw=randrw --loops=3 --ioengine=psync
# 3. fio's holes (rw=read:N; fio's own t0007): a file is done where its next block no longer
# fits (nodemark wrapped to the start and went on to size), a hole past the end starts it over
H="--size=256k --bs=64k --ioengine=psync"
same_moves "read:32k bs=64k over 256k: 3 reads, the 4th would pass the end" offsets $H --rw=read:32k
same_moves "write:32k loops=2: 3 writes a loop" offsets $H --rw=write:32k --loops=2
same_moves "read:32k io_size=1m: the file's 3 reads again until io_size" offsets $H --rw=read:32k --io_size=1m
same_moves "read:64k bs=64k over 320k: 0 128k 256k, then done" offsets --size=320k --bs=64k --rw=read:64k
same_moves "read:32k libaio iodepth=4: 3 reads" offsets $H --rw=read:32k --ioengine=libaio --iodepth=4
# with offset=: fio compares the offset in the region with the file's size, and wraps to
# offset= within the region (64k 256k 128k); a hole to the region's length ends it (64k 192k)
same_moves "read:160k offset=64k: fio's wrap to twice the offset" offsets --offset=64k --size=256k --bs=32k --rw=read:160k
same_moves "read:64k offset=64k: done at the region's length" offsets --offset=64k --size=256k --bs=64k --rw=read:64k
# 4. the same thread loop for rw, lfsr, strided zones and trimwrite: rw's pass ends where a
# direction reaches the file's end (2 x 48 I/Os, not 150, for io_size=300k); a zone that the
# file's end cuts short ends the pass (13 I/Os a pass here); trimwrite's total counts its writes
R="--size=100k --bs=4k"
same_moves "rw io_size=300k loops=2 psync: two passes to a direction's end" offsets $R --rw=rw --io_size=300k --loops=2 --ioengine=psync
same_moves "rw loops=2 psync: the first pass to a direction's end" offsets $R --rw=rw --loops=2 --ioengine=psync
same_moves "lfsr randread io_size=300k loops=2: three passes" counts $R --rw=randread --random_generator=lfsr --io_size=300k --loops=2 --ioengine=psync
same_moves "lfsr randwrite io_size=50k loops=2 libaio: one pass" counts $R --rw=randwrite --random_generator=lfsr --norandommap --io_size=50k --loops=2 --ioengine=libaio
Z="--zonemode=strided --zonesize=16k"
same_moves "zones, the file's end in a zone, loops=2: 13 I/Os a pass" offsets $R $Z --zoneskip=16k --rw=read --loops=2 --ioengine=psync
same_moves "zones io_size=300k loops=2 libaio: six passes" offsets $R $Z --zonerange=32k --rw=read --io_size=300k --loops=2 --ioengine=libaio
same_moves "zones without the file's end, loops=2: one pass of both" offsets $R $Z --zoneskip=12k --rw=write --loops=2 --ioengine=psync
same_moves "zones randread io_size=50k loops=2 libaio" counts --size=96k --bs=4k $Z --zoneskip=16k --rw=randread --io_size=50k --loops=2 --ioengine=libaio
same_moves "trimwrite io_size=300k loops=2: a round a loop" offsets $R --rw=trimwrite --io_size=300k --loops=2 --ioengine=falloc
same_moves "trimwrite bs=12k io_size=58k loops=3: the writes' total" offsets $R --bs=12k --rw=trimwrite --io_size=58k --loops=3 --ioengine=falloc
same_moves "randtrimwrite io_size=50k loops=2" counts $R --rw=randtrimwrite --io_size=50k --loops=2 --ioengine=falloc
# 4. percentage_random: its sequential I/Os leave fio's map alone, so only the map's end (a
# random draw that finds no block) or the bytes end a pass, not the file's size
P="--size=32k --bs=4k --ioengine=psync --percentage_random"
same_moves "percentage_random=50 randread loops=2: one pass of 16 I/Os" offsets $P=50 --rw=randread --loops=2
same_moves "percentage_random=50 randrw loops=2" offsets --size=64k --bs=4k --ioengine=psync --percentage_random=50 --rw=randrw --loops=2
same_moves "percentage_random=20 bssplit randwrite loops=2" offsets $P=20 --bssplit=4k/50:16k/50 --rw=randwrite --loops=2
same_moves "percentage_random=50 bsrange io_size=100k loops=2" offsets $P=50 --bsrange=2k-8k --rw=randread --io_size=100k --loops=2
rm -f f g f.log g.log
