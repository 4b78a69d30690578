# nodemark fio against real fio: the same arguments through both, then the JSON compared by
# tests/cli/fio_compare.py: key tree of every job entry, jobnames, groupids, job and global
# options, and (all these jobs are size-based) io_bytes and total_ios.
. "$TESTS_DIR/cli/lib.sh"
. "$TESTS_DIR/cli/helpers/fio_side.sh"
require_fio

# compare NAME ARGS...: both tools on ARGS (their files in a fresh ./d each), the JSON compared
compare() {
    local name=$1
    shift
    json_like_fio "$name: same JSON keys, jobs, groups, io_bytes and total_ios as fio" --sizes d "$@"
}

G="--directory=d --size=1m"
compare "seq read" $G --name=sr --rw=read --size=2m
compare "rand read" $G --name=rr --rw=randread
compare "rand write" $G --name=rw --rw=randwrite
compare "seq mixed 70/30" $G --name=mx --rw=rw --rwmixread=70
compare "rand mixed, 2 jobs" $G --name=rrw --rw=randrw --numjobs=2
compare "group_reporting" --group_reporting $G --name=g1 --rw=randread --numjobs=2 --name=g2 --rw=read
compare "stonewall between jobs" $G --name=s1 --rw=read --name=s2 --rw=write --stonewall --name=s3 --rw=randread
compare "loops" $G --name=lp --rw=read --loops=3
compare "job file" --directory=d "$TESTS_DIR/cli/data/two_groups.fio"
compare "nrfiles" $G --name=nf --rw=read --nrfiles=2
compare "new_group" $G --name=n1 --rw=read --name=n2 --rw=read --new_group
compare "rw=read:4k holes" $G --name=h --rw=read:4k
compare "filename" --size=1m --name=fn --rw=randwrite --filename=d/thefile
compare "fsync" $G --name=fs --rw=write --fsync=4
compare "group_reporting with stonewall" --group_reporting $G --name=a --rw=write --name=b --rw=read --numjobs=2 \
    --name=c --stonewall --rw=randread
compare "kb_base=1000" --kb_base=1000 --directory=d --size=256k --name=kb --rw=read
compare "number_ios" $G --name=ni --rw=read --number_ios=10
compare "rw=read:-8k backwards" $G --name=bk --rw=read:-8k
compare "filename=a:b, both files each thread" --size=1m --name=fl --rw=randwrite --numjobs=2 --filename=d/a:d/b
compare "options shown by fio's names" $G --name=al --readwrite=randread --blocksize=4k --blockalign=4k \
    --fileoffset=0 --blocksize_range=4k-4k
