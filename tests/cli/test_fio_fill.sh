#!/usr/bin/env bash
# fio 3.33's fill_device (fill_fs), beside real fio on a 4 MiB tmpfs: a write job writes until
# the filesystem is full; the write that gets ENOSPC ends the thread, counted as an I/O without
# bytes, with error 0, exit 0 and one line on stderr naming the file. No free-space check and
# no allocation first (a 64k-block job over 4 MiB: 64 writes of data, the 65th refused).
# nodemark's files in a directory= target live in its .nodemark-* directory, whose OWNER record
# takes one page of the filesystem, and are removed at the end (fio leaves the filesystem full).
. "$(dirname "$0")/lib.sh"
require_fio
scratch_dir

mkdir -p mnt
if ! mount -t tmpfs -o size=4m tmpfs mnt 2>/dev/null; then
    skip "fill_device beside fio" "cannot mount a tmpfs (not root)"
    exit 0
fi
at_exit 'umount "$d/mnt" 2>/dev/null'
page=$(getconf PAGESIZE)
fig='j["jobs"][0]["write"]["io_bytes"], j["jobs"][0]["write"]["total_ios"], j["jobs"][0]["error"]'

# fresh: an empty filesystem for the next job
fresh() { rm -rf mnt/* mnt/.nodemark-*; }
# pair WHAT NM_BYTES_LESS ARGS...: fio then nodemark on an empty mnt; compares (bytes,
# total_ios, error), exit status and the stderr line; nodemark's bytes may be NM_BYTES_LESS
# fewer (its work directory's record)
pair() {
    local what=$1 less=$2 frc fr nr want fline
    shift 2
    fresh
    fio --output-format=json --name=fd --bs=64k --fill_device=1 "$@" >fio.json 2>fio.err
    frc=$? fr=$(json_file fio.json "$fig")
    fline=$(grep -c "No space left on device" fio.err)
    fio_left=$(du -sb mnt | cut -f1)
    fresh
    run_nm fio --no-save --output-format=json --name=fd --bs=64k --fill_device=1 "$@"
    printf '%s\n' "$out" >nm.json
    nr=$(json_file nm.json "$fig")
    want=$(python3 -c 'import sys; b, n, e = eval(sys.argv[1]); print((b - int(sys.argv[2]), n, e))' "$fr" "$less" 2>&1)
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ "$want" = "$nr" ] && [[ $fr == "(4194304, 65, 0)" || $less != 0 ]]; then
        ok "$what: bytes, I/Os and error as fio's $fr (less $less), exit 0"
    else
        not_ok "$what" "fio rc $frc: $fr; nodemark rc $rc: $nr (want $want) ${err:0:300}"
    fi
    if [ "$fline" = 1 ] && [ "$(grep -c . <<<"$err")" = 1 ] && [[ $err == *"No space left on device"* ]]; then
        ok "$what: one stderr line for the full filesystem, as fio's"
    else
        not_ok "$what: one stderr line for the full filesystem" "fio: $(head -c 200 fio.err); nodemark: ${err:0:300}"
    fi
}

pair "filename= on the mount" 0 --rw=write --filename=mnt/f
if [ "$(stat -c %s mnt/f 2>/dev/null)" = 4194304 ] && [ "$(df --output=avail -B1 mnt | tail -1 | tr -d ' ')" = 0 ]; then
    ok "filename=: the file is kept at 4 MiB and the filesystem left full, as fio leaves them"
else
    not_ok "filename=: the file kept, the filesystem full" "$(ls -la mnt | tail -n +2 | tr '\n' ' ') $(df -B1 mnt | tail -1)"
fi
pair "directory=" "$page" --rw=write --directory=mnt
if [ "$rc" = 0 ] && [ -z "$(ls -A mnt)" ] && [ "$fio_left" -ge 4194304 ]; then
    ok "directory=: nodemark's files removed at the end (fio's fill is kept: $fio_left bytes)"
else
    not_ok "directory=: nodemark's files removed at the end" "left: $(ls -A mnt | tr '\n' ' ')"
fi
pair "size= beyond the free space" 0 --rw=write --filename=mnt/f --size=8m
pair "random writes with size=" 0 --rw=randwrite --filename=mnt/f --size=8m

# size= within the free space: the job ends at its size, nothing refused
fresh
fio --output-format=json --name=fd --bs=64k --fill_device=1 --rw=write --filename=mnt/f --size=1m >fio.json 2>fio.err
fr=$(json_file fio.json "$fig")
fresh
run_nm fio --no-save --output-format=json --name=fd --bs=64k --fill_device=1 --rw=write --filename=mnt/f --size=1m
printf '%s\n' "$out" >nm.json
nr=$(json_file nm.json "$fig")
if [ "$rc" = 0 ] && [ "$fr" = "$nr" ] && [ -z "$err" ]; then
    ok "size= within the free space: $nr as fio's, no warning"
else
    not_ok "size= within the free space" "fio $fr; nodemark rc $rc: $nr ${err:0:300}"
fi

# what nodemark does not fill as fio does: refused in one line, exit 2, nothing written
for bad in "--rw=read" "--rw=randrw" "--rw=trimwrite" "--rw=randwrite" "--rw=write --overwrite=1" \
    "--rw=write --ioengine=mmap"; do
    fresh
    # shellcheck disable=SC2086
    run_nm fio --no-save --name=fd --bs=64k --fill_fs=1 --filename=mnt/f $bad
    expect_refused "fill_fs with $bad refused" "fill_device"
    [ -e mnt/f ] && not_ok "fill_fs with $bad: nothing made" "mnt/f exists"
done
fresh
