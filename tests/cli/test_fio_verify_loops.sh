#!/usr/bin/env bash
# When a verifying write job reads back, beside real fio 3.33: fio's thread loop writes a pass,
# reads it back, and goes on while loops are left, then while the bytes moved (reads included)
# fall short of io_size. A pass of writes ends at the files' end (sequential, a random map) or
# at loops x io_size, and only an engine that queues (libaio) also ends it at io_size, so with
# psync a norandommap job writes both loops before its one read-back, and io_size=2m over a
# 1 MiB random map stops after one pass and its read-back (2 MiB moved). The bytes and I/Os
# written and read back must be equal.
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
rm -f f g
