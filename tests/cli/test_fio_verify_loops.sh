#!/usr/bin/env bash
# When a verifying write job reads back, beside real fio 3.33: fio's thread loop writes a pass,
# reads it back, and goes on while loops are left, then while the bytes moved (reads included)
# fall short of io_size. A pass of writes ends at the files' end (sequential, a random map) or
# at loops x io_size, and only an engine that queues (libaio) also ends it at io_size, so with
# psync a norandommap job writes both loops before its one read-back, and io_size=2m over a
# 1 MiB random map stops after one pass and its read-back (2 MiB moved). The bytes and I/Os
# written and read back must be equal. One size without a random map draws fio's offsets, and
# the read-back is fio's tree by offset (a rewritten block once, its newest write), so the
# blocks read back are fio's: 157 of 256 writes at size=1m bs=4k, 225 for psync's one read-back
# of two loops, 314 (157 + 157) for libaio's and io_uring's read-back after each loop.
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio

B="--size=1m --bssplit=4k/50:16k/50 --rw=randwrite --verify=crc32c"
fio_same_verify_counts "loops=2 norandommap psync: both loops written, one read-back" $B --ioengine=psync --norandommap --loops=2
fio_same_verify_counts "loops=2 norandommap libaio: a read-back after each loop" $B --ioengine=libaio --norandommap --loops=2
fio_same_verify_counts "loops=2 norandommap psync verify_backlog=8" $B --ioengine=psync --norandommap --loops=2 --verify_backlog=8
fio_same_verify_counts "loops=2 with the random map: a read-back after each loop" $B --ioengine=psync --loops=2
fio_same_verify_counts "io_size=2m over a 1 MiB random map: one pass, its read-back" $B --ioengine=psync --io_size=2m
fio_same_verify_counts "io_size=3m over a 1 MiB random map: two passes" $B --ioengine=psync --io_size=3m
fio_same_verify_counts "io_size=3m, bs=4k random map: two passes" --size=1m --io_size=3m --bs=4k --rw=randwrite --verify=crc32c --ioengine=psync
fio_same_verify_counts "io_size=2m loops=2, bs=4k random map" --size=1m --io_size=2m --bs=4k --rw=randwrite --verify=crc32c --ioengine=psync --loops=2
fio_same_verify_counts "io_size=2m sequential: one pass" --size=1m --io_size=2m --bs=4k --rw=write --verify=crc32c --ioengine=psync
fio_same_verify_counts "number_ios=10 loops=2" --size=1m --bs=4k --rw=randwrite --verify=crc32c --ioengine=psync --loops=2 --number_ios=10
R="--size=1m --bs=4k --rw=randwrite --norandommap --verify=crc32c"
fio_same_verify_counts "4k norandommap psync: fio's blocks, a rewritten one read back once" $R --ioengine=psync
fio_same_verify_counts "4k norandommap psync loops=2: both loops, one read-back" $R --ioengine=psync --loops=2
fio_same_verify_counts "4k norandommap libaio loops=2: a read-back a loop" $R --ioengine=libaio --loops=2
fio_same_verify_counts "4k norandommap io_uring iodepth=8 loops=2" $R --ioengine=io_uring --iodepth=8 --loops=2
fio_same_verify_counts "4k norandommap libaio io_size=2m: one pass of 2m" $R --ioengine=libaio --io_size=2m
rm -f f g
