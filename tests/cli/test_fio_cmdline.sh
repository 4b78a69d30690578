#!/usr/bin/env bash
# fio's command line as fio 3.33 reads it (glibc's getopt_long_only): one dash or two,
# abbreviations, fio's one-letter switches, --name=global, and each engine name's own options
# (posixaio has none of io_uring's, pvsync2 has hipri). Each command line runs under real fio
# and nodemark: the same ones are taken and refused, and where they run the same bytes move
# and the jobs list the same options.
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio
jf() { python3 -c "import json,sys; t=open(sys.argv[1]).read(); j=json.loads(t[t.index('{'):]); print($2)" "$1" 2>&1; }

# --- taken or refused as fio takes or refuses it -------------------------------------------
: >"$d/f"
# each: nodemark's exit (fio's 1 is nodemark's 2: bad input), the words, what it shows
cases=(
    "0|-name=j -rw=read -output-format=json|one dash"
    "0|--name=j --output-form=json --runt=1 --numj=1|abbreviations of a switch and of job options"
    "0|-name=j -minimal -rP|-minimal, and -r -P together"
    "0|--name=j -o $d/o.txt|-o FILE, fio's letter"
    "0|--name=j -o$d/o2.txt|-oFILE"
    "0|--name=j --eta=never|--eta typed in full is not --eta-interval"
    "0|--name=j --eta-n=2s|--eta-n is --eta-newline"
    "0|--name=j --direct 0|a value in the next word"
    "0|--na=j --time_b --runt=1|--na is --name, --time_b is --time_based"
    "2|--name=j --siz=64k|--siz: fio's table has size twice (the job's and its tiobench profile's)"
    "2|--name=j --threa|--threa: thread, and its profiles' threads and threads-per-queue"
    "0|--name=j --threads=2|--threads=N: the tiobench profile's option, taken and ignored"
    "0|--name=j --threads=4k|--threads=4k: fio's number syntax"
    "2|--name=j --threads=abc|--threads=abc: not a number"
    "2|--name=j --threads|--threads bare: it needs a value"
    "0|--name=j --time_based --runtime=1|a switch-type option bare"
    "2|--name=j --rwmix=30|--rwmix: rwmixread or rwmixwrite"
    "2|--name=j --blocksize_=4k|--blocksize_: two of bs's spellings"
    "2|--name=j --ra=1|--ra: rate, ramp_time, randrepeat, ..."
    "2|--name=j --iodep=4|--iodep: iodepth and iodepth_batch, ... (only a name typed in full wins)"
    "2|--name=j --e=1|--e: eta, eta-interval, end_fsync, ..."
    "2|--name=j --frob=1|a name fio does not know"
    "2|--name=j -q|-q: no long name, not one of fio's letters"
    "2|--name=j --minimal=1|a switch without a value given one"
    "2|--name=j --direct|a boolean that is not switch-type, bare at the end"
    "2|--name=j --bs|--bs without its value"
    "2|--name=j --rw=read --eta-interval=100ms|a value fio refuses"
)
for c in "${cases[@]}"; do
    IFS='|' read -r want words what <<<"$c"
    read -ra w <<<"$words"
    args=("${w[@]}" --filename="$d/f" --size=64k --parse-only)
    run_nm fio --no-save "${args[@]}"
    expect_rc "$want" "$what (exit $want)"
    [ "$want" = 2 ] && one_line_error "$what: one line"
    fio "${args[@]}" >/dev/null 2>"$d/fio.err"
    frc=$?
    [ $((frc ? 2 : 0)) = "$rc" ] && ok "fio 3.33 agrees: $what (fio $frc)" ||
        not_ok "fio 3.33 agrees: $what" "fio exit $frc ($(head -c 200 "$d/fio.err")), nodemark $rc: $err"
done
run_nm fio --no-save --name=j --rwmix=30 --filename="$d/f" --size=64k --parse-only
expect_err_has "--rwmix: ambiguous (as fio's getopt): --rwmixread, --rwmixwrite" \
    "the ambiguous abbreviation names the options it could be"
fio --name=j --rwmix=30 --filename="$d/f" --size=64k --parse-only >/dev/null 2>"$d/fio.err"
grep -q "ambiguous" "$d/fio.err" && ok "fio says the same: ambiguous" ||
    not_ok "fio says the same: ambiguous" "$(head -c 300 "$d/fio.err")"

# --max-jobs=N (fio's own test runner passes --max-jobs=16): fio 3.33 reads and drops it
# silently; its tests want an empty stderr, so nodemark says nothing either
fio --max-jobs=16 --name=j --filename="$d/f" --size=64k --parse-only >/dev/null 2>"$d/fio.err"
frc=$?
run_nm fio --no-save --max-jobs=16 --name=j --filename="$d/f" --size=64k --parse-only
[ $frc = 0 ] && [ ! -s "$d/fio.err" ] && [ "$rc" = 0 ] && [ -z "$err" ] &&
    ok "--max-jobs=16: taken with nothing on stderr, as fio's" ||
    not_ok "--max-jobs=16: taken with nothing on stderr, as fio's" "fio $frc ($(head -c 200 "$d/fio.err")), nodemark $rc: $err"

# --- the same job, spelled with abbreviations: the same bytes, the same job options ----------
# each: the words; nodemark's and fio's JSON compared: every job's bytes and I/Os per direction
# and its "job options" (fio lists an abbreviation under the option's full name)
same() {
    local what=$1
    shift
    rm -f "$d"/x.*
    fio --output-format=json "$@" >"$d/fio.json" 2>"$d/fio.err"
    local frc=$?
    rm -f "$d"/x.*
    run_nm fio --no-save --output-format=json "$@"
    printf '%s\n' "$out" >"$d/nm.json"
    if [ $frc -ne 0 ] || [ "$rc" -ne 0 ]; then
        not_ok "$what: both run" "fio $frc ($(head -c 200 "$d/fio.err")), nodemark $rc: ${err:0:200}"
        return
    fi
    local expr='sorted((x["jobname"], x["read"]["io_bytes"], x["read"]["total_ios"], x["write"]["io_bytes"],
        x["write"]["total_ios"], sorted(x["job options"].items())) for x in j["jobs"]),
        sorted(j.get("global options", {}).items())'
    local fv nv
    fv=$(jf "$d/fio.json" "$expr") nv=$(jf "$d/nm.json" "$expr")
    [ -n "$fv" ] && [ "$fv" = "$nv" ] && ok "$what: fio's bytes, I/Os, job and global options" ||
        not_ok "$what: fio's bytes, I/Os, job and global options" "fio $fv"$'\n'"    nodemark $nv"
}
same "one dash, abbreviations, a value in the next word" \
    -name=a -ioeng=null -size 1m -bs 8k -rw=randread -randr=0 --rwmixr=70 --iodepth 4 --numj=1
same "one-dash switches and -o" --name=w --ioengine=null --size=256k --bs=16k --rw=write \
    -group_rep -minimal -output-format=json
same "a job option's alias abbreviated (--readwr)" --name=a --ioengine=null --size=64k --readwr=write --bs=16k
# the files a job writes: fio's and nodemark's bytes on a real file
same "a file job with abbreviations" --name=x --filename="$d/x.dat" --size=128k --blocksize 32k --readw=write --end_f=1

# --- --name=global: the options after it go to the jobs named after it ------------------------
same "--name=global between jobs" --ioengine=null --size=64k --rw=read --name=a --name=global --bs=16k \
    --name=b --name=globalx --rw=write --name=c --bs=8k
same "--name=global first" --name=global --ioengine=null --size=128k --bs=32k --name=a --name=b --rw=write
same "--section: the options after a job it leaves out are global" --section=b --ioengine=null --size=64k \
    --name=a --rw=write --name=b --name=c
same "--section after a --name job: that job stays (fio chose it at its --name)" --ioengine=null --size=64k \
    --name=a --section=b --name=b --name=c --rw=write
printf '[global]\nioengine=io_uring\ncmdprio_percentage=10\nsize=64k\nfilename=%s/x.g\n[p]\nioengine=psync\n[u]\n' "$d" >"$d/g.fio"
same "a global cmdprio_percentage under io_uring globals: a psync job runs without it" "$d/g.fio"
# --threads is not thread: the header says "process" as fio's
fio --name=j --ioengine=null --size=64k --threads=1 2>/dev/null | grep -m1 '^Starting' >"$d/fio.start"
run_nm fio --no-save --name=j --ioengine=null --size=64k --threads=1
if [ -s "$d/fio.start" ] && [ "$(printf '%s\n' "$out" | grep -m1 '^Starting')" = "$(cat "$d/fio.start")" ]; then
    ok "--threads=1: fio's header line ($(cat "$d/fio.start"))"
else
    not_ok "--threads=1: fio's header line" "fio: $(cat "$d/fio.start"); nodemark: $(printf '%s\n' "$out" | grep -m1 '^Starting')"
fi
run_nm fio --no-save --output-format=json --ioengine=null --size=64k --name=a --name=global --bs=16k --name=b
[ "$(json_get '[x["read"]["total_ios"] for x in j["jobs"]]')" = "[16, 4]" ] &&
    ok "--name=global: the job before keeps bs=4k (16 I/Os), the one after has bs=16k (4 I/Os)" ||
    not_ok "--name=global: the job before keeps 4k, the one after has 16k" "$(json_get '[x["read"]["total_ios"] for x in j["jobs"]]')"

# --- an engine's options are those fio gives its name ----------------------------------------
ecases=(
    "2|--ioengine=posixaio --hipri|posixaio (run on uring) has no hipri"
    "2|--ioengine=posixaio --fixedbufs|posixaio has no fixedbufs"
    "0|--ioengine=io_uring --hipri|io_uring has hipri"
    "0|--ioengine=pvsync2 --hipri|pvsync2 has hipri"
    "0|--ioengine=pvsync2 --hipri --hipri_percentage=50|pvsync2 has hipri_percentage"
    "0|--ioengine=pvsync2 --nowait=1|pvsync2 has nowait"
    "2|--ioengine=psync --hipri|psync has no hipri"
    "2|--ioengine=sync --hipri|sync has no hipri"
    "2|--ioengine=pvsync --hipri|pvsync has no hipri"
    "2|--ioengine=vsync --hipri_percentage=10|vsync has no hipri_percentage"
    "2|--cmdprio_percentage=10|cmdprio_percentage is io_uring's and libaio's, not psync's"
    "2|--ioengine=posixaio --cmdprio_percentage=10|nor posixaio's"
    "0|--ioengine=io_uring --cmdprio_percentage=10|io_uring has cmdprio_percentage"
    "0|--ioengine=libaio --cmdprio_percentage=10|libaio has cmdprio_percentage"
    "0|--ioengine=io_uring --cmdprio_percentage=10 --ioengine=psync|dropped with the engine that had it"
    "2|--ioengine=pvsync2 --hipr=1 --ioengine=io_uring --hipri_=1|an abbreviation of the loaded engine's names only"
    "0|--ioengine=pvsync2 --hipri_p=50|--hipri_p is pvsync2's hipri_percentage"
    "2|--ioengine=pvsync2 --hipri_p=50 --ioengine=io_uring --hipri_p=50|io_uring has no hipri_percentage"
    "2|--ioengine=mmap --hipri|mmap has no hipri"
)
for c in "${ecases[@]}"; do
    IFS='|' read -r want words what <<<"$c"
    read -ra w <<<"$words"
    args=(--name=j "${w[@]}" --filename="$d/f" --size=64k --parse-only)
    run_nm fio --no-save "${args[@]}"
    expect_rc "$want" "engine options: $what (exit $want)"
    [ "$want" = 2 ] && one_line_error "engine options: $what: one line"
    fio "${args[@]}" >/dev/null 2>"$d/fio.err"
    frc=$?
    [ $((frc ? 2 : 0)) = "$rc" ] && ok "engine options: fio 3.33 agrees: $what (fio $frc)" ||
        not_ok "engine options: fio 3.33 agrees: $what" "fio exit $frc ($(head -c 200 "$d/fio.err")), nodemark $rc: $err"
done
# the same in job files: fio's "Bad option" where the engine has no such option
for c in "posixaio hipri=1:2" "posixaio cmdprio_percentage=10:2" "pvsync2 hipri=1:0" "psync hipri=1:2" \
    "io_uring cmdprio_percentage=10:0" "pvsync2 cmdprio_percentage=10:2"; do
    want=${c##*:} c=${c%:*}
    printf '[j]\nioengine=%s\n%s\nfilename=%s\nsize=64k\n' "${c% *}" "${c#* }" "$d/f" >"$d/j.fio"
    run_nm fio --no-save --parse-only "$d/j.fio"
    expect_rc "$want" "job file: ioengine=${c% *} with ${c#* } (exit $want)"
    fio --parse-only "$d/j.fio" >/dev/null 2>&1
    frc=$?
    [ $((frc ? 2 : 0)) = "$rc" ] && ok "job file: fio 3.33 agrees: ioengine=${c% *} with ${c#* } (fio $frc)" ||
        not_ok "job file: fio 3.33 agrees: ioengine=${c% *} with ${c#* }" "fio exit $frc, nodemark $rc: $err"
done
run_nm fio --no-save --parse-only --name=j --ioengine=posixaio --hipri --size=64k
expect_err_has "--hipri: unrecognized option (as fio's): the engine here is posixaio" \
    "posixaio's hipri: fio's unrecognized option, naming the engine"
# fio's options that nodemark does not do for that engine: refused as such, not as unknown
for w in "io_uring --nowait=1" "io_uring --sqthread_poll_cpu=0" "libaio --userspace_reap" "pvsync2 --uncached=1" \
    "mmap --thp=1"; do
    run_nm fio --no-save --parse-only --name=j --ioengine=${w% *} "${w#* }" --size=64k
    expect_refused "fio's ${w% *} option ${w#* }: refused" "fio's ioengine=${w% *} option is not supported by nodemark fio"
    fio --parse-only --name=j --ioengine=${w% *} "${w#* }" --size=64k >/dev/null 2>&1 &&
        ok "fio takes ${w#* } with ${w% *} (nodemark's refusal is its own)" ||
        not_ok "fio takes ${w#* } with ${w% *}" "fio refused it: the list in src/fio/longopts.c is wrong"
done
# pvsync2's hipri runs: the same bytes as fio's, with preadv2 and RWF_HIPRI
same "pvsync2 with hipri and hipri_percentage" --name=x --ioengine=pvsync2 --hipri --hipri_percentage=50 \
    --filename="$d/x.pv" --size=128k --bs=4k --rw=randread
if [ $HAVE_STRACE = 1 ]; then
    ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 strace -f -qq -o "$d/st" -e trace=preadv2 "$NM" fio --no-save \
        --name=x --ioengine=pvsync2 --hipri --filename="$d/x.pv" --size=64k --bs=4k --rw=read >/dev/null 2>&1
    n=$(grep -c 'preadv2(.*RWF_HIPRI' "$d/st")
    [ "$n" = 16 ] && ok "pvsync2 --hipri: each of the 16 reads is a preadv2 with RWF_HIPRI" ||
        not_ok "pvsync2 --hipri: 16 preadv2 with RWF_HIPRI" "$n: $(head -3 "$d/st")"
else skip "pvsync2's preadv2 calls" "strace is not installed"; fi

# --- the lists of names are fio's own ---------------------------------------------------------
# nodemark's getopt reads words over src/fio/longopts.c's list and each engine's fio_options:
# every job option fio 3.33 prints with --cmdhelp=all must be there, and each name there that
# it does not print (aliases, deprecated options, its profiles') must be one fio's getopt knows;
# each engine's options are those fio's --enghelp lists
src="$TESTS_DIR/../src/fio/longopts.c"
names() { awk -v from="$1" 'index($0, from) { on = 1; next } on && /^};/ { exit } on' "$src" |
    grep -o '"[^"]*"' | tr -d '"'; }
names 'job_names[] = {' | sort -u >"$d/nm.names"
fio --cmdhelp=all 2>/dev/null | awk -F: '/^ *[a-z]/ { gsub(/ /, "", $1); print $1 }' | sort -u >"$d/fio.names"
missing=$(comm -23 "$d/fio.names" "$d/nm.names" | tr '\n' ' ')
[ -s "$d/fio.names" ] && [ -z "$missing" ] && ok "every job option fio 3.33 lists is in longopts.c ($(wc -l <"$d/fio.names"))" ||
    not_ok "every job option fio 3.33 lists is in longopts.c" "missing: $missing"
unknown=""
for n in $(comm -13 "$d/fio.names" "$d/nm.names"); do
    fio --name=j --"$n"=1 --parse-only >/dev/null 2>"$d/fio.err"
    grep -q "unrecognized option" "$d/fio.err" && unknown+="$n "
done
[ -z "$unknown" ] && ok "the other names of longopts.c (aliases, deprecated options) are fio's getopt's" ||
    not_ok "the other names of longopts.c are fio's" "fio does not know: $unknown"
for e in io_uring libaio pvsync2 mmap cpuio exec net filestat posixaio psync sync pvsync vsync null; do
    # nodemark's --enghelp=ENGINE: the options it does, the table's own rows fio gives that
    # engine (cmdprio_*), and fio's options of it that nodemark refuses (each engine's
    # fio_options under src/io/, which its getopt reads)
    mine=$("$NM" fio --enghelp="$e" 2>/dev/null | awk '!/no engine options/ { print $1 }' | sort -u | tr '\n' ' ')
    theirs=$(fio --enghelp="$e" 2>/dev/null | awk -F: '/^ *[a-z]/ { gsub(/ /, "", $1); print $1 }' | sort -u | tr '\n' ' ')
    [ "$mine" = "$theirs" ] && ok "ioengine=$e: fio 3.33's options (${mine:-none})" ||
        not_ok "ioengine=$e: fio 3.33's options" "nodemark: $mine"$'\n'"    fio: $theirs"
done
# an alias fio's help leaves out is one its getopt takes: net's proto
run_nm fio --no-save --parse-only --name=j --ioengine=net --proto=tcp --hostname=localhost --port=8888 --size=64k
expect_rc 0 "net's proto= (protocol's alias) is taken"
fio --parse-only --name=j --ioengine=net --proto=tcp --hostname=localhost --port=8888 --size=64k >/dev/null 2>&1 &&
    ok "fio takes net's proto= too" || not_ok "fio takes net's proto= too"
