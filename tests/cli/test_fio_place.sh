#!/usr/bin/env bash
# Where a fio job's threads run, as fio 3.33 places them (issue 30): cpus_allowed_policy (shared,
# fio's default: every thread on the whole set; split: thread N of the job file on the set's CPU
# N mod its size), numa_cpu_nodes (every thread on the nodes' CPUs, after cpus_allowed), and
# numa_mem_policy (the thread's set_mempolicy).  Real fio and nodemark fio run the same jobs
# under strace; each I/O thread's last sched_setaffinity mask and its set_mempolicy/mbind calls
# (helpers/thread_calls.py) must be the same.  Mechanisms only, never timings.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "the CPU masks and memory policies of the job threads"
require_fio
scratch_dir

mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
first=${mine%%[-,]*}

# same_calls WHAT ARGS...: fio and nodemark fio on the same job (files in w/), the calls of
# their I/O threads alike; a thread for each of the job file's threads
same_calls() {
    local what=$1 f n
    shift
    rm -rf w && mkdir w
    strace_fio fio fio.st -y -s 16 -e trace=sched_setaffinity,set_mempolicy,mbind,pread64 -- \
        --thread --directory=w --size=64k --bs=8k --rw=read --output=/dev/null "$@" >/dev/null 2>fio.err
    [ "$rc" = 0 ] || { not_ok "$what: fio ran" "exit $rc: $(head -c 300 fio.err)"; return; }
    rm -rf w && mkdir w
    strace_fio nm nm.st -y -s 16 -e trace=sched_setaffinity,set_mempolicy,mbind,pread64 -- \
        --thread --directory=w --size=64k --bs=8k --rw=read --output=/dev/null "$@" >/dev/null 2>nm.err
    [ "$rc" = 0 ] || { not_ok "$what: nodemark fio ran" "exit $rc: $(head -c 300 nm.err)"; return; }
    f=$(python3 "$TESTS_DIR/cli/helpers/thread_calls.py" fio.st 8192)
    n=$(python3 "$TESTS_DIR/cli/helpers/thread_calls.py" nm.st 8192)
    if [ -n "$f" ] && [ "$f" = "$n" ]; then
        ok "$what: $(tr '\n' ';' <<<"$f")"
    else
        not_ok "$what" "fio: $(tr '\n' ';' <<<"$f") nodemark: $(tr '\n' ';' <<<"$n")"
    fi
}

# --- cpus_allowed_policy ------------------------------------------------------------------
for nj in 1 2 3; do
    same_calls "numjobs=$nj, no cpus_allowed: no thread sets a mask" --name=j --numjobs=$nj
    same_calls "numjobs=$nj, cpus_allowed=$mine (shared by default): every thread on the whole set" \
        --name=j --numjobs=$nj --cpus_allowed="$mine"
    same_calls "numjobs=$nj, cpus_allowed=$mine, policy shared" \
        --name=j --numjobs=$nj --cpus_allowed="$mine" --cpus_allowed_policy=shared
    same_calls "numjobs=$nj, cpus_allowed=$mine, policy split: one CPU each, in turn" \
        --name=j --numjobs=$nj --cpus_allowed="$mine" --cpus_allowed_policy=split
    same_calls "numjobs=$nj, cpus_allowed=$first, policy split: more threads than CPUs wrap" \
        --name=j --numjobs=$nj --cpus_allowed="$first" --cpus_allowed_policy=split
done
# fio counts the threads of the whole job file: the second job's first thread takes the next CPU
same_calls "two jobs, split: the threads are numbered over the job file" \
    --cpus_allowed="$mine" --cpus_allowed_policy=split --name=a --numjobs=1 --name=b --numjobs=2
same_calls "the policy without cpus_allowed sets no mask" --name=j --numjobs=2 --cpus_allowed_policy=split
same_calls "numa_cpu_nodes=0: every thread on node 0's CPUs" --name=j --numjobs=2 --numa_cpu_nodes=0
same_calls "numa_cpu_nodes=0 after cpus_allowed=$first, split: the nodes' CPUs win, as fio's" \
    --name=j --numjobs=2 --numa_cpu_nodes=0 --cpus_allowed="$first" --cpus_allowed_policy=split
same_calls "cpus_allowed=$first after numa_cpu_nodes=0: the nodes' CPUs still win" \
    --name=j --numjobs=2 --cpus_allowed="$first" --numa_cpu_nodes=0

run_nm fio --no-save --name=j --size=64k --cpus_allowed_policy=half
expect_refused "cpus_allowed_policy=half is refused in one line" "expected shared or split"

# --- numa_mem_policy: each thread's set_mempolicy (mode, node mask, maxnode) as fio's libnuma
# makes it, before the thread's buffers; default makes none, and neither tool calls mbind
for pol in default prefer:0 bind:0 interleave interleave:0 local; do
    same_calls "numa_mem_policy=$pol: the same set_mempolicy in each thread" --name=j --numjobs=2 --numa_mem_policy=$pol
done
same_calls "numa_mem_policy=bind:0 with cpus_allowed, split, and numa_cpu_nodes=all" \
    --name=j --numjobs=2 --numa_mem_policy=bind:0 --cpus_allowed="$mine" --cpus_allowed_policy=split \
    --name=k --numa_cpu_nodes=all --numa_mem_policy=interleave:all

# a node that does not exist here, and malformed policies: one line, exit 2
absent=0
while [ -e /sys/devices/system/node/node$absent ]; do absent=$((absent + 1)); done
for pol in bind:$absent prefer:$absent interleave:0-$absent; do
    run_nm fio --no-save --name=j --size=64k --numa_mem_policy=$pol
    expect_refused "numa_mem_policy=$pol (node $absent is not here) is refused in one line" "node $absent does not exist here"
done
run_nm fio --no-save --name=j --size=64k --numa_cpu_nodes=$absent
expect_refused "numa_cpu_nodes=$absent is refused in one line" "node $absent does not exist here"
for pol in fast bind local:0 default:0 prefer:0-1 prefer interleave:x; do
    run_nm fio --no-save --name=j --size=64k --numa_mem_policy=$pol
    expect_refused "numa_mem_policy=$pol is refused in one line"
done
