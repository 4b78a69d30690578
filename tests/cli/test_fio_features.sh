#!/usr/bin/env bash
# fio's engine features in nodemark fio, each checked by its mechanism through what the process
# asks of the kernel (strace: the offset and length of every pread), next to real fio on the same
# job where fio is installed: random_distribution's skew and zones.
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d "${TMPDIR:-/tmp}/nm-fiofeat.XXXXXX")
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
if ! command -v strace >/dev/null; then
    skip "fio features through strace" "strace is missing (scripts/deps.sh installs it)"
    exit 0
fi
HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1
# traced TOOL LOG ARGS...: TOOL (nm or fio) under strace, its preads in LOG
traced() {
    local tool=$1 log=$2
    shift 2
    rm -f f
    if [ "$tool" = nm ]; then
        ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 strace -f -qq -e trace=pread64 -e signal=none -s0 -o "$log" \
            "$NM" fio --no-save --output-format=json "$@" >out.json 2>err.txt
    else
        strace -f -qq -e trace=pread64 -e signal=none -s0 -o "$log" fio --output-format=json "$@" >out.json 2>err.txt
    fi
}
# zones LOG FILESIZE CUT%...: the share of 4 KiB reads in each slice [previous cut, cut)
zones() {
    python3 - "$@" <<'PY'
import re, sys
size, cuts = int(sys.argv[2]), [float(c) for c in sys.argv[3:]]
offs = [int(o) for o in re.findall(r'pread64\(\d+, .*?, 4096, (\d+)\)', open(sys.argv[1]).read())]
prev, out = 0, []
for c in cuts:
    out.append(sum(prev * size / 100 <= o < c * size / 100 for o in offs) / max(len(offs), 1))
    prev = c
print(len(offs), *("%.3f" % x for x in out))
PY
}
# hottest LOG NBLOCKS: the share of 4 KiB reads on the hottest 1 % and 10 % of the blocks
hottest() {
    python3 - "$@" <<'PY'
import collections, re, sys
nb = int(sys.argv[2])
offs = re.findall(r'pread64\(\d+, .*?, 4096, (\d+)\)', open(sys.argv[1]).read())
c = sorted(collections.Counter(offs).values(), reverse=True)
print(len(offs), *("%.3f" % (sum(c[:max(1, int(nb * p))]) / max(len(offs), 1)) for p in (0.01, 0.1)))
PY
}
# near A B TOL: |A - B| <= TOL
near() { python3 -c 'import sys; a,b,t=map(float,sys.argv[1:]); sys.exit(abs(a-b)>t)' "$1" "$2" "$3"; }

# --- random_distribution --------------------------------------------------------------------
R="--name=z --filename=f --size=4m --rw=randread --norandommap --ioengine=psync"
traced nm nm.log $R --random_distribution=zoned:50/5:30/15:20/
rc=$?
expect_rc 0 "zoned distribution runs"
read -r n z1 z2 z3 <<<"$(zones nm.log 4194304 5 20 100)"
if [ "$n" -eq 1024 ] && near "$z1" 0.5 0.05 && near "$z2" 0.3 0.05 && near "$z3" 0.2 0.05; then
    ok "zoned:50/5:30/15:20/: 50 % of the reads in the first 5 %, 30 % in the next 15 % ($z1 $z2 $z3)"
else not_ok "zoned:50/5:30/15:20/ puts each share in its slice" "$n reads: $z1 $z2 $z3"; fi
if [ $HAVE_FIO = 1 ]; then
    traced fio fio.log $R --random_distribution=zoned:50/5:30/15:20/
    read -r fn f1 f2 f3 <<<"$(zones fio.log 4194304 5 20 100)"
    if near "$z1" "$f1" 0.05 && near "$z2" "$f2" 0.05 && near "$z3" "$f3" 0.05; then
        ok "zoned: the same shares as fio's ($f1 $f2 $f3)"
    else not_ok "zoned: the same shares as fio's" "fio $f1 $f2 $f3, nodemark $z1 $z2 $z3"; fi
fi
# zipf and pareto: 16 passes over 1024 blocks, the hottest blocks' share of the reads
for dist in zipf:1.2 pareto:0.2 normal; do
    traced nm nm.log $R --loops=16 --random_distribution=$dist
    read -r n h1 h10 <<<"$(hottest nm.log 1024)"
    if [ "$rc" -ne 0 ] || [ "$n" -ne 16384 ] || ! python3 -c "import sys; sys.exit(not $h10 > 0.3)"; then
        not_ok "$dist: skewed reads" "rc $rc, $n reads, hottest 10 %: $h10"
        continue
    fi
    if [ $HAVE_FIO = 1 ]; then
        traced fio fio.log $R --loops=16 --random_distribution=$dist
        read -r fn g1 g10 <<<"$(hottest fio.log 1024)"
        if near "$h1" "$g1" 0.03 && near "$h10" "$g10" 0.03; then
            ok "$dist: the hottest 1 % and 10 % of the blocks get fio's share of the reads ($h1 $h10 vs $g1 $g10)"
        else not_ok "$dist: as skewed as fio" "hottest 1 %, 10 %: fio $g1 $g10, nodemark $h1 $h10"; fi
    else
        ok "$dist: the hottest 10 % of the blocks get $h10 of the reads"
    fi
done
traced nm nm.log $R --random_distribution=zipf:1.2:0.5
top=$(python3 -c '
import collections, re, sys
offs = re.findall(r"pread64\(\d+, .*?, 4096, (\d+)\)", open(sys.argv[1]).read())
print(collections.Counter(offs).most_common(1)[0][0])' nm.log)
[ "$top" = 2097152 ] && ok "zipf:1.2:0.5: the hottest block is the middle one (as fio's center)" ||
    not_ok "zipf:1.2:0.5 puts the hottest block in the middle" "hottest at offset $top"

for bad in zipf:1 pareto:1.5 normal:100 zoned:50/5:30/15 zoned_abs:50/1m:50/3m sequence:1,2; do
    run_nm fio --no-save --parse-only $R --random_distribution=$bad
    [ "$rc" -eq 2 ] && [ "$(grep -c . <<<"$err")" -eq 1 ] && ok "random_distribution=$bad: refused in one line" ||
        not_ok "random_distribution=$bad: refused in one line" "rc $rc: $err"
done
