# nodemark fio never writes outside what it created or was named, never fills a disk, never
# follows a link to create a file, and never hangs on hostile job files (issue 21, items 5 and 9).
. "$TESTS_DIR/cli/lib.sh"

# --- a job name cannot carry its files out of nodemark's directory ------------------------------
mkdir -p top/mid/w
( cd top/mid && "$NM" fio --no-save --name=../../esc --directory=w --size=64k --startdelay=30 >/dev/null 2>&1 ) &
pid=$!
inside=""
for _ in $(seq 100); do
    inside=$(find top/mid/w -name '*esc.0.0' -path '*.nodemark-*' 2>/dev/null | head -1)
    [ -n "$inside" ] || [ -e top/esc.0.0 ] || [ -e esc.0.0 ] && break
    sleep 0.1
done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -e top/esc.0.0 ] || [ -e esc.0.0 ] || [ -e top/mid/esc.0.0 ]; then
    not_ok "--name=../../x: the job's file is not created outside .nodemark-*" "$(find . -name 'esc*')"
else
    ok "--name=../../x: the job's file is not created outside .nodemark-*"
fi
check "--name=../../x: the file is inside the job's .nodemark-* directory" test -n "$inside"
rm -rf top

# --- --filename=NEW is checked for free space before anything is written ------------------------
mkdir -p mnt
if mount -t tmpfs -o size=4m tmpfs mnt 2>/dev/null; then
    trap 'umount mnt 2>/dev/null' EXIT
    run_nm fio --no-save --name=big --rw=write --bs=64k --size=16m --filename=mnt/new
    expect_rc 2 "--filename=NEW larger than the free space exits 2"
    one_line_error "--filename=NEW larger than the free space is one line"
    expect_err_has "free space" "the message says there is not enough free space"
    check "--filename=NEW larger than the free space writes nothing" test -z "$(ls -A mnt)"
    run_nm fio --no-save --name=a --rw=write --bs=64k --size=3m --filename=mnt/a \
        --name=b --rw=write --bs=64k --size=3m --filename=mnt/b
    expect_rc 2 "two new files that do not fit together exit 2"
    check "two new files that do not fit together write nothing" test -z "$(ls -A mnt)"
    umount mnt
    trap - EXIT
else
    ok "free space: cannot mount a tmpfs here, skipped"
fi

# --- a dangling symlink as --filename: refused, not deleted, nothing created through it ---------
ln -s "$PWD/victim-target" dangling
run_nm fio --no-save --name=l --rw=write --bs=4k --size=64k --filename=dangling
expect_rc 2 "a dangling symlink as --filename exits 2"
one_line_error "a dangling symlink as --filename is one line"
check "the dangling symlink is still there" test -L dangling
check "no file was created through the link" test ! -e victim-target

# --- a FIFO as a job file is refused, not waited on ------------------------------------------------
mkfifo job.fifo
timeout 20 "$NM" fio --no-save job.fifo >out.txt 2>err.txt
rc=$? err=$(cat err.txt)
expect_rc 2 "a FIFO as a job file exits 2 at once"
one_line_error "a FIFO as a job file is one line"
expect_err_has "job.fifo" "the message names the FIFO"
printf '[a]\nsize=64k\ninclude job.fifo\n' > incfifo.fio
timeout 20 "$NM" fio --no-save --parse-only incfifo.fio >out.txt 2>err.txt
rc=$? err=$(cat err.txt)
expect_rc 2 "a FIFO as an included file exits 2 at once"

# --- include fan-out is bounded -----------------------------------------------------------------
for n in 0 1 2 3 4 5 6 7; do
    : > fan$n.fio
    [ $n -lt 7 ] && for _ in $(seq 40); do echo "include fan$((n + 1)).fio" >> fan$n.fio; done
done
printf '[g]\nsize=64k\n' >> fan7.fio
timeout 30 "$NM" fio --no-save --parse-only fan0.fio >out.txt 2>err.txt
rc=$? err=$(cat err.txt)
expect_rc 2 "an include fan-out (40^7 includes) stops at a limit"
one_line_error "an include fan-out is one line"
expect_err_has "include" "the message says include"
printf 'include loop.fio\n' > loop.fio
run_nm fio --no-save --parse-only loop.fio
expect_rc 2 "an include loop exits 2"
expect_err_has "loop.fio" "the include loop's message names the file"

# --- an included file that is not a job file: its file and line named, its text never shown ------
printf 'root:$6$SECRETHASH$xyz:19000:0:99999:7:::\n' > shadow-like
printf '[a]\nsize=64k\ninclude shadow-like\n' > inc-in-section.fio
printf 'include shadow-like\n[a]\nsize=64k\n' > inc-top.fio
printf '[a]\nsize=64k\nbs=4k\n[SECRETSECTION\n' > secret-section
printf 'include secret-section\n' > inc-section.fio
for jf in inc-in-section.fio inc-top.fio inc-section.fio; do
    run_nm fio --no-save --parse-only $jf
    expect_rc 2 "$jf: an included non-job file exits 2"
    one_line_error "$jf: an included non-job file is one line"
    if [[ $err == *SECRET* ]]; then
        not_ok "$jf: the included file's text is not in the message" "$err"
    else
        ok "$jf: the included file's text is not in the message"
    fi
done
run_nm fio --no-save --parse-only inc-top.fio
expect_err_has "shadow-like:1" "the message names the included file and its line"
run_nm fio --no-save --parse-only inc-section.fio
expect_err_has "secret-section:4" "the message names the included file's line 4"

# --- ENOSPC while the job runs reads as "No space left on device" and names the file -------------
if [ -n "${SHIM_DIR:-}" ] && [ -f "$SHIM_DIR/faults.so" ]; then
    mkdir -p full
    for eng in psync io_uring; do
        NM_FAULT="anywrite:ENOSPC:after=10:path=$PWD/full" LD_PRELOAD="$SHIM_DIR/faults.so" \
            "$NM" fio --no-save --name=e --rw=write --bs=4k --size=256k --directory=full --ioengine=$eng \
            >out.txt 2>err.txt
        rc=$? err=$(grep '^nodemark: fio: job' err.txt)
        if [ "$rc" -eq 1 ] && [[ $err == *"No space left on device"* ]] && [[ $err == *"full/.nodemark-"*"/e.0.0"* ]]; then
            ok "ENOSPC ($eng) reads as No space left on device, naming the file"
        elif [ "$eng" = io_uring ] && grep -q "io_uring is not available" err.txt; then
            ok "ENOSPC (io_uring): io_uring is off here"
        else
            not_ok "ENOSPC ($eng) reads as No space left on device, naming the file" "exit $rc: $(cat err.txt)"
        fi
    done
    check "ENOSPC: nothing is left behind" test -z "$(ls -A full)"
fi
