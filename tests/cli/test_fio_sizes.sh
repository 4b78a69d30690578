#!/usr/bin/env bash
# fio's sizes beside real fio: filesize= alone is the job's size (filesize x files); the JSON's
# io_bytes and total_ios compared by fio_compare.py.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
scratch_dir

json_like_fio "filesize= alone, one file: the size is the file's" --sizes d --name=fs --rw=read --filename=d/f --filesize=256k
json_like_fio "filesize= alone, nrfiles=3: filesize x 3" --sizes d --name=fn --rw=randread --directory=d --nrfiles=3 --filesize=64k
json_like_fio "filesize= alone, filename=a:b" --sizes d --name=fl --rw=write --filename=d/a:d/b --filesize=64k
