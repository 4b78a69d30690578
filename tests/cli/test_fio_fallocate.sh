#!/usr/bin/env bash
# fio 3.33's layout of a job's new file (issue 30): fallocate= and overwrite=.  fio's extend_file
# unlinks the file, creates it and allocates it as fallocate= says; a job that only writes then
# writes nothing before its own writes (so it writes into unwritten extents, or grows the file),
# a job that reads, or writes with overwrite=1, truncates it to size and writes its data first.
# Under strace, beside real fio: the calls on the file before the job opens it for its I/O
# (O_CLOEXEC and O_EXCL, which nodemark adds, left out; the layout's data as a byte count), and
# the file's size and allocated blocks after a job that writes a quarter of it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "the calls that make the file"
require_fio
scratch_dir

# the setup calls on file f in a strace log, up to the job's open (O_RDWR) after them
setup='
import re, sys
fds, out, data = set(), [], 0
for line in open(sys.argv[1]):
    call = line.split(None, 1)[1]
    m = re.match(r"(\w+)\((.*)\) += (-?\d+)", call)
    if not m:
        continue
    name, args, ret = m.group(1), m.group(2), int(m.group(3))
    if name == "unlink" and args.endswith("/f\""):
        out.append("unlink")
    elif name == "openat" and "/f\"" in args:
        flags = [x for x in args.split(", ")[2].split("|") if x not in ("O_CLOEXEC", "O_EXCL")]
        if "O_RDWR" in flags and out:
            break  # the job open; nodemark checks an existing file may be written before
        if "O_RDWR" in flags:
            continue
        fds.add(str(ret))
        out.append("open=" + "|".join(flags))
    elif args.split(",")[0] in fds:
        if name == "close":
            fds.discard(args)
        elif name == "fallocate":
            out.append("fallocate=" + ",".join(a.strip() for a in args.split(",")[1:]))
        elif name == "ftruncate":
            out.append("ftruncate=" + args.split(", ")[1])
        elif name in ("write", "pwrite64") and ret > 0:
            data += ret
print(" ".join(out), "data=%d" % data)
'
# run TOOL ARGS...: TOOL's job on $d/f (made afresh) under strace; "calls | size blocks" in $got
run() {
    local tool=$1
    shift
    rm -f f
    strace_fio "$tool" "$tool.st" -e trace=unlink,openat,close,fallocate,ftruncate,write,pwrite64 -- \
        --name=j --filename="$d/f" --size=1M --io_size=256k --bs=4k --output=/dev/null "$@" >/dev/null 2>"$tool.err"
    [ "$rc" = 0 ] || { got="exit $rc: $(head -c 300 "$tool.err")"; return; }
    got="$(py "$setup" "$tool.st" 2>&1) | $(stat -c '%s %b' f)"
}
# same WHAT ARGS...: fio and nodemark make the file with the same calls, and leave it as large
same() {
    local what=$1 f n
    shift
    run fio "$@"; f=$got
    run nm "$@"; n=$got
    [ "$f" = "$n" ] && ok "$what: the file made and left as fio's: $n" ||
        not_ok "$what: the calls that make the file | its size and blocks after the job" "fio: $f; nodemark: $n"
}

for fa in native none posix keep truncate; do
    same "rw=write fallocate=$fa" --rw=write --fallocate=$fa
done
same "rw=write overwrite=1" --rw=write --overwrite=1
same "rw=randwrite fallocate=none" --rw=randwrite --fallocate=none
same "rw=randwrite fallocate=truncate" --rw=randwrite --fallocate=truncate
same "rw=randrw fallocate=none" --rw=randrw --fallocate=none
# create_on_open=1: fio makes nothing before the job, whose open creates the file (nodemark
# creates it empty before): only the file's size and blocks after the job are compared
run fio --rw=write --create_on_open=1; f=${got#*| }
run nm --rw=write --create_on_open=1; n=${got#*| }
[ "$f" = "$n" ] && ok "rw=write create_on_open=1: the file left as fio's: $n" ||
    not_ok "rw=write create_on_open=1: size and blocks after the job" "fio: $f; nodemark: $n"
# file_append=1 on a kept file (nodemark's, marked): a write job neither removes nor rewrites it,
# it allocates what the appended region needs
for tool in fio nm; do
    rm -f f
    if [ $tool = nm ]; then "$NM" fio --no-save --name=j --filename="$d/f" --size=64k --rw=write --output=/dev/null 2>/dev/null
    else fio --name=j --filename="$d/f" --size=64k --rw=write --output=/dev/null >/dev/null 2>&1; fi
    strace_fio $tool $tool.st -e trace=unlink,openat,close,fallocate,ftruncate,write,pwrite64 -- \
        --name=j --filename="$d/f" --size=256k --io_size=64k --rw=write --file_append=1 --output=/dev/null >/dev/null 2>$tool.err
    eval "$tool=\"exit \$rc: \$(py \"\$setup\" $tool.st 2>&1) | \$(stat -c '%s %b' f)\""
done
[ "$fio" = "$nm" ] && ok "rw=write file_append=1 on a kept file: made and left as fio's: $nm" ||
    not_ok "rw=write file_append=1 on a kept file" "fio: $fio; nodemark: $nm"

# nodemark's own file (kept by an earlier run, marked) shorter than the job: remade as fio remakes
# it, and marked again; a user's file named in --allow-write is only grown, never removed
rm -f f
"$NM" fio --no-save --name=j --filename="$d/f" --size=64k --rw=write --output=/dev/null 2>/dev/null
strace_fio nm nm.st -e trace=unlink,openat,close,fallocate,ftruncate,write,pwrite64 -- \
    --name=j --filename="$d/f" --size=1M --io_size=256k --rw=write --fallocate=none --output=/dev/null >/dev/null 2>nm.err
n="$(py "$setup" nm.st 2>&1) | $(stat -c '%s %b' f) $(py 'import os; print(os.getxattr("f", "user.nodemark").decode())' 2>&1)"
mv f u # the user's now: no mark
py 'import os; os.removexattr("u", "user.nodemark")'
head -c 65536 /dev/zero >u
ino=$(stat -c %i u)
strace_fio nm nm2.st -e trace=unlink -- \
    --name=j --filename="$d/u" --allow-write="$d/u" --size=1M --io_size=256k --rw=write --output=/dev/null >/dev/null 2>>nm.err
u="$rc $(grep -c 'unlink(' nm2.st) $(stat -c '%i %s' u)"
[ "$n" = "unlink open=O_WRONLY|O_CREAT data=0 | 262144 512 created by nodemark" ] && [ "$u" = "0 0 $ino 1048576" ] &&
    ok "a marked file shorter than the job is removed and made again, marked ($n); a user's is grown with data, never removed" ||
    not_ok "a marked file shorter than the job is remade, a user's is not" "marked: $n; user's (exit, unlinks, inode, size): $u, want 0 0 $ino 1048576; $(head -c 200 nm.err)"

run_nm fio --no-save --name=j --size=64k --fallocate=some
expect_refused "fallocate=some is refused in one line"
