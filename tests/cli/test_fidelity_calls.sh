#!/usr/bin/env bash
# At iodepth=1 the time between two I/Os is the device's plus the tool's own, so a tool that does
# less per I/O gets more IOPS from the same device (bench/fidelity.sh marks such cells `cost`).
# That is only "costs less" if nodemark asks the kernel for the same I/O as fio: the file opened
# O_DIRECT, each I/O submitted in its own io_uring_enter, at most one more call to wait for it,
# no other system call per I/O, the same bytes. Checked through strace (the calls, never their
# times), on two sizes so that what a run does once (setup) drops out of the per-I/O counts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "system calls per I/O at iodepth=1"
scratch_dir
head -c $((8 << 20)) /dev/urandom >"$d/file"

# traced TOOL MiB [RW DEPTH]: an O_DIRECT 4k random read (RW, default randread) of MiB at
# iodepth DEPTH (default 1) under strace; prints "ios bytes submits waits enters others direct
# registered single": the I/Os and bytes of its JSON; of the thread
# that does the I/O, the io_uring_enter calls that submit (to_submit > 0), that only wait
# (to_submit 0, min_complete > 0), all of them, and its other system calls; whether the file was
# opened O_DIRECT (by any thread); whether the ring's fd is registered; the submitting calls
# that carry one I/O and ask for events without waiting (to_submit 1, min_complete 0, GETEVENTS)
traced() {
    local tool=$1 mib=$2 rw=${3:-randread} depth=${4:-1} log=$d/strace.$1.$2${3:+.$3}
    local a=(--name=c --ioengine=io_uring --filename="$d/file" --size="${mib}m" --direct=1 --rw="$rw"
        --bs=4k --iodepth="$depth" --output-format=json)
    [ "$tool" = nm ] && [ "$rw" != randread ] && a+=(--allow-write="$d/file")
    strace_fio "$tool" "$log" -e signal=none -- "${a[@]}" >"$d/out.json" 2>"$d/err"
    # a call another thread interrupted is split in two lines: count its first ("unfinished")
    grep -v 'resumed>' "$log" | python3 -c '
import collections, json, re, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
j = j["read"] if j["read"]["total_ios"] else j["write"]
calls = []
for line in sys.stdin:
    m = re.match(r"(\d+) +([a-z_0-9]+)\((.*)", line)
    if m:
        calls.append(m.groups())
# the I/O thread: the one that makes the io_uring_enter calls
io = collections.Counter(p for p, n, _ in calls if n == "io_uring_enter").most_common(1)
io = io[0][0] if io else None
sub = wait = enters = others = direct = registered = single = 0
reg_ok = any(n == "io_uring_register" and "IORING_REGISTER_RING_FDS" in a and a.rstrip().endswith("= 1")
             for _, n, a in calls)
for pid, name, args in calls:
    if name in ("open", "openat") and sys.argv[2] in args and "O_DIRECT" in args:
        direct = 1
    if pid != io:
        continue
    if name == "io_uring_enter":
        enters += 1
        registered += "IORING_ENTER_REGISTERED_RING" in args
        f = [x.strip() for x in args.split(",")]
        if int(f[1]) > 0: sub += 1
        elif int(f[2]) > 0: wait += 1
        if int(f[1]) == 1 and int(f[2]) == 0 and "IORING_ENTER_GETEVENTS" in f[3]: single += 1
    else:
        others += 1
# the ring fd registered: every call passes IORING_ENTER_REGISTERED_RING (-1: not registered)
print(j["total_ios"], j["io_bytes"], sub, wait, enters, others, direct,
      (1 if registered == enters else 0) if reg_ok else -1, single)' "$d/out.json" "$d/file"
}

read -r ios4 bytes4 sub4 wait4 ent4 oth4 dir4 _ < <(traced nm 4)
read -r ios8 bytes8 sub8 wait8 ent8 oth8 dir8 reg8 _ < <(traced nm 8)
if [ -z "${ios8:-}" ] || [ "$ios8" -ne 2048 ] || [ "$bytes8" -ne $((8 << 20)) ] || [ "${ios4:-0}" -ne 1024 ]; then
    not_ok "nodemark fio: the QD1 O_DIRECT runs do 1024 and 2048 I/Os of 4 KiB" "got ${ios4:-?} and ${ios8:-?} I/Os, ${bytes8:-?} bytes: $(head -3 "$d/err")"
    exit 0
fi
[ "$dir8" = 1 ] && ok "nodemark fio: the file is opened O_DIRECT" || not_ok "nodemark fio: the file is opened O_DIRECT"
[ "$sub8" -eq "$ios8" ] && [ "$sub4" -eq "$ios4" ] &&
    ok "nodemark fio: each I/O is submitted in its own io_uring_enter ($sub8 calls for $ios8 I/Os)" ||
    not_ok "nodemark fio: each I/O is submitted in its own io_uring_enter" "$sub4 for $ios4, $sub8 for $ios8"
[ "$wait8" -le "$ios8" ] && [ "$ent8" -le $((2 * ios8)) ] &&
    ok "nodemark fio: at most one more call per I/O waits for it ($wait8 waits, $ent8 io_uring_enter for $ios8 I/Os)" ||
    not_ok "nodemark fio: at most one more call per I/O waits for it" "$wait8 waits, $ent8 calls for $ios8 I/Os"
# a registered ring fd spares each call the lookup of the fd (kernel 5.18+)
case $reg8 in
1) ok "nodemark fio: the ring's fd is registered, every io_uring_enter passes IORING_ENTER_REGISTERED_RING" ;;
-1) skip "the ring's fd is registered" "this kernel refuses IORING_REGISTER_RING_FDS (before 5.18)" ;;
*) not_ok "nodemark fio: every io_uring_enter passes IORING_ENTER_REGISTERED_RING" "$(grep -m3 io_uring_enter "$d/strace.nm.8")" ;;
esac
# per I/O: what the 1024 more I/Os of the bigger run added
nm_other=$((oth8 - oth4)) nm_enter=$((ent8 - ent4))
[ "$nm_other" -le 8 ] && ok "nodemark fio: no system call but io_uring_enter per I/O ($nm_other more for 1024 more I/Os)" ||
    not_ok "nodemark fio: no system call but io_uring_enter per I/O" "$nm_other other calls for 1024 more I/Os"

require_fio
read -r fios4 _ fsub4 _ fent4 foth4 _ _ < <(traced fio 4)
read -r fios8 fbytes8 fsub8 fwait8 fent8 foth8 fdir8 _ < <(traced fio 8)
[ "${fios8:-0}" -eq "$ios8" ] && [ "${fbytes8:-0}" -eq "$bytes8" ] && [ "$fdir8" = 1 ] &&
    ok "fio: the same I/O ($fios8 I/Os, $fbytes8 bytes, O_DIRECT)" ||
    not_ok "fio: the same I/O" "fio ${fios8:-?} I/Os, ${fbytes8:-?} bytes, direct ${fdir8:-?}; nodemark $ios8, $bytes8"
[ "$fsub8" -eq "$fios8" ] && [ "$fsub4" -eq "$fios4" ] &&
    ok "fio: submits each I/O in its own io_uring_enter too" ||
    not_ok "fio: submits each I/O in its own io_uring_enter too" "$fsub4 for $fios4, $fsub8 for $fios8"
fio_other=$((foth8 - foth4)) fio_enter=$((fent8 - fent4))
[ "$fwait8" -le "$fios8" ] && ok "fio: at most one more call per I/O waits for it ($fwait8 waits for $fios8 I/Os)" ||
    not_ok "fio: at most one more call per I/O waits for it" "$fwait8 waits for $fios8 I/Os"
# How many waits a run needs depends on when the device answers (an I/O done before its
# submitting call returns needs none; a tool that reaches the wait sooner waits more often), so
# the waits are bounded above, not compared; what is compared is the I/O thread's calls besides io_uring_enter
if [ "$nm_other" -le $((fio_other + 8)) ]; then
    ok "nodemark fio makes no more other calls per I/O than fio (per 1024 more I/Os: $nm_other vs $fio_other; io_uring_enter $nm_enter vs $fio_enter)"
else
    not_ok "nodemark fio makes no more other calls per I/O than fio" "per 1024 more I/Os: $nm_other vs fio's $fio_other"
fi

# The low tail of completion latency (clat p1) at a deep queue: an I/O that completes before the
# call that submitted it returns has almost no clat in either tool, since both stamp its issue
# time when that call returns (fio's io_uring commit). How often that happens depends on how the
# I/Os are submitted and reaped, so both tools must make the same calls for the same job: at
# iodepth 32, each I/O in its own io_uring_enter that asks for events with a minimum of 0 (no
# wait inside the submitting call: the completion is taken by a later reap). bench/fidelity.sh
# prints the p1 ratio beside fio's.
read -r qios _ qsub _ _ _ _ _ qsingle < <(traced nm 4 randwrite 32)
read -r fqios _ fqsub _ _ _ _ _ fqsingle < <(traced fio 4 randwrite 32)
if [ "${qios:-0}" -eq 1024 ] && [ "${fqios:-0}" -eq 1024 ] && [ "$qsub" -eq "$qios" ] && [ "$fqsub" -eq "$fqios" ] &&
    [ "$qsingle" -eq "$qsub" ] && [ "$fqsingle" -eq "$fqsub" ]; then
    ok "iodepth 32 randwrite: both tools submit each I/O alone, asking for events without waiting ($qsingle and $fqsingle such calls for 1024 I/Os)"
else
    not_ok "iodepth 32 randwrite: both tools submit each I/O alone, asking for events without waiting" \
        "nodemark ${qios:-?} I/Os, ${qsub:-?} submits, ${qsingle:-?} of them single; fio ${fqios:-?}, ${fqsub:-?}, ${fqsingle:-?}"
fi
