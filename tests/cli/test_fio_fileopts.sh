#!/usr/bin/env bash
# fio's file options beside real fio (issue 30): offset_increment (thread N of numjobs starts at
# offset + N x the increment), offset_align, filename_format and unique_filename, file_append.
# Each job runs in both tools with write_iolog; the I/Os (file name, direction, offset, length,
# sorted: fio's threads share one log), the files the job leaves and their sizes, and the exit
# statuses must be the same.  Mechanisms, never timings.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
scratch_dir

# the I/O lines of a write_iolog, the file's base name (nodemark's private directory dropped)
ios() { awk '$3 == "read" || $3 == "write" { n = split($2, p, "/"); print p[n], $3, $4, $5 }' "$1" | sort; }
# the files under w/ and their sizes; in a directory= job, nodemark's files are in its private
# directory, removed at the end: the names the log adds, without sizes
files() {
    if [ $dirjob = 1 ]; then awk '$3 == "add" { n = split($2, p, "/"); print p[n] }' w/io.log | sort
    else (cd w && find . -type f ! -name '*.log' -printf '%P %s\n' | sort); fi
}

# same_io WHAT [--pre CMD] [--nm ARG] ARGS...: ARGS in a fresh w/ (CMD run there first), in fio
# then in nodemark (with ARG too: --allow-write=)
same_io() {
    local what=$1 pre=: nmarg=() frc fi fs ni ns dirjob=0
    shift
    [[ " $* " == *" --directory="* ]] && dirjob=1
    [ "$1" = --pre ] && pre=$2 && shift 2
    [ "$1" = --nm ] && nmarg=("$2") && shift 2
    rm -rf w && mkdir w && cd w && eval "$pre"
    fio --output-format=json --write_iolog=io.log "$@" >../fio.out 2>../fio.err
    frc=$?
    cd .. && fi=$(ios w/io.log) fs=$(files)
    rm -rf w && mkdir w && cd w && eval "$pre"
    run_nm fio --no-save --output-format=json --write_iolog=io.log "${nmarg[@]}" "$@"
    cd .. && ni=$(ios w/io.log 2>/dev/null) ns=$(files)
    if [ "$frc" = 0 ] && [ "$rc" = 0 ] && [ -n "$fi" ] && [ "$fi" = "$ni" ] && [ "$fs" = "$ns" ]; then
        ok "$what: $(printf '%s\n' "$fi" | wc -l) I/Os at fio's offsets, files as fio's ($(echo $fs))"
    else
        not_ok "$what" "fio rc $frc, nodemark rc $rc; I/Os: $(diff <(echo "$fi") <(echo "$ni") | head -4 | tr '\n' ' ')files: fio [$fs] nodemark [$ns] ${err:0:200}"
    fi
}

same_io "offset_increment=1m, numjobs=3, one file: thread N writes from N MiB" \
    --name=oi --rw=write --bs=64k --size=256k --numjobs=3 --offset_increment=1m --filename=f
same_io "offset_increment with offset=64k, randread, a directory's file per thread" \
    --name=oj --rw=randread --bs=64k --size=256k --numjobs=3 --offset_increment=1m --offset=64k --directory=.
same_io "offset_increment=16k, nrfiles=2 per thread" \
    --name=ok --rw=read --bs=4k --size=64k --numjobs=2 --offset_increment=16k --nrfiles=2 --directory=.
same_io "offset_align=4096 moves no offset given in bytes (as fio's)" \
    --name=oa --rw=read --bs=4k --size=16k --offset=6k --offset_align=4096 --filename=f

same_io "filename_format with every keyword, numjobs=2 (files left in the directory)" \
    --name=ff --rw=write --bs=4k --size=16k --numjobs=2 '--filename_format=x.$jobnum.$JOBNAME-$filenum$clientuid'
same_io "filename_format in a directory, nrfiles=2, numjobs=2" \
    --name=fd --rw=read --bs=4k --size=16k --numjobs=2 --nrfiles=2 --directory=. '--filename_format=f$filenum.$jobnum'
same_io "filename_format without \$filenum: a thread's files are one file, as fio's" \
    --name=fs --rw=write --bs=4k --size=16k --nrfiles=2 --directory=. '--filename_format=ys$jobnum'
same_io "unique_filename=0 (client/server only) changes nothing" \
    --name=uf --rw=write --bs=4k --size=16k --unique_filename=0
run_nm fio --no-save --name=fx --rw=write --bs=4k --size=16k --numjobs=2 '--filename_format=xs$filenum'
expect_refused "filename_format without \$jobnum, numjobs=2 (fio runs only the first thread)" 'without $jobnum'

same_io "file_append=1, write: the I/O starts at an existing file's end (64k)" --pre 'head -c 65536 /dev/zero >fa' --nm --allow-write=fa \
    --name=fa --rw=write --bs=4k --size=32k --filename=fa --file_append=1
same_io "file_append=1, randwrite past a file's end" --pre 'head -c 65536 /dev/zero >fa' --nm --allow-write=fa \
    --name=fb --rw=randwrite --bs=4k --size=32k --filename=fa --file_append=1
same_io "file_append=1 on a new file: from 0" \
    --name=fc --rw=write --bs=4k --size=32k --filename=fn --file_append=1
# fio lays the whole file out again for a job that reads (its 64k replaced); nodemark does not
# write a file it did not create: the job is refused and the file stays as it was
head -c 65536 /dev/urandom >user
sum=$(md5sum <user)
run_nm fio --no-save --name=fr --rw=read --bs=4k --size=32k --filename=user --file_append=1
[ "$rc" = 2 ] && is_one_line_error && [ "$(md5sum <user)" = "$sum" ] &&
    ok "file_append=1, read past a user's file: refused, the file unchanged" ||
    not_ok "file_append=1, read past a user's file" "exit $rc: $err"
