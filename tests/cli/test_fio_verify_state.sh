#!/usr/bin/env bash
# fio's verify_state_save and verify_state_load beside real fio 3.33. A write job with verify=
# saves local-NAME-N-verify.state at its end (in the current directory, or --aux-path): the
# same name and the same bytes as fio's for a deterministic job (writes issued, iodepth, files,
# each file's last completed writes), and no file where fio writes none. A job with
# verify_state_load=1 reads fio's file or nodemark's and reads back only what those writes
# completed: the same reads and exit status as fio; a writer stopped by runtime or by SIGINT
# is then verified without a failure in both. A bad state file: fio exits 1 without running
# the job, nodemark refuses it in one line naming the file (exit 2). A state file is never
# written through a symbolic link, and never over a file the run reads.
. "$(dirname "$0")/lib.sh"
scratch_dir
require_fio
mkdir F N
FIG='j["jobs"][0]["write"]["io_bytes"], j["jobs"][0]["read"]["io_bytes"], j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["error"]'
B="--name=w --bs=4k --size=64k --verify=crc32c"
ST=local-w-0-verify.state

# in_both ARGS...: fio in F and nodemark in N, each with ARGS (JSON in X/o.json); $frc, $nrc
in_both() {
    (cd F && fio --output-format=json --output=o.json "$@" >/dev/null 2>err.txt)
    frc=$?
    (cd N && "$NM" fio --no-save --output-format=json --output=o.json "$@" >/dev/null 2>err.txt)
    nrc=$?
}
fresh() { rm -rf F/* N/*; }
same_state() { # what: both wrote $1, byte for byte
    if [ -f "F/$2" ] && [ -f "N/$2" ] && cmp -s "F/$2" "N/$2"; then
        ok "$1: $2 as fio's, byte for byte ($(stat -c %s "N/$2") bytes)"
    else
        not_ok "$1" "fio rc $frc $(ls F | tr '\n' ' '); nodemark rc $nrc $(ls N | tr '\n' ' ') $(head -c 300 N/err.txt)"
    fi
}

# --- saved: the same file as fio's ------------------------------------------------------------
fresh
in_both $B --filename=d --rw=write --number_ios=10 --do_verify=0
same_state "a write stopped by number_ios=10, psync" $ST
fresh
in_both $B --filename=a:b --nrfiles=2 --rw=write --number_ios=10 --ioengine=libaio --iodepth=4 --do_verify=0
same_state "two files, libaio iodepth=4: each file's last 4 completions" $ST
fresh
in_both $B --filename=d --rw=write --iodepth=4
same_state "a whole write+verify job, iodepth=4 on psync (fio saves its depth)" $ST
fresh
mkdir F/aux N/aux
in_both --aux-path=aux $B --filename=d --rw=write --number_ios=5 --do_verify=0
if [ ! -e F/$ST ] && [ ! -e N/$ST ]; then same_state "--aux-path=aux: there, not in the current directory" aux/$ST
else not_ok "--aux-path=aux: not in the current directory" "$(ls F N)"; fi

fresh
in_both $B --filename=d --rw=write
in_both $B --filename=d --rw=write --verify_only=1 --iodepth=4 --number_ios=7
same_state "verify_only=1 (fio counts the writes it only reads as done), iodepth=4" $ST
fresh
in_both $B --filename=d --rw=write --ioengine=null
same_state "the null engine (it pretends: the state is still saved)" $ST

# which jobs save one: only a writing job with verify= and verify_state_save=1; the name's '/' a '.'
fresh
J="--bs=4k --size=64k"
in_both --name=r $J --filename=r --rw=read --verify=crc32c --name=nv $J --filename=nv --rw=write --name=ns $J \
    --filename=ns --rw=write --verify=md5 --verify_state_save=0 --name=a/b $J --filename=ab --rw=write --verify=md5 \
    --do_verify=0 --number_ios=2
fl=$(cd F && ls | grep verify.state | tr '\n' ' ') nl=$(cd N && ls | grep verify.state | tr '\n' ' ')
[ "$frc" = "$nrc" ] && [ "$fl" = "local-a.b-3-verify.state " ] && [ "$nl" = "$fl" ] &&
    cmp -s F/local-a.b-3-verify.state N/local-a.b-3-verify.state &&
    ok "4 jobs (read, no verify=, verify_state_save=0, a/b): only a/b's, thread 3's, as fio's (exit $frc in both)" ||
    not_ok "the jobs that save a state" "fio rc $frc: $fl; nodemark rc $nrc: $nl $(head -c 300 N/err.txt)"

# --- loaded: the same reads as fio's -----------------------------------------------------------
# load_both WHAT WRITER READER: each tool writes with WRITER, then reads with READER (its own
# state); nodemark then reads fio's state and file too: the same figures and exit status
load_both() {
    local what=$1 w=$2 r=$3 ff nf xf
    fresh
    # shellcheck disable=SC2086
    in_both $w
    # shellcheck disable=SC2086 # first: a writing fio job with the state loaded saves it again
    (cd F && "$NM" fio --no-save --allow-write=d --output-format=json --output=x.json $r >/dev/null 2>xerr.txt)
    local xrc=$?
    # shellcheck disable=SC2086
    in_both $r
    ff=$(json_file F/o.json "$FIG") nf=$(json_file N/o.json "$FIG")
    xf=$(json_file F/x.json "$FIG")
    if [ "$frc" = "$nrc" ] && [ "$ff" = "$nf" ] && [ "$xrc" = "$frc" ] && [ "$xf" = "$ff" ]; then
        ok "$what: $ff, exit $frc in both (nodemark reading fio's state too)"
    else
        not_ok "$what" "fio rc $frc $ff; nodemark rc $nrc $nf; nodemark on fio's rc $xrc $xf $(head -c 300 N/err.txt)"
    fi
}
load_both "10 writes saved, a read job loads them: 10 blocks read back" \
    "$B --filename=d --rw=write --number_ios=10 --do_verify=0" "$B --filename=d --rw=read --verify_state_load=1"
load_both "3 writes, iodepth=4 (numberio <= depth: each read must be a completion)" \
    "$B --filename=d --rw=write --number_ios=3 --iodepth=4 --do_verify=0" "$B --filename=d --rw=read --verify_state_load=1"
load_both "libaio iodepth=4 writer, 10 writes" \
    "$B --filename=d --rw=write --number_ios=10 --ioengine=libaio --iodepth=4 --do_verify=0" \
    "$B --filename=d --rw=read --verify_state_load=1"
load_both "a write job loading the state: its read-back stops at the saved writes" \
    "$B --filename=d --rw=write --number_ios=10 --do_verify=0" "$B --filename=d --rw=write --verify_state_load=1"
load_both "a whole write+verify job's state: every block read back" \
    "$B --filename=d --rw=write" "$B --filename=d --rw=read --verify_state_load=1"

# a writer stopped early: by runtime (rate-limited), then by SIGINT; verified with the state loaded
R="--name=w --bs=4k --size=1m --verify=crc32c --filename=d"
reads_numberio() { # TOOLDIR: rc 0 and the reads are the state's writes issued
    local n r
    n=$(py 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1],"rb").read(), 40)[0])' "$1/$ST" 2>&1)
    r=$(json_file "$1/o.json" 'j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["error"]')
    [ "$r" = "($n, 0)" ]
}
fresh
in_both $R --rw=write --rate_iops=100 --runtime=1
wf=$(json_file F/o.json 'j["jobs"][0]["write"]["total_ios"]') wn=$(json_file N/o.json 'j["jobs"][0]["write"]["total_ios"]')
in_both $R --rw=read --verify_state_load=1
lrc=$frc$nrc lf=$(json_file F/o.json "$FIG") ln=$(json_file N/o.json "$FIG") lok=0
[ "$lrc" = 00 ] && reads_numberio F && reads_numberio N && lok=1
in_both $R --rw=read # without the state: each fails on its first block not written
fo=$(grep -o 'offset [0-9]*' F/err.txt | head -1) no=$(grep -o 'offset [0-9]*' N/err.txt | head -1)
if [ $lok = 1 ] && [ "$frc$nrc" = 11 ] && [ "$fo" = "offset $((wf * 4096))" ] && [ "$no" = "offset $((wn * 4096))" ]; then
    ok "a writer stopped by runtime=1 ($wf and $wn writes of 256): with the state the saved writes pass in both (without it, both fail at $fo and $no)"
else
    not_ok "stopped by runtime, then verified" "with the state: rc $lrc, fio $lf, nodemark $ln $(head -c 200 N/err.txt); without: rc $frc$nrc $fo $no"
fi
fresh
truncate -s 1m F/d N/d # a file of the user's: nodemark keeps it when interrupted
(cd F && sigint_after 1 fio --output-format=json --output=o.json $R --rw=write --rate_iops=100 >/dev/null 2>&1)
(cd N && sigint_after 1 "$NM" fio --no-save --allow-write=d --output-format=json --output=o.json $R --rw=write \
    --rate_iops=100 >/dev/null 2>&1)
in_both $R --rw=read --verify_state_load=1
if [ "$frc$nrc" = 00 ] && reads_numberio F && reads_numberio N; then
    ok "a writer stopped by SIGINT: the state saved, its writes read back and passed in both"
else
    not_ok "stopped by SIGINT, then verified" "fio rc $frc $(json_file F/o.json "$FIG"); nodemark rc $nrc $(json_file N/o.json "$FIG") $(ls N) $(head -c 300 N/err.txt)"
fi

# --- bad state files ---------------------------------------------------------------------------
fresh
in_both $B --filename=d --rw=write --number_ios=10 --do_verify=0
cp N/$ST good
bad_state() { # WHAT TEXT: fio exits 1 reading nothing; nodemark refuses in one line naming the file
    (cd F && fio --output-format=json --output=o.json $B --filename=d --rw=read --verify_state_load=1 >/dev/null 2>&1)
    frc=$? ff=$(json_file F/o.json 'j["jobs"][0]["read"]["total_ios"]')
    cd N && run_nm fio --no-save $B --filename=d --rw=read --verify_state_load=1; cd ..
    if [ "$frc" = 1 ] && [ "$ff" = 0 ]; then expect_refused "$1: fio exits 1 reading nothing; nodemark refuses it" "$ST: $2"
    else not_ok "$1: fio exits 1 without reading" "fio rc $frc, $ff reads"; fi
}
rm F/$ST N/$ST
bad_state "no state file" "No such file or directory"
head -c 100 good >F/$ST; cp F/$ST N/$ST
bad_state "a truncated state file" "truncated"
cp good F/$ST; printf '\x05' | dd of=F/$ST bs=1 seek=40 conv=notrunc 2>/dev/null; cp F/$ST N/$ST
bad_state "a byte of the record changed" "corrupt"
cp good F/$ST; printf '\x04' | dd of=F/$ST bs=1 seek=0 conv=notrunc 2>/dev/null; cp F/$ST N/$ST
bad_state "version 4" "version 4"

# --- never through a link, never over an input --------------------------------------------------
fresh
echo keep >N/target
ln -s target N/$ST
cd N && run_nm fio --no-save $B --filename=d --rw=write --number_ios=2 --do_verify=0; cd ..
[ "$rc" = 1 ] && [ "$(cat N/target)" = keep ] && [ -L N/$ST ] && [[ $err == *"$ST: a symbolic link (not followed"* ]] &&
    ok "a symbolic link where the state goes: not followed, the error names it (exit 1)" ||
    not_ok "a symbolic link is not written through" "rc $rc; target $(cat N/target); ${err:0:300}"
fresh
cd N && run_nm fio --no-save $B --filename=$ST --rw=write --number_ios=2 --do_verify=0; cd ..
[ ! -e N/$ST ] && expect_refused "the job's own data file named as its state: refused before anything runs" "verify_state_save"
