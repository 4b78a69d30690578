#!/bin/bash
# bench/interleave.sh: targets measured in turns (`nodemark disk A B`) against the same targets
# measured in two separate runs of the same total length.  Needs root (loop devices, cgroup v1
# blkio) for the A/B part; the A/A part runs anywhere.
#
#   A/A  two directories on one file system, RUNS runs of `disk A B` with a quick profile:
#        how many runs call a difference (there is none), and the bound each "no change" states.
#   A/B  two loop devices over files on one file system; the second one throttled, for the
#        process that runs the test only, by the cgroup v1 blkio controller
#        (blkio.throttle.read_iops_device) at 80% and 50% of the rate it measured unthrottled
#        (1.25x and 2x): in how many of RUNS runs the change is called, and the ratio estimated.
#        The same devices measured in two separate runs (LOOPS passes each, the same length as
#        the interleaved run) and compared by `nodemark compare`: what those calls.
#        THROTTLE picks how the change is injected: "b" throttles B alone (A runs at what the
#        CPU gives a QD1 loop device, so the throttle slows B by less than its factor when the
#        CPU is the pace), "both" throttles A as well, to 40% of the unthrottled rate (at most
#        5000 IOPS), and B to the factor times that: both devices set their own pace, so the
#        injected ratio is the true one (the A/A of this mode, both at 40%, is the factor 1).
#
#   RUNS=10 LOOPS=10 PASS=300ms bench/interleave.sh      (defaults; smaller on a busy machine)
#   PARTS="aa ab" selects the parts; THROTTLE="b both" (default) the A/B injections; FACTORS
#   the injected ratios (default "0.8 0.5", and 1 first in "both"; e.g. FACTORS=0.1 for a change
#   past the floor of two separate runs).
set -u
cd "$(dirname "$0")/.." || exit 1
NM=${NM:-$PWD/build/nodemark}
RUNS=${RUNS:-10} LOOPS=${LOOPS:-10} PASS=${PASS:-300ms} PARTS=${PARTS:-aa ab} THROTTLE=${THROTTLE:-b both}
[ -x "$NM" ] || { echo "interleave.sh: build nodemark first (make)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/var/tmp}/nm-interleave.XXXXXX") || exit 1
export NODEMARK_DB=$work/results.db NODEMARK_NO_PROGRESS=1
loops=() cg=""
cleanup() {
    [ -n "$cg" ] && rmdir "$cg" 2>/dev/null
    for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "# interleave.sh: RUNS=$RUNS LOOPS=$LOOPS PASS=$PASS THROTTLE=\"$THROTTLE\", $(nproc) CPUs"
echo "# load before: $(uptime | sed 's/.*load/load/')"

# The paired comparison of a `disk --json` run in turns: per test "verdict ratio [lo, hi]".
paired() {
    python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
for t in j["tests"]:
    for p in t["paired"]:
        lo = "%.3f" % p["lo"] if p["lo"] else "-"
        hi = "%.3f" % p["hi"] if p["hi"] else "-"
        print("%s\t%s\t%.3f\t%s\t%s\t%s" % (t["name"], p["verdict"], p["ratio"], lo, hi, p["text"]))
' "$1"
}

# Medians and a count over lines "test<TAB>verdict<TAB>ratio<TAB>..." of all runs.
summarize() { # FILE INJECTED
    python3 -c '
import sys, statistics
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
inj = float(sys.argv[2])
runs = {}
for r in rows:
    runs.setdefault(r[0], []).append(r)
for name, rs in runs.items():
    called = sum(r[1] == "called" for r in rs)
    ratios = [float(r[2]) for r in rs]
    med = statistics.median(ratios)
    close = sum(abs(x / inj - 1) <= 0.10 for x in ratios) if inj != 1 else 0
    bounds = [r[5] for r in rs if r[1] != "called"]
    line = "%-22s called in %d of %d runs; median ratio %.3f (range %.3f..%.3f)" % (
        name, called, len(rs), med, min(ratios), max(ratios))
    if inj != 1:
        line += "; within 10%% of %.2f in %d" % (inj, close)
    print(line)
    if inj == 1 and bounds:
        print("%-22s   not called: %s" % ("", "; ".join(sorted(set(bounds)))))
' "$1" "$2"
}

if [[ " $PARTS " == *" aa "* ]]; then
    echo
    echo "## A/A: two directories on one file system, $RUNS runs of disk A B --profile realworld"
    mkdir -p "$work/a" "$work/b"
    : >"$work/aa.tsv"
    for i in $(seq "$RUNS"); do
        "$NM" disk "$work/a" "$work/b" --profile realworld --size 32m --runtime "$PASS" --loops "$LOOPS" \
            --interval 0 --json --no-save >"$work/aa.json" 2>"$work/aa.err" || { cat "$work/aa.err"; exit 1; }
        paired "$work/aa.json" >>"$work/aa.tsv"
    done
    echo "runs with a call: $(python3 -c '
import sys
# a run is the group of consecutive lines of its 4 tests
rows = [l.split("\t") for l in open(sys.argv[1]) if l.strip()]
n = 4
print(sum(any(r[1] == "called" for r in rows[i:i + n]) for i in range(0, len(rows), n)), "of", len(rows) // n)
' "$work/aa.tsv")"
    summarize "$work/aa.tsv" 1
fi

if [[ " $PARTS " == *" ab "* ]]; then
    echo
    if [ "$(id -u)" != 0 ] || [ ! -w /sys/fs/cgroup/blkio ]; then
        echo "## A/B: skipped (needs root and cgroup v1 blkio)"
        exit 0
    fi
    for x in a b; do
        head -c 96M /dev/urandom >"$work/$x.img"
        loops+=("$(losetup --find --show "$work/$x.img")") || exit 1
    done
    la=${loops[0]} lb=${loops[1]}
    majmin_a=$(lsblk -dno MAJ:MIN "$la" | tr -d ' ') majmin=$(lsblk -dno MAJ:MIN "$lb" | tr -d ' ')
    job=(--rw randread --bs 4k --size 64m --runtime "$PASS" --interval 0 --engine uring --direct)
    cg=/sys/fs/cgroup/blkio/nm-interleave-$$
    mkdir "$cg" || exit 1
    # the test process alone is throttled: it joins the cgroup, then becomes nodemark
    in_cg() { sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"; }
    iops=$("$NM" disk "$lb" "${job[@]}" --loops 3 --json --no-save |
        python3 -c 'import json,sys; v=sorted(p["iops"] for p in json.load(sys.stdin)["tests"][0]["passes"]); print(int(v[len(v) // 2]))')
    echo "## A/B: $la and $lb (loop devices over 96 MiB files on $(df --output=fstype "$work" | tail -1)), 4k random reads QD1, O_DIRECT"
    echo "$lb unthrottled: $iops IOPS (median of 3 passes)"
    for mode in $THROTTLE; do
        case $mode in
        b) base=$iops factors="0.8 0.5" ;;
        # (at most 5000 IOPS: the unthrottled rate is what the CPU gives a QD1 loop device at the
        # moment it is measured, 21k to 105k here, and a busier minute later must not make the
        # CPU the pace again)
        both) base=$(python3 -c "print(min(int($iops * 0.4), 5000))") factors="1 0.8 0.5" ;;
        *) echo "interleave.sh: THROTTLE is b and/or both, not $mode" >&2; exit 2 ;;
        esac
        for f in ${FACTORS:-$factors}; do
            limit=$(python3 -c "print(int($base * $f))")
            inj=$(python3 -c "print($f)")
            echo "$majmin $limit" >"$cg/blkio.throttle.read_iops_device"
            echo
            if [ "$mode" = both ]; then
                echo "$majmin_a $base" >"$cg/blkio.throttle.read_iops_device"
                echo "### both throttled: $la to $base IOPS, $lb to $limit IOPS (injected ratio $inj)"
            else
                echo "### $lb throttled to $limit IOPS ($f of its rate: injected ratio $inj)"
            fi
            : >"$work/ab.tsv"
            for i in $(seq "$RUNS"); do
                in_cg "$NM" disk "$la" "$lb" "${job[@]}" --loops "$LOOPS" --json --no-save >"$work/ab.json" || exit 1
                paired "$work/ab.json" >>"$work/ab.tsv"
            done
            echo "in turns:     $(summarize "$work/ab.tsv" "$inj")"
            # separate runs of the same total length: LOOPS passes of A, then LOOPS passes of B
            # (A outside the cgroup when B alone is throttled, inside it when both are)
            a_cg=()
            [ "$mode" = both ] && a_cg=(in_cg)
            sep_called=0 sep_ratios=""
            for i in $(seq "$RUNS"); do
                "${a_cg[@]}" "$NM" disk "$la" "${job[@]}" --loops "$LOOPS" --label "sepA$mode$f-$i" >/dev/null 2>&1 || exit 1
                in_cg "$NM" disk "$lb" "${job[@]}" --loops "$LOOPS" --label "sepB$mode$f-$i" >/dev/null 2>&1 || exit 1
                read -r call ratio < <("$NM" compare "sepA$mode$f-$i" "sepB$mode$f-$i" --metric bytes_per_sec --format json |
                    python3 -c 'import json,sys; c=json.load(sys.stdin)["calls"][0]; print(c["call"].replace(" ", "_"), "%.3f" % (1 + c["delta_pct"] / 100))')
                case $call in regression|improvement|changed) sep_called=$((sep_called + 1)) ;; esac
                sep_ratios+=" $ratio"
            done
            echo "separate:     called in $sep_called of $RUNS pairs of runs (nodemark compare); ratios$sep_ratios"
            echo "$majmin 0" >"$cg/blkio.throttle.read_iops_device" 2>/dev/null
            echo "$majmin_a 0" >"$cg/blkio.throttle.read_iops_device" 2>/dev/null
        done
    done
fi
echo
echo "# load after: $(uptime | sed 's/.*load/load/')"
