#!/usr/bin/env bash
# Fidelity matrix (issue 14): the same fio jobs through fio and through `nodemark fio` (the same
# command line), on every kind of target this machine offers, interleaved, medians compared.
#
#   bench/fidelity.sh [DISKDIR]      DISKDIR: a directory on a real disk (ext4 here; default /var/tmp)
#   RT=2 REPS=3 bench/fidelity.sh    seconds per run (default 1), repetitions (default 3)
#   FILE_MB=256                      size of each test file and of the loop device (default 256)
#   TARGETS="tmpfs ext4 ext4-direct loop-direct loop"   JOBS="seqread randread1 ..."   subsets
#   ALIGN=0                          fio's default buffer placement (no --iomem_align=4k)
#
# Targets: a file in /dev/shm (tmpfs, buffered); a file in DISKDIR buffered and O_DIRECT; a loop
# device made here on a file in DISKDIR (needs root; detached at the end), O_DIRECT and buffered.
# Jobs (io_uring in both tools, time-based): seqread 1M QD8; randread 4k QD1 and QD32; randwrite
# 4k QD1 and QD32; randrw 70/30 4k QD8 with 2 jobs.
#
# Per cell it prints nodemark/fio ratios of IOPS (read + write), p50 and p99 completion latency
# (reads; writes for write-only jobs), and whether the cell is device-paced or CPU-paced: CPU-paced
# when fio's threads were busy >= 50% of the run (CPU per I/O x IOPS / jobs: the tool, not the
# device, sets the pace), and always on tmpfs, where there is no device (on a loaded machine a
# thread that waits for a CPU is neither busy nor waiting on a device). Goals: device-paced cells within +-5% IOPS and +-10% p50/p99; no cell
# off by more than 1.5x; CPU-paced cells >= 1.0x fio's IOPS. The CPU/IO column (nodemark's CPU
# time per I/O over fio's) is the figure to read for CPU-paced cells on a loaded machine, where
# a thread's IOPS depend on how much CPU the scheduler gave it.
#
# fio runs with --thread (as bench/vs-fio.sh: its processes would get their own scheduler
# autogroup on a busy machine); nodemark's workers are threads.
#
# Both tools get --iomem_align=4k (ALIGN=0 leaves it out): fio's buffered jobs otherwise read
# into buffers 16 bytes past a page (malloc's), and the kernel's copy into them costs 2-4x the
# CPU of a copy into nodemark's page-aligned buffers on this CPU, which made buffered 1 MiB
# reads 1.2-3x fio's (docs/disk.md, "I/O buffers").
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
NM=${NODEMARK:-$here/build/nodemark}
FIO=${FIO:-fio}
DISKDIR=${1:-/var/tmp}
RT=${RT:-1}
REPS=${REPS:-3}
FILE_MB=${FILE_MB:-256}
TARGETS=${TARGETS:-tmpfs ext4 ext4-direct loop-direct loop}
JOBS=${JOBS:-seqread randread1 randread32 randwrite1 randwrite32 randrw}
ALIGN=${ALIGN:-1}
PY=$(python3 -c 'import sys; print(sys.executable)')
[ -x "$NM" ] || { echo "build nodemark first (make)" >&2; exit 2; }
command -v "$FIO" >/dev/null || { echo "fio not found" >&2; exit 2; }

work=$(mktemp -d "$DISKDIR/fidelity.XXXXXX")
shm=$(mktemp -d /dev/shm/fidelity.XXXXXX)
loop=""
cleanup() { [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null; rm -rf "$work" "$shm"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
results=$work/results.tsv
: >"$results"

echo "laying out ${FILE_MB} MiB files in /dev/shm and $DISKDIR ..." >&2
head -c $((FILE_MB << 20)) /dev/urandom >"$shm/file"
head -c $((FILE_MB << 20)) /dev/urandom >"$work/file"
head -c $((FILE_MB << 20)) /dev/urandom >"$work/loopfile"
sync
case " $TARGETS " in *" loop"*)
    # direct-io: the loop driver reads its file O_DIRECT, so the device (not the page cache of
    # the backing file, warmed by whichever tool ran first) sets the pace
    if [ "$(id -u)" -eq 0 ] && { loop=$(losetup --direct-io=on -f --show "$work/loopfile" 2>/dev/null) ||
        loop=$(losetup -f --show "$work/loopfile" 2>/dev/null); }; then :; else
        echo "no loop device (needs root and losetup): loop targets left out" >&2
        loop="" TARGETS=$(sed 's/loop-direct//; s/\bloop\b//' <<<"$TARGETS")
    fi ;;
esac

target_args() { # TARGET: the fio options that name it
    case $1 in
    tmpfs) echo "--filename=$shm/file --direct=0" ;;
    ext4) echo "--filename=$work/file --direct=0" ;;
    ext4-direct) echo "--filename=$work/file --direct=1" ;;
    loop) echo "--filename=$loop --direct=0" ;;
    loop-direct) echo "--filename=$loop --direct=1" ;;
    esac
}
target_path() { case $1 in tmpfs) echo "$shm/file" ;; ext4*) echo "$work/file" ;; loop*) echo "$loop" ;; esac; }
job_args() { # JOB: the fio options of the job
    case $1 in
    seqread) echo "--rw=read --bs=1m --iodepth=8" ;;
    randread1) echo "--rw=randread --bs=4k --iodepth=1" ;;
    randread32) echo "--rw=randread --bs=4k --iodepth=32" ;;
    randwrite1) echo "--rw=randwrite --bs=4k --iodepth=1" ;;
    randwrite32) echo "--rw=randwrite --bs=4k --iodepth=32" ;;
    randrw) echo "--rw=randrw --rwmixread=70 --bs=4k --iodepth=8 --numjobs=2" ;;
    esac
}

# one TOOL TARGET JOB: run it, record iops, p50, p99, cpu busy share
one() {
    local tool=$1 t=$2 j=$3 out=$work/out.json
    # shellcheck disable=SC2046
    local args=(--name=fid --ioengine=io_uring --size="${FILE_MB}m" --time_based --runtime="$RT"
        --group_reporting --thread --output-format=json $(target_args "$t") $(job_args "$j"))
    [ "$ALIGN" = 0 ] || args+=(--iomem_align=4k)
    # both tools drop the file's cache as they open it, inside their runtime: without a sync
    # first, the second of two back-to-back runs pays for writing back the first one's dirty pages
    sync
    if [ "$tool" = fio ]; then
        "$FIO" "${args[@]}" >"$out" 2>"$work/err" || { echo "fio $t $j failed: $(head -3 "$work/err")" >&2; return; }
    else
        "$NM" fio --no-save --allow-write="$(target_path "$t")" "${args[@]}" >"$out" 2>"$work/err" ||
            { echo "nodemark $t $j failed: $(head -3 "$work/err")" >&2; return; }
    fi
    "$PY" - "$out" "$tool" "$t" "$j" >>"$results" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = "read" if j["read"]["total_ios"] else "write"
ios = j["read"]["total_ios"] + j["write"]["total_ios"]
iops = j["read"]["iops"] + j["write"]["iops"]
pct = j[d]["clat_ns"].get("percentile", {})
nj = int(j.get("job options", {}).get("numjobs", 1)) if isinstance(j.get("job options"), dict) else 1
busy = (j["usr_cpu"] + j["sys_cpu"]) / 100 / max(1, nj)
cpu_per_io = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] / 1e3 / max(1, ios)
print("\t".join(map(str, [sys.argv[2], sys.argv[3], sys.argv[4], iops, pct.get("50.000000", 0),
                          pct.get("99.000000", 0), busy, cpu_per_io])))
EOF
}

for rep in $(seq "$REPS"); do
    echo "repetition $rep/$REPS" >&2
    for t in $TARGETS; do
        for j in $JOBS; do
            # alternate which tool goes first, so neither always gets the warmer device
            if [ $((rep % 2)) -eq 1 ]; then one fio "$t" "$j"; one nodemark "$t" "$j"
            else one nodemark "$t" "$j"; one fio "$t" "$j"; fi
        done
    done
done

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, load: $(cut -d' ' -f1-3 /proc/loadavg); RT=$RT REPS=$REPS FILE_MB=$FILE_MB ALIGN=$ALIGN"
"$PY" - "$results" <<'EOF'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
cells = {}
for tool, t, j, iops, p50, p99, busy, cpu in rows:
    cells.setdefault((t, j), {}).setdefault(tool, []).append((float(iops), float(p50), float(p99), float(busy),
                                                               float(cpu)))
med = lambda v, i: statistics.median(x[i] for x in v)
print("| target | job | fio IOPS | nodemark IOPS | IOPS ratio | p50 ratio | p99 ratio | CPU/IO ratio | fio busy | paced | goal |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
bad = 0
for (t, j), v in cells.items():
    if "fio" not in v or "nodemark" not in v:
        print(f"| {t} | {j} | | | | | | | | | a tool failed |")
        bad += 1
        continue
    f, n = v["fio"], v["nodemark"]
    fi, ni = med(f, 0), med(n, 0)
    r = ni / fi if fi else 0
    r50 = med(n, 1) / med(f, 1) if med(f, 1) else 0
    r99 = med(n, 2) / med(f, 2) if med(f, 2) else 0
    busy = med(f, 3)
    rcpu = med(n, 4) / med(f, 4) if med(f, 4) else 0
    paced = "CPU" if busy >= 0.5 or t == "tmpfs" else "device"
    worst = max(x if x >= 1 else 1 / x for x in (r, r50, r99) if x > 0) if r > 0 else 99
    if worst > 1.5:
        ok = "no (> 1.5x)"
    elif paced == "device":
        ok = "yes" if abs(r - 1) <= 0.05 and abs(r50 - 1) <= 0.10 and abs(r99 - 1) <= 0.10 else "no"
    else:
        ok = "yes" if r >= 1.0 else "no"
    bad += ok != "yes"
    print(f"| {t} | {j} | {fi:,.0f} | {ni:,.0f} | {r:.2f} | {r50:.2f} | {r99:.2f} | {rcpu:.2f} | {busy:.0%} | {paced} | {ok} |")
print(f"\n{len(cells) - bad} of {len(cells)} cells meet the goal")
EOF
