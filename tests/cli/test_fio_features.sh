#!/usr/bin/env bash
# fio's engine features in nodemark fio, each checked by its mechanism through what the process
# asks of the kernel (strace: the offset and length of every pread), next to real fio on the same
# job where fio is installed: random_distribution's skew and zones.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "fio features through strace"
scratch_dir
# traced TOOL LOG ARGS...: TOOL (nm or fio) under strace, its preads and pwrites in LOG
traced() {
    local tool=$1 log=$2
    shift 2
    rm -f f
    strace_fio "$tool" "$log" -e trace=pread64,pwrite64 -e signal=none -y -s0 -- --output-format=json "$@" >out.json 2>err.txt
}
# zones LOG FILESIZE CUT%...: the share of 4 KiB reads in each slice [previous cut, cut)
zones() {
    python3 - "$@" <<'PY'
import re, sys
size, cuts = int(sys.argv[2]), [float(c) for c in sys.argv[3:]]
offs = [int(o) for o in re.findall(r'pread64\(\d+</[^>]*/f>, .*?, 4096, (\d+)\)', open(sys.argv[1]).read())]
prev, out = 0, []
for c in cuts:
    out.append(sum(prev * size / 100 <= o < c * size / 100 for o in offs) / max(len(offs), 1))
    prev = c
print(len(offs), *("%.3f" % x for x in out))
PY
}
# hottest LOG NBLOCKS: the share of 4 KiB reads on the hottest 1 % and 10 % of the blocks
hottest() {
    python3 - "$@" <<'PY'
import collections, re, sys
nb = int(sys.argv[2])
offs = re.findall(r'pread64\(\d+</[^>]*/f>, .*?, 4096, (\d+)\)', open(sys.argv[1]).read())
c = sorted(collections.Counter(offs).values(), reverse=True)
print(len(offs), *("%.3f" % (sum(c[:max(1, int(nb * p))]) / max(len(offs), 1)) for p in (0.01, 0.1)))
PY
}
# near A B TOL: |A - B| <= TOL
near() { python3 -c 'import sys; a,b,t=map(float,sys.argv[1:]); sys.exit(abs(a-b)>t)' "$1" "$2" "$3"; }

# --- random_distribution --------------------------------------------------------------------
R="--name=z --filename=f --size=4m --rw=randread --norandommap --ioengine=psync"
traced nm nm.log $R --random_distribution=zoned:50/5:30/15:20/
expect_rc 0 "zoned distribution runs"
read -r n z1 z2 z3 <<<"$(zones nm.log 4194304 5 20 100)"
if [ "$n" -eq 1024 ] && near "$z1" 0.5 0.05 && near "$z2" 0.3 0.05 && near "$z3" 0.2 0.05; then
    ok "zoned:50/5:30/15:20/: 50 % of the reads in the first 5 %, 30 % in the next 15 % ($z1 $z2 $z3)"
else not_ok "zoned:50/5:30/15:20/ puts each share in its slice" "$n reads: $z1 $z2 $z3"; fi
if [ $HAVE_FIO = 1 ]; then
    traced fio fio.log $R --random_distribution=zoned:50/5:30/15:20/
    read -r fn f1 f2 f3 <<<"$(zones fio.log 4194304 5 20 100)"
    if near "$z1" "$f1" 0.05 && near "$z2" "$f2" 0.05 && near "$z3" "$f3" 0.05; then
        ok "zoned: the same shares as fio's ($f1 $f2 $f3)"
    else not_ok "zoned: the same shares as fio's" "fio $f1 $f2 $f3, nodemark $z1 $z2 $z3"; fi
fi
# zipf and pareto: 16 passes over 1024 blocks, the hottest blocks' share of the reads
for dist in zipf:1.2 pareto:0.2 normal; do
    traced nm nm.log $R --loops=16 --random_distribution=$dist
    read -r n h1 h10 <<<"$(hottest nm.log 1024)"
    if [ "$rc" -ne 0 ] || [ "$n" -ne 16384 ] || ! python3 -c "import sys; sys.exit(not $h10 > 0.3)"; then
        not_ok "$dist: skewed reads" "rc $rc, $n reads, hottest 10 %: $h10"
        continue
    fi
    if [ $HAVE_FIO = 1 ]; then
        traced fio fio.log $R --loops=16 --random_distribution=$dist
        read -r fn g1 g10 <<<"$(hottest fio.log 1024)"
        if near "$h1" "$g1" 0.03 && near "$h10" "$g10" 0.03; then
            ok "$dist: the hottest 1 % and 10 % of the blocks get fio's share of the reads ($h1 $h10 vs $g1 $g10)"
        else not_ok "$dist: as skewed as fio" "hottest 1 %, 10 %: fio $g1 $g10, nodemark $h1 $h10"; fi
    else
        ok "$dist: the hottest 10 % of the blocks get $h10 of the reads"
    fi
done
traced nm nm.log $R --random_distribution=zipf:1.2:0.5
top=$(python3 -c '
import collections, re, sys
offs = re.findall(r"pread64\(\d+</[^>]*/f>, .*?, 4096, (\d+)\)", open(sys.argv[1]).read())
print(collections.Counter(offs).most_common(1)[0][0])' nm.log)
[ "$top" = 2097152 ] && ok "zipf:1.2:0.5: the hottest block is the middle one (as fio's center)" ||
    not_ok "zipf:1.2:0.5 puts the hottest block in the middle" "hottest at offset $top"

for bad in zipf:1 pareto:1.5 normal:100 zoned:50/5:30/15 zoned_abs:50/1m:50/3m sequence:1,2; do
    run_nm fio --no-save --parse-only $R --random_distribution=$bad
    expect_refused "random_distribution=$bad: refused in one line"
done

# --- bssplit, bsrange, blockalign -------------------------------------------------------------
# sizes LOG CALL ALIGN [MOST]: "SIZE=SHARE,..." of the CALL (pread64, pwrite64) lengths on f (of
# at most MOST bytes: not the writes that lay the file out), by size; then the number of calls,
# and "aligned"/"misaligned" for offsets against ALIGN, "fits"/"past" the 4 MiB
sizes() {
    python3 - "$@" <<'PY'
import collections, re, sys
log, call, align = sys.argv[1], sys.argv[2], int(sys.argv[3])
most = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 40
ios = [(int(n), int(o)) for n, o in re.findall(call + r'\(\d+</[^>]*/f>, .*?, (\d+), (\d+)\)', open(log).read()) if int(n) <= most]
c = collections.Counter(n for n, _ in ios)
print(",".join("%d=%.3f" % (k, c[k] / len(ios)) for k in sorted(c)), len(ios),
      "aligned" if all(o % align == 0 for _, o in ios) else "misaligned",
      "fits" if all(o + n <= 4 << 20 for n, o in ios) else "past")
PY
}
# shares_near A B TOL: two "SIZE=SHARE,..." lists with the same sizes, shares within TOL
shares_near() {
    python3 - "$@" <<'PY'
import sys
a, b = (dict((int(k), float(v)) for k, v in (p.split("=") for p in s.split(","))) for s in sys.argv[1:3])
sys.exit(not (a.keys() == b.keys() and all(abs(a[k] - b[k]) <= float(sys.argv[3]) for k in a)))
PY
}
B="--name=b --filename=f --size=4m --ioengine=psync"
# each case: the alignment every offset must have, the expected mix, then the job's options
# (random cases without fio's random map, which trims I/Os to fit between used blocks). With
# randrepeat=0 the 16 loops draw 16 times as many sizes: with fio's default each loop starts
# its size draws over, as fio's, and one pass's few hundred draws are its own mix
for case in "4096 4096=.5,16384=.3,65536=.2 --rw=randread --norandommap --bssplit=4k/50:16k/30:64k/20" \
    "512 512=.1,4096=.6,8192=.15,32768=.15 --rw=read --bssplit=512/10:4k/60:8k/:32k/" \
    "4096 4096=.25,8192=.25,12288=.25,16384=.25 --rw=randread --norandommap --bsrange=4k-16k" \
    "65536 4096=.4,65536=.6 --rw=randread --bssplit=4k/40:64k/60 --blockalign=64k"; do
    read -r align want args <<<"$case"
    traced nm nm.log $B --loops=16 --randrepeat=0 $args
    read -r nm_sh nm_n nm_al nm_fit <<<"$(sizes nm.log pread64 "$align")"
    # with the random map a pass's last I/Os are the sizes that fit what is left, as fio's: the
    # mix leans to the small size there (16 passes of 4 MiB, ~3600 draws, a binomial spread of
    # 0.8 points and a pass's last I/O the size that fits what is left: 4k at 53.1% of a 50% mix
    # once under ASan). blockalign turns the map off, as fio's (io/randmap.c): no lean, 16 loops
    # of ~110 reads, a binomial spread of 1.2 points (nodemark's own offsets read 44-47% of 4k)
    tol=0.04
    [[ $args == *blockalign* ]] && tol=0.05
    if [ "$rc" -ne 0 ] || [ "$nm_al" != aligned ] || [ "$nm_fit" != fits ] || ! shares_near "$nm_sh" "$want" $tol; then
        not_ok "$args: the mix asked for, every read aligned and inside the file" "rc $rc, $nm_n reads: $nm_sh $nm_al $nm_fit"
        continue
    fi
    if [ $HAVE_FIO = 1 ]; then
        traced fio fio.log $B --loops=16 --randrepeat=0 $args
        read -r fio_sh fio_n _ <<<"$(sizes fio.log pread64 512)"
        # two runs' draws (randrepeat=0): with blockalign a spread of 1.7 points between them
        ftol=0.05
        [[ $args == *blockalign* ]] && ftol=0.06
        if shares_near "$nm_sh" "$fio_sh" $ftol; then
            ok "$args: the mix asked for and fio's, aligned, inside the file ($nm_sh; fio $fio_sh)"
        else not_ok "$args: fio's size mix" "nodemark $nm_sh ($nm_n reads), fio $fio_sh ($fio_n reads)"; fi
    else
        ok "$args: the mix asked for ($nm_sh), aligned, inside the file"
    fi
done
traced nm nm.log $B --rw=randrw --bssplit=4k/100,64k/100
read -r rd _ <<<"$(sizes nm.log pread64 512)"
read -r wr _ <<<"$(sizes nm.log pwrite64 512 65536)"
[ "$rd" = "4096=1.000" ] && [ "$wr" = "65536=1.000" ] && ok "bssplit=4k/100,64k/100: reads of 4 KiB, writes of 64 KiB" ||
    not_ok "bssplit per direction" "reads $rd, writes $wr"
for bad in 4k/60:8k/50:16k/:32k/ 0/100 4k-; do # (16k-4k is 4k-16k, as fio swaps them)
    opt=--bssplit
    [[ $bad == *-* ]] && opt=--bsrange
    run_nm fio --no-save --parse-only $B "$opt=$bad"
    expect_refused "$opt=$bad: refused in one line"
done

# --- rate, rate_iops, rate_min, thinktime: counted I/Os against the runtime the job reports ------
# (a paced job can be slower than its rate on a loaded machine, never faster: the upper bounds
# are the mechanism; the lower ones are loose)
# jget FILE EXPR: a Python expression on the JSON in FILE (j: the object, r/w: job 0's read/write)
jget() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); r=j["jobs"][0]["read"]; w=j["jobs"][0]["write"]; print(eval(sys.argv[2]))' "$1" "$2"; }
P="--name=p --ioengine=null --size=1g --time_based --runtime=2"
run_nm fio --no-save --output-format=json $P --rw=read --bs=4k --rate=200k
printf '%s\n' "$out" >p.json
if [ "$rc" -eq 0 ] && [ "$(jget p.json 'r["io_bytes"] <= 200*1024*r["runtime"]/1000 + 4096 and r["io_bytes"] >= 200*1024')" = True ]; then
    ok "rate=200k: $(jget p.json 'r["io_bytes"]') bytes in $(jget p.json 'r["runtime"]') ms, never ahead of the rate"
else not_ok "rate=200k paces reads" "rc $rc: $(jget p.json 'r["io_bytes"], r["runtime"]' 2>&1) ${err:0:200}"; fi
run_nm fio --no-save --output-format=json $P --rw=randrw --bs=4k --rate=100k,300k --iodepth=4 --ioengine=io_uring
printf '%s\n' "$out" >p.json
if [ "$rc" -eq 0 ] && [ "$(jget p.json 'r["io_bytes"] <= 100*1024*r["runtime"]/1000 + 4096 and w["io_bytes"] <= 300*1024*w["runtime"]/1000 + 4096 and w["io_bytes"] > 2 * r["io_bytes"]')" = True ]; then
    ok "rate=100k,300k on a mix: each direction at its own rate ($(jget p.json 'r["io_bytes"], w["io_bytes"]') bytes)"
else not_ok "rate=100k,300k paces each direction" "rc $rc: $(jget p.json 'r["io_bytes"], w["io_bytes"], r["runtime"]' 2>&1) ${err:0:200}"; fi
run_nm fio --no-save --output-format=json $P --rw=write --bs=4k --rate_iops=100 --numjobs=2
printf '%s\n' "$out" >p.json
if [ "$rc" -eq 0 ] && [ "$(jget p.json 'all(x["write"]["total_ios"] <= 100*x["write"]["runtime"]/1000 + 1 and x["write"]["total_ios"] >= 100 for x in j["jobs"])')" = True ]; then
    ok "rate_iops=100, 2 threads: each thread at most 100 I/Os a second ($(jget p.json '[x["write"]["total_ios"] for x in j["jobs"]]'))"
else not_ok "rate_iops=100 paces each thread" "rc $rc: $(jget p.json '[x["write"]["total_ios"] for x in j["jobs"]]' 2>&1) ${err:0:200}"; fi
# thinktime: a pause of 100 ms after every 4 I/Os; fio the same
run_nm fio --no-save --output-format=json $P --rw=read --thinktime=100000 --thinktime_blocks=4 --runtime=1
printf '%s\n' "$out" >p.json
if [ "$rc" -eq 0 ] && [ "$(jget p.json 'r["total_ios"] <= 4 * (r["runtime"] // 100 + 1) and r["total_ios"] >= 8 and r["total_ios"] % 4 == 0')" = True ]; then
    ok "thinktime=100000 (us), thinktime_blocks=4: $(jget p.json 'r["total_ios"]') I/Os in $(jget p.json 'r["runtime"]') ms, 4 per pause"
else not_ok "thinktime pauses every 4 I/Os" "rc $rc: $(jget p.json 'r["total_ios"], r["runtime"]' 2>&1) ${err:0:200}"; fi
# thinktime_spin: the same pauses spent on the CPU (user time) rather than asleep
run_nm fio --no-save --output-format=json $P --rw=read --thinktime=50ms --runtime=1
printf '%s\n' "$out" >sleep.json
run_nm fio --no-save --output-format=json $P --rw=read --thinktime=50ms --thinktime_spin=50ms --runtime=1
printf '%s\n' "$out" >p.json
[ "$rc" -eq 0 ] && [ "$(jget p.json 'j["jobs"][0]["usr_cpu"] > 2 and j["jobs"][0]["usr_cpu"] > 3 * '"$(jget sleep.json 'j["jobs"][0]["usr_cpu"]')"' and r["total_ios"] <= 1000 // 50 + 1')" = True ] &&
    ok "thinktime_spin: the pause spins on the CPU (usr $(jget p.json 'j["jobs"][0]["usr_cpu"]') %, asleep $(jget sleep.json 'j["jobs"][0]["usr_cpu"]') %)" ||
    not_ok "thinktime_spin spins" "rc $rc: $(jget p.json 'j["jobs"][0]["usr_cpu"], r["total_ios"]' 2>&1) vs $(jget sleep.json 'j["jobs"][0]["usr_cpu"]')"
run_nm fio --no-save --output-format=json $P --rw=read --rate=100k --rate_min=1m --runtime=4
[ "$rc" -ne 0 ] && grep -q "rate_min=1048576 B/s not met" <<<"$err$out" && ok "rate_min above the rate: the job fails, saying so" ||
    not_ok "rate_min fails a job under it" "rc $rc: ${err:0:300}"
