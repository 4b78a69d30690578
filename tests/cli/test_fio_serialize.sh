#!/usr/bin/env bash
# fio 3.33's serializing options in nodemark fio (issue 30).  serialize_overlap=1: with an async
# engine at iodepth > 1, an I/O overlapping one in flight on its file waits until that one
# completes.  A 4-block file written at random with iodepth=8 overlaps nearly every I/O; under
# strace (libaio: io_submit names each I/O's bytes and io_getevents its completion, both by
# aio_data) no nodemark I/O is submitted over one in flight, where without the option most are.
# Beside real fio: both report 64 I/Os, and none submitted 8 deep with the option (only 4 blocks
# can be in flight), where without it both go 8 deep.  Mechanisms only, never timings.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "the I/Os in flight"
require_fio
scratch_dir

job=(--name=j --thread --directory=w --size=16k --io_size=256k --bs=4k --rw=randwrite --ioengine=libaio
    --iodepth=8 --norandommap)
for so in 0 1; do
    rm -rf w && mkdir w
    strace_fio nm nm$so.st -s 8 -e trace=io_submit,io_getevents -- "${job[@]}" --serialize_overlap=$so \
        --output=/dev/null >/dev/null 2>nm.err
    [ "$rc" = 0 ] || not_ok "serialize_overlap=$so: nodemark fio ran under strace" "exit $rc: $(head -c 300 nm.err)"
    read -r n over most < <(python3 "$TESTS_DIR/cli/helpers/aio_overlaps.py" nm$so.st)
    if [ "$so" = 1 ]; then
        [ "$n" = 64 ] && [ "$over" = 0 ] && [ "$most" -le 4 ] &&
            ok "serialize_overlap=1: 64 I/Os, none submitted over one in flight, at most 4 in flight" ||
            not_ok "serialize_overlap=1: 64 I/Os, none submitted over one in flight" "submitted $n, overlapping $over, most in flight $most"
    else
        [ "$n" = 64 ] && [ "$over" -gt 32 ] && [ "$most" = 8 ] &&
            ok "serialize_overlap=0: the same job submits over I/Os in flight ($over of 64), 8 in flight" ||
            not_ok "serialize_overlap=0: the same job submits over I/Os in flight" "submitted $n, overlapping $over, most in flight $most"
    fi
done

# beside fio: the I/O count, and how deep the I/Os went (fio's iodepth_level, at submission)
for so in 0 1; do
    rm -rf w && mkdir w
    fio --output-format=json "${job[@]}" --serialize_overlap=$so >fio.json 2>fio.err ||
        not_ok "serialize_overlap=$so: fio ran" "$(head -c 300 fio.err)"
    rm -rf w && mkdir w
    run_nm fio --no-save --output-format=json "${job[@]}" --serialize_overlap=$so
    printf '%s\n' "$out" >nm.json
    deep='j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["write"]["total_ios"], j["iodepth_level"]["8"] > 0)'
    f=$(py "import json, sys; $deep" fio.json 2>&1) n=$(py "import json, sys; $deep" nm.json 2>&1)
    want="64 True"
    [ "$so" = 1 ] && want="64 False"
    [ "$f" = "$want" ] && [ "$n" = "$want" ] &&
        ok "serialize_overlap=$so: fio and nodemark: 64 I/Os, 8 deep: ${want#64 }" ||
        not_ok "serialize_overlap=$so: fio and nodemark: 64 I/Os, 8 deep: ${want#64 }" "fio: $f nodemark: $n"
done
run_nm fio --no-save --name=j --size=64k --serialize_overlap=2
expect_refused "serialize_overlap=2 is refused in one line"
