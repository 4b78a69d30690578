#!/usr/bin/env bash
# fio's verify_backlog without a random map, beside real fio 3.33: fio keeps the blocks waiting
# to be read back in a tree by offset, where a write drops the older waiting write it overlaps
# (so the write number in each header read back is the newest, and is checked) and the backlog
# reads the lowest offset first; the count waiting sets when a batch starts. A size mix draws
# fio's own offsets, so each tool writes and verifies the same blocks: the bytes and I/Os
# written and read back must be equal (psync: no I/O in flight to change when a batch starts).
# A random size mix with fio's random map reads back every write in both. experimental_verify
# reads back every write in the order written (no tree, no backlog): the same counts as fio's,
# and a block rewritten later fails its write number in both (exit 1, "bad header numberio").
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio

M="--rw=randwrite --ioengine=psync --norandommap"
fio_same_verify_counts "bssplit 4k/16k, norandommap, verify_backlog=8" --size=1m --bssplit=4k/50:16k/50 $M \
    --verify=crc32c --verify_backlog=8
fio_same_verify_counts "bssplit 4k/16k, norandommap, verify_backlog=5, batch 3" --size=1m --bssplit=4k/50:16k/50 $M \
    --verify=crc32c --verify_backlog=5 --verify_backlog_batch=3
fio_same_verify_counts "bssplit 4k/8k/64k, norandommap, verify_backlog=16, md5" --size=2m --bssplit=4k/30:8k/30:64k/40 $M \
    --verify=md5 --verify_backlog=16
fio_same_verify_counts "bssplit 4k/16k, norandommap, no backlog" --size=1m --bssplit=4k/50:16k/50 $M --verify=crc32c
fio_same_verify_counts "random bssplit with the random map: every write read back" --size=1m --bssplit=4k/50:16k/50 \
    --rw=randwrite --ioengine=psync --verify=crc32c
fio_same_verify_counts "random bssplit with the random map and verify_backlog=8" --size=4m --bssplit=4k/30:64k/70 \
    --rw=randwrite --ioengine=psync --verify=md5 --verify_backlog=8
fio_same_verify_counts "random bsrange 4k-64k, number_ios=50" --size=1m --bsrange=4k-64k --rw=randwrite --ioengine=psync \
    --verify=crc32c --number_ios=50

E="--size=1m --rw=randwrite --ioengine=psync --verify=crc32c --experimental_verify=1"
fio_same_verify_counts "experimental_verify, 4k with the random map" $E --bs=4k
fio_same_verify_counts "experimental_verify, random bssplit" $E --bssplit=4k/50:16k/50
fio_same_verify_counts "experimental_verify, bssplit, norandommap: every write, rewritten ones too" $E --bssplit=4k/50:16k/50 --norandommap
fio_same_verify_counts "experimental_verify with verify_backlog=8: no backlog, as fio" $E --bssplit=4k/50:16k/50 --norandommap --verify_backlog=8
rm -f f g
fio --output-format=json --name=v --filename="$d/f" $E --bs=4k --norandommap >fio.json 2>fio.err
frc=$? fr=$(json_file fio.json 'j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["error"]')
run_nm fio --no-save --output-format=json --name=v --filename="$d/g" $E --bs=4k --norandommap
printf '%s\n' "$out" >nm.json
nr=$(json_file nm.json 'j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["error"]')
if [ "$frc" = 1 ] && [ "$rc" = 1 ] && [ "$fr" = "(1, 84)" ] && [ "$nr" = "$fr" ] && grep -q "bad header numberio" fio.err &&
    grep -q "verify: bad header numberio .* at file $d/g offset" <<<"$err"; then
    ok "experimental_verify, 4k, norandommap: the first block read back was rewritten later: both fail it (exit 1, error 84)"
else
    not_ok "experimental_verify with rewritten blocks fails in both" "fio rc $frc $fr $(head -c 200 fio.err); nodemark rc $rc $nr ${err:0:300}"
fi
