#!/usr/bin/env bash
# fio's unlink: a job's file stays (unlink=0, fio's default), so a write job and a stonewalled
# verify job of the same file work, in one run and over two runs; unlink=1 removes it. Each case
# beside real fio: bytes read, the verify's errors, the file left behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
scratch_dir

cat >wv.fio <<'JOB'
[global]
filename=f
size=1m
bs=4k
verify=crc32c
[write]
rw=write
do_verify=0
[verify]
stonewall
rw=read
JOB

# TOOL ARGS...: fio or nodemark fio with JSON output, into TOOL.json; rc set
run_tool() {
    local tool=$1
    shift
    if [ "$tool" = fio ]; then
        fio --output-format=json "$@" >fio.json 2>fio.err
        rc=$?
    else
        "$NM" fio --no-save --output-format=json "$@" >nm.json 2>nm.err
        rc=$?
    fi
}
# FILE: the verify job's read bytes and error count, and the write job's written bytes
figures() { json_file "$1" '[(x["jobname"], x["read"]["io_bytes"], x["write"]["io_bytes"], x["error"]) for x in j["jobs"]]'; }

for tool in fio nm; do
    rm -f f
    run_tool $tool wv.fio
    [ $rc -eq 0 ] || not_ok "$tool: write then verify in one run" "exit $rc: $(head -c 300 $tool.err)"
    [ -f f ] && echo kept >$tool.kept || echo gone >$tool.kept
    figures $tool.json >$tool.fig
done
if [ "$(cat fio.fig)" = "$(cat nm.fig)" ] && grep -q "'verify', 1048576, 0, 0" nm.fig; then
    ok "write then stonewalled verify: same bytes and no errors as fio ($(cat nm.fig))"
else
    not_ok "write then stonewalled verify: as fio" "fio $(cat fio.fig); nodemark $(cat nm.fig)"
fi
if [ "$(cat nm.kept)" = kept ] && [ "$(cat fio.kept)" = kept ]; then
    ok "unlink=0 (the default): the file stays after the run, as fio's"
else
    not_ok "unlink=0: the file stays" "fio: $(cat fio.kept), nodemark: $(cat nm.kept)"
fi
[ "$(stat -c %s f 2>/dev/null)" = 1048576 ] && ok "the kept file is the job's size" || not_ok "the kept file is the job's size"

# over two runs: fio writes with verify headers, nodemark verifies what it left (and back)
rm -f f
fio --output-format=json --name=w --filename=f --size=1m --rw=write --verify=crc32c --do_verify=0 >/dev/null 2>&1
run_tool nm --name=v --filename=f --size=1m --rw=read --verify=crc32c
[ $rc -eq 0 ] && [ "$(json_file nm.json 'j["jobs"][0]["read"]["io_bytes"]')" = 1048576 ] &&
    ok "nodemark verifies the file fio's write run left" || not_ok "nodemark verifies fio's file" "exit $rc: $(head -c 300 nm.err)"
rm -f f
run_tool nm --name=w --filename=f --size=1m --rw=write --verify=crc32c --do_verify=0
fio --output-format=json --name=v --filename=f --size=1m --rw=read --verify=crc32c >fio.json 2>fio.err
frc=$?
[ $frc -eq 0 ] && [ "$(json_file fio.json 'j["jobs"][0]["read"]["io_bytes"]')" = 1048576 ] &&
    ok "fio verifies the file nodemark's write run left" || not_ok "fio verifies nodemark's file" "exit $frc: $(head -c 300 fio.err)"

# unlink=1 on the last job: both remove the file at the end (fio removes it when that job ends)
sed 's/^rw=read$/rw=read\nunlink=1/' wv.fio >wvu.fio
for tool in fio nm; do
    rm -f f
    run_tool $tool wvu.fio
    [ -e f ] && echo kept >$tool.kept || echo gone >$tool.kept
    figures $tool.json >$tool.fig
done
if [ "$(cat nm.kept)" = gone ] && [ "$(cat fio.kept)" = gone ] && [ "$(cat fio.fig)" = "$(cat nm.fig)" ]; then
    ok "unlink=1: the verify still passes and the file is removed, as fio's"
else
    not_ok "unlink=1: as fio" "fio: $(cat fio.kept) $(cat fio.fig); nodemark: $(cat nm.kept) $(cat nm.fig)"
fi

# --- nodemark's mark: a rerun rewrites its own kept file, and only that ------------------------
mark() { python3 -c 'import os,sys
try: print(os.getxattr(sys.argv[1], "user.nodemark").decode())
except OSError as e: print("none")' "$1"; }
rm -f f
run_tool nm --name=w --filename=f --size=256k --rw=write
check "the kept file carries nodemark's mark (user.nodemark)" test "$(mark f)" = "created by nodemark"
run_tool nm --name=w --filename=f --size=512k --rw=randwrite
[ $rc -eq 0 ] && [ "$(stat -c %s f)" = 524288 ] && ok "a second run of the same write job rewrites (and grows) its kept file" ||
    not_ok "a rerun rewrites nodemark's kept file" "exit $rc: $(head -c 300 nm.err)"
check "the rewritten file keeps the mark" test "$(mark f)" = "created by nodemark"
# files nodemark did not create stay protected exactly as before: the user's own, a copy of a
# kept file (cp does not copy the attribute), a file the user made at a kept file's path
head -c 300000 /dev/urandom >u
cp f c
rm -f f && head -c 300000 /dev/urandom >f
for x in u c f; do
    sum=$(cksum <$x)
    run_tool nm --name=w --filename=$x --size=256k --rw=write
    if [ $rc -eq 2 ] && grep -q "did not create is only read unless named again in --allow-write=$x" nm.err &&
        [ "$(cksum <$x)" = "$sum" ]; then
        ok "an unmarked file ($x) is refused and unchanged"
    else
        not_ok "an unmarked file ($x) is refused and unchanged" "exit $rc: $(head -c 300 nm.err)"
    fi
done
# a mark with another value is no mark
python3 -c 'import os; os.setxattr("u", "user.nodemark", b"created by someone")'
run_tool nm --name=w --filename=u --size=256k --rw=write
check "an attribute with another value is not nodemark's mark: refused" test $rc -eq 2
# unlink=1 removes a kept file an earlier run made, never an unmarked one
rm -f f k && run_tool nm --name=w --filename=k --size=64k --rw=write
run_tool nm --name=r --filename=k --size=64k --rw=read --unlink=1
check "unlink=1 removes the file an earlier run kept" test $rc -eq 0 -a ! -e k
run_tool nm --name=r --filename=u --size=64k --rw=read --unlink=1
check "unlink=1 leaves a file nodemark did not create" test $rc -eq 0 -a -f u
