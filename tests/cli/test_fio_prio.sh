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

# --- per-priority figures: fio's "prios" in the JSON and "prio" lines in the normal output ----------
# fio 3.33 (stat.c) lists each priority with I/Os once two or more have some: prioclass, prio and
# clat_ns (lat_ns with lat_percentiles), in its order (the thread's own first, then the shares'),
# and "clat prio C/L" lines in the normal output. A size-driven share draws as fio's (bssplit's
# sizes come from fio's generator), so the counts per priority are fio's to the I/O; so are a
# group's, whose jobs run at different priorities.
# prios_of TOOL DIR ARGS...: each direction's JSON keys, its prios (class, level, N, keys)
prios_of() {
    local tool=$1 dir=$2; shift 2
    mkdir -p "$dir"
    if [ "$tool" = fio ]; then (cd "$dir" && fio --output-format=json "$@" >o.json 2>/dev/null)
    else (cd "$dir" && "$NM" fio --no-save --output-format=json "$@" >o.json 2>/dev/null); fi
    python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
for d in ("read", "write"):
    x = j[d]
    print(d, x["total_ios"], [k for k in x if "bw" not in k and "iops" not in k],
          [(p["prioclass"], p["prio"], {k: (v["N"], sorted(v)) for k, v in p.items() if k.endswith("_ns")}) for p in x.get("prios", [])])' "$dir/o.json"
}
P="--name=p --filename=f --size=4m --rw=randread --ioengine=io_uring --iodepth=4 --bssplit=4k/50:64k/50 --cmdprio_bssplit=4k/100:64k/0 --cmdprio=3"
nm_p=$(prios_of nm pn $P)
check "cmdprio_bssplit by size: read's prios, the thread's 0/0 then 1/3, each with clat_ns and its percentiles" \
    eval '[[ $nm_p == *"[(0, 0, {'"'"'clat_ns'"'"': ("*"(1, 3, {'"'"'clat_ns'"'"': ("*"percentile"* ]]'
nm_l=$(prios_of nm pnl $P --lat_percentiles=1)
check "lat_percentiles=1: the prios carry lat_ns instead" eval '[[ $nm_l == *"(1, 3, {'"'"'lat_ns'"'"'"* ]]'
printf '[global]\nfilename=f\nsize=1m\nrw=randwrite\nioengine=psync\ngroup_reporting\nprioclass=2\n[a]\nprio=1\n[b]\nprio=5\nnumjobs=2\n' >grp.fio
nm_g=$(prios_of nm gn "$PWD/grp.fio")
check "a group of jobs at best-effort 1 and 5: prios 2/1 (256 I/Os) and 2/5 (512)" \
    eval '[[ $nm_g == *"[(2, 1, {'"'"'clat_ns'"'"': (256, "*"(2, 5, {'"'"'clat_ns'"'"': (512, "* ]]'
nm_1=$(prios_of nm p1n --name=p --filename=f --size=1m --rw=randread --ioengine=io_uring --prioclass=2 --prio=4)
check "one priority: no prios (fio shows them from two on)" eval '[[ $nm_1 == *"read 256 "*"] []"* ]]'
if [ $HAVE_FIO = 1 ]; then
    for c in p l g 1; do
        case $c in
        p) a=$nm_p b=$(prios_of fio pf $P) ;;
        l) a=$nm_l b=$(prios_of fio pfl $P --lat_percentiles=1) ;;
        g) a=$nm_g b=$(prios_of fio gf "$PWD/grp.fio") ;;
        1) a=$nm_1 b=$(prios_of fio p1f --name=p --filename=f --size=1m --rw=randread --ioengine=io_uring --prioclass=2 --prio=4) ;;
        esac
        if [ "$a" = "$b" ]; then ok "case $c: the same JSON keys, prios and I/Os per priority as real fio's"
        else not_ok "case $c: prios beside real fio" "fio: $b"$'\n'"    nodemark: $a"; fi
    done
    # the normal output's prio lines, units and figures aside
    plines() { grep -E 'prio [0-9]/[0-9]' | sed -E 's/ \((usec|nsec|msec)\).*//'; }
    nl=$(cd pn && "$NM" fio --no-save $P | plines) fl=$(cd pf && fio $P | plines)
    if [ -n "$nl" ] && [ "$nl" = "$fl" ]; then ok "the normal output's prio lines are fio's: $(echo $nl)"
    else not_ok "prio lines beside real fio" "fio: $(echo $fl) nodemark: $(echo $nl)"; fi
else
    skip "per-priority figures beside real fio" "fio is missing"
fi

run_nm fio --no-save --name=p --filename=f --size=64k --ioengine=psync --cmdprio_percentage=10
expect_rc 2 "cmdprio_percentage with psync is refused (an io_uring/libaio option, as in fio)"
one_line_error "... in one line"
run_nm fio --no-save --name=p --filename=f --size=64k --ioengine=io_uring --cmdprio_percentage=10 --cmdprio_bssplit=4k/10
expect_rc 2 "cmdprio_percentage with cmdprio_bssplit is refused (fio: one or the other)"
run_nm fio --no-save --name=p --filename=f --size=64k --ioengine=io_uring --cmdprio_bssplit=4k/60/1/0:4k/60/2/0
expect_rc 2 "cmdprio_bssplit shares of one size over 100 % are refused"
