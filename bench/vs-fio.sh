#!/usr/bin/env bash
# nodemark disk against fio, side by side in one run, ratios printed (the speed goals of issue 14,
# which raised issue 3's: null 2x -> 4x, tmpfs 1.1x -> 1.25x, CPU per I/O 0.8x -> 0.7x).
#
#   bench/vs-fio.sh [DISKDIR]        DISKDIR: a directory on the disk to measure (default /tmp)
#   REPS=5 RT=3 bench/vs-fio.sh      repetitions per case, seconds per run
#
# Cases (each repeated REPS times, tools interleaved, medians compared):
#   1 null      null engine, 4k, 2 jobs: ops/s                         goal nodemark >= 4x fio
#   2 tmpfs     4k randread of a 1 GiB file in /dev/shm, 2 jobs, the
#               best engine of each tool (psync; io_uring at QD32; mmap
#               with MMAP=1)                                             goal >= 1.25x
#   3 direct    4k randread, O_DIRECT, QD32, 1 job, a 1 GiB file in DISKDIR:
#               IOPS vs fio io_uring                                    goal >= 1.0x
#               CPU per I/O vs fio io_uring defaults                    goal <= 0.7x
#               (and the user/kernel split of it: what a tool can save is its user part)
#               CPU per I/O vs fio --fixedbufs --registerfiles          goal <= 1.0x
#   4 accuracy  IOPS within 5% of fio, p50/p99 latency within 10%: case 3 (QD32, where fio
#               is close to CPU-bound on a small machine, so its own cost lowers its IOPS) and
#               the same read at QD1 (device-paced: both tools mostly wait on the device)
#   5 memory    peak RSS of a 16-job run (case 3 with --jobs 16)         goal <= 32 MiB
#
# The files are made here (removed at the end); both tools read the same file.
#
# fio runs with --thread: fio's job processes each call setsid(), and with the scheduler's
# autogroups (sched_autogroup_enabled=1) each job then gets a whole share of a busy machine
# while nodemark's threads share one; on a loaded machine that alone doubles fio's CPU time.
# Threads put both tools on the same footing. FIO_PROCESSES=1 drops --thread.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
NM=${NODEMARK:-$here/build/nodemark}
FIO=${FIO:-fio}
DISKDIR=${1:-/tmp}
REPS=${REPS:-3}
RT=${RT:-3}
PY=$(python3 -c 'import sys; print(sys.executable)')
FIO_MODE=(--thread)
[ -n "${FIO_PROCESSES:-}" ] && FIO_MODE=()

work=$(mktemp -d "$DISKDIR/vs-fio.XXXXXX")
shm=$(mktemp -d /dev/shm/vs-fio.XXXXXX)
trap 'rm -rf "$work" "$shm"' EXIT
results=$work/results.tsv
: >"$results"

[ -x "$NM" ] || { echo "build nodemark first (make)" >&2; exit 2; }

# get FILE EXPR: evaluate a Python expression on a JSON file (j = the document)
get() { "$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# rec CASE TOOL METRIC VALUE
rec() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$results"; }

# fio's CPU seconds per I/O: usr_cpu/sys_cpu are % of the job's runtime.
FIO_CPU='(j["jobs"][0]["usr_cpu"] + j["jobs"][0]["sys_cpu"]) / 100 * j["jobs"][0]["job_runtime"] / 1e3 / max(1, j["jobs"][0]["read"]["total_ios"])'
FIO_SYS='j["jobs"][0]["sys_cpu"] / 100 * j["jobs"][0]["job_runtime"] / 1e3 / max(1, j["jobs"][0]["read"]["total_ios"])'
NM_T='j["tests"][0]["total"]'

nm_run() { # CASE LABEL ARGS...: one nodemark run, its figures recorded
    local c=$1 label=$2
    shift 2
    "$NM" disk "$@" --runtime "${RT}s" --json --no-save >"$work/nm.json" 2>"$work/nm.err" || {
        echo "nodemark failed: $(cat "$work/nm.err")" >&2
        return
    }
    rec "$c" "$label" iops "$(get "$work/nm.json" "$NM_T[\"iops\"]")"
    rec "$c" "$label" cpu_ns "$(get "$work/nm.json" "$NM_T[\"cpu_ns_per_io\"]")"
    rec "$c" "$label" sys_ns "$(get "$work/nm.json" "$NM_T[\"cpu_ns_per_io\"] * $NM_T[\"sys_cpu_ns\"] / max(1, $NM_T[\"usr_cpu_ns\"] + $NM_T[\"sys_cpu_ns\"])")"
    rec "$c" "$label" p50 "$(get "$work/nm.json" "$NM_T[\"read\"][\"clat_ns\"][\"p50\"] if \"read\" in $NM_T else 0")"
    rec "$c" "$label" p99 "$(get "$work/nm.json" "$NM_T[\"read\"][\"clat_ns\"][\"p99\"] if \"read\" in $NM_T else 0")"
}

fio_run() { # CASE LABEL ARGS...
    local c=$1 label=$2
    shift 2
    "$FIO" --name=vs --bs=4k --rw=randread --time_based --runtime="$RT" --group_reporting \
        "${FIO_MODE[@]}" --output-format=json "$@" >"$work/fio.json" 2>"$work/fio.err" || {
        echo "fio failed: $(cat "$work/fio.err")" >&2
        return
    }
    rec "$c" "$label" iops "$(get "$work/fio.json" 'j["jobs"][0]["read"]["iops"]')"
    rec "$c" "$label" cpu_ns "$(get "$work/fio.json" "$FIO_CPU * 1e9")"
    rec "$c" "$label" sys_ns "$(get "$work/fio.json" "$FIO_SYS * 1e9")"
    rec "$c" "$label" p50 "$(get "$work/fio.json" 'j["jobs"][0]["read"]["clat_ns"]["percentile"]["50.000000"]')"
    rec "$c" "$label" p99 "$(get "$work/fio.json" 'j["jobs"][0]["read"]["clat_ns"]["percentile"]["99.000000"]')"
}

echo "laying out 1 GiB in /dev/shm and in $DISKDIR ..." >&2
head -c $((1 << 30)) /dev/urandom >"$shm/file"
head -c $((1 << 30)) /dev/urandom >"$work/file"
sync

for rep in $(seq "$REPS"); do
    echo "repetition $rep/$REPS" >&2
    # 1: the harness alone
    nm_run null nodemark --engine null --rw read --bs 4k --jobs 2
    fio_run null fio --ioengine=null --rw=read --size=1t --numjobs=2
    # 2: buffered tmpfs, each tool's engines
    nm_run tmpfs nodemark-psync "$shm/file" --engine psync --rw randread --bs 4k --jobs 2
    fio_run tmpfs fio-psync --ioengine=psync --filename="$shm/file" --size=1g --numjobs=2
    nm_run tmpfs nodemark-uring-qd32 "$shm/file" --engine uring --iodepth 32 --rw randread --bs 4k --jobs 2
    fio_run tmpfs fio-io_uring-qd32 --ioengine=io_uring --iodepth=32 --fixedbufs --registerfiles \
        --filename="$shm/file" --size=1g --numjobs=2
    if [ -n "${MMAP:-}" ]; then # slow on this VM for both tools (see BENCHMARKS.md)
        nm_run tmpfs nodemark-mmap "$shm/file" --engine mmap --rw randread --bs 4k --jobs 2
        fio_run tmpfs fio-mmap --ioengine=mmap --filename="$shm/file" --size=1g --numjobs=2
    fi
    # 3 and 4: O_DIRECT QD32 on the disk
    nm_run direct nodemark "$work/file" --engine uring --direct --rw randread --bs 4k --iodepth 32
    fio_run direct fio-io_uring --ioengine=io_uring --direct=1 --iodepth=32 --filename="$work/file" --size=1g
    fio_run direct fio-io_uring-fixed --ioengine=io_uring --direct=1 --iodepth=32 --fixedbufs --registerfiles \
        --filename="$work/file" --size=1g
    # 4 at QD1: the device sets the pace
    nm_run qd1 nodemark "$work/file" --engine uring --direct --rw randread --bs 4k --iodepth 1
    fio_run qd1 fio-io_uring-fixed --ioengine=io_uring --direct=1 --iodepth=1 --fixedbufs --registerfiles \
        --filename="$work/file" --size=1g
done

# 5: peak RSS, 16 jobs
for tool in nodemark fio; do
    if [ $tool = nodemark ]; then
        /usr/bin/time -f %M -o "$work/rss" "$NM" disk "$work/file" --engine uring --direct --rw randread --bs 4k \
            --iodepth 32 --jobs 16 --runtime 2s --json --no-save >/dev/null 2>&1
    else
        /usr/bin/time -f %M -o "$work/rss" "$FIO" --name=vs --ioengine=io_uring --direct=1 --iodepth=32 --bs=4k \
            --rw=randread --numjobs=16 --thread --filename="$work/file" --size=1g --time_based --runtime=2 \
            --group_reporting >/dev/null 2>&1
    fi
    rec memory $tool rss_kib "$(tail -1 "$work/rss")"
done

"$PY" - "$results" "$REPS" "$RT" <<'EOF'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
v = {}
for c, tool, m, x in rows:
    v.setdefault((c, tool, m), []).append(float(x))
med = {k: statistics.median(x) for k, x in v.items()}
def m(c, tool, metric):
    return med.get((c, tool, metric), float("nan"))
def line(name, a, b, goal, ok):
    r = a / b if b else float("nan")
    print(f"{name:<46} {a:>14,.0f} {b:>14,.0f} {r:>7.2f}x  goal {goal:<8} {'ok' if ok(r) else 'MISSED'}")
print(f"\nnodemark vs fio: medians of {sys.argv[2]} runs of {sys.argv[3]} s each (ratios from the same run)\n")
print(f"{'case':<46} {'nodemark':>14} {'fio':>14} {'ratio':>8}")
line("1 null 4k 2 jobs, ops/s", m("null", "nodemark", "iops"), m("null", "fio", "iops"), ">= 4.0", lambda r: r >= 4)
import math
def best(prefix, engines):
    have = [e for e in engines if not math.isnan(m("tmpfs", prefix + e, "iops"))]
    return max(have, key=lambda e: m("tmpfs", prefix + e, "iops"))
best_nm = best("nodemark-", ("psync", "uring-qd32", "mmap"))
best_fio = best("fio-", ("psync", "io_uring-qd32", "mmap"))
for a, b in (("psync", "psync"), ("uring-qd32", "io_uring-qd32"), ("mmap", "mmap")):
    if not math.isnan(m("tmpfs", "nodemark-" + a, "iops")):
        line(f"  tmpfs randread, {a} vs {b}", m("tmpfs", "nodemark-" + a, "iops"), m("tmpfs", "fio-" + b, "iops"), "", lambda r: True)
        line(f"  tmpfs randread, {a} vs {b}: CPU ns per I/O", m("tmpfs", "nodemark-" + a, "cpu_ns"), m("tmpfs", "fio-" + b, "cpu_ns"), "", lambda r: True)
line(f"2 tmpfs randread 2 jobs, best ({best_nm} vs {best_fio})", m("tmpfs", "nodemark-" + best_nm, "iops"),
     m("tmpfs", "fio-" + best_fio, "iops"), ">= 1.25", lambda r: r >= 1.25)
line("3 O_DIRECT QD32 IOPS vs fio io_uring", m("direct", "nodemark", "iops"), m("direct", "fio-io_uring", "iops"), ">= 1.0", lambda r: r >= 1.0)
line("3 CPU ns per I/O vs fio io_uring", m("direct", "nodemark", "cpu_ns"), m("direct", "fio-io_uring", "cpu_ns"), "<= 0.7", lambda r: r <= 0.7)
line("  of it in the kernel", m("direct", "nodemark", "sys_ns"), m("direct", "fio-io_uring", "sys_ns"), "", lambda r: True)
line("  the least it could be: nodemark's kernel part alone", m("direct", "nodemark", "sys_ns"), m("direct", "fio-io_uring", "cpu_ns"), "", lambda r: True)
line("3 CPU ns per I/O vs fio fixedbufs+registerfiles", m("direct", "nodemark", "cpu_ns"), m("direct", "fio-io_uring-fixed", "cpu_ns"), "<= 1.0", lambda r: r <= 1.0)
# Accuracy against fio with the same ring setup: with its defaults fio spends 2-3x the CPU per
# I/O, which on a CPU-starved machine changes what the device sees.
for ref, what in (("fio-io_uring-fixed", "fio fixedbufs+registerfiles"), ("fio-io_uring", "fio defaults")):
    line(f"4 accuracy vs {what}: IOPS", m("direct", "nodemark", "iops"), m("direct", ref, "iops"), "±5%", lambda r: abs(r - 1) <= 0.05)
    line(f"4 accuracy vs {what}: clat p50 ns", m("direct", "nodemark", "p50"), m("direct", ref, "p50"), "±10%", lambda r: abs(r - 1) <= 0.10)
    line(f"4 accuracy vs {what}: clat p99 ns", m("direct", "nodemark", "p99"), m("direct", ref, "p99"), "±10%", lambda r: abs(r - 1) <= 0.10)
ref = "fio-io_uring-fixed"
line("4 accuracy at QD1 (device-paced): IOPS", m("qd1", "nodemark", "iops"), m("qd1", ref, "iops"), "±5%", lambda r: abs(r - 1) <= 0.05)
line("4 accuracy at QD1: clat p50 ns", m("qd1", "nodemark", "p50"), m("qd1", ref, "p50"), "±10%", lambda r: abs(r - 1) <= 0.10)
line("4 accuracy at QD1: clat p99 ns", m("qd1", "nodemark", "p99"), m("qd1", ref, "p99"), "±10%", lambda r: abs(r - 1) <= 0.10)
line("5 peak RSS KiB, 16 jobs QD32", m("memory", "nodemark", "rss_kib"), m("memory", "fio", "rss_kib"), "<= 32MiB", lambda r: m("memory", "nodemark", "rss_kib") <= 32768)
print("\nall runs (median per tool and case):")
for (c, tool, metric), x in sorted(med.items()):
    if metric == "iops":
        print(f"  {c:<8} {tool:<22} iops {x:>14,.0f}  cpu/io {m(c, tool, 'cpu_ns'):>8,.0f} ns (kernel {m(c, tool, 'sys_ns'):>7,.0f})  "
              f"p50 {m(c, tool, 'p50'):>9,.0f} ns  p99 {m(c, tool, 'p99'):>10,.0f} ns  (n={len(v[(c, tool, metric)])})")
EOF
