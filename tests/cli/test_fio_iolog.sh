#!/usr/bin/env bash
# fio's iologs (write_iolog, read_iolog, replay_redirect, replay_no_stall) beside real fio: a
# job recorded by fio replays under nodemark with the same I/Os (direction, offset, size, in
# order, as strace sees them on the file), and a log nodemark records replays under fio the
# same way; a v2 log, the log's pace kept or dropped, and the logs nodemark refuses.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
require_fio
skip_without strace "fio iolog replays compared by their system calls"
scratch_dir

# ios_of_log LOG: "dir offset len" per I/O line of an iolog (v2 or v3)
ios_of_log() {
    awk 'NR == 1 { v3 = ($3 == 3) } { n = NF - v3 } n == 4 && ($(2 + v3) == "read" || $(2 + v3) == "write") { print $(2 + v3), $(3 + v3), $(4 + v3) }' "$1"
}
# ios_of_strace LOG NAME: "dir offset len" per pread64/pwrite64 on the file NAME (strace -y)
ios_of_strace() {
    sed -nE "s/^[0-9]+ +p(read|write)64\([0-9]+<[^>]*\/$2>, .*, ([0-9]+), ([0-9]+)\) = [0-9]+$/\1 \3 \2/p" "$1"
}
same_ios() { # WHAT EXPECTED ACTUAL: the same lines, and some
    if [ -s "$2" ] && cmp -s "$2" "$3"; then
        ok "$1 ($(wc -l <"$2") I/Os)"
    else
        not_ok "$1" "expected $(wc -l <"$2") lines, got $(wc -l <"$3"): $(diff "$2" "$3" | head -5 | tr '\n' ' ')"
    fi
}
TRACE=(-y -e trace=pread64,pwrite64)

# --- fio records, nodemark replays ------------------------------------------------------------
fio --name=rec --filename="$d/data" --size=256k --bsrange=4k-16k --rw=randrw --ioengine=psync \
    --number_ios=48 --write_iolog="$d/fio.log" --output=/dev/null >/dev/null 2>&1
if [ "$(head -1 fio.log 2>/dev/null)" = "fio version 3 iolog" ]; then
    ok "fio 3.33 writes a v3 iolog"
else
    not_ok "fio 3.33 writes a v3 iolog" "$(head -3 fio.log 2>&1)"
fi
ios_of_log fio.log >want.txt

strace_fio nm st.txt "${TRACE[@]}" -- --name=rep --read_iolog="$d/fio.log" --allow-write="$d/data" \
    --replay_no_stall=1 --output-format=json --output=rep.json
expect_rc 0 "nodemark fio --read_iolog replays fio's log"
ios_of_strace st.txt data >got.txt
same_ios "nodemark replays fio's log: each I/O's direction, offset and size in the log's order" want.txt got.txt
check "the JSON counts the log's bytes (reads and writes)" \
    test "$(json_file rep.json "j['jobs'][0]['read']['io_bytes'], j['jobs'][0]['write']['io_bytes']")" = \
    "$(awk '$1 == "read" { r += $3 } $1 == "write" { w += $3 } END { printf "(%d, %d)", r, w }' want.txt)"

# io_uring, 4 in flight: the replay issues the log's I/Os in its order (its own record says so)
run_nm fio --no-save --name=rep --read_iolog="$d/fio.log" --allow-write="$d/data" --replay_no_stall=1 \
    --ioengine=io_uring --iodepth=4 --write_iolog="$d/again.log" --output=/dev/null
ios_of_log again.log >again.txt
same_ios "io_uring, iodepth=4: the replay issues the log's I/Os in order (write_iolog of the replay)" want.txt again.txt

# the writes of a replay need the same leave as filename='s
run_nm fio --no-save --name=rep --read_iolog="$d/fio.log" --replay_no_stall=1 --output=/dev/null
expect_refused "a replay that writes a file nodemark did not create needs --allow-write" "allow-write"

# --- replay_redirect: every I/O onto another file ------------------------------------------------
head -c 262144 /dev/zero >other
strace_fio nm st2.txt "${TRACE[@]}" -- --name=rr --read_iolog="$d/fio.log" --replay_redirect="$d/other" \
    --allow-write="$d/other" --replay_no_stall=1 --output=/dev/null
expect_rc 0 "replay_redirect runs"
ios_of_strace st2.txt other >got2.txt
same_ios "replay_redirect: the log's I/Os land on the named file" want.txt got2.txt
if ! grep -q '/data>' st2.txt; then ok "replay_redirect: the log's own file is not touched"; else not_ok "replay_redirect: the log's own file is not touched" "$(grep -m2 '/data>' st2.txt)"; fi
# fio does the same with its own log
strace_fio fio st3.txt "${TRACE[@]}" -- --name=rr --read_iolog="$d/fio.log" --replay_redirect="$d/other" \
    --replay_no_stall=1 --output=/dev/null
ios_of_strace st3.txt other >got3.txt
same_ios "fio's replay_redirect gives the same I/Os" want.txt got3.txt

# --- nodemark records, fio replays -------------------------------------------------------------
head -c 262144 /dev/urandom >mine
strace_fio nm st4.txt "${TRACE[@]}" -- --name=rec --filename="$d/mine" --allow-write="$d/mine" --size=256k \
    --bsrange=4k-16k --rw=randrw --number_ios=48 --write_iolog="$d/nm.log" --output=/dev/null
expect_rc 0 "nodemark fio --write_iolog runs"
ios_of_log nm.log >want4.txt
ios_of_strace st4.txt mine >got4.txt
same_ios "nodemark's log holds the I/Os it did, in order" got4.txt want4.txt
if head -1 nm.log | grep -qx 'fio version 3 iolog' && grep -qE "^[0-9]+ $d/mine add$" nm.log &&
    grep -qE "^[0-9]+ $d/mine open$" nm.log && tail -1 nm.log | grep -qE "^[0-9]+ $d/mine close$"; then
    ok "nodemark's log is fio's v3: the version line, add, open, the I/Os, close"
else
    not_ok "nodemark's log is fio's v3" "$(head -4 nm.log)"
fi
strace_fio fio st5.txt "${TRACE[@]}" -- --name=rep --read_iolog="$d/nm.log" --replay_no_stall=1 --output=/dev/null
expect_rc 0 "real fio replays nodemark's log"
ios_of_strace st5.txt mine >got5.txt
same_ios "fio replays nodemark's log: the same directions, offsets and sizes in order" want4.txt got5.txt

# --- v2 logs, the log's pace --------------------------------------------------------------------
printf 'fio version 2 iolog\n%s/other add\n%s/other open\n%s/other read 8192 4096\n%s/other read 0 512\n%s/other close\n' \
    "$d" "$d" "$d" "$d" "$d" >v2.log
strace_fio nm st6.txt "${TRACE[@]}" -- --name=v2 --read_iolog="$d/v2.log" --output=/dev/null
ios_of_strace st6.txt other >got6.txt
printf 'read 8192 4096\nread 0 512\n' >want6.txt
same_ios "a v2 log replays (read 4096 at 8192, then 512 at 0)" want6.txt got6.txt

# v3 time stamps 300 ms apart: kept, the replay sleeps between the I/Os; replay_no_stall: no sleep
printf 'fio version 3 iolog\n0 %s/other add\n10 %s/other open\n20 %s/other read 0 4096\n300020 %s/other read 4096 4096\n600020 %s/other read 8192 4096\n' \
    "$d" "$d" "$d" "$d" "$d" >v3.log
strace_fio nm st7.txt -y -e trace=pread64,nanosleep,clock_nanosleep -- --name=v3 --read_iolog="$d/v3.log" --output=/dev/null
sleeps=$(awk '/other>/ { n++ } /nanosleep/ && n >= 1 && n < 3 { s++ } END { print s + 0 }' st7.txt)
if [ "$sleeps" -ge 2 ]; then ok "v3 time stamps: the replay sleeps between its I/Os ($sleeps sleeps)"; else not_ok "v3 time stamps: the replay sleeps between its I/Os" "$(grep -c nanosleep st7.txt) sleeps in all"; fi
strace_fio nm st8.txt -y -e trace=pread64,nanosleep,clock_nanosleep -- --name=v3 --read_iolog="$d/v3.log" \
    --replay_no_stall=1 --output=/dev/null
sleeps=$(awk '/other>/ { n++ } /nanosleep/ && n >= 1 && n < 3 { s++ } END { print s + 0 }' st8.txt)
if [ "$sleeps" -eq 0 ] && [ "$(grep -c 'other>' st8.txt)" -eq 3 ]; then ok "replay_no_stall: the three I/Os without a sleep between them"; else not_ok "replay_no_stall: no sleep between the I/Os" "$sleeps sleeps"; fi

# --- numjobs > 1 --------------------------------------------------------------------------------
# blocks LOG: each thread's whole log (fio 3.33's threads each append one, version line first)
# as one line of its I/Os, the lines sorted (fio's threads append in the order they end)
blocks() {
    awk '/^fio version/ { if (b != "") print b; b = "log"; next } NF == 5 { b = b " " $3 " " $4 " " $5 } END { print b }' "$1" | sort
}
rm -f data3
fio --name=w3 --filename="$d/data3" --size=64k --bs=16k --rw=write --numjobs=3 --ioengine=psync \
    --write_iolog="$d/fio3.log" --output=/dev/null >/dev/null 2>&1
blocks fio3.log >want9.txt
rm -f data3
run_nm fio --no-save --name=w3 --filename="$d/data3" --allow-write="$d/data3" --size=64k --bs=16k --rw=write \
    --numjobs=3 --write_iolog="$d/nm3.log" --output=/dev/null
expect_rc 0 "write_iolog with numjobs=3 runs"
blocks nm3.log >got9.txt
if [ "$(wc -l <want9.txt)" -eq 3 ] && cmp -s want9.txt got9.txt; then
    ok "write_iolog, numjobs=3: three whole logs in the file, each thread's I/Os, as fio's"
else
    not_ok "write_iolog, numjobs=3: a whole log per thread, as fio's" "fio: $(tr '\n' '|' <want9.txt) nodemark: $(tr '\n' '|' <got9.txt)"
fi
# that file replayed (one thread): the version lines between the logs are read past, as fio does
strace_fio fio st9.txt "${TRACE[@]}" -- --name=r9 --read_iolog="$d/fio3.log" --replay_no_stall=1 --output=/dev/null
ios_of_strace st9.txt data3 >want10.txt
strace_fio nm st10.txt "${TRACE[@]}" -- --name=r9 --read_iolog="$d/fio3.log" --allow-write="$d/data3" \
    --replay_no_stall=1 --output=/dev/null
expect_rc 0 "nodemark replays fio's numjobs=3 log"
ios_of_strace st10.txt data3 >got10.txt
same_ios "fio's numjobs=3 log replayed: every thread's I/Os one after another, as fio replays it" want10.txt got10.txt

# read_iolog=a:b with numjobs=3: thread t replays name t mod 2 (a, b, a), each its whole log
printf 'fio version 2 iolog\n%s/other add\n%s/other open\n%s/other read 8192 4096\n%s/other read 0 512\n' \
    "$d" "$d" "$d" "$d" >ja.log
printf 'fio version 3 iolog\n0 %s/mine add\n1 %s/mine open\n2 %s/mine read 4096 1024\n3 %s/mine read 0 2048\n' \
    "$d" "$d" "$d" "$d" >jb.log
# per_thread PREFIX: each thread's reads of other and mine (strace -ff: a file per thread), a
# line per thread that read, the lines sorted
per_thread() {
    for f in "$1".*; do
        sed -nE 's/^pread64\([0-9]+<[^>]*\/(other|mine)>, .*, ([0-9]+), ([0-9]+)\) = [0-9]+$/\1:\3:\2/p' "$f" | tr '\n' ' '
        echo
    done | grep . | sort
}
for tool in fio nm; do
    rm -f "$d/pt-$tool".*
    strace_fio $tool "$d/pt-$tool" -ff -y -e trace=pread64 -- --name=r3 \
        --read_iolog="$d/ja.log:$d/jb.log" --numjobs=3 --replay_no_stall=1 --output=/dev/null
    per_thread "$d/pt-$tool" >"threads-$tool.txt"
done
if [ "$(wc -l <threads-fio.txt)" -eq 3 ] && cmp -s threads-fio.txt threads-nm.txt; then
    ok "read_iolog=a:b, numjobs=3: threads replay a, b, a, each whole, as fio's"
else
    not_ok "read_iolog=a:b, numjobs=3: threads replay a, b, a" "fio: $(tr '\n' '|' <threads-fio.txt) nodemark: $(tr '\n' '|' <threads-nm.txt)"
fi
# each log adds its own files: an I/O on a file only the other log added is bad input (fio 3.33's
# thread crashes on it)
sed 's/mine read 0 2048/other read 0 2048/' jb.log >jc.log
run_nm fio --no-save --name=r3 --read_iolog="$d/ja.log:$d/jc.log" --numjobs=2 --output=/dev/null
expect_refused "read_iolog=a:b: an I/O on a file that only the other log added is refused" "jc.log"

# --- refused ------------------------------------------------------------------------------------
mkfifo fifo
mkdir adir
truncate -s 200m big.log
printf 'fio version 3 iolog\n0 %s/nosuch add\n1 %s/nosuch read 0 4096\n' "$d" "$d" >missing.log
printf 'fio version 3 iolog\n0 %s/other add\n1 %s/other munch 0 4096\n' "$d" "$d" >bad.log
printf '\0\164\141\145 binary' >blk.bin
for c in "fifo|not a regular file" "adir|not a regular file" "big.log|larger than 128 MiB" \
    "missing.log|must exist" "bad.log|line 3: munch" "blk.bin|blktrace" "other|not a fio iolog"; do
    run_nm fio --no-save --name=x --read_iolog="$d/${c%%|*}" --output=/dev/null
    expect_refused "read_iolog=${c%%|*} is refused in one line" "${c#*|}"
done
run_nm fio --no-save --name=x --read_iolog="$d/v2.log" --write_iolog="$d/v2.log" --output=/dev/null
expect_refused "write_iolog never replaces the log being read" "v2.log"
cp v2.log keep.log
run_nm fio --no-save --name=x --filename="$d/keep.log" --size=4k --write_iolog="$d/keep.log" --output=/dev/null
expect_refused "write_iolog never replaces the job's own file" "keep.log"
check "... which is left as it was" cmp v2.log keep.log
run_nm fio --no-save --db="$d/store.db" --name=x --filename="$d/other" --size=4k --write_iolog="$d/store.db" --output=/dev/null
expect_refused "write_iolog never replaces the results store" "store.db"
run_nm fio --no-save --name=x --read_iolog="$d/v2.log" --replay_skip=writes --output=/dev/null
expect_refused "replay_skip=writes (not a kind) is refused" "writes"
run_nm fio --no-save --name=x --read_iolog=- --output=/dev/null
expect_refused "read_iolog=- (standard input) is refused" "standard input"
