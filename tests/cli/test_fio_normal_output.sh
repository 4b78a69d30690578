# nodemark fio's normal output against fio's, line for line: the same jobs through both tools,
# each in a fresh directory, then the shapes compared (tests/cli/helpers/fio_text_shape.py:
# each line's label, its figures taken out where they are measured, kept where they follow
# from the job). The helper also checks fio's rule for breaking the "lat (unit)" lines, on
# both tools' output.
. "$TESTS_DIR/cli/lib.sh"
require_fio
SHAPE="python3 $TESTS_DIR/cli/helpers/fio_text_shape.py"

# same NAME [--exact] [--private] -- ARGS...: fio and nodemark fio on ARGS, their shapes must be
# equal. --private: nodemark's files are in its private directory, removed at the end (nrfiles
# above 1; docs/fio-compat.md), so it leaves nothing where fio keeps them.
same() {
    local name=$1 exact="" private=""
    shift
    if [ "$1" = --exact ]; then exact=--exact; shift; fi
    if [ "$1" = --private ]; then private=1; shift; fi
    shift # --
    rm -rf fd && mkdir fd
    (cd fd && fio "$@") >fio.txt 2>fio.err
    local frc=$?
    if [ "$frc" -ne 0 ]; then
        skip "$name: the same shape as fio's" "fio itself failed here: $(head -c 200 fio.err)"
        return
    fi
    rm -rf d && mkdir d
    (cd d && "$NM" fio --no-save "$@") >nm.txt 2>nm.err
    local nrc=$?
    if [ "$nrc" -ne 0 ]; then
        not_ok "$name: nodemark fio ran" "exit $nrc: $(head -c 300 nm.err)"
        return
    fi
    # fio keeps a job's files (unlink=0): nodemark leaves the same ones, no more, no fewer
    if [ -n "$private" ]; then
        [ -z "$(ls -A d)" ] || not_ok "$name: nodemark removes its private directory" "$(ls -A d | head -5)"
    elif [ "$(LC_ALL=C ls -A d)" != "$(LC_ALL=C ls -A fd)" ]; then
        not_ok "$name: nodemark leaves the files fio leaves" "fio: $(ls -A fd | head -5); nodemark: $(ls -A d | head -5)"
    fi
    if ! $SHAPE fio.txt $exact >fio.shape 2>shape.err; then
        not_ok "$name: fio's own lat lines follow the rule the helper checks" "$(cat shape.err)"
        return
    fi
    if ! $SHAPE nm.txt $exact >nm.shape 2>shape.err; then
        not_ok "$name: lat bucket lines break as fio's" "$(cat shape.err)"
        return
    fi
    if diff fio.shape nm.shape >shape.diff; then
        ok "$name: the same lines as fio's"
    else
        not_ok "$name: the same lines as fio's" "$(head -c 1200 shape.diff)"
    fi
}

J="--ioengine=psync --size=1m"
same "randread, default file" --exact -- --name=j --rw=randread $J
same "named file" --exact -- --name=j --rw=randread $J --filename=F
same "write, 64k" --exact -- --name=w --rw=write --bs=64k $J
same "randrw with rwmixread" -- --name=m --rw=randrw --rwmixread=70 $J
same "numjobs=2, an entry each" --exact -- --name=n --rw=read $J --numjobs=2
same "numjobs=2, group_reporting" --exact -- --name=n --rw=read $J --numjobs=2 --group_reporting
same "numjobs=2 on one file" --exact -- --name=n --rw=read $J --numjobs=2 --filename=S
same "thread=1" --exact -- --name=t --rw=read $J --thread
same "nrfiles=3" --exact --private -- --name=f --rw=read --ioengine=psync --size=3m --nrfiles=3
same "two groups from a job file" -- "$TESTS_DIR/cli/data/two_groups.fio"
same "time_based" -- --name=tb --rw=read --bs=64k $J --time_based --runtime=1
same "io_uring, iodepth=8" -- --name=u --rw=randread --ioengine=io_uring --iodepth=8 --size=2m

# the submit/complete rows count calls: a batch of 8 submitted at once lands in fio's 5-8 bucket
rm -rf d && mkdir d
(cd d && "$NM" fio --no-save --name=b --rw=randread --ioengine=io_uring --iodepth=8 --iodepth_batch_submit=8 \
    --iodepth_batch_complete_min=8 --size=1m) >nm.txt 2>nm.err
if grep -qE '^     submit    : 0=0\.0%, 4=[0-9.]+%, 8=(100\.0|9[0-9]\.[0-9])%' nm.txt; then
    ok "iodepth_batch_submit=8: the submit row counts calls of 5-8 I/Os"
elif grep -q "io_uring" nm.err; then
    skip "iodepth_batch_submit=8: the submit row counts calls of 5-8 I/Os" "no io_uring: $(head -c 200 nm.err)"
else
    not_ok "iodepth_batch_submit=8: the submit row counts calls of 5-8 I/Os" "$(grep -E 'submit|complete' nm.txt) $(head -c 200 nm.err)"
fi
