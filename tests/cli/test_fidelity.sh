#!/usr/bin/env bash
# The engine tells the kernel what fio tells it, through every front end (disk and fio):
# each pass drops the file's page cache (fio's invalidate=1) and hints the access pattern
# (fadvise_hint=1); a block device is a device whatever its path (a /dev/loopN is opened
# O_DIRECT when asked, never called memory-backed) and a second buffered pass of it reads
# from the device. Mechanisms, checked through what the process calls (tests/shim/iotrace.c)
# and what the device counts (/sys/block/loopN/stat), never through timings.
. "$(dirname "$0")/lib.sh"
SHIM=${SHIM_DIR:?}/iotrace.so
scratch_dir
loop=""
at_exit '[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null'
log=$d/trace.log
traced() { : >"$log"; NM_IOTRACE=$log LD_PRELOAD=$SHIM run_nm "$@"; }
# count LINE-REGEX: lines of the trace that match
count() { grep -cE -- "$1" "$log"; }
# what the trace says about the measured files (for failure messages)
trace() { grep -E "^(fadvise|ioctl) |^open ($d/dir/|/dev/loop)" "$log" | head -20; }

# --- a file in a directory: hints and one drop per pass --------------------------------
mkdir "$d/dir"
traced fio --no-save --name=r --directory="$d/dir" --rw=randread --bs=4k --size=256k --loops=3
expect_rc 0 "fio: a random buffered job runs"
if [ "$(count "^fadvise $d/dir/.* random ")" -ge 1 ]; then ok "fio: a random job's file gets POSIX_FADV_RANDOM"
else not_ok "fio: a random job's file gets POSIX_FADV_RANDOM" "$(trace)"; fi
n=$(count "^fadvise $d/dir/.* dontneed ")
[ "$n" -eq 3 ] && ok "fio: loops=3 drops the page cache at each of the 3 passes" ||
    not_ok "fio: loops=3 drops the page cache at each of the 3 passes" "$n drops: $(cat "$log")"

traced fio --no-save --name=k --directory="$d/dir" --rw=randread --bs=4k --size=256k --loops=3 --invalidate=0
n=$(count "^fadvise $d/dir/.* dontneed ")
[ "$n" -eq 0 ] && ok "fio: invalidate=0 keeps the page cache (no drop in 3 passes)" ||
    not_ok "fio: invalidate=0 keeps the page cache (no drop in 3 passes)" "$n drops: $(trace)"

traced fio --no-save --name=s --directory="$d/dir" --rw=read --bs=64k --size=256k
if [ "$(count "^fadvise $d/dir/.* sequential ")" -ge 1 ] && [ "$(count "^fadvise $d/dir/.* random ")" -eq 0 ]; then
    ok "fio: a sequential job's file gets POSIX_FADV_SEQUENTIAL"
else not_ok "fio: a sequential job's file gets POSIX_FADV_SEQUENTIAL" "$(trace)"; fi

# time-based: every wrap over the 64 KiB file is a new pass, with its drop
traced disk "$d/dir" --rw randread --bs 4k --size 64k --runtime 300ms --buffered --no-save --json
expect_rc 0 "disk: a time-based buffered job runs"
n=$(count "^fadvise $d/dir/.* dontneed ")
ios=$(json_get 'j["tests"][0]["total"]["io_bytes"] // 4096' 2>/dev/null || echo 0)
# a drop at the open, one per wrap (16 I/Os a pass) that another I/O followed; the
# discarded preparing pass of disk is not part of a custom job
if [ "$n" -ge 2 ] && [ "$ios" -gt 16 ]; then ok "disk: time-based wraps drop the page cache again ($n drops, $ios I/Os)"
else not_ok "disk: time-based wraps drop the page cache again" "$n drops, $ios I/Os: $(head -5 "$log")"; fi
[ "$(count "^fadvise $d/dir/.* random ")" -ge 1 ] && ok "disk: the random hint reaches the disk front end too" ||
    not_ok "disk: the random hint reaches the disk front end too" "$(trace)"

# --- a loop block device ---------------------------------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
    skip "loop-device checks (O_DIRECT open, a second buffered pass read from the device)" "need root and losetup"
    exit 0
fi
truncate -s 64M "$d/backing"
loop=$(losetup -f --show "$d/backing" 2>/dev/null) || loop=""
if [ -z "$loop" ]; then
    skip "loop-device checks (O_DIRECT open, a second buffered pass read from the device)" "losetup cannot attach a loop device here"
    exit 0
fi
name=$(basename "$loop")
traced fio --no-save --name=l --filename="$loop" --rw=randread --bs=4k --size=1m --direct=1
expect_rc 0 "fio: O_DIRECT on $loop runs"
[ "$(count "^open $loop direct=1 ")" -ge 1 ] && ok "fio: $loop is opened O_DIRECT" ||
    not_ok "fio: $loop is opened O_DIRECT" "$(trace)"
traced disk "$loop" --rw randread --bs 4k --size 1m --runtime 200ms --no-save
expect_rc 0 "disk: $loop with direct left to auto runs"
[ "$(count "^open $loop direct=1 ")" -ge 1 ] && ok "disk: auto opens $loop O_DIRECT (a device, not memory)" ||
    not_ok "disk: auto opens $loop O_DIRECT" "$(trace)"
if grep -qi "memory-backed" <<<"$out$err"; then not_ok "disk: $loop is not called memory-backed" "$out$err"
else ok "disk: $loop is not called memory-backed"; fi

# two buffered passes over 8 MiB: 2 x 8 MiB read from the device, none from the cache
sectors() { awk '{print $3}' "/sys/block/$name/stat"; }
r0=$(sectors)
run_nm fio --no-save --name=b --filename="$loop" --rw=randread --bs=4k --size=8m --loops=2
r1=$(sectors)
expect_rc 0 "fio: buffered loops=2 on $loop runs"
got=$(( (r1 - r0) * 512 ))
[ "$got" -ge $((16 << 20)) ] && ok "fio: the second buffered pass reads from the device ($got bytes)" ||
    not_ok "fio: the second buffered pass reads from the device" "$got bytes read from $loop, expected >= 16 MiB"
