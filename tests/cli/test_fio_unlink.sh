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
