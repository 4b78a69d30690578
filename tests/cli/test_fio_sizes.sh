#!/usr/bin/env bash
# fio's sizes beside real fio: filesize= alone is the job's size (filesize x files); the JSON's
# io_bytes and total_ios compared by fio_compare.py; block-size mixes drawn as fio draws them;
# several files of size/nrfiles each; where the files' ends end a job and where fio's byte
# count does (issue 30).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
scratch_dir

json_like_fio "filesize= alone, one file: the size is the file's" --sizes d --name=fs --rw=read --filename=d/f --filesize=256k
json_like_fio "filesize= alone, nrfiles=3: filesize x 3" --sizes d --name=fn --rw=randread --directory=d --nrfiles=3 --filesize=64k
json_like_fio "filesize= alone, filename=a:b" --sizes d --name=fl --rw=write --filename=d/a:d/b --filesize=64k

# a block-size mix over a size that is no multiple of its blocks: a size drawn must fit what is
# left of the file, or is drawn again, so 20000 at 1k-4k moves 19456 (whole 4k blocks gave
# 16384). The sizes are drawn with fio's generator (tausworthe) from fio's seeds (randseed,
# the thread's number), and a random mix's offsets come from fio's offset generator, with
# fio's random map (in blocks of the smallest size: an I/O covers the free blocks from its
# offset on, cut at the first covered one): a job of one direction draws fio's sizes at fio's
# offsets in fio's order, so its bytes and I/O count are fio's (--sizes), also where a size is
# no multiple of the smallest (1536-4k: 4096 leaves 512 that no size fits, so the bytes
# follow the draws) and with norandommap (the last I/O passes the size by what was drawn).
# rw and randrw take each I/O's direction as fio's rwmix does (its generator and seed, a
# direction kept for a run of I/Os), so their bytes and I/Os are fio's too; fio_compare.py
# compares the sums of the two directions and that both have I/Os.
json_like_fio "bsrange=1k-4k over size=20000, read" --sizes d --name=r1 --rw=read --filename=d/f --size=20000 --bsrange=1k-4k
json_like_fio "bsrange=1k-4k over size=20000, randread (fio's random map)" --sizes d --name=r2 --rw=randread --filename=d/f --size=20000 --bsrange=1k-4k
json_like_fio "bsrange=2k-16k over size=100000, write" --sizes d --name=r3 --rw=write --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "bsrange=2k-16k over size=100000, randwrite" --sizes d --name=r4 --rw=randwrite --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "bsrange=2k-16k over size=100000, randrw" --sizes d --name=r5 --rw=randrw --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "bsrange=1k-4k over size=3000 (smaller than the largest block)" --sizes d --name=r6 --rw=read --filename=d/f --size=3000 --bsrange=1k-4k
json_like_fio "bssplit=1k/50:4k/50 over size=20000, read" --sizes d --name=s1 --rw=read --filename=d/f --size=20000 --bssplit=1k/50:4k/50
json_like_fio "bssplit=1k/50:4k/50 over size=20000, randread" --sizes d --name=s2 --rw=randread --filename=d/f --size=20000 --bssplit=1k/50:4k/50
json_like_fio "bssplit=4k/10:64k/90 over 1m, two loops (the draws start over each loop)" --sizes d --name=s3 --rw=read --filename=d/f --size=1m --bssplit=4k/10:64k/90 --loops=2
json_like_fio "bsrange=1536-4k over size=20000, randread: fio's map (19456 bytes)" --sizes d --name=u0 --rw=randread --filename=d/f --size=20000 --bsrange=1536-4k
json_like_fio "bsrange=1k-4k over size=20000, randread, norandommap (21504: past the size)" --sizes d --name=v1 --rw=randread --norandommap --filename=d/f --size=20000 --bsrange=1k-4k
json_like_fio "bssplit=4k/10:64k/90 over 1m, randread, two loops" --sizes d --name=v2 --rw=randread --filename=d/f --size=1m --bssplit=4k/10:64k/90 --loops=2
json_like_fio "randread mix, numjobs=2: each thread its own offsets and sizes" --sizes d --name=v3 --rw=randread --directory=d --size=100000 --bsrange=2k-16k --numjobs=2 --group_reporting
json_like_fio "randread mix, randseed=1234 (the sizes from it; fio's offsets are randrepeat's)" --sizes d --name=v4 --rw=randread --filename=d/f --size=100000 --bsrange=2k-16k --randseed=1234
json_like_fio "randread mix, io_size=300000 over size=100000: the map's rounds, none for less than 16k" --sizes d --name=v5 --rw=randread --filename=d/f --size=100000 --io_size=300000 --bsrange=2k-16k
json_like_fio "randread mix, io_size=50000 over size=20000 at 1536-4k" --sizes d --name=v6 --rw=randread --filename=d/f --size=20000 --io_size=50000 --bsrange=1536-4k
json_like_fio "randrw, norandommap, bsrange=2k-16k over size=100000 (106496: past the size)" --sizes d --name=w1 --rw=randrw --norandommap --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "rw, bsrange=2k-16k over size=100000" --sizes d --name=w2 --rw=rw --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "rw, rwmixread=70, nrfiles=2, bs=4k over size=50000" --sizes d --name=w3 --rw=rw --rwmixread=70 --directory=d --nrfiles=2 --size=50000 --bs=4k
json_like_fio "rw, nrfiles=3, bs=4k over size=20000: a file is done where a direction's next block no longer fits" --sizes d --name=w4 --rw=rw --directory=d --nrfiles=3 --size=20000 --bs=4k
json_like_fio "rw, nrfiles=3, bsrange=1k-4k over size=20000" --sizes d --name=w5 --rw=rw --directory=d --nrfiles=3 --size=20000 --bsrange=1k-4k
json_like_fio "bsrange=1536-4k over size=20000, read: fio's draws (19968 bytes)" --sizes d --name=u1 --rw=read --filename=d/f --size=20000 --bsrange=1536-4k
json_like_fio "bssplit=1536/50:4k/50 over size=100000, read (4k rounds down to 3072)" --sizes d --name=u2 --rw=read --filename=d/f --size=100000 --bssplit=1536/50:4k/50
json_like_fio "bsrange=2k-16k, write with verify (the writes draw with the read seed)" --sizes d --name=u3 --rw=write --filename=d/f --size=100000 --bsrange=2k-16k --verify=crc32c
json_like_fio "randseed=1234: fio's draws from another seed" --sizes d --name=u4 --rw=read --filename=d/f --size=100000 --bsrange=1k-16k --randseed=1234
json_like_fio "two jobs: the second draws from thread 2's seeds" --sizes d --name=u5 --rw=read --filename=d/f --size=100000 --bsrange=1k-16k --name=u6 --rw=write --filename=d/g --size=100000 --bsrange=1k-16k
json_like_fio "numjobs=2, group_reporting: each thread its own seeds" --sizes d --name=u7 --rw=write --directory=d --size=100000 --bsrange=2k-16k --numjobs=2 --group_reporting

# several files: fio gives each of nrfiles size/nrfiles bytes (20000 over 3: 6666) and ends
# each where the next I/O no longer fits it, with a mix (3 x 6144 at 1k-4k) or without one
# (one 4k block of each: 12288); nodemark's whole size went round the files (19456, 16384)
json_like_fio "nrfiles=3, size=20000, bsrange=1k-4k, read" --sizes d --name=f1 --rw=read --directory=d --nrfiles=3 --size=20000 --bsrange=1k-4k
json_like_fio "nrfiles=3, size=20000, bsrange=1k-4k, randread" --sizes d --name=f2 --rw=randread --directory=d --nrfiles=3 --size=20000 --bsrange=1k-4k
json_like_fio "nrfiles=3, size=20000, bsrange=1k-4k, randread, norandommap" --sizes d --name=f7 --rw=randread --norandommap --directory=d --nrfiles=3 --size=20000 --bsrange=1k-4k
json_like_fio "nrfiles=3, size=20000, bsrange=1536-4k, read" --sizes d --name=f3 --rw=read --directory=d --nrfiles=3 --size=20000 --bsrange=1536-4k
json_like_fio "nrfiles=2, size=100000, bssplit=2k/50:16k/50, write" --sizes d --name=f4 --rw=write --directory=d --nrfiles=2 --size=100000 --bssplit=2k/50:16k/50
json_like_fio "nrfiles=3, size=20000, bs=4k, read: a block of each file" --sizes d --name=f5 --rw=read --directory=d --nrfiles=3 --size=20000 --bs=4k
json_like_fio "nrfiles=3, size=20000, bs=4k, randread" --sizes d --name=f6 --rw=randread --directory=d --nrfiles=3 --size=20000 --bs=4k

# where fio's byte count ends the job (no random map, directions mixed, io_size), the size is
# not rounded to the block: the last I/O reaches it (20000 at 4k: 20480); the files' ends
# (one direction, a random map) end at the last whole block (16384)
json_like_fio "norandommap, bs=4k over size=20000: the block that reaches the size" --sizes d --name=n1 --rw=randread --norandommap --filename=d/f --size=20000 --bs=4k
json_like_fio "norandommap, nrfiles=3, bs=4k over size=20000" --sizes d --name=n2 --rw=randread --norandommap --directory=d --nrfiles=3 --size=20000 --bs=4k
json_like_fio "rw=rw, bs=4k over size=20000" --sizes d --name=n3 --rw=rw --filename=d/f --size=20000 --bs=4k
json_like_fio "randrw, norandommap, bs=4k over size=20000" --sizes d --name=n4 --rw=randrw --norandommap --filename=d/f --size=20000 --bs=4k
json_like_fio "randrw with the random map, bs=4k over size=200000: whole blocks" --sizes d --name=n5 --rw=randrw --filename=d/f --size=200000 --bs=4k
json_like_fio "io_size=30000 over size=20000 at 4k, read" --sizes d --name=n6 --rw=read --filename=d/f --size=20000 --io_size=30000 --bs=4k
json_like_fio "io_size=30000 over size=20000 at 4k, randread" --sizes d --name=n7 --rw=randread --filename=d/f --size=20000 --io_size=30000 --bs=4k
json_like_fio "size=4k of 1000-byte blocks (kb_base=1000), read: 4000" --sizes d --name=n8 --rw=read --filename=d/f --size=4k --kb_base=1000 --bs=1k
json_like_fio "size=4k of 1000-byte blocks, norandommap: 5000" --sizes d --name=n9 --rw=randread --norandommap --filename=d/f --size=4k --kb_base=1000 --bs=1k

# size/nrfiles leaves a remainder: fio gives its whole smallest blocks to the first files, one
# each (size=8007 over 8 files at bs=2: 7 bytes left, so 3 files of 1002 bytes and 5 of 1000),
# and the job's size is then the files' (8006). Each file's bytes from both tools' write_iolog
# (fio's names NAME.0.K; nodemark's the same in its private directory), and the JSON's totals.
# iologs ARGS...: fio's write_iolog of ARGS in fio.iolog, nodemark's in nm.iolog (its exit
# status in rc), each run after d is made afresh; per_file LOG: "K:BYTES" for each file K (the
# last part of its name); ios LOG: each I/O's direction, offset and length, in order
iologs() {
    rm -rf d fio.iolog nm.iolog && mkdir d # fio adds to a log that is there
    fio --output=/dev/null --write_iolog="$PWD/fio.iolog" "$@" >/dev/null 2>fio.err
    rm -rf d && mkdir d
    run_nm fio --no-save --output=/dev/null --write_iolog="$PWD/nm.iolog" "$@"
}
per_file() { awk 'NF == 5 && ($3 == "read" || $3 == "write") { n = $2; sub(/.*\./, "", n); b[n] += $5 }
                  END { for (k in b) print k ":" b[k] }' "$1" | sort -n | tr '\n' ' '; }
ios() { awk 'NF == 5 && ($3 == "read" || $3 == "write") { print $3, $4, $5 }' "$1"; }
files_like_fio() { # WHAT ARGS...
    local what=$1 a b
    shift
    json_like_fio "$what: the JSON's bytes and I/Os" --sizes d "$@"
    iologs "$@"
    a=$(per_file fio.iolog) b=$(per_file nm.iolog)
    [ "$rc" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] && ok "$what: each file's bytes as fio's ($a)" ||
        not_ok "$what: each file's bytes as fio's" "fio: $a $(head -c 200 fio.err); nodemark (rc $rc): $b ${err:0:200}"
}
files_like_fio "nrfiles=8, size=8007, bs=2, read: 3 files a block longer" --name=x1 --rw=read --directory=d --nrfiles=8 --size=8007 --bs=2
files_like_fio "nrfiles=8, size=8007, bs=2, randread" --name=x2 --rw=randread --directory=d --nrfiles=8 --size=8007 --bs=2
files_like_fio "nrfiles=5, size=503, bs=1, write" --name=x3 --rw=write --directory=d --nrfiles=5 --size=503 --bs=1
files_like_fio "nrfiles=7, size=355, bsrange=2-6, read (the mix's smallest)" --name=x4 --rw=read --directory=d --nrfiles=7 --size=355 --bsrange=2-6
files_like_fio "nrfiles=6, size=3077, bs=4,2 (the smallest of the directions), rw" --name=x5 --rw=rw --directory=d --nrfiles=6 --size=3077 --bs=4,2
files_like_fio "nrfiles=3, size=20000, bs=4k: the remainder under a block, no file longer" --name=x6 --rw=read --directory=d --nrfiles=3 --size=20000 --bs=4k
# filename=a:b:c: size/3 each (fio's file_size), and what does not divide is not done: 10k
# over three files of 1k blocks is 3413 bytes each, three blocks of each
files_like_fio "filename=a:b:c, size=10k, bs=1k, write" --name=y1 --rw=write --filename=d/f.0:d/f.1:d/f.2 --size=10k --bs=1k
files_like_fio "filename=a:b:c, size=10k, bs=1k, randwrite" --name=y2 --rw=randwrite --filename=d/f.0:d/f.1:d/f.2 --size=10k --bs=1k
files_like_fio "filename=a:b:c, size=100k, bs=4k, rw" --name=y3 --rw=rw --filename=d/f.0:d/f.1:d/f.2 --size=100k --bs=4k
files_like_fio "filename=a:b:c, size=10k, io_size=20k, write" --name=y4 --rw=write --filename=d/f.0:d/f.1:d/f.2 --size=10k --io_size=20k --bs=1k

# random_generator=tausworthe64: fio draws a mix's sizes and its offsets from its 64-bit
# generator, so the bytes (which follow the draws where sizes are no multiples of the smallest)
# are those of fio's same job, and not those of the 32-bit default
json_like_fio "tausworthe64, bsrange=1536-4k over size=20000, read" --sizes d --name=t1 --rw=read --filename=d/f --size=20000 --bsrange=1536-4k --random_generator=tausworthe64
json_like_fio "tausworthe64, bsrange=1536-4k over size=20000, randread" --sizes d --name=t2 --rw=randread --filename=d/f --size=20000 --bsrange=1536-4k --random_generator=tausworthe64
json_like_fio "tausworthe64, bssplit=1536/50:4k/50 over size=100000, randread" --sizes d --name=t3 --rw=randread --filename=d/f --size=100000 --bssplit=1536/50:4k/50 --random_generator=tausworthe64
json_like_fio "tausworthe64, bsrange=1k-4k, norandommap over size=20000" --sizes d --name=t4 --rw=randread --norandommap --filename=d/f --size=20000 --bsrange=1k-4k --random_generator=tausworthe64
json_like_fio "tausworthe64, randrw, bsrange=2k-16k over size=100000" --sizes d --name=t5 --rw=randrw --filename=d/f --size=100000 --bsrange=2k-16k --random_generator=tausworthe64
# the I/Os themselves: a random mix takes fio's offsets from the same generator as its sizes
t64=(--name=t6 --rw=randread --filename=d/f --size=20000 --bsrange=1536-4k)
iologs "${t64[@]}" --random_generator=tausworthe64
a=$(ios fio.iolog) b=$(ios nm.iolog)
[ "$rc" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] &&
    ok "tausworthe64 randread mix: fio's $(wc -l <<<"$a") I/Os, offsets and lengths, in fio's order" ||
    not_ok "tausworthe64 randread mix: fio's I/Os" "fio: $(echo $a | head -c 200); nodemark (rc $rc): $(echo $b | head -c 200) ${err:0:200}"
cp nm.iolog nm64.iolog
iologs "${t64[@]}"
a=$(ios fio.iolog) b=$(ios nm.iolog)
[ "$rc" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" != "$(ios nm64.iolog)" ] &&
    ok "the default (32-bit) generator: fio's I/Os too, and not tausworthe64's" ||
    not_ok "tausworthe's I/Os are fio's and differ from tausworthe64's" "fio: $(echo $a | head -c 200); nodemark (rc $rc): $(echo $b | head -c 200)"

# fio's offsets for the random mixes it keeps no map for or reads with each direction's own
# blocks (io/randmap.c): blockalign other than the smallest size turns fio's map off (offsets
# are b x blockalign from its offset generator; the I/O that reaches the size is done); where
# the directions' smallest sizes differ, one map in blocks of the smallest of all is read and
# marked at each direction's own block numbers, as fio's io_u.c (a 64k write at 16k blocks
# covers 4 bits, cut at the first covered one: fio's 32k writes; a pick past the file's end
# ends it: fio's 25 I/Os over 1m); zoned: the zone from fio's zone generator, no map. Each
# I/O is fio's, offset for offset (nodemark's own offsets read 44-47% of 4k for the first).
# same_ios WHAT ARGS...: both tools' write_iolog of ARGS, the same I/Os in the same order
same_ios() {
    local what=$1 a b
    shift
    iologs "$@"
    a=$(ios fio.iolog) b=$(ios nm.iolog)
    [ "$rc" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] &&
        ok "$what: fio's $(wc -l <<<"$a") I/Os, offsets and lengths, in fio's order" ||
        not_ok "$what: fio's I/Os" "fio: $(echo $a | head -c 200); nodemark (rc $rc): $(echo $b | head -c 200) ${err:0:200}"
}
ba=(--name=b1 --rw=randread --filename=d/f --size=4m --bssplit=4k/40:64k/60 --blockalign=64k)
same_ios "bssplit=4k/40:64k/60 blockalign=64k (no map, as fio)" "${ba[@]}"
json_like_fio "bssplit=4k/40:64k/60 blockalign=64k: the JSON's bytes and I/Os" --sizes d "${ba[@]}"
same_ios "randrw bsrange=4k-16k blockalign=16k" --name=b2 --rw=randrw --filename=d/f --size=1m --bsrange=4k-16k --blockalign=16k
same_ios "blockalign=64k over nrfiles=3 (5 blocks a file)" --name=b3 --rw=randread --directory=d --nrfiles=3 --size=1m --bssplit=4k/40:64k/60 --blockalign=64k
pd=(--name=p1 --rw=randrw --filename=d/f --size=1m --bssplit=4k/50:16k/50,16k/50:64k/50)
same_ios "randrw, smallest sizes 4k and 16k: one map, each direction's blocks" "${pd[@]}"
json_like_fio "randrw, smallest sizes 4k and 16k: the JSON's bytes and I/Os" --sizes d "${pd[@]}"
same_ios "randrw bsrange=1k-4k,2k-8k over size=200000" --name=p2 --rw=randrw --filename=d/f --size=200000 --bsrange=1k-4k,2k-8k
same_ios "randrw, smallest sizes 4k and 16k, norandommap" --name=p3 --rw=randrw --norandommap --filename=d/f --size=1m --bssplit=4k/50:16k/50,16k/100
same_ios "zoned:50/10:50/90 with bssplit=4k/50:64k/50" --name=z1 --rw=randread --filename=d/f --size=4m --bssplit=4k/50:64k/50 --random_distribution=zoned:50/10:50/90
same_ios "zoned:60/20:40/80, randrw bsrange=4k-16k" --name=z2 --rw=randrw --filename=d/f --size=1m --bsrange=4k-16k --random_distribution=zoned:60/20:40/80

# zipf, pareto and normal: nodemark's ranks (io/distrib.c; fio's come from another generator
# and hash), placed by fio's rules: fio's ranges (the smallest size, 4k: not the largest, so
# most offsets are off 64k boundaries), the offset first and a size that fits from there, no
# map and the I/O that reaches the size done. The visited offsets and the 4k share agree with
# fio's within their spread (distinct offsets within 20%: 195 in fio, 108 with 64k ranges).
dist_like_fio() { # DIST
    python3 - fio.iolog nm.iolog "$1" <<'PY'
import math, sys
def load(p):
    return [(int(l.split()[3]), int(l.split()[4])) for l in open(p) if len(l.split()) == 5 and l.split()[2] == "read"]
f, n, size = load(sys.argv[1]), load(sys.argv[2]), 16 << 20
def facts(ios):
    offs = {o for o, _ in ios}
    return (len(offs), sum(1 for o in offs if o % 65536) / max(len(offs), 1),
            sum(1 for _, l in ios if l == 4096) / max(len(ios), 1), sum(l for _, l in ios))
(fd, ff, fs, fb), (nd, nf, ns, nb) = facts(f), facts(n)
sd = math.sqrt(fs * (1 - fs) * (1 / len(f) + 1 / max(len(n), 1)))
why = [w for w, bad in (("offsets not on 4k or past the file", any(o % 4096 or o + l > size for o, l in n)),
                        ("few offsets off 64k: %.2f (fio %.2f)" % (nf, ff), nf < 0.8),
                        ("distinct offsets %d, fio %d" % (nd, fd), abs(nd - fd) > 0.2 * fd),
                        ("4k share %.3f, fio %.3f" % (ns, fs), abs(ns - fs) > 4 * sd),
                        ("bytes %d, fio %d" % (nb, fb), not size <= nb < size + 65536))
       if bad]
print("; ".join(why) if why else "%d distinct offsets (fio %d), 4k %.3f (fio %.3f)" % (nd, fd, ns, fs))
sys.exit(1 if why else 0)
PY
}
for dist in zipf:1.1 pareto:0.3 normal:10; do
    iologs --name=d1 --rw=randread --filename=d/f --size=16m --bssplit=4k/50:64k/50 --random_distribution=$dist
    if [ "$rc" = 0 ] && why=$(dist_like_fio "$dist"); then ok "random_distribution=$dist with a mix: fio's offsets and shares ($why)"
    else not_ok "random_distribution=$dist with a mix: fio's offsets and shares" "rc $rc: $why ${err:0:200}"; fi
done
