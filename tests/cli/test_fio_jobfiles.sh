# Job files of our own (tests/cli/data/fio/) that cover the option combinations of fio's
# example job files, run through real fio and nodemark fio: the same job names, group ids,
# job and global options and JSON keys (tests/cli/fio_compare.py), the same amounts of I/O for
# size-based jobs, figures within a loose factor for time-based ones, and no file left behind that
# fio does not leave too (fio keeps a job's files, unlink=0; nodemark keeps its filename= and
# NAME.THREAD.0 files as fio does, and removes its private directory of directory= files).
. "$TESTS_DIR/cli/lib.sh"
require_fio
data=$TESTS_DIR/cli/data/fio

# run_both FILE MODE: both tools on a copy of FILE in fresh directories, then the comparison.
# A time-based comparison of figures is run a second time before it counts as a failure: the
# machine is shared, and one stalled second of fio's is not a difference in meaning.
run_both() {
    run_once "$@" && return
    [ "$2" = --loose ] && [ -z "${retried:-}" ] && retried=1 run_once "$@" quiet
    print_result
}

run_once() {
    local file=$1 mode=$2 name
    name=$(basename "$file" .fio)
    for tool in fio nm; do
        rm -rf "$tool" && mkdir -p "$tool/d" && cp "$data"/*.fio "$data"/*.inc "$tool"/
    done
    if ! (cd fio && fio --output-format=json "$(basename "$file")" >../fio.json 2>../fio.err); then
        not_ok "$name: fio ran" "$(head -c 300 fio.err)"
        return
    fi
    (cd nm && "$NM" fio --no-save --output-format=json "$(basename "$file")" >../nm.json 2>../nm.err)
    rc=$? err=$(cat nm.err)
    if [ "$rc" -ne 0 ]; then
        not_ok "$name: nodemark fio ran" "exit $rc: ${err:0:300}"
        return
    fi
    result_name=$name
    if result_why=$(python3 "$TESTS_DIR/cli/fio_compare.py" fio.json nm.json "$mode" 2>&1); then
        result_ok=1
    else
        result_ok=0
        [ "$mode" = --loose ] && [ -z "${3:-}" ] && [ -z "${retried:-}" ] && return 1
    fi
    local left
    left=$(cd nm && find . -mindepth 1 ! -name '*.fio' ! -name '*.inc' ! -path ./d | while read -r f; do
        [ -e "../fio/$f" ] || echo "$f"; done | head -5)
    if [ -z "$left" ]; then ok "$name: nodemark leaves no file fio does not"; else not_ok "$name: nodemark leaves no file fio does not" "$left"; fi
    print_result
    result_name=""
    return 0
}

print_result() {
    [ -n "${result_name:-}" ] || return 0
    if [ "$result_ok" = 1 ]; then
        ok "$result_name: fio's jobs, groups, options and JSON keys, and its figures"
    else
        not_ok "$result_name: the same as fio" "$result_why"
    fi
    result_name=""
}

run_both "$data/seq-rand-mix.fio" --sizes
run_both "$data/threads-group.fio" --sizes
run_both "$data/files.fio" --sizes
run_both "$data/includes.fio" --sizes
run_both "$data/timed.fio" --loose

# The default target: no filename= or directory=, fio's NAME.THREAD.0 files in the working
# directory, kept by both (fio's unlink=0).
printf '[global]\nsize=512k\nbs=4k\n[dflt-a]\nrw=read\n[dflt-b]\nrw=randwrite\nnumjobs=2\nstonewall\n' > "$PWD/default.fio"
for tool in fio nm; do rm -rf "$tool" && mkdir "$tool" && cp default.fio "$tool"/; done
(cd fio && fio --output-format=json default.fio >../fio.json 2>../fio.err)
check "default target: fio leaves its NAME.THREAD.0 files" test -e fio/dflt-b.1.0
(cd nm && "$NM" fio --no-save --output-format=json default.fio >../nm.json 2>../nm.err)
if why=$(python3 "$TESTS_DIR/cli/fio_compare.py" fio.json nm.json --sizes 2>&1); then
    ok "default target: fio's jobs, groups, options and amounts of I/O"
else
    not_ok "default target: the same as fio" "$why"
fi
check "default target: nodemark keeps the files fio keeps (unlink=0)" test "$(LC_ALL=C ls -A nm)" = "$(LC_ALL=C ls -A fio)"
check "default target: the kept files are the jobs' (dflt-a.0.0, dflt-b.0.0, dflt-b.1.0)" \
    test "$(LC_ALL=C ls -A nm | tr '\n' ' ')" = "default.fio dflt-a.0.0 dflt-b.0.0 dflt-b.1.0 "
# unlink=1: both remove them at the end
sed 's/^bs=4k$/bs=4k\nunlink=1/' default.fio >unlink.fio
for tool in fio nm; do rm -rf "$tool" && mkdir "$tool" && cp unlink.fio "$tool"/; done
(cd fio && fio --output-format=json unlink.fio >../fio.json 2>../fio.err)
(cd nm && "$NM" fio --no-save --output-format=json unlink.fio >../nm.json 2>../nm.err)
check "default target, unlink=1: fio removes its files" test "$(ls -A fio)" = unlink.fio
check "default target, unlink=1: nodemark removes its files, as fio" test "$(ls -A nm)" = unlink.fio
