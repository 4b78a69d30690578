#!/usr/bin/env bash
# fio 3.33's nrfiles beyond 1024 (issue 30), beside real fio: the null engine's bytes, a
# directory of 2000 one-block files read under strace (every file opened for the job once, read
# once at offset 0 and closed; the bytes and I/Os), openfiles=64 (at most 64 of the job's files
# open at any point in the order of the calls, each still opened and closed once), and the
# process's descriptor limit (RLIMIT_NOFILE) below nrfiles without openfiles: both stop on the
# file they cannot open.  Mechanisms, never timings.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
scratch_dir

json_bytes='import json, sys
r = json.load(sys.stdin)["jobs"][0]["read"]; print(r["io_bytes"], r["total_ios"])'
fio --output-format=json --name=x --ioengine=null --nrfiles=2000 --size=8192000 >fio.json 2>fio.err
f=$(sed -n '/^{/,$p' fio.json | py "$json_bytes" 2>&1)
run_nm fio --no-save --output-format=json --name=x --ioengine=null --nrfiles=2000 --size=8192000
n=$(printf '%s' "$out" | py "$json_bytes" 2>&1)
[ "$f" = "8192000 2000" ] && [ "$n" = "$f" ] &&
    ok "null engine, nrfiles=2000 size=8192000: fio and nodemark move 8192000 bytes in 2000 I/Os" ||
    not_ok "null engine, nrfiles=2000: bytes and I/Os" "fio: $f, nodemark: $n (exit $rc: ${err:0:200})"

skip_without strace "the files' opens, reads and closes"
# The job's files x.0.N opened without O_CREAT (not the layout's): files opened, opens, closes,
# the most open at once in the order of the calls, reads, bytes read, files read other than
# once at offset 0 for 4096 bytes (8m over 2000 files: 4194 bytes each, one whole block).  Calls split by strace (unfinished/resumed) count where they
# return; descriptors are the process's (fio runs its job as a thread here).
calls='
import re, sys
fds, pending, opens, closes, reads = {}, {}, {}, 0, {}
most = nbytes = 0
for line in open(sys.argv[1]):
    tid, call = line.split(None, 1)
    if "<unfinished ...>" in call:
        pending[tid] = call.split("<unfinished", 1)[0].rstrip()
        continue
    m = re.match(r"<\.\.\. \w+ resumed>(.*)", call)
    if m:
        call = pending.pop(tid, "") + m.group(1)
    m = re.match(r"openat\(AT_FDCWD, \"[^\"]*/(x\.0\.\d+)\", ([^)]*)\)\s*= (\d+)", call)
    if m and "O_CREAT" not in m.group(2):
        fds[int(m.group(3))] = m.group(1)
        opens[m.group(1)] = opens.get(m.group(1), 0) + 1
        most = max(most, len(fds))
        continue
    m = re.match(r"close\((\d+)\)\s*= 0", call)
    if m and int(m.group(1)) in fds:
        del fds[int(m.group(1))]
        closes += 1
        continue
    m = re.match(r"pread64\((\d+),.*, (\d+), (\d+)\)\s*= (\d+)", call)
    if m and int(m.group(1)) in fds:
        reads.setdefault(fds[int(m.group(1))], []).append((int(m.group(3)), int(m.group(4))))
        nbytes += int(m.group(4))
odd = sum(1 for r in reads.values() if r != [(0, 4096)])
print(len(opens), sum(opens.values()), closes, most, sum(len(r) for r in reads.values()), nbytes, odd)
'
# run TOOL EXTRA...: the psync job on 2000 files of 4k in $d/dir under strace; its calls in $got
run() {
    local tool=$1
    shift
    rm -rf dir && mkdir dir
    strace_fio "$tool" "$tool.st" -e trace=openat,close,pread64 -- --name=x --thread --ioengine=psync \
        --directory="$d/dir" --nrfiles=2000 --size=8m --bs=4k "$@" --output-format=json >"$tool.json" 2>"$tool.err"
    [ "$rc" = 0 ] || not_ok "$tool, nrfiles=2000 $*: ran under strace" "exit $rc: $(head -c 300 "$tool.err")"
    got=$(py "$calls" "$tool.st" 2>&1)
}

run fio
f=$got
kept=$(find dir -maxdepth 1 -name 'x.0.*' -size 4194c | wc -l)
run nm
n=$got
left=$(find dir -mindepth 1 | wc -l)
want="2000 2000 2000 2000 2000 8192000 0"
[ "$f" = "$want" ] && [ "$n" = "$want" ] &&
    ok "psync, nrfiles=2000 size=8m bs=4k: fio and nodemark open all 2000 files at once, read each once (4096 bytes at 0), 8192000 bytes, and close each" ||
    not_ok "psync, nrfiles=2000: files opened, opens, closes, most open, reads, bytes, odd files" "want $want, fio: $f, nodemark: $n"
# fio keeps its 2000 files of 4194 bytes (unlink=0); nodemark's are in its private directory,
# removed at the end (docs/fio-compat.md)
[ "$kept" = 2000 ] && [ "$left" = 0 ] &&
    ok "nrfiles=2000: fio keeps 2000 files of 4194 bytes, nodemark removes its private directory" ||
    not_ok "nrfiles=2000: the files left" "fio: $kept of 4194 bytes, nodemark: $left entries left"

run fio --openfiles=64
f=$got
run nm --openfiles=64
n=$got
want="2000 2000 2000 64 2000 8192000 0"
[ "$f" = "$want" ] && [ "$n" = "$want" ] &&
    ok "psync, nrfiles=2000 openfiles=64: fio and nodemark open each file once, at most 64 at a time, and close each" ||
    not_ok "psync, nrfiles=2000 openfiles=64: files opened, opens, closes, most open, reads, bytes, odd files" "want $want, fio: $f, nodemark: $n"

# fewer descriptors than files (RLIMIT_NOFILE 1024) and no openfiles: both stop on the file
# that cannot be opened, exit 1, "Too many open files"
rm -rf dir && mkdir dir
args=(--name=x --ioengine=psync --directory="$d/dir" --nrfiles=2000 --size=8m --bs=4k)
(ulimit -n 1024 && exec fio "${args[@]}") >fio.out 2>&1
frc=$?
run_cmd bash -c 'ulimit -n 1024 && exec "$@"' - "$NM" fio --no-save "${args[@]}" --output=/dev/null
[ "$frc" = 1 ] && [ "$rc" = 1 ] && grep -q 'open(.*/x\.0\.[0-9]*), error=Too many open files' fio.out &&
    [[ $err == *"/x.0."*": cannot open: Too many open files"* ]] &&
    ok "RLIMIT_NOFILE 1024 below nrfiles=2000: fio and nodemark exit 1 naming the file they cannot open" ||
    not_ok "RLIMIT_NOFILE below nrfiles" "fio: exit $frc $(grep -m1 error= fio.out), nodemark: exit $rc ${err:0:300}"
