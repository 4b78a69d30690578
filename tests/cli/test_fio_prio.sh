#!/usr/bin/env bash
# fio's I/O priorities: prio/prioclass set on each thread (ioprio_set, seen through strace),
# cmdprio_percentage and cmdprio_bssplit drawn per I/O (the priority column of the latency log,
# which shows what each request carried), beside real fio's own log for the same job.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
scratch_dir
if [ "$(id -u)" -ne 0 ]; then
    skip "I/O priorities" "real-time priorities need root"
    exit 0
fi
# prios FILE: "PRIO:COUNT" for each priority value in a log's last column, by value
prios() { awk -F', ' '{c[$NF]++} END {for (p in c) print p ":" c[p]}' "$1" | sort | tr '\n' ' '; }
# share FILE PRIO: the share of the log's lines with that priority
share() { awk -F', ' -v p="$2" '{n++; if ($NF == p) k++} END {printf "%.3f", n ? k / n : 0}' "$1"; }
in_range() { python3 -c 'import sys; a,lo,hi=map(float,sys.argv[1:]); sys.exit(not lo <= a <= hi)' "$@"; }
U="--filename=f --size=4m --rw=randread --ioengine=io_uring --iodepth=4 --write_lat_log=p --log_prio=1"

if [ $HAVE_STRACE = 1 ]; then
    strace_fio nm st.txt -e trace=ioprio_set -- --name=p $U --prioclass=3 --prio=2 \
        --cmdprio_percentage=30 --cmdprio_class=1 >/dev/null 2>err.txt
    if [ $rc -eq 0 ] && grep -q 'ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 2)) = 0' st.txt; then
        ok "prioclass=3 prio=2: the thread sets its priority (ioprio_set idle, 2) before its I/O"
    else not_ok "prioclass=3 prio=2 through ioprio_set" "rc=$rc $(cat st.txt err.txt | head -5)"; fi
else
    skip "ioprio_set through strace" "strace is missing"
    run_nm fio --no-save --name=p $U --prioclass=3 --prio=2 --cmdprio_percentage=30 --cmdprio_class=1
fi
got=$(prios p_clat.1.log) s=$(share p_clat.1.log 0x2000)
if [[ $got =~ ^0x2000:[0-9]+\ 0x6002:[0-9]+\ $ ]] && in_range "$s" 0.2 0.4; then
    ok "cmdprio_percentage=30 cmdprio_class=1: $s of the I/Os real-time (0x2000), the rest the thread's (0x6002)"
else not_ok "cmdprio_percentage=30" "priorities: $got (real-time share $s)"; fi

rm -f ./*.log
run_nm fio --no-save --name=p $U --bssplit=4k/50:64k/50 --cmdprio_bssplit=4k/100:64k/0 --cmdprio=3
if awk -F', ' '($4 == 4096) != ($NF == "0x2003") {bad++} END {exit bad > 0 || NR == 0}' p_clat.1.log; then
    ok "cmdprio_bssplit=4k/100:64k/0 cmdprio=3: every 4 KiB I/O at real-time level 3, no 64 KiB one"
else not_ok "cmdprio_bssplit by size" "$(prios p_clat.1.log)"; fi

rm -f ./*.log
run_nm fio --no-save --name=p $U --cmdprio_bssplit=4k/25/1/1:4k/75/3/2
got=$(prios p_clat.1.log) s=$(share p_clat.1.log 0x2001)
if [[ $got =~ ^0x2001:[0-9]+\ 0x6002:[0-9]+\ $ ]] && in_range "$s" 0.15 0.35; then
    ok "cmdprio_bssplit with a class and level per entry: $s at 0x2001, the rest 0x6002"
else not_ok "cmdprio_bssplit BS/PCT/CLASS/LEVEL" "priorities: $got"; fi

if [ $HAVE_FIO = 1 ]; then
    mkdir fio && (cd fio && fio --name=p $U --cmdprio_bssplit=4k/25/1/1:4k/75/3/2 >/dev/null 2>&1)
    fgot=$(prios fio/p_clat.1.log 2>/dev/null) fs=$(share fio/p_clat.1.log 0x2001 2>/dev/null)
    if [[ $fgot =~ ^0x2001:[0-9]+\ 0x6002:[0-9]+\ $ ]] && in_range "$fs" 0.15 0.35; then
        ok "real fio's log of the same job has the same priorities ($fs at 0x2001)"
    else not_ok "real fio's priorities" "fio: $fgot"; fi
else
    skip "priorities beside real fio" "fio is missing"
fi

run_nm fio --no-save --name=p --filename=f --size=64k --ioengine=psync --cmdprio_percentage=10
expect_rc 2 "cmdprio_percentage with psync is refused (an io_uring/libaio option, as in fio)"
one_line_error "... in one line"
run_nm fio --no-save --name=p --filename=f --size=64k --ioengine=io_uring --cmdprio_percentage=10 --cmdprio_bssplit=4k/10
expect_rc 2 "cmdprio_percentage with cmdprio_bssplit is refused (fio: one or the other)"
run_nm fio --no-save --name=p --filename=f --size=64k --ioengine=io_uring --cmdprio_bssplit=4k/60/1/0:4k/60/2/0
expect_rc 2 "cmdprio_bssplit shares of one size over 100 % are refused"
