#!/usr/bin/env bash
# fio options of users' job files, beside real fio 3.33: allrandrepeat, bs_unaligned and
# percentage_random (each I/O's offset and size, from write_iolog), mem=/iomem= and lockmem= (the calls that make the
# buffers' memory, from strace, and the exit status where huge pages are missing), and the
# options fio 3.33 itself refuses as deprecated (rwmixcycle, percentage_sequential), and
# unified_rw_reporting (its JSON keys and mixed figures, normal and terse lines).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
scratch_dir
require_fio

# same_iolog WHAT ARGS...: both tools run ARGS on a new file with write_iolog; PASS when both
# exit 0 and log the same I/Os (direction, offset, length), in order
same_iolog() {
    local what=$1 frc
    shift
    rm -f f fio.log nm.log
    fio --output-format=terse --name=j --filename=f --ioengine=psync --write_iolog=fio.log "$@" >/dev/null 2>fio.err
    frc=$?
    rm -f f
    run_nm fio --no-save --output-format=terse --name=j --filename=f --ioengine=psync --write_iolog=nm.log "$@"
    awk '$3 ~ /^(read|write)$/ { print $3, $4, $5 }' fio.log >fio.ios 2>/dev/null
    awk '$3 ~ /^(read|write)$/ { print $3, $4, $5 }' nm.log >nm.ios 2>/dev/null
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ -s fio.ios ] && cmp -s fio.ios nm.ios; then
        ok "$what: fio's $(wc -l <nm.ios) I/Os, offsets and sizes"
    else
        not_ok "$what" "fio rc $frc, nodemark rc $rc ${err:0:200}; $(diff fio.ios nm.ios 2>&1 | head -3 | tr '\n' ' ')"
    fi
}
same_iolog "allrandrepeat=1 with randrepeat=0 (bssplit, randwrite)" \
    --rw=randwrite --bssplit=4k/50:8k/50 --randrepeat=0 --allrandrepeat=1 --size=256k
same_iolog "allrandrepeat=1 over randseed=5 (bsrange, randrw)" \
    --rw=randrw --bsrange=1k-8k --randrepeat=0 --allrandrepeat=1 --randseed=5 --size=256k
same_iolog "bs_unaligned: bssplit=1536/50:4k/50 keeps 4k (not 3k)" \
    --rw=write --bssplit=1536/50:4k/50 --bs_unaligned --size=64k
same_iolog "blocksize_unaligned=1: bsrange=1k-8k sizes of any byte count" \
    --rw=write --bsrange=1k-8k --blocksize_unaligned=1 --size=64k
# percentage_random: fio's draw says which I/Os follow on from the last one, the others take
# fio's offsets and random map (which the following ones leave alone)
same_iolog "percentage_random=50 (randread, one size)" --rw=randread --percentage_random=50 --size=256k
same_iolog "percentage_random=0 (randwrite: every I/O follows on)" --rw=randwrite --percentage_random=0 --size=64k
same_iolog "percentage_random=30,80 (randrw, per direction)" --rw=randrw --percentage_random=30,80 --bs=8k --size=256k
same_iolog "percentage_random=50, norandommap" --rw=randread --percentage_random=50 --norandommap --size=256k
same_iolog "percentage_random=20 with a bssplit" --rw=randread --percentage_random=20 --bssplit=4k/50:16k/50 --size=256k
same_iolog "percentage_random=90 over 1 MiB, randseed=7" --rw=randwrite --percentage_random=90 --randseed=7 --size=1m

# deprecated in fio 3.33: fio refuses the job (exit 1), nodemark refuses it too, in one line
for o in rwmixcycle=5 percentage_sequential=20; do
    printf '[j]\nrw=randrw\nsize=64k\nfilename=%s/f\nioengine=null\n%s\n' "$d" "$o" >dep.fio
    fio dep.fio >fio.err 2>&1
    frc=$?
    run_nm fio --no-save dep.fio
    if [ "$frc" = 1 ] && grep -q deprecated fio.err && [ "$rc" = 2 ] && is_one_line_error && [[ $err == *deprecated* ]]; then
        ok "${o%%=*}: refused as deprecated, as fio 3.33 (fio exit 1, nodemark 2: bad input)"
    else
        not_ok "${o%%=*} refused as fio" "fio rc $frc $(head -c 100 fio.err); nodemark rc $rc ${err:0:200}"
    fi
done

skip_without strace "the calls that make the I/O buffers"
# calls TOOL LOG ARGS...: TOOL's job (bs=44k, one buffer: 45056 bytes) under strace; the calls
# that make its buffers' memory and lock memory, addresses and descriptors left out
calls() {
    local tool=$1 log=$2
    shift 2
    rm -f f
    [ "$tool" = nm ] && set -- ${NM_ALLOW:+--allow-write="$NM_ALLOW"} "$@"
    strace_fio "$tool" "$log" -e trace=shmget,mmap,mlock,openat,ftruncate,unlink -- --output-format=terse \
        --name=j --filename="$d/f" --ioengine=psync --rw=write --bs=44k --size=440k "$@" >/dev/null 2>"$log.err"
    py '
import re, sys
for line in open(sys.argv[1]):
    line = re.sub(r"^\d+\s+", "", line.strip())
    # (the 2 MiB mappings of a huge page only: ASan maps many plain ones)
    if not re.match(r"(shmget\(IPC_PRIVATE, (45056|2097152),|mlock|mmap\(NULL, (45056,|2097152, .*HUGETLB)|openat\(.*/mf|ftruncate\(\d+, 45056\)|unlink\(.*/mf)", line):
        continue
    line = re.sub(r"0x[0-9a-f]+", "ADDR", line)
    line = re.sub(r"\|O_CLOEXEC", "", line)
    line = re.sub(r"(MAP_SHARED|MAP_PRIVATE), \d+, 0\)", r"\1, FD, 0)", line)
    line = re.sub(r"^ftruncate\(\d+,", "ftruncate(FD,", line)
    line = re.sub(r"\s+= (\d+|ADDR)$", " = ok", line)
    line = re.sub(r"\s+= -1", " = -1", line)
    print(line)' "$log" >"$log.calls"
}
# same_calls WHAT ARGS...: PASS when both tools make the same such calls and exit alike
same_calls() {
    local what=$1 frc
    shift
    calls fio s.fio "$@"
    frc=$rc
    calls nm s.nm "$@"
    if [ "$frc" = "$rc" ] && [ -s s.fio.calls ] && cmp -s s.fio.calls s.nm.calls; then
        ok "$what: exit $rc, fio's calls: $(sort -u s.nm.calls | cut -c1-90 | paste -sd';' | cut -c1-240)"
    else
        not_ok "$what" "fio rc $frc, nodemark rc $rc $(head -c 200 s.nm.err); fio: $(paste -sd';' s.fio.calls | cut -c1-200); nm: $(paste -sd';' s.nm.calls | cut -c1-200)"
    fi
}
same_calls "mem=shm" --mem=shm
same_calls "iomem=mmap" --iomem=mmap
same_calls "mem=mmapshared" --mem=mmapshared
same_calls "mem=shmhuge (huge pages or their lack, as fio)" --mem=shmhuge
same_calls "mem=mmaphuge (huge pages or their lack, as fio)" --mem=mmaphuge
same_calls "mem=mmap:FILE (made, sized, mapped private, removed)" --mem=mmap:"$d/mf"
if [ ! -e mf ]; then ok "mem=mmap:FILE: the file made for it is gone afterwards"; else not_ok "mem=mmap:FILE removed"; fi
head -c 45056 /dev/zero >mf
run_nm fio --no-save --name=j --filename="$d/f" --size=64k --ioengine=null --mem=mmapshared:"$d/mf"
expect_refused "mem=mmapshared:FILE, a file nodemark did not make: rewritten only with --allow-write" "--allow-write=$d/mf"
NM_ALLOW=$d/mf same_calls "mem=mmapshared:FILE of 44 KiB, --allow-write (mapped shared, kept)" --mem=mmapshared:"$d/mf"
if [ "$(stat -c %s mf)" = 45056 ]; then ok "mem=mmapshared:FILE: a file that was there stays"; else not_ok "mmapshared file kept"; fi
if [ -n "${NODEMARK_SANITIZED:-}" ]; then
    skip "lockmem=1m: mlock of 1 MiB" "ASan makes mlock a no-op"
else
    same_calls "lockmem=1m: mlock of 1 MiB" --lockmem=1m
fi

fio --name=j --filename="$d/f" --size=64k --ioengine=null --mem=cudamalloc >/dev/null 2>&1
frc=$?
run_nm fio --no-save --name=j --filename="$d/f" --size=64k --ioengine=null --mem=cudamalloc
if [ "$frc" = 1 ] && [ "$rc" = 2 ] && is_one_line_error && [[ $err == *cudamalloc* ]]; then
    ok "mem=cudamalloc: refused in one line (fio 3.33 without CUDA fails to parse it, exit 1)"
else
    not_ok "mem=cudamalloc refused" "fio rc $frc, nodemark rc $rc ${err:0:200}"
fi
run_nm fio --no-save --name=j --filename="$d/f" --size=64k --ioengine=null --mem=malloc
expect_rc 0 "mem=malloc (fio's default, stated) runs"

# unified_rw_reporting: fio's JSON keys ("mixed" in place of read/write/trim/sync, or after
# sync), its io_bytes and total_ios; the normal output's direction lines and issued counts, and
# terse's fields
rw=(--ioengine=psync --rw=randrw --bs=4k --size=256k --filename=u/f)
json_like_fio "unified_rw_reporting=mixed: one \"mixed\" object, fio's bytes and I/Os" --sizes u --name=u1 "${rw[@]}" --unified_rw_reporting=mixed
json_like_fio "unified_rw_reporting=both: \"mixed\" after \"sync\"" --sizes u --name=u2 "${rw[@]}" --unified_rw_reporting=both
json_like_fio "unified_rw_reporting=1 (fio's former bool), group_reporting, numjobs=2" --sizes u --name=u3 "${rw[@]}" --unified_rw_reporting=1 --numjobs=2 --group_reporting
# the normal output's shape: direction and group lines (their names, the io bytes), issued I/Os
shape() { sed -nE 's/^ *(read|write|trim|mixed): .*\((.*)\/[0-9]+msec\).*/\1 \2/p; s/^ *(READ|WRITE|TRIM|MIXED): .*io=([^ ]*) .*/\1 \2/p; s/^ *issued rwts: (total=[0-9,]*).*/\1/p'; }
for u in mixed both; do
    rm -rf u && mkdir u
    fio --name=u "${rw[@]}" --unified_rw_reporting=$u 2>/dev/null | shape >fio.shape
    rm -rf u && mkdir u
    run_nm fio --no-save --name=u "${rw[@]}" --unified_rw_reporting=$u
    shape <<<"$out" >nm.shape
    if [ "$rc" = 0 ] && [ -s fio.shape ] && cmp -s fio.shape nm.shape; then
        ok "unified_rw_reporting=$u, normal output: fio's lines ($(paste -sd' ' nm.shape))"
    elif [ $u = both ] && [ "$rc" = 0 ] && diff <(grep -v '^mixed' fio.shape) <(grep -v '^mixed' nm.shape) >/dev/null &&
        grep -q '^mixed 0B$' fio.shape && grep -q '^mixed 256KiB$' nm.shape; then
        ok "unified_rw_reporting=both, normal output: fio's lines; its \"mixed:\" line says 0B where nodemark says 256KiB"
    else
        not_ok "unified_rw_reporting=$u, normal output" "rc $rc; fio $(paste -sd' ' fio.shape); nodemark $(paste -sd' ' nm.shape)"
    fi
    rm -rf u && mkdir u
    fio --name=u "${rw[@]}" --unified_rw_reporting=$u --output-format=terse 2>/dev/null | awk -F';' '{ print NF, $6 }' >fio.terse
    rm -rf u && mkdir u
    run_nm fio --no-save --name=u "${rw[@]}" --unified_rw_reporting=$u --output-format=terse
    awk -F';' '{ print NF, $6 }' <<<"$out" >nm.terse
    if [ "$rc" = 0 ] && [ -s fio.terse ] && cmp -s fio.terse nm.terse; then
        ok "unified_rw_reporting=$u, terse: fio's fields and first KiB ($(cat nm.terse))"
    else
        not_ok "unified_rw_reporting=$u, terse" "fio $(cat fio.terse); nodemark rc $rc $(cat nm.terse)"
    fi
done
run_nm fio --no-save --name=j --filename="$d/f" --size=64k --rw=randread --percentage_random=50 --random_generator=lfsr
expect_refused "percentage_random with random_generator=lfsr: refused in one line" "percentage_random"
