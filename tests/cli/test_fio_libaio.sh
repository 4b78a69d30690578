#!/usr/bin/env bash
# ioengine=libaio is Linux AIO, as in fio, not io_uring: every I/O goes to the kernel through
# io_submit and comes back through io_getevents. On a buffered file the kernel does the whole
# I/O inside io_submit (the page-cache copy, and the device read on a miss), so an I/O is
# already complete when io_submit returns: at most one is ever in flight in the kernel, whatever
# the iodepth, which is why fio's buffered libaio jobs run at about QD1's rate. Checked through
# strace (the calls and what they return, never their times), beside real fio on the same job.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "the system calls of ioengine=libaio"
scratch_dir
head -c $((4 << 20)) /dev/urandom >"$d/file"

# calls LOG: "ios submits iocbs reaps all_done uring direct" from an strace of io_submit,
# io_getevents, io_uring_setup/enter and openat: the I/Os of the JSON in $d/out.json, the
# io_submit calls and the iocbs they took, the io_getevents calls, whether every io_getevents
# found done everything submitted before it (1: each I/O completed inside its io_submit), the
# io_uring calls, whether the file was opened O_DIRECT
calls() {
    python3 -c '
import json, re, sys
j = json.load(open(sys.argv[2]))["jobs"][0]
ios = j["read"]["total_ios"] + j["write"]["total_ios"]
submits = iocbs = reaps = uring = direct = 0
all_done = 1
out = 0
for line in open(sys.argv[1]):
    # a call another thread interrupted is split: its arguments on the "unfinished" line,
    # its result on the "resumed" one
    u = re.match(r"\d+ +openat\((.*)<unfinished", line)
    if u and sys.argv[3] in u.group(1) and "O_DIRECT" in u.group(1):
        direct = 1
    m = re.match(r"\d+ +([a-z_0-9]+)\((.*)\) += (-?\d+)", line) or \
        re.match(r"\d+ +<\.\.\. ([a-z_0-9]+) resumed>(.*)\) += (-?\d+)", line)
    if not m:
        continue
    name, args, ret = m.group(1), m.group(2), int(m.group(3))
    if name == "io_submit" and ret > 0:
        submits += 1
        iocbs += ret
        out += ret
    elif name == "io_getevents" and ret >= 0:
        reaps += 1
        all_done &= ret == out
        out -= ret
    elif name.startswith("io_uring"):
        uring += 1
    elif name == "openat" and sys.argv[3] in args and "O_DIRECT" in args:
        direct = 1
print(ios, submits, iocbs, reaps, all_done, uring, direct)' "$1" "$d/out.json" "$d/file"
}

# (That every wait finds all it was given done is the kernel's rule for buffered AIO; under
# strace's slowdown an O_DIRECT run can look the same, so the engine itself is checked by its
# calls: io_submit per I/O, no io_uring.)
# job TOOL LOG DIRECT: a 1 MiB 4k random read at iodepth 16 through TOOL under strace; the
# whole of what a wait finds is taken (iodepth_batch_complete_max=16), so a wait after 16
# buffered submissions takes all 16
job() {
    local a=(--name=a --ioengine=libaio --filename="$d/file" --rw=randread --bs=4k --size=1m --iodepth=16
        --iodepth_batch_complete_max=16 --direct="$3" --output-format=json)
    strace_fio "$1" "$2" -e trace=io_submit,io_getevents,io_uring_setup,io_uring_enter,openat -- "${a[@]}" \
        >"$d/out.json" 2>"$d/err"
    sed -i -n '/^{/,$p' "$d/out.json" # the JSON, after any note fio prints first
}

job nm "$d/st.nm" 0
if [ "$rc" -ne 0 ] && grep -q "not available" "$d/err"; then
    skip "ioengine=libaio" "the kernel's AIO is off here: $(head -1 "$d/err")"
    exit 0
fi
read -r ios sub iocbs reaps done uring direct < <(calls "$d/st.nm")
[ "$rc" = 0 ] && [ "${ios:-0}" = 256 ] && [ "$sub" = 256 ] && [ "$iocbs" = 256 ] && [ "$uring" = 0 ] &&
    ok "buffered libaio: each of the 256 I/Os is one io_submit, no io_uring" ||
    not_ok "buffered libaio: one io_submit per I/O, no io_uring" \
        "rc $rc, ios ${ios:-?}, io_submit ${sub:-?} (${iocbs:-?} iocbs), io_uring calls ${uring:-?}: $(head -c 300 "$d/err")"
[ "${done:-0}" = 1 ] && [ "${reaps:-0}" -gt 0 ] && [ "$direct" = 0 ] &&
    ok "buffered libaio: each I/O is complete when its io_submit returns (every wait finds all of them done)" ||
    not_ok "buffered libaio: I/Os complete inside io_submit" "all done ${done:-?} over ${reaps:-?} waits, O_DIRECT ${direct:-?}"
nm_counts="$sub $iocbs"

if [ "$HAVE_FIO" = 1 ]; then
    job fio "$d/st.fio" 0
    read -r fios fsub fiocbs freaps fdone _ _ < <(calls "$d/st.fio")
    [ "$rc" = 0 ] && [ "$fsub $fiocbs" = "$nm_counts" ] && [ "$fios" = "$ios" ] && [ "$fdone" = 1 ] &&
        ok "buffered libaio: fio 3.33 makes the same io_submit calls for the same I/Os, also all done inside them" ||
        not_ok "buffered libaio: the same calls as fio" \
            "fio: rc $rc, ios ${fios:-?}, io_submit ${fsub:-?} (${fiocbs:-?}), all done ${fdone:-?}; nodemark: $ios, $nm_counts"
else
    not_ok "fio is installed (scripts/deps.sh installs it)"
fi

# O_DIRECT: the same calls, the file opened O_DIRECT (the I/Os go to the device queued)
job nm "$d/st.nmd" 1
if [ "$rc" -ne 0 ] && grep -q "O_DIRECT" "$d/err"; then
    skip "libaio with O_DIRECT" "$(head -1 "$d/err")"
else
    read -r ios sub iocbs _ _ uring direct < <(calls "$d/st.nmd")
    [ "$rc" = 0 ] && [ "${ios:-0}" = 256 ] && [ "$sub" = 256 ] && [ "$uring" = 0 ] && [ "$direct" = 1 ] &&
        ok "libaio with direct=1: the file opened O_DIRECT, one io_submit per I/O" ||
        not_ok "libaio with direct=1" "rc $rc, ios ${ios:-?}, io_submit ${sub:-?}, io_uring ${uring:-?}, O_DIRECT ${direct:-?}"
fi

# io_uring stays io_uring: no AIO call
strace_fio nm "$d/st.u" -e trace=io_submit,io_uring_setup -- --name=u --ioengine=io_uring --filename="$d/file" \
    --rw=randread --bs=4k --size=64k --iodepth=4 --output-format=json >/dev/null 2>&1
[ "$rc" = 0 ] && ! grep -q io_submit "$d/st.u" && grep -q io_uring_setup "$d/st.u" &&
    ok "ioengine=io_uring makes no io_submit" || not_ok "ioengine=io_uring makes no io_submit" "rc $rc: $(head -3 "$d/st.u")"

# fio's libaio option nowait: RWF_NOWAIT on each iocb (the pages cached, so no read would block)
cat "$d/file" >/dev/null
strace_fio nm "$d/st.w" -v -e trace=io_submit -- --name=w --ioengine=libaio --filename="$d/file" --rw=read \
    --bs=4k --size=16k --nowait=1 --invalidate=0 --output-format=json >/dev/null 2>&1
n=$(grep -c 'aio_rw_flags=RWF_NOWAIT' "$d/st.w")
[ "$rc" = 0 ] && [ "$n" = 4 ] && ok "nowait=1: each iocb carries RWF_NOWAIT" ||
    not_ok "nowait=1: each iocb carries RWF_NOWAIT" "rc $rc, $n of 4: $(head -2 "$d/st.w")"

# cmdprio: the priority in each iocb, as fio's libaio puts it there
strace_fio nm "$d/st.p" -v -e trace=io_submit -- --name=p --ioengine=libaio --filename="$d/file" --rw=read \
    --bs=4k --size=16k --cmdprio_percentage=100 --cmdprio_class=2 --cmdprio=3 --output-format=json >/dev/null 2>&1
n=$(grep -c 'aio_reqprio=IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 3).*IOCB_FLAG_IOPRIO' "$d/st.p")
[ "$rc" = 0 ] && [ "$n" = 4 ] && ok "cmdprio: each iocb carries the priority (IOCB_FLAG_IOPRIO)" ||
    not_ok "cmdprio: each iocb carries the priority" "rc $rc, $n of 4: $(head -2 "$d/st.p")"
