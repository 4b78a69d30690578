#!/usr/bin/env bash
# fio's buffer_pattern under `nodemark fio`, beside real fio 3.33: a sequential write leaves a
# file byte-identical to fio's for each of fio's pattern forms (hex, "text", decimal, a file's
# bytes, parts one after another), with one block size, a size mix and with compression (the
# pattern in place of the zeros); a verify= job writes its own data over the pattern and each
# tool checks what the other wrote; a pattern fio cannot parse fails both (nodemark: exit 2 and
# one line).
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio
printf 'XYZW0123' >pfile

# same_file WHAT ARGS...: fio and nodemark each write a new file with ARGS; PASS when both exit
# 0 and the two files are the same bytes
same_file() {
    local what=$1 frc
    shift
    rm -f f g
    fio --name=a --filename="$d/f" "$@" >fio.out 2>fio.err
    frc=$?
    run_nm fio --no-save --name=a --filename="$d/g" "$@"
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ -s f ] && cmp -s f g; then
        ok "$what"
    else
        not_ok "$what" "fio rc $frc $(head -c 200 fio.err); nodemark rc $rc ${err:0:300}; $(cmp f g 2>&1 | head -1)"
    fi
}

W="--size=64k --bs=4k --rw=write --ioengine=psync"
for p in 0xdeadbeef '"abc"' 66 -1024 0xfff '"ab"0xff12' -100xab "'pfile'"; do
    # shellcheck disable=SC2086
    same_file "buffer_pattern=$p: the written file is fio's, byte for byte" $W --buffer_pattern="$p"
done
same_file "a size mix (bsrange=1k-16k, io_uring, iodepth 4): the pattern restarts at each block, as fio's" \
    --size=64k --bsrange=1k-16k --rw=write --ioengine=io_uring --iodepth=4 --buffer_pattern='"hello"0x00'
same_file "buffer_compress_percentage=100 with a pattern: the pattern, not zeros, as fio" \
    $W --buffer_compress_percentage=100 --buffer_pattern=0xab
printf '[a]\nsize=64k\nbs=8k\nrw=write\nbuffer_pattern="abc"\n' >p.fio
rm -f f g
fio --filename="$d/f" p.fio >/dev/null 2>&1
run_nm fio --no-save --filename="$d/g" p.fio
[ "$rc" = 0 ] && cmp -s f g && ok "a job file's buffer_pattern=\"abc\": the same file as fio's" ||
    not_ok "a job file's buffer_pattern" "rc $rc ${err:0:300} $(cmp f g 2>&1)"

# compression 50 %: each 512-byte chunk is 256 random bytes, then the pattern from its start
rm -f f g
# shellcheck disable=SC2086
fio --name=a --filename="$d/f" $W --buffer_compress_percentage=50 --buffer_pattern=0xab >/dev/null 2>&1
# shellcheck disable=SC2086
run_nm fio --no-save --name=a --filename="$d/g" $W --buffer_compress_percentage=50 --buffer_pattern=0xab
chunks() { py 'import sys; b=open(sys.argv[1],"rb").read(); c=[b[i:i+512] for i in range(0,len(b),512)]
print(len(c), sum(x[256:]==b"\xab"*256 and x[:256].count(0xab)<20 for x in c))' "$1"; }
fr=$(chunks f) nr=$(chunks g)
[ "$rc" = 0 ] && [ "$fr" = "128 128" ] && [ "$nr" = "$fr" ] &&
    ok "compression 50 %: every chunk half random, half the pattern, in both tools ($nr)" ||
    not_ok "compression 50 % with a pattern" "fio: $fr, nodemark: $nr (rc $rc ${err:0:200})"

# verify= writes its own data: each tool checks the other's blocks
rm -f f
# shellcheck disable=SC2086
fio --name=w --filename="$d/f" $W --verify=md5 --buffer_pattern=0xab --do_verify=0 >/dev/null 2>&1
# shellcheck disable=SC2086
run_nm fio --no-save --output-format=json --name=r --filename="$d/f" --size=64k --bs=4k --rw=read --verify=md5
printf '%s\n' "$out" >nm.json
r=$(json_file nm.json 'j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["error"]')
[ "$rc" = 0 ] && [ "$r" = "(65536, 0)" ] && ok "verify=md5 with a buffer_pattern: nodemark checks fio's blocks" ||
    not_ok "nodemark checks fio's verify blocks written with a pattern" "rc $rc: $r ${err:0:300}"
rm -f g
head -c 65536 /dev/zero >g
# shellcheck disable=SC2086
run_nm fio --no-save --name=w --filename="$d/g" --allow-write="$d/g" $W --verify=md5 --buffer_pattern=0xab --do_verify=0
fio --output-format=json --name=r --filename="$d/g" --size=64k --bs=4k --rw=read --verify=md5 >fio.json 2>fio.err
frc=$? r=$(json_file fio.json 'j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["error"]')
[ "$rc" = 0 ] && [ "$frc" = 0 ] && [ "$r" = "(65536, 0)" ] && ok "verify=md5 with a buffer_pattern: fio checks nodemark's blocks" ||
    not_ok "fio checks nodemark's verify blocks written with a pattern" "nodemark rc $rc ${err:0:200}; fio rc $frc: $r"

# a pattern fio cannot parse: fio fails, nodemark refuses it in one line
for p in zz 0x '"abc' "'nofile'" 4294967296; do
    fio --name=a --filename="$d/f" $W --buffer_pattern="$p" >/dev/null 2>&1
    frc=$?
    # shellcheck disable=SC2086
    run_nm fio --no-save --name=a --filename="$d/g" $W --buffer_pattern="$p"
    if [ "$frc" != 0 ]; then
        expect_refused "buffer_pattern=$p: fio fails (exit $frc), nodemark exit 2 in one line" buffer_pattern
    else
        not_ok "buffer_pattern=$p: fio fails" "fio exit 0"
    fi
done
