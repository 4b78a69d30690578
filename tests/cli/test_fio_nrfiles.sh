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
# return; descriptors are the process's (fio runs its job as a thread here), and a job file's
# close and reads count from the thread that opened it: strace may print another thread's
# close of the same number after the open that reused it (the close returned first, its line
# came later), which once lost a file's read here (1999 of 2000).
calls='
import re, sys
sys.path.insert(0, sys.argv[2])
from strace_lines import strace_calls
fds, opens, closes, reads = {}, {}, 0, {}
most = nbytes = 0
for tid, call in strace_calls(sys.argv[1]):
    m = re.match(r"openat\(AT_FDCWD, \"[^\"]*/(x\.0\.\d+)\", ([^)]*)\)\s*= (\d+)", call)
    if m and "O_CREAT" not in m.group(2):
        fds[int(m.group(3))] = (tid, m.group(1))
        opens[m.group(1)] = opens.get(m.group(1), 0) + 1
        most = max(most, len(fds))
        continue
    m = re.match(r"close\((\d+)\)\s*= 0", call)
    if m and fds.get(int(m.group(1)), ("",))[0] == tid:
        del fds[int(m.group(1))]
        closes += 1
        continue
    m = re.match(r"pread64\((\d+),.*, (\d+), (\d+)\)\s*= (\d+)", call)
    if m and fds.get(int(m.group(1)), ("",))[0] == tid:
        reads.setdefault(fds[int(m.group(1))][1], []).append((int(m.group(3)), int(m.group(4))))
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
    got=$(py "$calls" "$tool.st" "$TESTS_DIR/cli/helpers" 2>&1)
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

# openfiles=2 below nrfiles=8 with random I/O (64k files, 4k blocks): fio opens a file at its
# first I/O and closes it once done, its random map full (without the map, or where a pick
# keeps a file, a file is never done and the first open ones take every I/O); a pick of a
# closed file at the cap moves round robin on to the next open one, and file_service_type=random
# draws again (fio's generator). The order of the calls, per file: oN open, cN close, iN:K
# K I/Os in a row (reads and writes), then each file's opens, closes, I/Os and bytes.
order='
import re, sys
sys.path.insert(0, sys.argv[2])
from strace_lines import strace_calls
fds, ev, per = {}, [], {}
for tid, call in strace_calls(sys.argv[1]):
    m = re.match(r"openat\(AT_FDCWD, \"[^\"]*/x\.0\.(\d+)\", ([^)]*)\)\s*= (\d+)", call)
    if m and "O_WRONLY" not in m.group(2): # the layout writes with O_WRONLY
        fds[int(m.group(3))] = (tid, m.group(1))
        ev.append("o" + m.group(1))
        per.setdefault(m.group(1), [0, 0, 0, 0])[0] += 1
        continue
    m = re.match(r"close\((\d+)\)\s*= 0", call)
    if m and fds.get(int(m.group(1)), ("",))[0] == tid:
        f = fds.pop(int(m.group(1)))[1]
        ev.append("c" + f)
        per[f][1] += 1
        continue
    m = re.match(r"p(?:read|write)64\((\d+),.*, \d+, \d+\)\s*= (\d+)", call)
    if m and fds.get(int(m.group(1)), ("",))[0] == tid:
        f = fds[int(m.group(1))][1]
        per[f][2] += 1
        per[f][3] += int(m.group(2))
        if ev and ev[-1].startswith("i" + f + ":"):
            ev[-1] = "i%s:%d" % (f, int(ev[-1].split(":")[1]) + 1)
        else:
            ev.append("i%s:1" % f)
print(" ".join(ev), "|", " ".join("%s:%s" % (f, ",".join(map(str, v))) for f, v in sorted(per.items())))
'
# lazy TOOL ARGS...: the calls of TOOL's psync job of 8 files under strace, in $got
lazy() {
    local tool=$1
    shift
    rm -rf dir && mkdir dir
    strace_fio "$tool" "$tool.st" -e trace=openat,close,pread64,pwrite64 -- --name=x --thread --ioengine=psync \
        --directory="$d/dir" --nrfiles=8 --size=512k --bs=4k --openfiles=2 "$@" --output=/dev/null >"$tool.err" 2>&1
    got=$(py "$order" "$tool.st" "$TESTS_DIR/cli/helpers" 2>&1)
    [ "$rc" = 0 ] || got="exit $rc: $(head -c 200 "$tool.err")"
}
# same_files WHAT WANT_PER_FILE ARGS...: fio and nodemark make the same calls in the same order,
# and each file's opens,closes,I/Os,bytes are WANT_PER_FILE (the calls' order alone is fio's)
same_files() {
    local what=$1 want=$2 f
    shift 2
    lazy fio "$@"
    f=$got
    lazy nm "$@"
    [ "${f#*| }" = "$want" ] && [ "$got" = "$f" ] && ok "$what" ||
        not_ok "$what" "want $want; fio: ${f:0:600}; nodemark: ${got:0:600}"
}
all8="0:1,1,16,65536 1:1,1,16,65536 2:1,1,16,65536 3:1,1,16,65536 4:1,1,16,65536 5:1,1,16,65536 6:1,1,16,65536 7:1,1,16,65536"
same_files "randread openfiles=2 (random map): files 0-1 in turn until full, closed, then 2-3..., 16 reads each, as fio" \
    "$all8" --rw=randread
same_files "randread openfiles=2 loops=2: each file opened twice, its map full in each loop, as fio" \
    "${all8//1,1,16,65536/2,2,32,131072}" --rw=randread --loops=2
same_files "randread norandommap openfiles=2: files 0 and 1 take all 128 reads, as fio" \
    "0:1,1,64,262144 1:1,1,64,262144" --rw=randread --norandommap
same_files "randrw file_service_type=random openfiles=2: fio's draws, a full file closed, 16 I/Os each" \
    "$all8" --rw=randrw --file_service_type=random
lazy fio --rw=randwrite --file_service_type=random --norandommap
same_files "randwrite norandommap file_service_type=random openfiles=2: the first two files drawn take every write, as fio's draws" \
    "${got#*| }" --rw=randwrite --file_service_type=random --norandommap
same_files "randread file_service_type=sequential openfiles=2: one file at a time, 16 reads each, as fio" \
    "$all8" --rw=randread --file_service_type=sequential
same_files "randread norandommap file_service_type=sequential: file 0 takes all 128 reads, as fio" \
    "0:1,1,128,524288" --rw=randread --file_service_type=sequential --norandommap
