#!/usr/bin/env bash
# What `nodemark fio` writes into files, beside real fio 3.33:
# - scramble_buffers (fio's default 1): in each 512-byte sector of a write, the sector's file
#   offset at the start of one of its 8 cache lines (one line for the whole I/O) and the I/O's
#   start time in bytes 48..63 (the structure is compared, not the times); scramble_buffers=0,
#   refill_buffers, verify, zero_buffers=1 and compression turn it off in both, and an explicit
#   scramble_buffers=1 wins over zero_buffers and buffer_pattern in both;
# - a file laid out for a read job holds the job's buffer contents, as fio lays it out:
#   buffer_pattern (from each write-size block's start), zeros, compression, else random bytes.
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio

# scan FILE: sectors, those with fio's scramble (the offset at a cache line's start, a time in
# bytes 48..63), and the I/Os (4 KiB) whose sectors all have it with one line and one time
scan() {
    py '
import struct, sys
b = open(sys.argv[1], "rb").read()
sectors = len(b) // 512
good = ios = 0
for io in range(len(b) // 4096):
    lines, times = set(range(8)), set()
    for s in range(io * 8, io * 8 + 8):
        sec = b[s * 512:(s + 1) * 512]
        hit = {i for i in range(8) if struct.unpack("<Q", sec[i * 64:i * 64 + 8])[0] == s * 512}
        t = struct.unpack("<QQ", sec[48:64])
        if hit and t[1] < 10**9 and t != (0, 0):
            good += 1
        lines &= hit
        times.add(t)
    ios += bool(lines) and len(times) == 1 and (0, 0) not in times
print(sectors, good, ios)' "$1"
}

# both WHAT ARGS...: fio writes f, nodemark g (psync, bs=4k, 256 KiB, ARGS after); sets fs and ns
# (scan of each), frc
both() {
    rm -f f g
    fio --name=a --filename="$d/f" --rw=write --ioengine=psync --bs=4k --size=256k "$@" >fio.out 2>fio.err
    frc=$?
    run_nm fio --no-save --name=a --filename="$d/g" --rw=write --ioengine=psync --bs=4k --size=256k "$@"
    fs=$(scan f 2>&1) ns=$(scan g 2>&1)
}

FULL="512 512 64"
both
if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$fs" = "$FULL" ] && [ "$ns" = "$fs" ]; then
    ok "the default scramble: every sector holds its offset and its I/O's time, one line and time per I/O, in both ($ns)"
else
    not_ok "the default scramble" "fio rc $frc: $fs; nodemark rc $rc: $ns ${err:0:300}"
fi
default_ok=$([ "$ns" = "$FULL" ] && [ "$fs" = "$FULL" ] && echo 1)

# off WHAT ARGS...: with ARGS neither tool scrambles (fewer than one sector in 8 has the
# structure; zero buffers' first sector reads as one), while the default run scrambled in both
off() {
    local what=$1
    shift
    both "$@"
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$default_ok" = 1 ] && [ "$ns" = "$fs" ] && [ "${ns#512 }" != "$ns" ] &&
        [ "$(echo "$ns" | cut -d' ' -f2)" -lt 64 ]; then
        ok "$what turns the scramble off in both ($ns)"
    else
        not_ok "$what turns the scramble off in both" "fio rc $frc: $fs; nodemark rc $rc: $ns; default scrambled: ${default_ok:-no} ${err:0:300}"
    fi
}
off scramble_buffers=0 --scramble_buffers=0
off refill_buffers=1 --refill_buffers=1
off "verify=crc32c" --verify=crc32c --do_verify=0
off zero_buffers=1 --zero_buffers=1
off "buffer_compress_percentage=0 (given at all)" --buffer_compress_percentage=0
off "dedupe_percentage=0 (given at all)" --dedupe_percentage=0
off "buffer_pattern" --buffer_pattern=0xab

# on WHAT ARGS...: an explicit scramble_buffers=1 scrambles in both
on() {
    local what=$1
    shift
    both "$@"
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$fs" = "$FULL" ] && [ "$ns" = "$fs" ]; then
        ok "$what: scrambled in both ($ns)"
    else
        not_ok "$what: scrambled in both" "fio rc $frc: $fs; nodemark rc $rc: $ns ${err:0:300}"
    fi
}
on "scramble_buffers=1 given" --scramble_buffers=1
on "zero_buffers=1 then scramble_buffers=1 (given, it wins)" --zero_buffers=1 --scramble_buffers=1
on "buffer_pattern then scramble_buffers=1" --buffer_pattern=0xab --scramble_buffers=1
on "randwrite, bs=8k, io_uring at depth 4" --rw=randwrite --bs=8k --ioengine=io_uring --iodepth=4

# The layout of a read job's file: fio's extend_file writes the job's buffer contents
# laid WHAT ARGS...: both tools lay out a new file for a read job (64 KiB); sets frc
laid() {
    rm -f f g
    fio --name=r --filename="$d/f" --rw=read --ioengine=psync --bs=4k --size=64k "$@" >fio.out 2>fio.err
    frc=$?
    run_nm fio --no-save --name=r --filename="$d/g" --rw=read --ioengine=psync --bs=4k --size=64k "$@"
}
same_layout() {
    local what=$1
    shift
    laid "$@"
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ -s f ] && cmp -s f g; then
        ok "$what: the laid-out file is fio's, byte for byte"
    else
        not_ok "$what: the laid-out file is fio's" "fio rc $frc $(head -c 200 fio.err); nodemark rc $rc ${err:0:300}; $(cmp f g 2>&1 | head -1)"
    fi
}
same_layout "buffer_pattern=0xdeadbeef" --buffer_pattern=0xdeadbeef
same_layout "zero_buffers=1" --zero_buffers=1
same_layout "buffer_pattern=\"abc\" with bs=4k,8k (the pattern restarts at each 8 KiB write)" --buffer_pattern='"abc"' --bs=4k,8k
same_layout "buffer_compress_percentage=100" --buffer_compress_percentage=100

# compression 50: not the same random bytes, the same make-up
share() { py 'import sys; b=open(sys.argv[1],"rb").read(); c=[b[i:i+512] for i in range(0,len(b),512)]
print(len(c), sum(x[256:]==bytes(256) and x[:256].count(0)<128 for x in c))' "$1"; }
laid --buffer_compress_percentage=50
fr=$(share f) nr=$(share g)
[ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$fr" = "128 128" ] && [ "$nr" = "$fr" ] &&
    ok "buffer_compress_percentage=50: every 512-byte chunk of the laid-out file half random, half zeros, in both ($nr)" ||
    not_ok "buffer_compress_percentage=50's layout" "fio rc $frc: $fr; nodemark rc $rc: $nr ${err:0:200}"
