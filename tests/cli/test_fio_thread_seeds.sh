#!/usr/bin/env bash
# A job's threads draw fio's sizes and offsets from fio's seeds (randrepeat=1, the default),
# beside real fio 3.33: fio numbers a job's copies counting up and names their files counting
# down (NAME.1.0 is its last copy's), so with numjobs >= 3 each file gets the I/Os of the fio
# thread that writes it: the same sequence of sizes (bssplit, sequential) and of sizes and
# offsets (bssplit, random), file by file, in the calls each thread makes (strace -ff).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
scratch_dir
require_fio
skip_without strace "the calls each thread makes"

# seqs PREFIX [off]: from strace -ff -y files PREFIX.*, per file NAME.i.0 the sizes (KiB) of its
# I/Os of at most 16 KiB (not nodemark's layout), in order; with off, each with its offset
seqs() {
    py '
import collections, glob, re, sys
seqs = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + ".*"):
    for line in open(f):
        m = re.search(r"pwrite64\(\d+<[^>]*/(\w+\.\d+\.\d+)>, .*, (\d+), (\d+)\) = ", line)
        if m and int(m.group(2)) <= 16384:
            seqs[m.group(1)].append((int(m.group(2)) // 1024, int(m.group(3)) // 1024) if len(sys.argv) > 2 else int(m.group(2)) // 1024)
for k in sorted(seqs):
    print(k, len(seqs[k]), seqs[k])' "$@"
}

# same_seqs WHAT RW NUMJOBS [off]: both tools run the bssplit job with NUMJOBS threads, each
# thread on its own 256 KiB file; PASS when every file's I/Os are fio's
same_seqs() {
    local what=$1 rw=$2 nj=$3 frc
    shift 3
    local args=(--name=b --directory="$d/D" --rw="$rw" --ioengine=psync --size=256k --bssplit=4k/30:8k/40:16k/30 --numjobs="$nj")
    rm -rf D s.fio.* s.nm.* && mkdir D
    strace_fio fio s.fio -ff -y -e trace=pwrite64 -- "${args[@]}" >/dev/null 2>&1
    frc=$rc
    rm -rf D && mkdir D
    strace_fio nm s.nm -ff -y -e trace=pwrite64 -- "${args[@]}" >/dev/null 2>nm.err
    seqs s.fio "$@" >fio.seq
    seqs s.nm "$@" >nm.seq
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$(wc -l <fio.seq)" = "$nj" ] && cmp -s fio.seq nm.seq; then
        ok "$what: each of the $nj files gets fio's I/Os ($(cut -d' ' -f2 nm.seq | paste -sd' '))"
    else
        not_ok "$what" "fio rc $frc, nodemark rc $rc $(head -c 200 nm.err); $(diff fio.seq nm.seq | head -4 | cut -c1-160)"
    fi
}
same_seqs "numjobs=3, rw=write, bssplit: the sizes" write 3
same_seqs "numjobs=4, rw=write, bssplit: the sizes" write 4
same_seqs "numjobs=3, rw=randwrite, bssplit: the sizes and offsets" randwrite 3 off
