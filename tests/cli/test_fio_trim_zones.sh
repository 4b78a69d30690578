#!/usr/bin/env bash
# fio's trims, strided zones and buffer contents under `nodemark fio`, each beside real fio on
# the same job: what the blocks of a file or a loop device's backing file look like after a
# trim job (st_blocks), the order of falloc's calls for trimwrite and the offsets of zoned
# reads (strace), the JSON's trim figures, and how many distinct 4k blocks a dedupe job wrote.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
scratch_dir
loopdev=""
at_exit '[ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null'
blocks() { stat -c %b "$1"; }
fill() { head -c "$2" /dev/urandom >"$1" && sync "$1"; }

# --- trim on a file: falloc punches holes, the blocks are freed; JSON counts the trims ----------
T4="--ioengine=falloc --bs=64k --size=4m --output-format=json"
fill nf 4M
b0=$(blocks nf)
run_nm fio --no-save $T4 --name=t --rw=trim --filename=nf --allow-write=nf
printf '%s\n' "$out" >nm_trim.json
b1=$(blocks nf)
r=$(json_file nm_trim.json 'j["jobs"][0]["trim"]["io_bytes"], j["jobs"][0]["trim"]["total_ios"], j["jobs"][0]["write"]["io_bytes"]')
[ "$rc" = 0 ] && [ "$b1" -lt $((b0 / 10)) ] && [ "$r" = "(4194304, 64, 0)" ] &&
    ok "rw=trim with falloc: the file's blocks are freed ($b0 -> $b1), JSON trim: 4 MiB in 64 trims" ||
    not_ok "rw=trim with falloc frees the file's blocks" "rc $rc, blocks $b0 -> $b1, trim figures '$r' ${err:0:300}"
if [ $HAVE_FIO = 1 ]; then
    fill ff 4M
    fb0=$(blocks ff)
    fio $T4 --name=t --rw=trim --filename=ff >fio_trim.json 2>fio.err
    fb1=$(blocks ff)
    fr=$(json_file fio_trim.json 'j["jobs"][0]["trim"]["io_bytes"], j["jobs"][0]["trim"]["total_ios"], j["jobs"][0]["write"]["io_bytes"]')
    [ "$fb1" -lt $((fb0 / 10)) ] && [ "$fr" = "$r" ] &&
        ok "fio frees the blocks too ($fb0 -> $fb1), with the same JSON trim figures" ||
        not_ok "fio frees the blocks too, same trim figures" "fio: $fb0 -> $fb1, '$fr' vs nodemark '$r'"
    keys=$(py 'import json,sys
a=json.load(open(sys.argv[1]))["jobs"][0]["trim"]; b=json.load(open(sys.argv[2]))["jobs"][0]["trim"]
print(sorted(set(a) - set(b)) or "same")' fio_trim.json nm_trim.json 2>&1)
    [ "$keys" = same ] && ok "the JSON trim object has fio's keys" || not_ok "the JSON trim object has fio's keys" "missing: $keys"
else
    skip "trim on a file beside fio" "fio is missing"
fi

# randtrim: every block once (the random map), in some order
fill nr 4M
run_nm fio --no-save $T4 --name=t --rw=randtrim --filename=nr --allow-write=nr
[ "$rc" = 0 ] && [ "$(blocks nr)" -lt 100 ] && ok "rw=randtrim with falloc frees every block once" ||
    not_ok "rw=randtrim frees every block" "rc $rc, blocks $(blocks nr) ${err:0:300}"

# normal output: fio's trim lines
run_nm fio --no-save --ioengine=falloc --bs=64k --size=1m --name=t --rw=trim --filename=nr --allow-write=nr
grep -q '^  trim: IOPS=' <<<"$out" && grep -q '^   TRIM: bw=' <<<"$out" && grep -q 'issued rwts: total=0,0,16,0 ' <<<"$out" &&
    ok "normal output: fio's trim:, TRIM: and issued lines" || not_ok "normal output: trim lines" "${out:0:600}"

# psync trims are block-device discards: a file is refused before anything runs
run_nm fio --no-save --name=t --rw=trim --size=1m --filename=nr --allow-write=nr
expect_rc 2 "rw=trim with psync on a file is refused (fio's BLKDISCARD fails on files)"
one_line_error "the refusal is one line"
expect_err_has "ioengine=falloc" "the refusal says which engine trims files"
run_nm fio --no-save --name=t --rw=trim --size=1m --ioengine=mmap --filename=nr --allow-write=nr
expect_rc 2 "rw=trim with an engine that does not trim is refused"
run_nm fio --no-save --name=t --rw=trim --size=1m --ioengine=falloc --filename=nr
expect_rc 2 "a trim of an existing file needs --allow-write, as a write does"

# trimwrite: each block trimmed, then written, in fio's order (strace: the falloc calls)
if [ $HAVE_STRACE = 1 ]; then
    fill tw 256k
    falloc_calls() { grep -o 'fallocate([0-9]*, [A-Z_|0-9]*, [0-9]*, [0-9]*)' "$1" | sed 's/fallocate([0-9]*, //; s/)//' | tr '\n' ' '; }
    strace_fio nm nm.st -e trace=fallocate -- --output-format=json --ioengine=falloc --bs=64k \
        --size=256k --name=tw --rw=trimwrite --filename=tw --allow-write=tw >tw.json 2>tw.err
    nmc=$(falloc_calls nm.st)
    want="FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, 0, 65536 0, 0, 65536 FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, 65536, 65536 0, 65536, 65536 "
    [[ $nmc == "$want"* ]] && [ "$(json_file tw.json 'j["jobs"][0]["trim"]["io_bytes"], j["jobs"][0]["write"]["io_bytes"]')" = "(262144, 262144)" ] &&
        ok "trimwrite: each block trimmed then written, both counted" || not_ok "trimwrite: trim then write each block" "calls: ${nmc:0:300} $(head -c 300 tw.err)"
    if [ $HAVE_FIO = 1 ]; then
        strace_fio fio fio.st -e trace=fallocate -- --output-format=json --ioengine=falloc --bs=64k --size=256k \
            --name=tw --rw=trimwrite --filename=tw >/dev/null 2>&1
        fioc=$(falloc_calls fio.st)
        [ "$fioc" = "$nmc" ] && ok "trimwrite: the same calls, in the same order, as fio's" ||
            not_ok "trimwrite: fio's calls" "fio: ${fioc:0:300}; nodemark: ${nmc:0:300}"
    fi
else
    skip "trimwrite order" "strace is missing"
fi

# trimwrite on a regular file beside fio (falloc: each block punched, then written): the JSON's
# trim and write bytes and I/Os, each direction apart, for jobs where the file's end, the loops,
# the random map, the sizes per direction, several files or an I/O count decide them
tw_figures() { json_file "$1" '[(j["jobs"][0][d]["io_bytes"], j["jobs"][0][d]["total_ios"]) for d in ("trim", "write")]'; }
tw_like_fio() { # WHAT ARGS...: nodemark's trim and write figures are fio's for ARGS (falloc)
    local what=$1 nmf fiof
    shift
    rm -rf twd && mkdir twd
    run_nm fio --no-save --output-format=json --ioengine=falloc --name=tw "$@"
    printf '%s\n' "$out" >twnm.json
    nmf=$(tw_figures twnm.json 2>&1)
    if [ "$rc" != 0 ]; then
        not_ok "$what: nodemark runs" "rc $rc ${err:0:300}"
        return
    fi
    rm -rf twd && mkdir twd
    fio --output-format=json --ioengine=falloc --name=tw "$@" >twfio.json 2>twfio.err
    fiof=$(tw_figures twfio.json 2>&1)
    [ "$fiof" = "$nmf" ] && ok "$what: trim and write bytes and I/Os as fio's $nmf" ||
        not_ok "$what: fio's trim and write figures" "fio $fiof $(head -c 200 twfio.err), nodemark $nmf"
}
if [ $HAVE_FIO = 1 ]; then
    tw_like_fio "trimwrite, 64k over 256k" --rw=trimwrite --bs=64k --size=256k --filename=twd/f
    tw_like_fio "trimwrite, 64k over 200k (the file's end)" --rw=trimwrite --bs=64k --size=200k --filename=twd/f
    tw_like_fio "trimwrite, two loops" --rw=trimwrite --bs=16k --size=128k --loops=2 --filename=twd/f
    tw_like_fio "randtrimwrite (the random map)" --rw=randtrimwrite --bs=16k --size=256k --filename=twd/f
    tw_like_fio "randtrimwrite, norandommap" --rw=randtrimwrite --bs=16k --size=256k --norandommap --filename=twd/f
    tw_like_fio "trimwrite, bs=8k,32k (trims take the write size)" --rw=trimwrite --bs=8k,32k --size=256k --filename=twd/f
    tw_like_fio "trimwrite, number_ios=5" --rw=trimwrite --bs=16k --size=256k --number_ios=5 --filename=twd/f
    # io_size over the file: rounds of the file while trims and writes together fall short of it
    tw_like_fio "trimwrite, io_size=192k over size=128k (one round)" --rw=trimwrite --bs=16k --size=128k --io_size=192k --filename=twd/f
    tw_like_fio "trimwrite, io_size=600k over size=128k (three rounds)" --rw=trimwrite --bs=16k --size=128k --io_size=600k --filename=twd/f
    tw_like_fio "trimwrite, nrfiles=3 over size=200k" --rw=trimwrite --bs=16k --size=200k --nrfiles=3 --directory=twd
    # fio's own t0023/t0024: mixed sizes over the random map (every block once, sizes cut at a
    # covered block), the writes the trims' size (bs=4k,4k,8k: 8k writes from a 4k buffer
    # overran it), and the last trim's write done (fio ends trimwrite on its written bytes)
    tw_like_fio "randtrimwrite, bsrange=512-4k over the random map" --rw=randtrimwrite --bsrange=512-4k --size=256k --filename=twd/f
    tw_like_fio "randtrimwrite, bsrange=512/25:1k:25:2k:25:4k/25 (t0023's)" --rw=randtrimwrite \
        --bsrange=512/25:1k:25:2k:25:4k/25 --size=256k --filename=twd/f
    tw_like_fio "randtrimwrite, bs=4k,4k,8k norandommap (with a bw log)" --rw=randtrimwrite --bs=4k,4k,8k --norandommap \
        --size=256k --filename=twd/f --write_bw_log=twd/b --log_offset=1
    tw_like_fio "randtrimwrite, bsrange=512-4k norandommap" --rw=randtrimwrite --bsrange=512-4k --norandommap --size=256k --filename=twd/f
    # t0023's log check: each write follows a trim of the same offset and size, and the trims
    # cover every 512-byte sector (a bw log of each I/O, log_offset=1)
    rm -rf twd && mkdir twd
    run_nm fio --no-save --output-format=json --ioengine=falloc --name=tw --rw=randtrimwrite --bsrange=512-4k \
        --size=256k --filename=twd/f --write_bw_log=twnm --log_offset=1 --per_job_logs=0
    tw_log() { python3 -c 'import sys
rows = [[int(v) for v in l.split(",")[2:5]] for l in open(sys.argv[1]) if l.strip()]
pairs = all(a[0] == 2 and b[0] == 1 and a[1:] == b[1:] for a, b in zip(rows[::2], rows[1::2])) and len(rows) % 2 == 0
print(pairs, len({s for d, b, o in rows if d == 2 for s in range(o // 512, (o + b) // 512)}))' "$1" 2>&1; }
    nml=$(tw_log twnm_bw.log)
    rm -rf twd && mkdir twd
    fio --output-format=json --ioengine=falloc --name=tw --rw=randtrimwrite --bsrange=512-4k \
        --size=256k --filename=twd/f --write_bw_log=twfio --log_offset=1 --per_job_logs=0 >/dev/null 2>&1
    fiol=$(tw_log twfio_bw.log)
    [ "$rc" = 0 ] && [ "$nml" = "True 512" ] && [ "$fiol" = "$nml" ] &&
        ok "randtrimwrite bsrange=512-4k log: trim then write of it, all 512 sectors trimmed, as fio's" ||
        not_ok "randtrimwrite log: trim then write, every sector" "fio: $fiol, nodemark (rc $rc): $nml ${err:0:200}"
else
    skip "trimwrite on a file beside fio" "fio is missing"
fi

# --- trim on a block device: discards (a loop device's backing file loses its blocks) ----------
truncate -s 16M img
if loopdev=$(losetup -f --show img 2>/dev/null) && [ -n "$loopdev" ]; then
    for eng in psync io_uring; do
        head -c 16M /dev/urandom | dd of="$loopdev" bs=1M oflag=direct 2>/dev/null
        sync img
        b0=$(blocks img)
        run_nm fio --no-save --output-format=json --name=t --ioengine=$eng --rw=trim --bs=1m --size=8m --direct=1 \
            --filename="$loopdev" --allow-write="$loopdev"
        sync img
        b1=$(blocks img)
        tb=$(json_get 'j["jobs"][0]["trim"]["io_bytes"]' 2>&1)
        # 8 MiB discarded = 16384 blocks of 512 bytes fewer, give or take the metadata
        [ "$rc" = 0 ] && [ $((b0 - b1)) -ge 15000 ] && [ "$tb" = 8388608 ] &&
            ok "trim on a loop device with $eng: the backing file lost 8 MiB ($b0 -> $b1 blocks)" ||
            not_ok "trim on a loop device with $eng discards" "rc $rc, blocks $b0 -> $b1, trim bytes '$tb' ${err:0:300}"
    done
    if [ $HAVE_FIO = 1 ]; then
        head -c 16M /dev/urandom | dd of="$loopdev" bs=1M oflag=direct 2>/dev/null
        sync img
        b0=$(blocks img)
        fio --output-format=json --name=t --ioengine=psync --rw=trim --bs=1m --size=8m --direct=1 --filename="$loopdev" >fio_dev.json 2>&1
        sync img
        b1=$(blocks img)
        [ $((b0 - b1)) -ge 15000 ] && ok "fio's trim on the loop device frees the same ($b0 -> $b1 blocks)" ||
            not_ok "fio's trim on the loop device" "blocks $b0 -> $b1: $(head -c 300 fio_dev.json)"
    fi
    run_nm fio --no-save --name=t --rw=trim --bs=1m --size=8m --filename="$loopdev"
    expect_rc 2 "a trim of a block device needs --allow-write"
    losetup -d "$loopdev"
    loopdev=""
else
    skip "trim on a loop device" "no loop device here"
fi

# --- strided zones: the offsets of each read, as fio's (strace) --------------------------------
# the offsets of the 16k reads in an strace -e raw=pread64 log (hex arguments)
offsets() { py 'import re, sys
print(" ".join(str(int(m.group(1), 16)) for m in re.finditer(r"pread64\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x4000, (0x[0-9a-f]+|0)\)",
                                                      open(sys.argv[1]).read())))' "$1"; }
zone_case() { # NAME OPTIONS...: nodemark's and fio's read offsets for one zoned job
    local name=$1
    shift
    local job=(--output-format=json --ioengine=psync --bs=16k --name=z --filename=zf "$@")
    strace_fio nm "$name.nm" -e trace=pread64 -e raw=pread64 -- "${job[@]}" >"$name.json" 2>"$name.err"
    nmo=$(offsets "$name.nm")
    fioo=""
    if [ $HAVE_FIO = 1 ]; then
        strace_fio fio "$name.fio" -e trace=pread64 -e raw=pread64 -- "${job[@]}" >/dev/null 2>&1
        fioo=$(offsets "$name.fio")
    fi
}
if [ $HAVE_STRACE = 1 ]; then
    fill zf 1M
    zone_case seq --rw=read --size=1m --zonemode=strided --zonesize=64k --zoneskip=192k
    want=$(py 'print(" ".join(str(z * 262144 + b * 16384) for _ in range(4) for z in range(4) for b in range(4)))')
    [ "$nmo " = "$want " ] && ok "zones: 64k in each zone, 192k skipped, wrapping at the file's end" ||
        not_ok "zones: 64k per zone, 192k skipped" "offsets: ${nmo:0:300} $(head -c 200 seq.err)"
    if [ $HAVE_FIO = 1 ]; then
        [ "$fioo" = "$nmo" ] && ok "zones: the same offsets as fio's" || not_ok "zones: fio's offsets" "fio: ${fioo:0:300}"
        zone_case range --rw=read --size=512k --zonemode=strided --zonesize=32k --zonerange=128k --zoneskip=128k
        [ -n "$nmo" ] && [ "$fioo" = "$nmo" ] && ok "zones: zonerange above zonesize: fio's offsets" ||
            not_ok "zones with zonerange: fio's offsets" "fio: ${fioo:0:200}; nodemark: ${nmo:0:200}"
        zone_case rand --rw=randread --size=512k --zonemode=strided --zonesize=64k --zoneskip=192k
        same=$(py 'import sys
a, b = (list(map(int, s.split())) for s in sys.argv[1:3])
zone = lambda o: o // 262144
print("ok" if len(a) == len(b) == 32 and [zone(o) for o in a] == [zone(o) for o in b] and all(o % 262144 < 65536 for o in a)
      and sorted(a[:4]) == sorted(b[:4]) else "%s / %s" % (a[:8], b[:8]))' "$nmo" "$fioo")
        [ "$same" = ok ] && ok "zones, randread: each zone's I/Os in the zone, the zones in fio's order" ||
            not_ok "zones, randread: fio's zones" "$same"
    fi
else
    skip "zone offsets" "strace is missing"
fi
run_nm fio --no-save --name=z --filename=zf --zonemode=zbd --size=1m
expect_rc 2 "zonemode=zbd is refused"
one_line_error "zonemode=zbd: one line"
run_nm fio --no-save --name=z --filename=zf --zonemode=none --zonesize=64k --size=1m
expect_rc 2 "zonemode=none with zonesize is refused, as fio"
run_nm fio --no-save --name=z --filename=zf --zonesize=64k --size=1m
expect_rc 2 "zonesize without zonemode=strided is refused, as fio 3.33"
run_nm fio --no-save --name=z --filename=zf --zonemode=strided --size=1m
expect_rc 2 "zonemode=strided without zonesize is refused, as fio"

# --- buffer contents: distinct 4k blocks of a dedupe job, compressible chunks --------------------
distinct() { py 'import sys
d = open(sys.argv[1], "rb").read()
bl = [d[i:i + 4096] for i in range(0, len(d), 4096)]
print(len(set(bl)), len(bl), sum(1 for b in bl for k in range(0, 4096, 512) if b[k + 256:k + 512] == bytes(256)))' "$@"; }
dedupe_case() { # NAME OPTIONS...: the distinct blocks of the file each tool wrote
    local name=$1
    shift
    head -c 4M /dev/zero >"$name.nmf"
    run_nm fio --no-save --output-format=json --name=dd --rw=write --bs=4k --size=4m --filename="$name.nmf" \
        --allow-write="$name.nmf" "$@"
    nmd=$(distinct "$name.nmf")
    fiod=""
    if [ $HAVE_FIO = 1 ]; then
        head -c 4M /dev/zero >"$name.fiof"
        fio --output-format=json --name=dd --rw=write --bs=4k --size=4m --filename="$name.fiof" "$@" >/dev/null 2>&1
        fiod=$(distinct "$name.fiof")
    fi
}
near() { py 'import sys; a, b, lo, hi = map(float, sys.argv[1:5]); print("ok" if lo <= a / b <= hi else "no")' "$@"; }
# distinct_share WHAT LO HI OPTIONS...: the distinct blocks of the job's file are LO to HI of its
# blocks, and as many (within 10 %) as in the file fio wrote for the same job
distinct_share() {
    local what=$1 lo=$2 hi=$3 nu nt fu
    shift 3
    dedupe_case share "$@"
    read -r nu nt _ <<<"$nmd"
    [ "$rc" = 0 ] && [ "$(near "$nu" "$nt" "$lo" "$hi")" = ok ] && ok "$what ($nu of $nt)" ||
        not_ok "$what" "rc $rc, '$nmd' ${err:0:300}"
    if [ -n "$fiod" ]; then
        read -r fu _ _ <<<"$fiod"
        [ "$(near "$nu" "$fu" 0.9 1.1)" = ok ] && ok "${what%%:*}: as many distinct blocks as fio's ($fu)" ||
            not_ok "${what%%:*}: fio's distinct blocks" "fio $fiod, nodemark $nmd"
    fi
}
# dedupe_percentage=50 turns refill_buffers on, as fio's
distinct_share "dedupe_percentage=50: about half the blocks distinct" 0.45 0.55 --dedupe_percentage=50
distinct_share "dedupe_mode=working_set: 70% of the blocks distinct" 0.65 0.75 --refill_buffers=1 --dedupe_percentage=30 \
    --dedupe_mode=working_set --dedupe_working_set_percentage=20
dedupe_case cmp --buffer_compress_percentage=50
read -r nu nt nz <<<"$nmd"
[ "$rc" = 0 ] && [ "$nu" = "$nt" ] && [ "$nz" = $((nt * 8)) ] &&
    ok "buffer_compress_percentage=50: every 512-byte chunk ends in 256 zeros, blocks distinct (refill on)" ||
    not_ok "buffer_compress_percentage=50: half of each chunk zeros" "rc $rc, '$nmd' ${err:0:300}"
[ -n "$fiod" ] && { [ "$fiod" = "$nmd" ] && ok "buffer_compress_percentage=50: as fio's ($fiod)" ||
    not_ok "compression: fio's blocks" "fio $fiod, nodemark $nmd"; }

# dedupe_global: the working set spans both jobs, so the files share blocks
glob() { # TOOL...: distinct blocks of a, of b, and of both
    "$@" --output-format=json --size=2m --bs=4k --rw=write --refill_buffers=1 --dedupe_mode=working_set --dedupe_global=1 \
        --dedupe_percentage=50 --dedupe_working_set_percentage=50 --name=a --filename=a.0.0 --name=b --filename=b.0.0 \
        >/dev/null 2>glob.err
    py 'import sys
bl = lambda f: [open(f, "rb").read()[i:i + 4096] for i in range(0, 2 << 20, 4096)]
a, b = set(bl("a.0.0")), set(bl("b.0.0"))
print(len(a), len(b), len(a | b))' 2>&1
}
head -c 2M /dev/zero >a.0.0
head -c 2M /dev/zero >b.0.0
g=$(glob "$NM" fio --no-save --allow-write=a.0.0 --allow-write=b.0.0)
read -r ga gb gab <<<"$g"
[[ "$ga $gb $gab" =~ ^[0-9]+\ [0-9]+\ [0-9]+$ ]] && [ "$gab" -lt $((ga + gb - 50)) ] && ok "dedupe_global: the two files share blocks ($ga + $gb distinct, $gab together)" ||
    not_ok "dedupe_global: the files share blocks" "$g $(head -c 300 glob.err)"
if [ $HAVE_FIO = 1 ]; then
    rm -f a.0.0 b.0.0
    fg=$(glob fio)
    read -r fa fb fab <<<"$fg"
    [ "$(near "$gab" "$fab" 0.85 1.15)" = ok ] && ok "dedupe_global: as many distinct blocks together as fio's ($fab)" ||
        not_ok "dedupe_global: fio's distinct blocks" "fio $fg, nodemark $g"
fi
run_nm fio --no-save --name=dd --filename=a.0.0 --rw=write --dedupe_mode=working_set --dedupe_percentage=60 \
    --dedupe_working_set_percentage=50 --size=1m --allow-write=a.0.0
expect_rc 2 "working_set: a percentage the set cannot give is refused, as fio"
