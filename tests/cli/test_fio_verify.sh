#!/usr/bin/env bash
# fio's data verification under `nodemark fio`, beside real fio: a write+verify job reads back
# what it wrote (the JSON's read bytes equal its write bytes) and passes in both tools; each
# tool checks a file the other wrote with the same verify= (fio's header format, every kind);
# a block corrupted in the middle fails both tools' verify_only and read-verify jobs at the
# same offset with a non-zero exit; verify_backlog reads back during the writes (strace).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
scratch_dir
[ $HAVE_FIO = 1 ] || not_ok "fio is installed (scripts/deps.sh installs it)"
IOB='j["jobs"][0]["write"]["io_bytes"], j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["error"]'
KINDS="md5 crc32c crc32c-intel crc32 sha1 sha256 sha512 xxhash meta pattern"
kind_opts() { # the options of a kind: pattern needs its pattern
    case $1 in pattern) echo "--verify=pattern --verify_pattern=0xdeadbeef" ;; *) echo "--verify=$1" ;; esac
}

# --- write, then read back and check: both tools, the read bytes equal the written ------------
W="--size=256k --bs=4k --rw=randwrite --ioengine=psync"
for k in $KINDS; do
    # shellcheck disable=SC2046,SC2086
    run_nm fio --no-save --output-format=json --name=wv --filename="$d/nm-$k" $W $(kind_opts "$k")
    printf '%s\n' "$out" >nm.json
    r=$(json_file nm.json "$IOB")
    [ "$rc" = 0 ] && [ "$r" = "(262144, 262144, 0)" ] && ok "verify=$k: the 256 KiB written are read back and pass" ||
        not_ok "verify=$k: written and read back" "rc $rc: $r ${err:0:300}"
done
if [ $HAVE_FIO = 1 ]; then
    fio --output-format=json --name=wv --filename="$d/fio-wv" $W --verify=crc32c >fio.json 2>fio.err
    frc=$? r=$(json_file fio.json "$IOB")
    [ "$frc" = 0 ] && [ "$r" = "(262144, 262144, 0)" ] && ok "fio itself: the same job reads back what it wrote" ||
        not_ok "fio itself: write+verify" "rc $frc: $r $(head -c 300 fio.err)"
    # the same job, asynchronous and deeper, against fio's JSON structure and amounts
    J="--name=wv --size=1m --bs=4k --rw=randwrite --ioengine=io_uring --iodepth=8 --verify=crc32c"
    # shellcheck disable=SC2086
    json_like_fio "io_uring, iodepth 8: fio's JSON structure and amounts (write and read 1 MiB)" --sizes "$d/like" \
        --filename="$d/like/f" $J
fi
rm -f "$d"/nm-* "$d"/fio-*

# --- each tool checks the other's files -------------------------------------------------------
# The file exists first, so nodemark keeps what it wrote (--allow-write); do_verify=0 writes the
# headers without reading them back; the reader is a read job with the same verify=.
if [ $HAVE_FIO = 1 ]; then
    for k in $KINDS; do
        opts=$(kind_opts "$k")
        head -c 262144 /dev/zero >x
        # shellcheck disable=SC2086
        run_nm fio --no-save --output-format=json --name=w --filename="$d/x" --allow-write="$d/x" $W $opts --do_verify=0
        w_rc=$rc
        # shellcheck disable=SC2086
        fio --output-format=json --name=r --filename="$d/x" --size=256k --bs=4k --rw=read $opts >fio.json 2>fio.err
        frc=$? r=$(json_file fio.json 'j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["error"]')
        [ "$w_rc" = 0 ] && [ "$frc" = 0 ] && [ "$r" = "(262144, 0)" ] &&
            ok "verify=$k: fio checks the 256 KiB nodemark wrote" ||
            not_ok "verify=$k: fio checks what nodemark wrote" "nodemark rc $w_rc ${err:0:200}; fio rc $frc: $r $(grep -m2 -i 'verify\|bad' fio.err)"
        rm -f x
        # shellcheck disable=SC2086
        fio --output-format=json --name=w --filename="$d/x" $W $opts --do_verify=0 >/dev/null 2>fio.err
        # shellcheck disable=SC2086
        run_nm fio --no-save --output-format=json --name=r --filename="$d/x" --size=256k --bs=4k --rw=randread $opts
        printf '%s\n' "$out" >nm.json
        r=$(json_file nm.json 'j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["error"]')
        [ "$rc" = 0 ] && [ "$r" = "(262144, 0)" ] && ok "verify=$k: nodemark checks the 256 KiB fio wrote" ||
            not_ok "verify=$k: nodemark checks what fio wrote" "rc $rc: $r ${err:0:300}"
        rm -f x
    done
else
    skip "each tool checks the other's files" "fio is missing"
fi

# --- a corrupted block: both tools fail at its offset ---------------------------------------
# 4 KiB blocks with crc32c; 8 bytes changed in the middle of block 10 (offset 40960), and the
# magic of block 20's header (offset 81920) in a second file.
make_file() { # FILE: 256 KiB with verify headers, written by fio (or by nodemark without fio)
    head -c 262144 /dev/zero >"$1"
    if [ $HAVE_FIO = 1 ]; then
        fio --name=mk --filename="$d/$1" --size=256k --bs=4k --rw=write --verify=crc32c --do_verify=0 >/dev/null 2>&1
    else
        "$NM" fio --no-save --name=mk --filename="$d/$1" --allow-write="$d/$1" --size=256k --bs=4k --rw=write \
            --verify=crc32c --do_verify=0 >/dev/null 2>&1
    fi
}
make_file bad
printf 'CORRUPT!' | dd of=bad bs=1 seek=$((40960 + 2000)) conv=notrunc status=none
make_file badhdr
printf '\x00\x00' | dd of=badhdr bs=1 seek=81920 conv=notrunc status=none
for f in bad:40960 badhdr:81920; do
    file=${f%%:*} off=${f#*:}
    for how in "--rw=write --verify_only=1" "--rw=read"; do
        # shellcheck disable=SC2086
        run_nm fio --no-save --output-format=json --name=v --filename="$d/$file" --size=256k --bs=4k $how --verify=crc32c
        printf '%s\n' "$out" >nm.json
        e=$(json_file nm.json 'j["jobs"][0]["error"]')
        if [ "$rc" = 1 ] && [ "$e" = 84 ] && grep -q "at file $d/$file offset $off," <<<"$err"; then
            ok "$file, $how: nodemark fails at offset $off (exit 1, error 84 in JSON)"
        else
            not_ok "$file, $how: nodemark fails at offset $off" "rc $rc, error '$e': ${err:0:400}"
        fi
        if [ $HAVE_FIO = 1 ]; then
            # shellcheck disable=SC2086
            fio --output-format=json --name=v --filename="$d/$file" --size=256k --bs=4k $how --verify=crc32c >fio.json 2>fio.err
            frc=$?
            grep -q "at file $d/$file offset $off," fio.err && [ "$frc" != 0 ] &&
                ok "$file, $how: fio fails at the same offset (exit $frc)" ||
                not_ok "$file, $how: fio fails at the same offset" "rc $frc: $(head -c 400 fio.err)"
        fi
    done
done
run_nm fio --no-save --name=v --filename="$d/bad" --size=256k --bs=4k --rw=read --verify=crc32c
grep -q "crc32c: verify failed at file $d/bad offset 40960, length 4096" <<<"$err" &&
    ok "the message is fio's: 'crc32c: verify failed at file F offset N, length L'" ||
    not_ok "the message is fio's" "${err:0:400}"
[ $HAVE_FIO = 1 ] || skip "fio's side of the corruption checks" "fio is missing"

# --- verify_backlog: blocks are read back while the job still writes -------------------------
if [ $HAVE_STRACE = 1 ]; then
    head -c 262144 /dev/zero >bl # there already: nothing laid out, every pwrite is the job's
    # shellcheck disable=SC2086
    strace_fio nm st -y -e trace=pread64,pwrite64 -- --output-format=json --name=b \
        --filename="$d/bl" --allow-write="$d/bl" $W --verify=crc32c --verify_backlog=8 >nm.json 2>nm.err
    src=$rc
    ops() { grep -F "<$d/bl>" st | grep -o 'p\(read\|write\)64'; } # the job file's I/O only
    order=$(ops | tr '\n' ' ')
    first_read=$(ops | grep -n pread | head -1 | cut -d: -f1)
    last_write=$(ops | grep -n pwrite | tail -1 | cut -d: -f1)
    r=$(json_file nm.json "$IOB")
    [ "$src" = 0 ] && [ "$r" = "(262144, 262144, 0)" ] && [ "${first_read:-0}" = 9 ] &&
        [ "$first_read" -lt "$last_write" ] &&
        ok "verify_backlog=8: the 9th I/O is a read back, amid the writes; all 256 KiB checked" ||
        not_ok "verify_backlog=8: reads back amid the writes" "rc $src: $r; first read $first_read, last write $last_write: ${order:0:200}"
else
    skip "verify_backlog through strace" "strace is missing"
fi

# --- time_based: the writes take the runtime; only the backlog reads back (fio's behaviour) ----
TB="--size=256k --bs=16k --rw=randwrite --ioengine=psync --verify=md5 --time_based --runtime=1"
# shellcheck disable=SC2086
run_nm fio --no-save --output-format=json --name=t --filename="$d/tb" $TB
printf '%s\n' "$out" >nm.json
r0=$(json_file nm.json 'j["jobs"][0]["write"]["io_bytes"] > 262144, j["jobs"][0]["read"]["io_bytes"]')
# shellcheck disable=SC2086
run_nm fio --no-save --output-format=json --name=t --filename="$d/tb" $TB --verify_backlog=4
printf '%s\n' "$out" >nm.json
r1=$(json_file nm.json 'j["jobs"][0]["read"]["io_bytes"] > 262144, j["jobs"][0]["error"]')
[ "$r0" = "(True, 0)" ] && [ "$r1" = "(True, 0)" ] &&
    ok "time_based: writes for the runtime with nothing read back, unless verify_backlog (as fio)" ||
    not_ok "time_based: no read-back phase, the backlog reads back" "without backlog $r0, with $r1: ${err:0:200}"

# --- what is refused, in one line --------------------------------------------------------------
run_nm fio --no-save --name=x --filename="$d/r" --size=64k --verify=crc64
expect_refused "verify=crc64 is refused in one line (not implemented)"
run_nm fio --no-save --name=x --filename="$d/r" --size=64k --rw=write --verify=pattern
expect_refused "verify=pattern without verify_pattern is refused" verify_pattern
run_nm fio --no-save --name=x --filename="$d/r" --size=64k --rw=write --bs=256 --verify=sha512
expect_refused "sha512 on 256-byte blocks (its header is 168 bytes) is refused" "too small"
[ -z "$(find "$d" -name '.nodemark-*' -o -name 'r' | head -1)" ] && ok "nothing left behind" ||
    not_ok "nothing left behind" "$(ls -a "$d")"
