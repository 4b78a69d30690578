#!/usr/bin/env bash
# fio's file-operation engines do the same work per operation in nodemark as in fio 3.33: the
# system calls of the thread that does the I/O, counted by name, per operation, on two sizes of
# the same job (what a run does once drops out of the difference), beside real fio. fio does
# the operation when it opens a file (its first I/O): filecreate an open(O_CREAT) and a close,
# filestat a stat (statx after realpath's getcwd and readlinks) and filedelete an unlink, each
# of the last two followed by its fadvise hint on the descriptor fio left at -1. A file of
# several blocks is one operation and the rest of its I/Os do nothing and have no latency.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
skip_without strace "the system calls of the file-operation engines"
[ "$HAVE_FIO" = 1 ] || { not_ok "fio is installed (scripts/deps.sh installs it)"; exit 0; }
scratch_dir

# percalls LOG_A LOG_B N_A N_B NAME: of the thread (not the first) that names NAME's files
# most, each system call's count per file, from B's counts less A's over N_B - N_A files;
# calls under half a call per file (a malloc trim, a futex now and then) are left out
percalls() {
    python3 -c '
import collections, re, sys
def counts(log, name):
    first, per, hits = None, collections.defaultdict(collections.Counter), collections.Counter()
    for l in open(log):
        m = re.match(r"(\d+) +([a-z_0-9]+)\(", l)
        if not m or "resumed>" in l:
            continue
        tid, call = m.groups()
        first = first or tid
        per[tid][call] += 1
        if tid != first and "/%s.0." % name in l:
            hits[tid] += 1
    return per[hits.most_common(1)[0][0]] if hits else None
a, b = counts(sys.argv[1], sys.argv[5]), counts(sys.argv[2], sys.argv[5])
if a is None or b is None:
    print("none")
    sys.exit()
n = int(sys.argv[4]) - int(sys.argv[3])
per = {k: round((b[k] - a[k]) / n, 2) for k in set(a) | set(b)}
print(" ".join("%s=%g" % (k, v) for k, v in sorted(per.items()) if v >= 0.5) or "nothing")' "$@"
}

# calls TOOL ENGINE ARGS...: the per-file calls of TOOL (nm or fio) on the job with 8 and 24
# files; the 24-file run's JSON in $d/TOOL.json
calls() {
    local tool=$1 name=$2 n
    shift 2
    for n in 8 24; do
        rm -rf "$d/f" && mkdir "$d/f"
        strace_fio "$tool" "$d/st.$tool.$n" -- --thread --name="$name" --ioengine="$name" --directory="$d/f" \
            --nrfiles=$n --output-format=json "$@" >"$d/$tool.json" 2>"$d/$tool.err"
        [ "$rc" = 0 ] || { echo "failed: $(head -c 200 "$d/$tool.err")"; return; }
    done
    percalls "$d/st.$tool.8" "$d/st.$tool.24" 8 24 "$name"
}
# ios_lats FILE: the read I/Os and the latencies recorded
ios_lats() { json_file "$1" '(j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["read"]["clat_ns"]["N"])'; }

# one JOB: the engine (first word) and its options, compared
one() {
    local name=$1 what=$*
    local f n
    f=$(calls fio "$@")
    n=$(calls nm "$@")
    # realpath reads each component of the path: nodemark's files are one directory deeper (its
    # private .nodemark-* directory), so one readlink more
    if [[ $f =~ readlink=([0-9]+) ]]; then
        f=${f/readlink=${BASH_REMATCH[1]}/readlink=$((BASH_REMATCH[1] + 1))}
    fi
    if [ "$n" = "$f" ] && [ -n "$f" ] && [ "$f" != none ]; then
        ok "$what: the same calls per file as fio ($n)"
    else
        not_ok "$what: the same calls per file as fio" "fio: $f; nodemark: $n"
    fi
    local fl nl
    fl=$(ios_lats "$d/fio.json") nl=$(ios_lats "$d/nm.json")
    [ -n "$fl" ] && [ "$fl" = "$nl" ] && ok "$what: the same I/Os and latencies as fio ($nl)" ||
        not_ok "$what: the same I/Os and latencies as fio" "fio: $fl; nodemark: $nl"
}

one filecreate --filesize=4k --create_on_open=1 --openfiles=1
one filecreate --filesize=16k
one filestat --filesize=4k
one filestat --filesize=16k
one filestat --filesize=4k --stat_type=lstat
one filestat --filesize=4k --stat_type=statx
one filestat --filesize=4k --fadvise_hint=0
one filedelete --filesize=4k --unlink=0
one filedelete --filesize=16k --unlink=0
