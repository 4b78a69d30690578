#!/usr/bin/env bash
# fio 3.33's create_serialize (issue 30).  =1 (the default): every job's files are laid out
# before any job starts, one job after another, by one thread; =0: a job's files are laid out by
# its own thread when it starts, so a stonewalled job's only once the jobs before it are done,
# and the jobs of one group each by their own thread.  Under strace, beside real fio, in the
# order of the calls (mechanisms, never timings): how many of job a's reads come before job b's
# file is created, and whether a's and b's files are created by one thread or two.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "the order of layout and I/O"
require_fio
scratch_dir

# two jobs of 64 reads of 4k, each on its own new file; $1: create_serialize, $2: b's stonewall
jobfile() {
    printf '[global]\nioengine=psync\nbs=4k\nsize=256k\nrw=read\nthread\ncreate_serialize=%s\n' "$1"
    printf '[a]\nfilename=%s/fa\n[b]\nfilename=%s/fb\n%s\n' "$d" "$d" "$2"
}
# the reads of 4k before fb's creation, and how many threads created fa and fb
order='
import re, sys
reads, before, creators = 0, None, {}
for line in open(sys.argv[1]):
    tid, call = line.split(None, 1)
    if call.startswith("pread64(") and (", 4096, " in call or "unfinished" in call):
        reads += 1
    m = re.match(r"openat\(AT_FDCWD, \"[^\"]*/(f[ab])\", [^)]*O_CREAT", call)
    if m:
        creators.setdefault(m.group(1), tid)
        if m.group(1) == "fb" and before is None:
            before = reads
print(reads, before, len(set(creators.values())), len(creators))
'
# calls TOOL CS STONEWALL: "reads reads-before-fb threads-creating files-created" into $got
calls() {
    rm -f fa fb
    jobfile "$2" "$3" >j.fio
    strace_fio "$1" "$1.st" -e trace=openat,pread64 -- j.fio --output=/dev/null >/dev/null 2>"$1.err"
    [ "$rc" = 0 ] || not_ok "$1, create_serialize=$2: ran under strace" "exit $rc: $(head -c 300 "$1.err")"
    got=$(py "$order" "$1.st" 2>&1)
}

for cs in 1 0; do
    # b stonewalled after a: =1 lays fb out before a's first read, =0 only after a's last
    want="128 0 1 2"
    [ "$cs" = 0 ] && want="128 64 2 2"
    calls fio "$cs" stonewall; f=$got
    calls nm "$cs" stonewall; n=$got
    [ "$f" = "$want" ] && [ "$n" = "$want" ] &&
        ok "create_serialize=$cs, b stonewalled: fio and nodemark read $(cut -d' ' -f2 <<<"$want") of a's 64 blocks before creating b's file (from $(cut -d' ' -f3 <<<"$want") thread(s))" ||
        not_ok "create_serialize=$cs, b stonewalled: a's reads before b's file is created" "want $want, fio: $f, nodemark: $n"
    # one group: =1 one thread lays both files out, =0 each job's own thread its file
    calls fio "$cs" ""; f=${got#* * }
    calls nm "$cs" ""; n=${got#* * }
    want="1 2"
    [ "$cs" = 0 ] && want="2 2"
    [ "$f" = "$want" ] && [ "$n" = "$want" ] &&
        ok "create_serialize=$cs, one group: fio and nodemark create the 2 files from ${want% 2} thread(s)" ||
        not_ok "create_serialize=$cs, one group: the threads creating the files" "want $want, fio: $f, nodemark: $n"
done

# a deferred layout that fails (nodemark grows no file of the user's that it only reads): a has
# run, b's failure names its file, exit 2 (bad input), as when found before the run
: >empty
printf '[global]\nioengine=psync\nbs=4k\nsize=256k\nrw=read\ncreate_serialize=0\n[a]\nfilename=%s/fa\n[b]\nstonewall\nfilename=%s/empty\n' "$d" "$d" >bad.fio
rm -f fa
run_nm fio --no-save --output-format=json bad.fio
ran=$(printf '%s' "$out" | py 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["read"]["total_ios"])' 2>&1)
[ "$rc" = 2 ] && [[ $err == *"job 'b'"*/empty:* ]] && [ "$ran" = 64 ] &&
    ok "create_serialize=0: b's layout fails once a ran (64 reads): exit 2, b's file named" ||
    not_ok "create_serialize=0: b's layout fails once a ran" "exit $rc, a's reads: $ran, stderr: ${err:0:300}"
run_nm fio --no-save --name=j --size=64k --create_serialize=2
expect_refused "create_serialize=2 is refused in one line"
