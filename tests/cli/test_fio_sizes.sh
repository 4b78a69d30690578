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
