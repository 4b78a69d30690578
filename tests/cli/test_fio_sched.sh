#!/usr/bin/env bash
# How nodemark fio starts and ends jobs, and spreads them over files, as fio: the start order of
# stonewall and wait_for (seen through strace: when each job's worker opens its file), exitall
# with exit_what, number_ios, filename=a:b with file_service_type, rw=read:-8k, and terse
# versions 2 to 5, each next to real fio on the same job where that is cheap.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
scratch_dir

# --- start order: a job after a stonewall job waits for it, as in fio -----------------------------
# A lasts ~0.25 s (rate-limited); B has stonewall; C follows B without one. fio starts nothing
# after a stonewall job until that one has started, so C's worker opens its file only once A's
# worker has closed its own (B and C then start together, in either order).
if [ $HAVE_STRACE = 1 ]; then
    J="--size=256k --ioengine=psync --rw=read"
    strace_fio nm opens.log -e trace=openat,close -e signal=none -y -- --output-format=json \
        --name=A $J --filename=fa --rate=1m --name=B $J --filename=fb --stonewall --name=C $J --filename=fc \
        >order.json 2>order.err
    order=$(py '
import re, sys
ev = []
for l in open(sys.argv[1]):
    m = re.search(r"openat\(AT_FDCWD[^,]*, \"(f[abc])\", O_RDONLY", l)
    if m:
        ev.append("open " + m.group(1))
    m = re.search(r"close\(\d+</[^>]*/(f[abc])>\)", l)
    if m and "open " + m.group(1) in ev:
        ev.append("close " + m.group(1))
want = ["open fa", "close fa"]
print("ok" if ev[:2] == want and {"open fb", "open fc"} <= set(ev[2:]) else " / ".join(ev))' opens.log)
    [ "$order" = ok ] && ok "stonewall: the job after a stonewall job starts only once the earlier job is done" ||
        not_ok "stonewall: the job after a stonewall job starts after it" "worker opens and closes: $order; $(head -c 300 order.err)"
else
    skip "start order through strace" "strace is missing"
fi

# --- exitall and exit_what -------------------------------------------------------------------------
# T: time-based for 60 s; S: 20 I/Os. With exitall, S's end stops T long before its 60 s.
E="--ioengine=psync --size=1m --rw=read --exitall"
run_nm fio --no-save --output-format=json $E --name=S --filename=fs --number_ios=20 --thinktime=10ms \
    --name=T --filename=ft --time_based --runtime=60
printf '%s\n' "$out" >exit.json
r=$(py '
import json, sys
j = {x["jobname"]: x for x in json.load(open(sys.argv[1]))["jobs"]}
print(j["S"]["read"]["total_ios"], j["T"]["job_runtime"], j["T"]["groupid"])' exit.json 2>&1)
read -r s_ios t_ms t_g <<<"$r"
[ "$rc" -eq 0 ] && [ "$s_ios" = 20 ] && [ "$t_ms" -lt 30000 ] && [ "$t_g" = 0 ] &&
    ok "exitall: the end of S (20 I/Os) stopped T of its group ($t_ms ms of its 60 s)" ||
    not_ok "exitall: the end of S stopped T" "rc $rc: $r ${err:0:300}"

# exit_what=group (the default) leaves another group running; stonewall stops what runs; all: all.
# Bounds load cannot move: a time-based job that runs to its deadline measures at least its
# runtime (2 s); one stopped early ends with "short" (20 I/Os, ~0.2 s), far inside its 60 s.
what_fio() { # RUNTIME: the job file, "other" time-based for RUNTIME seconds
    printf '[global]\nioengine=psync\nsize=1m\nrw=read\nexitall\n[short]\nfilename=f1\nnumber_ios=20\nthinktime=10ms\n[other]\nfilename=f2\nnew_group\ntime_based\nruntime=%s\n' "$1" >what.fio
}
what_fio 2
run_nm fio --no-save --output-format=json what.fio
t_grp=$(json_get '[x["job_runtime"] for x in j["jobs"] if x["jobname"] == "other"][0]' 2>&1)
what_fio 60
run_nm fio --no-save --output-format=json --exit_what=stonewall what.fio
t_sw=$(json_get '[x["job_runtime"] for x in j["jobs"] if x["jobname"] == "other"][0]' 2>&1)
if [ "$t_grp" -ge 1999 ] 2>/dev/null && [ "$t_sw" -lt 30000 ] 2>/dev/null; then
    ok "exit_what: group leaves another group's job to its runtime ($t_grp ms), stonewall stops it ($t_sw ms of 60 s)"
else
    not_ok "exit_what: group leaves another group running, stonewall stops it" "group: $t_grp ms, stonewall: $t_sw ms"
fi
# all: a job of a later group that has not started never runs
printf '[global]\nioengine=psync\nsize=1m\nrw=read\nexitall\nexit_what=all\n[a]\nfilename=f1\nnumber_ios=5\n[b]\nfilename=f2\ntime_based\nruntime=60\n[later]\nfilename=f3\nstonewall\n' >all.fio
run_nm fio --no-save --output-format=json all.fio
r=$(json_get '" ".join("%s:%d" % (x["jobname"], x["read"]["total_ios"]) for x in j["jobs"])' 2>&1)
b_ms=$(json_get '[x["job_runtime"] for x in j["jobs"] if x["jobname"] == "b"][0]' 2>&1)
[ "$rc" -eq 0 ] && [[ $r == "a:5 b:"*" later:0" ]] && [ "$b_ms" -lt 30000 ] &&
    ok "exit_what=all: a's end stops b ($b_ms ms) and the later group never runs ($r)" ||
    not_ok "exit_what=all stops every job" "rc $rc: $r, b $b_ms ms; ${err:0:300}"
run_nm fio --no-save --parse-only --name=x --size=1m --exit_what=some
expect_refused "exit_what=some: refused in one line"

if [ $HAVE_FIO = 1 ]; then
    # exitwhat.fio's shape: the same jobs and groups as fio, every job's options as fio shows them
    cat >ew.fio <<'EOF'
[global]
filename=ew
filesize=4m
blocksize=4096
group_reporting
exitall=1
[slow1]
rw=read
ioengine=sync
new_group=1
thinktime=2000
number_ios=100
exit_what=stonewall
[fast1]
new_group=1
rw=randrw
numjobs=2
ioengine=libaio
iodepth=4
rate=300k,300k,300k
[slow2]
stonewall
rw=write
ioengine=sync
new_group=1
thinktime=2000
number_ios=100
exit_what=all
[fast2]
rw=randrw
numjobs=2
ioengine=libaio
iodepth=4
rate=300k,300k,300k
EOF
    fio --output-format=json ew.fio >fio.json 2>fio.err
    rm -f ew
    run_nm fio --no-save --output-format=json --allow-write=ew ew.fio
    printf '%s\n' "$out" >nm.json
    r=$(py '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sig = lambda j: [(x["jobname"], x["groupid"], x["job options"]) for x in j["jobs"]]
print("same" if sig(a) == sig(b) else "fio %s nodemark %s" % (sig(a), sig(b)))
print(max(x["job_runtime"] for x in b["jobs"]))' fio.json nm.json 2>&1)
    [ "$(head -1 <<<"$r")" = same ] && [ "$(tail -1 <<<"$r")" -lt 2900 ] &&
        ok "exitwhat-like job file: fio's jobs, groups and job options; the fast jobs stopped early" ||
        not_ok "exitwhat-like job file as fio" "rc $rc: $r ${err:0:300}"
fi

# --- filename=a:b: every thread on every file ------------------------------------------------------
if [ $HAVE_STRACE = 1 ]; then
    # files TOOL ARGS: the share of preads on each of f1, f2 (in file order) and the pattern of the
    # first 8 ("12121212": round robin)
    files() {
        local tool=$1
        shift
        rm -f f1 f2
        strace_fio "$tool" spread.log -e trace=pread64 -e signal=none -y -s0 -- --output-format=json "$@" >/dev/null 2>spread.err
        py '
import re, sys
fs = re.findall(r"pread64\(\d+</[^>]*/(f[12])>", open(sys.argv[1]).read())
print(len(fs), fs.count("f1"), fs.count("f2"), "".join(f[1] for f in fs[:8]))' spread.log
    }
    S="--name=s --filename=f1:f2 --size=1m --bs=4k --ioengine=psync"
    read -r n n1 n2 pat <<<"$(files nm $S --rw=read)"
    [ "$n" = 256 ] && [ "$n1" = 128 ] && [ "$n2" = 128 ] && [ "$pat" = 12121212 ] &&
        ok "filename=f1:f2: one thread reads both files in turn, half of size= each ($n1+$n2)" ||
        not_ok "filename=f1:f2 spreads the thread over both files" "$n reads: $n1 on f1, $n2 on f2, first $pat; $(head -c 200 spread.err)"
    read -r n n1 n2 pat <<<"$(files nm $S --rw=read --file_service_type=sequential)"
    [ "$n1" = 128 ] && [ "$n2" = 128 ] && [ "$pat" = 11111111 ] &&
        ok "file_service_type=sequential: f1 whole, then f2" ||
        not_ok "file_service_type=sequential" "$n reads: $n1 on f1, $n2 on f2, first $pat"
    read -r n n1 n2 pat <<<"$(files nm $S --rw=read --file_service_type=roundrobin:4)"
    [ "$pat" = 11112222 ] && ok "file_service_type=roundrobin:4: four I/Os on a file, then the next" ||
        not_ok "file_service_type=roundrobin:4" "first $pat"
    read -r n n1 n2 pat <<<"$(files nm $S --rw=randread --file_service_type=random)"
    [ "$n" = 256 ] && [ "$n1" -gt 64 ] && [ "$n2" -gt 64 ] && [ "$pat" != 12121212 ] &&
        ok "file_service_type=random: both files, not in turn ($n1+$n2, first $pat)" ||
        not_ok "file_service_type=random" "$n reads: $n1 on f1, $n2 on f2, first $pat"
    if [ $HAVE_FIO = 1 ]; then
        read -r fn f1 f2 fpat <<<"$(files fio $S --rw=read)"
        read -r n n1 n2 pat <<<"$(files nm $S --rw=read)"
        [ "$fn $f1 $f2 $fpat" = "$n $n1 $n2 $pat" ] && ok "filename=f1:f2: the same reads per file as fio ($fn: $f1+$f2)" ||
            not_ok "filename=f1:f2 as fio" "fio $fn $f1 $f2 $fpat, nodemark $n $n1 $n2 $pat"
    fi

    # rw=read:-8k: backwards through the file, as fio (the first read at 0, then from the end)
    # backwards TOOL: the offsets of TOOL's 4k reads of a backwards job
    backwards() {
        rm -f bw
        strace_fio "$1" back.log -e trace=pread64 -e signal=none -y -s0 -- --output-format=json \
            --name=b --filename=bw --size=64k --bs=4k --ioengine=psync --rw=read:-8k >/dev/null 2>back.err
        grep -o 'bw>, [^,]*, 4096, [0-9]*' back.log | awk '{print $NF}' | tr '\n' ' '
    }
    nmoffs=$(backwards nm)
    want="0 57344 53248 49152 45056 40960 36864 32768 28672 24576 20480 16384 12288 8192 4096 0 "
    [ "$nmoffs" = "$want" ] && ok "rw=read:-8k: reads backwards by 4k from the end after the first" ||
        not_ok "rw=read:-8k reads backwards" "offsets: $nmoffs; $(head -c 200 back.err)"
    if [ $HAVE_FIO = 1 ]; then
        foffs=$(backwards fio)
        [ "$foffs" = "$nmoffs" ] && ok "rw=read:-8k: fio's offsets, in fio's order" ||
            not_ok "rw=read:-8k as fio" "fio: $foffs"
    fi
else
    skip "filename=a:b and rw=read:-8k through strace" "strace is missing"
fi

# --- io_size: the I/O amount, over size='s region ----------------------------------------------------
# fio's io_size=4m with size=64m reads 4 MiB at random offsets over all 64 MiB (and lays out 64 MiB);
# taking io_size as the region would read the first 4 MiB only
if [ $HAVE_STRACE = 1 ]; then
    # span TOOL: the number of 4k preads of file r, the highest offset in MiB, the file's size in MiB
    span() {
        rm -f r
        strace_fio "$1" span.log -e trace=pread64 -e signal=none -y -s0 -- --output-format=json --name=s \
            --filename=r --size=64m --io_size=4m --bs=4k --rw=randread --ioengine=psync >/dev/null 2>span.err
        py '
import os, re, sys
offs = [int(o) for o in re.findall(r"pread64\(\d+</[^>]*/r>, [^,]*, 4096, (\d+)", open(sys.argv[1]).read())]
print(len(offs), max(offs) >> 20 if offs else -1, os.path.getsize("r") >> 20 if os.path.exists("r") else -1)' span.log
    }
    read -r n top size <<<"$(span nm)"
    [ "$n" = 1024 ] && [ "$top" -ge 48 ] && ok "io_size=4m size=64m: 1024 random reads over the whole 64 MiB (highest at $top MiB)" ||
        not_ok "io_size=4m size=64m reads over the whole region" "$n reads, highest offset $top MiB; $(head -c 200 span.err)"
    if [ $HAVE_FIO = 1 ]; then
        read -r fn ftop fsize <<<"$(span fio)"
        [ "$fn" = "$n" ] && [ "$ftop" -ge 48 ] && [ "$top" -ge 48 ] && ok "io_size: the same reads and region as fio ($fn reads up to $ftop MiB)" ||
            not_ok "io_size as fio" "fio $fn reads up to $ftop MiB, nodemark $n up to $top MiB"
    fi
fi

# --- numa_cpu_nodes: the threads on the CPUs of those nodes (from sysfs) --------------------------
if [ $HAVE_STRACE = 1 ] && [ -r /sys/devices/system/node/node0/cpulist ]; then
    strace_fio nm numa.log -e trace=sched_setaffinity -e signal=none -- --output-format=json \
        --name=n --ioengine=null --size=1m --numa_cpu_nodes=0 >/dev/null 2>numa.err
    res=$(py '
import re, sys
def cpus(spec):
    out = set()
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out
node = cpus(open("/sys/devices/system/node/node0/cpulist").read().strip())
masks = [cpus(m.replace(" ", ",")) for m in re.findall(r"sched_setaffinity\(\d+, \d+, \[([0-9 ]+)\]\) *= 0", open(sys.argv[1]).read())]
print("ok" if masks and all(m <= node for m in masks) else "masks %s, node0 %s" % (masks, sorted(node)))' numa.log 2>&1)
    [ "$res" = ok ] && ok "numa_cpu_nodes=0: the thread is pinned within node 0's CPUs" ||
        not_ok "numa_cpu_nodes=0 pins the thread to node 0's CPUs" "$res; $(head -c 200 numa.err)"
fi
run_nm fio --no-save --name=n --ioengine=null --size=1m --numa_cpu_nodes=1023
expect_refused "numa_cpu_nodes of a node this machine lacks: refused in one line"

# --- terse versions ---------------------------------------------------------------------------
# fields LINE: how many ';'-separated fields before the disks (fio's counts: 2: 2+3*N ...)
for v in 2 3 4 5; do
    run_nm fio --no-save --minimal --terse-version=$v --name=t --filename=tf --size=64k --ioengine=psync \
        --description=hello --disk_util=0
    line=$(head -1 <<<"$out")
    if [ $HAVE_FIO = 1 ]; then
        rm -f tf
        fl=$(fio --minimal --terse-version=$v --name=t --filename=tf --size=64k --ioengine=psync --description=hello \
            --disk_util=0 2>/dev/null | head -1)
        nf=$(awk -F';' '{print NF}' <<<"$line") ff=$(awk -F';' '{print NF}' <<<"$fl")
        desc=${line##*;}
        [ $v = 2 ] && desc=$(sed -n 2p <<<"$out") # version 2 puts it on a line of its own
        [ "$rc" -eq 0 ] && [ "$nf" = "$ff" ] && [ "${line%%;*}" = "${fl%%;*}" ] && [ "${desc#;}" = hello ] &&
            ok "--terse-version=$v: fio's $ff fields, version first, description last" ||
            not_ok "--terse-version=$v as fio" "nodemark $nf fields: ${line:0:80}...; fio $ff: ${fl:0:80}"
    else
        [ "$rc" -eq 0 ] && grep -q ';hello$' <<<"$out" && ok "--terse-version=$v runs, description last" ||
            not_ok "--terse-version=$v runs" "rc $rc: ${line:0:100}"
    fi
done
run_nm fio --no-save --minimal --terse-version=1 --name=t --size=64k
expect_refused "--terse-version=1: refused in one line, as fio refuses it"
