#!/usr/bin/env bash
# read_iolog of a blktrace binary beside real fio 3.33: traces written by data/mkblktrace.py
# (tracing is not permitted here), replayed by both onto one file (replay_redirect,
# replay_no_stall=1) under strace; the reads, writes (offset, size, in order) and fsyncs must
# agree, little- and big-endian, with replay_scale/replay_align and replay_skip; a damaged
# trace, a device not in /dev and merge_blktrace_file are refused in one line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
skip_without strace "blktrace replays compared by their system calls"
scratch_dir
mk() { python3 "$TESTS_DIR/cli/data/mkblktrace.py" "$@"; }

# calls_on LOG: "read|write OFFSET LEN" or "sync" per call on $d/f.dat (strace -y)
calls_on() {
    sed -nE -e "s/^[0-9]+ +p(read|write)64\([0-9]+<[^>]*\/f\.dat>, .*, ([0-9]+), ([0-9]+)\) = [0-9]+$/\1 \3 \2/p" \
        -e "s/^[0-9]+ +fsync\([0-9]+<[^>]*\/f\.dat>\) = 0$/sync/p" "$1"
}
# both WHAT TRACE [OPTION...]: fio and nodemark replay TRACE onto f.dat; the same calls, some
both() {
    local what=$1 trace=$2
    shift 2
    for tool in fio nm; do
        rm -f f.dat
        truncate -s 4m f.dat
        leave=()
        [ $tool = nm ] && leave=(--allow-write="$d/f.dat")
        strace_fio $tool "st-$tool.txt" -y -e trace=pread64,pwrite64,fsync -- --name=bt --ioengine=psync \
            --read_iolog="$d/$trace" --replay_redirect="$d/f.dat" --replay_no_stall=1 "${leave[@]}" \
            "$@" --output=/dev/null
        calls_on "st-$tool.txt" >"calls-$tool.txt"
    done
    if [ -s calls-fio.txt ] && cmp -s calls-fio.txt calls-nm.txt; then
        ok "$what ($(wc -l <calls-fio.txt) calls)"
    else
        not_ok "$what" "fio: $(tr '\n' '|' <calls-fio.txt) nodemark: $(tr '\n' '|' <calls-nm.txt)"
    fi
    cp calls-nm.txt "last-$trace.txt"
}

# a trace as the block layer writes one: notify records (a process name as payload), the
# queueing of each bio followed by merges, issues and completions (passed over), a sync write,
# a flush (fsync), a flush with data (a flush only, as fio 3.33), a read of 0 bytes (skipped), a
# pc request with a payload (replayed as a read, as 3.33 does), another device (one file)
recs=(N/-/0/0 Q/R/8/4096 I/R/8/4096 C/R/8/4096 Q/W/16/8192 M/W/32/4096 Q/WS/0/512 Q/F/0/0 Q/R/100/0
    Q/RP/200/4096/9000/8:0/0/16 T/-/0/0 Q/W/40/4096/20000/8:16/1 Q/WF/48/4096 Q/RA/1000/65536 C/W/40/4096)
mk le.bin "${recs[@]}"
mk be.bin --big "${recs[@]}"
both "little-endian trace: fio's and nodemark's calls on the file agree" le.bin
want='read 4096 4096|write 8192 8192|write 0 512|sync|read 102400 4096|write 20480 4096|sync|read 512000 65536|'
check "... and are the trace's queue records, sector x 512, in order" test "$(tr '\n' '|' <last-le.bin.txt)" = "$want"
both "big-endian trace (its first magic swapped): the same calls as fio's" be.bin
check "... the same as the little-endian trace's" cmp last-le.bin.txt last-be.bin.txt

# offsets divided by replay_scale, then rounded down to replay_align; sizes rounded up to it
mk odd.bin Q/R/9/1000 Q/W/4097/4608 Q/R/77/512
both "replay_scale=3: offsets divided as fio's" odd.bin --replay_scale=3
check "... (sector 4097 x 512 / 3)" grep -qx 'write 699221 4608' last-odd.bin.txt
both "replay_align=4096: offsets down, sizes up, as fio's" odd.bin --replay_align=4096
check "... (sector 9: 4096 bytes at 4096)" grep -qx 'read 4096 4096' last-odd.bin.txt

# replay_skip: the kinds left out
both "replay_skip=write,sync: the reads alone, as fio's" le.bin --replay_skip=write,sync
check "... no write and no sync" test "$(grep -c 'write\|sync' last-le.bin.txt)" -eq 0
both "replay_skip=read: writes and syncs, as fio's" le.bin --replay_skip=read
check "... no read" test "$(grep -c read last-le.bin.txt)" -eq 0
mk trim.bin Q/R/8/4096 Q/D/64/65536 Q/R/16/4096
both "replay_skip=trim: a trace's discards left out, as fio's" trim.bin --replay_skip=trim
run_nm fio --no-save --name=x --read_iolog="$d/le.bin" --replay_redirect="$d/f.dat" --replay_skip=read,fsync --output=/dev/null
expect_refused "replay_skip=fsync is not a kind" "fsync"

# damage: one line naming the trace, exit 2 (fio reads past a cut record, crashes on the rest)
mk cut.bin Q/R/8/4096 Q/W/16/8192 --cut 10
mk ver.bin --version 6 Q/R/8/4096
mk pdu.bin Q/R/8/4096 Q/W/16/8192/3000/8:0/0/1000 --cut 500
mk one.bin Q/R/8/4096
{ cat one.bin; head -c 48 /dev/zero | tr '\0' x; } >junk.bin
head -c 20 one.bin >short.bin
for c in "cut.bin|cut short" "ver.bin|version 6" "pdu.bin|payload" "junk.bin|not a blktrace record" "short.bin|cut short"; do
    run_nm fio --no-save --name=x --read_iolog="$d/${c%%|*}" --replay_redirect="$d/f.dat" --output=/dev/null
    expect_refused "${c%%|*}: refused in one line naming the trace" "${c%%|*}: "
    expect_err_has "${c#*|}" "... which says what is wrong: ${c#*|}"
done
mk nodev.bin --dev 4095:1048575 Q/R/8/4096
run_nm fio --no-save --name=x --read_iolog="$d/nodev.bin" --output=/dev/null
expect_refused "without replay_redirect, a device not in /dev is refused" "not in /dev"

# merge_blktrace_file: fio 3.33 reads no record ("iolog short read"), leaves the file empty and
# replays the traces unmerged; nodemark refuses it
fio --name=m --ioengine=psync --read_iolog="$d/le.bin:$d/odd.bin" --merge_blktrace_file="$d/merged.bin" \
    --replay_redirect="$d/f.dat" --replay_no_stall=1 --output=/dev/null >fio-merge.txt 2>&1
check "fio 3.33's merge_blktrace_file: 'iolog short read', an empty file" \
    eval 'grep -q "iolog short read" fio-merge.txt && [ -f merged.bin ] && [ ! -s merged.bin ]'
rm -f merged.bin
run_nm fio --no-save --name=m --read_iolog="$d/le.bin:$d/odd.bin" --merge_blktrace_file="$d/merged.bin" \
    --replay_redirect="$d/f.dat" --output=/dev/null
expect_refused "merge_blktrace_file is refused" "merge_blktrace_file"
check "... and makes no file" test ! -e merged.bin

# the trace's own depth (fio 3.33's load_blktrace probe, where iodepth= is not given): libaio
# replays with the depth the records show, seen in both tools' iodepth_level (the queue's
# fill at each submission: fio fills the queue before it waits, whatever the device's pace)
depth_levels() { # TOOL TRACE [OPTION...]: TOOL's iodepth_level for a libaio replay of TRACE
    local tool=$1 trace=$2 cmd=(fio)
    shift 2
    [ "$tool" = nm ] && cmd=("$NM" fio --no-save --allow-write="$d/f.dat")
    rm -f f.dat && truncate -s 4m f.dat
    "${cmd[@]}" --name=bt --ioengine=libaio --read_iolog="$d/$trace" --replay_redirect="$d/f.dat" \
        --replay_no_stall=1 "$@" --output-format=json >"depth-$tool.json" 2>"depth-$tool.err"
    json_file "depth-$tool.json" 'sorted((k, v) for k, v in j["jobs"][0]["iodepth_level"].items() if v)'
}
same_depth() { # WHAT WANT TRACE [OPTION...]: fio's and nodemark's levels agree, and are WANT
    local what=$1 want=$2 trace=$3 f n
    shift 3
    f=$(depth_levels fio "$trace" "$@")
    n=$(depth_levels nm "$trace" "$@")
    [ "$f" = "$want" ] && [ "$n" = "$f" ] && ok "$what" || not_ok "$what" "want $want, fio: $f, nodemark: $n"
}
# 4 rounds of 8 reads queued, then their 8 completions: depth 8
recs=()
for k in 0 1 2 3; do
    for i in 0 1 2 3 4 5 6 7; do recs+=(Q/R/$(((k * 8 + i) * 8))/4096); done
    for i in 0 1 2 3 4 5 6 7; do recs+=(C/R/$(((k * 8 + i) * 8))/4096); done
done
mk d8.bin "${recs[@]}"
same_depth "a trace 8 deep: fio and nodemark replay it at depth 8 (32 reads)" \
    "[('1', 3.125), ('2', 6.25), ('4', 12.5), ('8', 78.125)]" d8.bin
# writes: 9 queued less 2 merges (7), a completion that starts the count again from 0 (fio's,
# not one off), 5 more: depth 7 (a count that ignored merges, 9, or took one off per
# completion, 11, would fill to 8); reads 2 deep
recs=()
for i in 0 1 2 3 4 5 6 7 8; do recs+=(Q/W/$((i * 8))/4096); done
recs+=(M/W/72/4096 M/W/80/4096 C/W/0/4096)
for i in 0 1 2 3 4; do recs+=(Q/W/$((200 + i * 8))/4096); done
recs+=(C/W/200/4096 Q/R/400/4096 Q/R/408/4096 C/R/400/4096)
mk d7.bin "${recs[@]}"
same_depth "merges and completions as fio counts them: writes 7 deep, the replay at depth 7" \
    "[('1', 6.25), ('2', 12.5), ('4', 81.25)]" d7.bin
# iodepth= given wins over the trace's; a trace without completions is depth 1
same_depth "iodepth=2 given: the replay at depth 2, as fio's" "[('1', 3.125), ('2', 96.875)]" d8.bin --iodepth=2
recs=()
for i in 0 1 2 3 4 5 6 7; do recs+=(Q/R/$((i * 8))/4096); done
mk nocomp.bin "${recs[@]}"
same_depth "a trace without completions: depth 1, as fio's" "[('1', 100.0)]" nocomp.bin
