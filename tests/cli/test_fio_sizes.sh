#!/usr/bin/env bash
# fio's sizes beside real fio: filesize= alone is the job's size (filesize x files); the JSON's
# io_bytes and total_ios compared by fio_compare.py; block-size mixes: the bytes (fio's rule
# for a size that does not fit what is left).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
scratch_dir

json_like_fio "filesize= alone, one file: the size is the file's" --sizes d --name=fs --rw=read --filename=d/f --filesize=256k
json_like_fio "filesize= alone, nrfiles=3: filesize x 3" --sizes d --name=fn --rw=randread --directory=d --nrfiles=3 --filesize=64k
json_like_fio "filesize= alone, filename=a:b" --sizes d --name=fl --rw=write --filename=d/a:d/b --filesize=64k

# a block-size mix over a size that is no multiple of its blocks: fio rounds the size down to
# the smallest block and draws a size again until it fits what is left, so the bytes are
# fio's (20000 at 1k-4k: 19456, where whole 4k blocks gave 16384); the I/O counts follow each
# tool's random draws of the sizes, so only the bytes are compared
json_like_fio "bsrange=1k-4k over size=20000, read" --bytes d --name=r1 --rw=read --filename=d/f --size=20000 --bsrange=1k-4k
json_like_fio "bsrange=1k-4k over size=20000, randread (fio's random map)" --bytes d --name=r2 --rw=randread --filename=d/f --size=20000 --bsrange=1k-4k
json_like_fio "bsrange=2k-16k over size=100000, write" --bytes d --name=r3 --rw=write --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "bsrange=2k-16k over size=100000, randwrite" --bytes d --name=r4 --rw=randwrite --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "bsrange=2k-16k over size=100000, randrw" --bytes d --name=r5 --rw=randrw --filename=d/f --size=100000 --bsrange=2k-16k
json_like_fio "bsrange=1k-4k over size=3000 (smaller than the largest block)" --bytes d --name=r6 --rw=read --filename=d/f --size=3000 --bsrange=1k-4k
json_like_fio "bssplit=1k/50:4k/50 over size=20000, read" --bytes d --name=s1 --rw=read --filename=d/f --size=20000 --bssplit=1k/50:4k/50
json_like_fio "bssplit=1k/50:4k/50 over size=20000, randread" --bytes d --name=s2 --rw=randread --filename=d/f --size=20000 --bssplit=1k/50:4k/50
json_like_fio "bssplit=4k/10:64k/90 over 1m, two loops" --bytes d --name=s3 --rw=read --filename=d/f --size=1m --bssplit=4k/10:64k/90 --loops=2
