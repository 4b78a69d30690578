#!/usr/bin/env bash
# fio's verify_backlog without a random map, beside real fio 3.33: fio keeps the blocks waiting
# to be read back in a tree by offset, where a write drops the older waiting write it overlaps
# (so the write number in each header read back is the newest, and is checked) and the backlog
# reads the lowest offset first; the count waiting sets when a batch starts. A size mix draws
# fio's own offsets, so each tool writes and verifies the same blocks: the bytes and I/Os
# written and read back must be equal (psync: no I/O in flight to change when a batch starts).
# A random size mix with fio's random map reads back every write in both.
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio
FIG='j["jobs"][0]["write"]["io_bytes"], j["jobs"][0]["write"]["total_ios"], j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["error"]'

# same_counts WHAT ARGS...: both tools write+verify a new file with ARGS; PASS when both exit 0
# with the same bytes and I/Os written and read back
same_counts() {
    local what=$1 frc fr nr
    shift
    rm -f f g
    fio --output-format=json --name=v --filename="$d/f" "$@" >fio.json 2>fio.err
    frc=$? fr=$(json_file fio.json "$FIG")
    run_nm fio --no-save --output-format=json --name=v --filename="$d/g" "$@"
    printf '%s\n' "$out" >nm.json
    nr=$(json_file nm.json "$FIG")
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$fr" = "$nr" ]; then
        ok "$what: written and verified as fio's $nr"
    else
        not_ok "$what" "fio rc $frc: $fr; nodemark rc $rc: $nr ${err:0:300}"
    fi
}

M="--rw=randwrite --ioengine=psync --norandommap"
same_counts "bssplit 4k/16k, norandommap, verify_backlog=8" --size=1m --bssplit=4k/50:16k/50 $M \
    --verify=crc32c --verify_backlog=8
same_counts "bssplit 4k/16k, norandommap, verify_backlog=5, batch 3" --size=1m --bssplit=4k/50:16k/50 $M \
    --verify=crc32c --verify_backlog=5 --verify_backlog_batch=3
same_counts "bssplit 4k/8k/64k, norandommap, verify_backlog=16, md5" --size=2m --bssplit=4k/30:8k/30:64k/40 $M \
    --verify=md5 --verify_backlog=16
same_counts "bssplit 4k/16k, norandommap, no backlog" --size=1m --bssplit=4k/50:16k/50 $M --verify=crc32c
same_counts "random bssplit with the random map: every write read back" --size=1m --bssplit=4k/50:16k/50 \
    --rw=randwrite --ioengine=psync --verify=crc32c
same_counts "random bssplit with the random map and verify_backlog=8" --size=4m --bssplit=4k/30:64k/70 \
    --rw=randwrite --ioengine=psync --verify=md5 --verify_backlog=8
same_counts "random bsrange 4k-64k, number_ios=50" --size=1m --bsrange=4k-64k --rw=randwrite --ioengine=psync \
    --verify=crc32c --number_ios=50
