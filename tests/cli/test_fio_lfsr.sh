#!/usr/bin/env bash
# random_generator=lfsr beside real fio: the same job file run by both tools, each writing fio's
# iolog (write_iolog), and the offsets of each pass counted. With the shift register a pass
# visits every block of the region exactly once (fio: 256 of 256 blocks of a 1 MiB file at 4k,
# with or without norandommap), the next loop the same blocks again; fio's default generator
# with norandommap draws offsets independently (about 160 of 256).
. "$(dirname "$0")/lib.sh"
scratch_dir

# passes LOG SIZE: one line per pass of the iolog's I/Os (a pass ends when its bytes reach
# SIZE): "IOS DISTINCT MISALIGNED_OR_OUTSIDE", then "same" when every pass has the first one's
# offsets in its order, "rotated" when in its order from another place in it (fio 3.33 starts
# its second pass over 250 blocks with the first pass's last block, then the first pass's
# order), else "other". 4k is the alignment, SIZE the file.
passes() {
    python3 - "$@" <<'PY'
import sys
log, size = sys.argv[1], int(sys.argv[2])
ios = []
for line in open(log):
    f = line.split()
    if len(f) == 5 and f[2] in ("read", "write"):
        ios.append((int(f[3]), int(f[4])))
out, cur, done = [], [], 0
for off, ln in ios:
    cur.append((off, ln))
    done += ln
    if done >= size:
        out.append(cur)
        cur, done = [], 0
if cur:
    out.append(cur)
for p in out:
    bad = sum(o % 4096 != 0 or o + ln > size for o, ln in p)
    print(len(p), len({o for o, _ in p}), bad)
orders = [[o for o, _ in p] for p in out]
def rotation(a, b):
    return len(a) == len(b) and (not a or (b[0] in a and a[a.index(b[0]):] + a[:a.index(b[0])] == b))
print("same" if all(o == orders[0] for o in orders) else
      "rotated" if all(rotation(orders[0], o) for o in orders) else "other")
PY
}

# run_nm_job NAME OPTIONS...: the job file NAME.fio (a [NAME] job on file f with OPTIONS, one a
# line) run by nodemark, its iolog in NAME.nm.log, its exit status in nm_rc
run_nm_job() {
    local name=$1
    shift
    { echo "[$name]"; echo "filename=f"; echo "ioengine=psync"; printf '%s\n' "$@"; } >"$name.fio"
    rm -f f
    run_nm fio --no-save --output=/dev/null --write_iolog="$d/$name.nm.log" "$name.fio"
    nm_rc=$rc
}
# run_both NAME OPTIONS...: the same, then fio on the same job file when it is installed (its
# iolog in NAME.fio.log, its exit status in fio_rc)
run_both() {
    local name=$1
    run_nm_job "$@"
    if [ $HAVE_FIO = 1 ]; then
        rm -f f
        fio --output=/dev/null --write_iolog="$d/$name.fio.log" "$name.fio" >/dev/null 2>"$name.fio.err"
        fio_rc=$?
    fi
}

# every_block_once WHAT NAME SIZE BLOCKS LOOPS OPTIONS...: each of LOOPS passes visits all
# BLOCKS blocks once (BLOCKS I/Os, BLOCKS distinct offsets, all aligned inside the file), every
# pass in the same order; the same counts from fio, its passes in one order up to a rotation
every_block_once() {
    local what=$1 name=$2 size=$3 blocks=$4 loops=$5 want got tool
    shift 5
    run_both "$name" "size=$size" "loops=$loops" "$@"
    want=$(for _ in $(seq "$loops"); do echo "$blocks $blocks 0"; done; echo same)
    for tool in nm fio; do
        [ $tool = fio ] && [ $HAVE_FIO = 0 ] && continue
        if [ $tool = nm ] && [ $nm_rc -ne 0 ]; then
            not_ok "$what: nodemark runs" "exit $nm_rc: ${err:0:300}"
            continue
        fi
        if [ $tool = fio ] && [ $fio_rc -ne 0 ]; then
            not_ok "$what: fio runs" "exit $fio_rc: $(head -c 300 "$name.fio.err")"
            continue
        fi
        got=$(passes "$name.$tool.log" "$(numfmt --from=iec "${size^^}")")
        [ $tool = fio ] && got=${got/%rotated/same}
        if [ "$got" = "$want" ]; then
            ok "$what: $([ $tool = nm ] && echo nodemark || echo fio) visits each of the $blocks blocks once in each of $loops pass(es), in one order"
        else
            not_ok "$what: $tool: each block once per pass" "passes (I/Os distinct bad): $(echo $got)"
        fi
    done
}

# --- every block once per pass, as fio ---------------------------------------------------------
every_block_once "lfsr, norandommap, 1m at 4k" a 1m 256 2 rw=randread bs=4k norandommap \
    random_generator=lfsr
every_block_once "lfsr, norandommap, 1000k at 4k (250 blocks)" b 1000k 250 2 rw=randread bs=4k \
    norandommap random_generator=lfsr
every_block_once "lfsr with the random map" c 1m 256 1 rw=randread bs=4k random_generator=lfsr
every_block_once "lfsr, randrw: reads and writes share the register" e 1m 256 2 rw=randrw bs=4k \
    norandommap random_generator=lfsr

# --- time_based: each wrap of the file is a pass of its own, every block once in each ----------
# (16 blocks, about 1000 I/Os at rate_iops=1000: some 60 passes; the last one cut by the clock)
run_both tb size=64k rw=randread bs=4k norandommap random_generator=lfsr time_based runtime=1 rate_iops=1000
for tool in nm fio; do
    [ $tool = fio ] && [ $HAVE_FIO = 0 ] && continue
    got=$(passes "tb.$tool.log" 65536)
    # whole passes, those without every block once, and the last pass (cut short: no block twice)
    read -r whole bad <<<"$(awk 'NF == 3 { n++; last = $0; if ($1 == 16) { w++; if ($2 != 16 || $3 != 0) b++ } }
        END { split(last, l, " "); if (l[1] != 16 && (l[1] != l[2] || l[3] != 0)) b++; print w + 0, b + 0 }' <<<"$got")"
    if [ "$whole" -ge 10 ] && [ "$bad" = 0 ]; then
        ok "time_based lfsr: $([ $tool = nm ] && echo nodemark || echo fio) visits the 16 blocks once in each of $whole passes"
    else
        not_ok "time_based lfsr: $tool: every block once per pass" "$whole whole passes, $bad bad: $(echo $got | head -c 300)"
    fi
done

# --- tausworthe64 (fio's 64-bit generator): with the random map every block once per pass, ---
# without it independent draws, as fio's
run_both g1 size=1m loops=2 rw=randread bs=4k random_generator=tausworthe64
run_both g2 size=1m rw=randread bs=4k norandommap random_generator=tausworthe64
for tool in nm fio; do
    [ $tool = fio ] && [ $HAVE_FIO = 0 ] && continue
    who=$([ $tool = nm ] && echo nodemark || echo fio)
    got=$(passes "g1.$tool.log" 1048576 | grep -c '^256 256 0$')
    [ "$got" = 2 ] && ok "tausworthe64 with the random map: $who visits the 256 blocks once in each of 2 passes" ||
        not_ok "tausworthe64 with the random map: $tool: every block once per pass" "$(passes "g1.$tool.log" 1048576 | tr '\n' ' ')"
    read -r n distinct _ <<<"$(passes "g2.$tool.log" 1048576)"
    [ "$n" = 256 ] && [ "$distinct" -ge 130 ] && [ "$distinct" -lt 230 ] &&
        ok "tausworthe64 with norandommap: $who reaches $distinct of 256 blocks (independent draws)" ||
        not_ok "tausworthe64 with norandommap: $tool draws blocks independently" "$n I/Os, $distinct distinct"
done

# --- a block-size range: the block first, then a size that fits; no offset twice in a pass ------
run_both r size=1m loops=2 rw=randread bsrange=4k-16k norandommap random_generator=lfsr
for tool in nm fio; do
    [ $tool = fio ] && [ $HAVE_FIO = 0 ] && continue
    got=$(passes "r.$tool.log" 1048576)
    # passes, and those with an offset twice, one outside or unaligned, or under 60 I/Os
    read -r np bad <<<"$(awk 'NF == 3 { p++ } NF == 3 && ($1 != $2 || $3 != 0 || $1 < 60) { b++ } END { print p + 0, b + 0 }' <<<"$got")"
    if [ "$np" -ge 2 ] && [ "$bad" = 0 ]; then
        ok "bsrange=4k-16k: $([ $tool = nm ] && echo nodemark || echo fio)'s passes have no offset twice, all aligned inside the file ($(head -2 <<<"$got" | cut -d' ' -f1 | tr '\n' ' ')I/Os)"
    else
        not_ok "bsrange=4k-16k with lfsr: $tool: no offset twice in a pass" "passes: $(echo $got)"
    fi
done

# --- the default generator draws offsets independently (so the checks above can fail) ----------
run_both t size=1m rw=randread bs=4k norandommap
read -r n distinct _ <<<"$(passes t.nm.log 1048576)"
if [ "$nm_rc" -eq 0 ] && [ "$n" = 256 ] && [ "$distinct" -lt 230 ]; then
    ok "tausworthe (the default) with norandommap: $distinct of 256 blocks, as fio's kind of draw"
else
    not_ok "the default generator with norandommap draws blocks independently" "rc $nm_rc: $n I/Os, $distinct distinct"
fi
if [ $HAVE_FIO = 1 ]; then
    read -r fn fdistinct _ <<<"$(passes t.fio.log 1048576)"
    if [ "$fn" = 256 ] && [ "$fdistinct" -lt 230 ]; then
        ok "fio's tausworthe with norandommap: $fdistinct of 256 blocks"
    else
        not_ok "fio's tausworthe with norandommap draws blocks independently" "$fn I/Os, $fdistinct distinct"
    fi
fi

# --- the seed picks the start: randrepeat repeats the order, another randseed another order -----
order() { awk '$3 == "read" { printf "%s ", $4 }' "$1"; }
run_nm_job s1 size=1m rw=randread bs=4k norandommap random_generator=lfsr
cp s1.nm.log s1.keep
run_nm_job s1 size=1m rw=randread bs=4k norandommap random_generator=lfsr
check "randrepeat (the default): a second run has the same order" test "$(order s1.keep)" = "$(order s1.nm.log)"
run_nm_job s2 size=1m rw=randread bs=4k norandommap random_generator=lfsr randseed=12345
check "another randseed: another order" test "$(order s1.keep)" != "$(order s2.nm.log)"
run_nm_job s3 size=1m rw=randread bs=4k norandommap random_generator=lfsr randrepeat=0
run_nm_job s4 size=1m rw=randread bs=4k norandommap random_generator=lfsr randrepeat=0
check "randrepeat=0: each run its own order" test "$(order s3.nm.log)" != "$(order s4.nm.log)"

# --- bad input ----------------------------------------------------------------------------------
run_nm fio --no-save --name=x --filename=f --size=64k --rw=randread --random_generator=lfsr2
expect_refused "random_generator=lfsr2 is refused in one line" "expected tausworthe, lfsr or tausworthe64"
