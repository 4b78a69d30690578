#!/usr/bin/env bash
# fio's engines that are not block I/O, under `nodemark fio`: filecreate, filestat, filedelete,
# ftruncate, cpuio, exec and net (and sync, fio's read/write after lseek). Each is checked by what it did (the system calls strace saw,
# the files and the program's marks it left, the bytes that crossed the socket), never by
# timings, and a small job of each kind against real fio's JSON structure.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/helpers/fio_side.sh"
scratch_dir
mkdir "$d/t"
jget() { printf '%s' "$out" | python3 -c "import json,sys; j=json.load(sys.stdin); print($1)" 2>/dev/null; }
# traced SYSCALLS ARGS...: nodemark under strace (LeakSanitizer cannot run under ptrace)
traced() {
    ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 strace -f -qq -o "$d/st" -e trace="$1" "$NM" "${@:2}" >"$d/out" 2>"$d/err"
    rc=$?
    out=$(cat "$d/out") err=$(cat "$d/err")
}
left() { find "$d/t" -mindepth 1 | head -3; }

# --- filecreate: one create per file, nothing laid out first, nothing left ------------------
fc=(fio --no-save --output-format=json --name=fc --ioengine=filecreate --directory="$d/t" --nrfiles=6
    --filesize=4k --create_on_open=1 --openfiles=1)
traced openat,pwrite64 "${fc[@]}"
expect_rc 0 "filecreate runs"
creates=$(grep -c 'openat(.*/fc\.0\.[0-9]*", O_RDWR|O_CREAT' "$d/st")
writes=$(grep -c 'pwrite64' "$d/st")
[ "$creates" = 6 ] && [ "$writes" = 0 ] && ok "filecreate: each of the 6 files created once, none laid out" ||
    not_ok "filecreate: each of the 6 files created once, none laid out" "creates $creates, pwrites $writes"
[ "$(jget 'j["jobs"][0]["read"]["total_ios"], j["jobs"][0]["read"]["clat_ns"]["N"]')" = "6 6" ] &&
    ok "filecreate: 6 I/Os, each with its latency" || not_ok "filecreate: 6 I/Os with latencies" "$(jget 'j["jobs"][0]["read"]')"
[ -z "$(left)" ] && ok "filecreate: the created files are removed" || not_ok "filecreate: files removed" "$(left)"

# --- filestat and filedelete: laid out, then one stat / unlink per file ---------------------
traced stat,lstat,newfstatat,statx fio --no-save --output-format=json --name=fs --ioengine=filestat \
    --directory="$d/t" --nrfiles=5 --filesize=4k
n=$(grep -c '/fs\.0\.[0-4]"' "$d/st")
[ "$rc" = 0 ] && [ "$n" = 5 ] && [ "$(jget 'j["jobs"][0]["read"]["total_ios"]')" = 5 ] &&
    ok "filestat: one stat per file, one I/O each" || not_ok "filestat: one stat per file" "rc $rc, stats $n: $(grep fs\\.0 "$d/st" | head -3)"
traced statx fio --no-save --output-format=json --name=fx --ioengine=filestat --stat_type=statx \
    --directory="$d/t" --nrfiles=3 --filesize=4k
[ "$(grep -c 'statx(.*/fx\.0\.[0-2]"' "$d/st")" = 3 ] && ok "filestat: stat_type=statx calls statx" ||
    not_ok "filestat: stat_type=statx calls statx" "$(grep fx "$d/st" | head -3)"
traced unlink,unlinkat fio --no-save --output-format=json --name=fd --ioengine=filedelete \
    --directory="$d/t" --nrfiles=4 --filesize=4k --unlink=0
ok_unlinks=$(grep -c 'unlink.*/fd\.0\.[0-3]") = 0' "$d/st")
[ "$rc" = 0 ] && [ "$ok_unlinks" = 4 ] && [ "$(jget 'j["jobs"][0]["read"]["total_ios"]')" = 4 ] &&
    ok "filedelete: each file unlinked once, as the I/O" || not_ok "filedelete: each file unlinked once" "rc $rc, $ok_unlinks: ${err:0:300}"
[ -z "$(left)" ] && ok "file engines: nothing left in the directory" || not_ok "file engines: nothing left" "$(left)"

# --- ftruncate: each write truncates to its offset ---------------------------------------------
head -c 65536 /dev/urandom >"$d/tr"
traced ftruncate fio --no-save --output-format=json --name=tr --ioengine=ftruncate --filename="$d/tr" \
    --allow-write="$d/tr" --rw=write --bs=4k --size=64k
offs=$(grep -o 'ftruncate([0-9]*, [0-9]*)' "$d/st" | sed 's/.*, //; s/)//' | tr '\n' ' ')
want=$(seq 0 4096 61440 | tr '\n' ' ')
[ "$rc" = 0 ] && [ "$offs" = "$want" ] && ok "ftruncate: 16 writes, each an ftruncate to its offset" ||
    not_ok "ftruncate: each write an ftruncate to its offset" "rc $rc, offsets '$offs' ${err:0:200}"
[ "$(stat -c %s "$d/tr")" = 61440 ] && ok "ftruncate: the file ends at the last write's offset" ||
    not_ok "ftruncate: the file ends at the last write's offset" "size $(stat -c %s "$d/tr")"
run_nm fio --no-save --name=tr --ioengine=ftruncate --filename="$d/tr" --rw=read --size=64k
expect_rc 2 "ftruncate: a reading job is refused before it runs"
one_line_error "ftruncate: reads refused in one line"

# --- cpuio: bursts and rests, no data ------------------------------------------------------
run_nm fio --no-save --output-format=json --name=cpu --ioengine=cpuio --cpuload=50 --cpuchunks=20000 \
    --time_based --runtime=1
ios=$(jget 'j["jobs"][0]["read"]["total_ios"]')
[ "$rc" = 0 ] && [ "$(jget 'j["jobs"][0]["read"]["io_bytes"]')" = 0 ] && [ "${ios:-0}" -ge 2 ] && [ "${ios:-99}" -le 50 ] &&
    ok "cpuio: bursts of 20 ms with rests (at most runtime/burst of them), no bytes" ||
    not_ok "cpuio: bursts with rests, no bytes" "rc $rc, ios '$ios' ${err:0:200}"
run_nm fio --no-save --output-format=json --name=cq --ioengine=cpuio --cpuload=100 --cpumode=qsort --time_based --runtime=1
[ "$rc" = 0 ] && [ "$(jget 'j["jobs"][0]["read"]["total_ios"] >= 1')" = True ] && ok "cpuio: cpumode=qsort sorts" ||
    not_ok "cpuio: cpumode=qsort sorts" "rc $rc ${err:0:200}"
run_nm fio --no-save --name=cpu --ioengine=cpuio --runtime=1
expect_rc 2 "cpuio without cpuload= is refused"
one_line_error "cpuio without cpuload: one line"

# --- an engine's options belong to the engine the job runs -------------------------------------
# In a job file's section they may come before ioengine= (fio reads a section whole); on the
# command line fio knows them only after the engine's --ioengine= (getopt takes the loaded
# engine's options: the globals' engine once --name= starts a job, the new one after
# --ioengine=), and an --ioengine= that changes the engine drops what the previous one's set.
# cpuio refuses a job without cpuload= (above): a cpuload= that did not reach the engine fails.
run_nm fio --no-save --name=cpu --ioengine=cpuio --cpuload=50 --cpuchunks=20000 --time_based --runtime=200ms
expect_rc 0 "cpuload= given after ioengine=cpuio reaches the engine"
run_nm fio --no-save --name=cpu --cpuload=50 --cpuchunks=20000 --ioengine=cpuio --time_based --runtime=200ms
expect_rc 2 "cpuload= given before --ioengine=cpuio on the command line is refused, as fio refuses it"
one_line_error "an engine option before its --ioengine=: one line"
expect_err_has "--cpuload: unrecognized option (as fio's): the engine here is psync" \
    "the refusal names the option and the engine the command line is at"
# each: the tool's exit (nodemark's 2 is fio's 1, bad input) with the words after --name=j
: >"$d/f"
cases=(
    "2|--cpuload=50 --ioengine=cpuio|an engine option before the job's --ioengine="
    "0|--ioengine=cpuio --cpuload=50|an engine option after the job's --ioengine="
    "0|--ioengine=io_uring --hipri=1 --ioengine=psync|an engine option of the engine that --ioengine= then changes"
    "2|--hipri=1 --ioengine=io_uring|--hipri=1 before --ioengine=io_uring"
    "0|--ioengine=io_uring --hipri=1|--hipri=1 after --ioengine=io_uring"
    "2|--ioengine=io_uring --ioengine=psync --hipri=1|--hipri=1 after the engine went back to psync"
    "G0|--ioengine=cpuio --cpuload=50|global: an engine option after the globals' --ioengine="
    "G2|--cpuload=50 --ioengine=cpuio|global: an engine option before the globals' --ioengine="
    "G0|--ioengine=cpuio|global: the globals' engine, the job's option (the job starts on it)"
    "P2|--ioengine=cpuio --cpuload=50|a job after one that named its own engine starts on the globals' (psync)"
)
for c in "${cases[@]}"; do
    IFS='|' read -r want words what <<<"$c"
    read -ra w <<<"$words"
    case $want in
    G0) args=("${w[@]}" --name=j --cpuload=50) want=0 ;;
    G2) args=("${w[@]}" --name=j --ioengine=cpuio) want=2 ;;
    P2) args=(--name=a "${w[@]}" --name=j --cpuload=50) want=2 ;;
    *) args=(--name=j "${w[@]}") ;;
    esac
    args+=(--filename="$d/f" --size=64k --parse-only)
    run_nm fio --no-save "${args[@]}"
    expect_rc "$want" "command line: $what (exit $want)"
    if [ $HAVE_FIO = 1 ]; then
        fio "${args[@]}" >/dev/null 2>&1
        frc=$?
        [ $((frc ? 2 : 0)) = "$rc" ] && ok "command line: fio 3.33 agrees: $what (fio $frc)" ||
            not_ok "command line: fio 3.33 agrees: $what" "fio exit $frc, nodemark $rc: $err"
    fi
done
# the dropped option is still among the job's options, as fio lists it
drop=(--name=j --ioengine=io_uring --hipri=0 --ioengine=psync --filename="$d/g" --size=64k --rw=read --output-format=json)
run_nm fio --no-save "${drop[@]}"
expect_rc 0 "an engine option that a later --ioengine= dropped: the job runs"
nmopts=$(jget 'sorted(j["jobs"][0]["job options"].items())')
[[ $nmopts == *"('hipri', '0')"* ]] && ok "the dropped hipri=0 is listed in job options, as fio lists it" ||
    not_ok "the dropped hipri=0 is listed in job options, as fio lists it" "$nmopts"
if [ $HAVE_FIO = 1 ]; then
    rm -f "$d/g"
    out=$(fio "${drop[@]}" 2>/dev/null)
    fopts=$(jget 'sorted(j["jobs"][0]["job options"].items())')
    [ -n "$fopts" ] && [ "$fopts" = "$nmopts" ] && ok "job options are fio's ($fopts)" ||
        not_ok "job options are fio's" "fio $fopts, nodemark $nmopts"
fi
# a section is read whole: engine options after ioengine= is known, the last ioengine= the one
printf '[j]\nhipri=1\nioengine=io_uring\nfilename=%s\nsize=64k\n' "$d/f" >"$d/hipri_before.fio"
printf '[j]\nioengine=io_uring\nhipri=1\nioengine=psync\nfilename=%s\nsize=64k\n' "$d/f" >"$d/hipri_then_psync.fio"
for f in hipri_before.fio:0 hipri_then_psync.fio:2; do
    run_nm fio --no-save --parse-only "$d/${f%:*}"
    expect_rc "${f#*:}" "job file ${f%:*} (exit ${f#*:})"
    if [ $HAVE_FIO = 1 ]; then
        fio --parse-only "$d/${f%:*}" >/dev/null 2>&1
        frc=$?
        [ $((frc ? 2 : 0)) = "$rc" ] && ok "job file ${f%:*}: fio 3.33 agrees (fio $frc)" ||
            not_ok "job file ${f%:*}: fio 3.33 agrees" "fio exit $frc, nodemark $rc: $err"
    fi
done
printf '[cpu]\ncpuload=50\ncpuchunks=20000\ntime_based\nruntime=200ms\nioengine=cpuio\n' >"$d/before.fio"
run_nm fio --no-save "$d/before.fio"
expect_rc 0 "a job file's cpuload= above its ioengine=cpuio reaches the engine"
printf '[n]\nioengine=null\nsize=64k\ncpuload=50\n' >"$d/other.fio"
run_nm fio --no-save "$d/other.fio"
expect_rc 2 "an option of another engine (cpuload= on null) is refused, as fio's Bad option"
one_line_error "an option of another engine: one line"
expect_err_has "job 'n': cpuload: not an option of ioengine=null" "the refusal names the option and the job's engine"
# [global]'s engine options are its engine's: a job running that engine has them, another
# engine's job runs with its own defaults (fio 3.33 does both)
printf '[global]\nioengine=cpuio\ncpuload=50\ncpuchunks=20000\ntime_based\nruntime=200ms\n[a]\n[b]\nioengine=null\nsize=64k\n' \
    >"$d/global.fio"
run_nm fio --no-save "$d/global.fio"
expect_rc 0 "[global] cpuio options: the cpuio job has them, the null job runs without them"
printf '[global]\ncpuload=50\n[a]\nioengine=cpuio\ntime_based\nruntime=200ms\n' >"$d/global_bad.fio"
run_nm fio --no-save "$d/global_bad.fio"
expect_rc 2 "a [global] engine option that its engine (psync, fio's default) lacks is refused"
expect_err_has "global options: cpuload: not an option of ioengine=psync" "that refusal names the globals' engine"
if [ $HAVE_FIO = 1 ]; then
    for f in global.fio global_bad.fio; do
        (cd "$d/t" && fio --output-format=json "$d/$f" >/dev/null 2>&1)
        frc=$?
        want=$([ $f = global.fio ] && echo 0 || echo 1)
        [ $frc = $want ] && ok "fio 3.33 agrees on $f (rc $frc)" || not_ok "fio 3.33 agrees on $f" "fio rc $frc"
    done
else skip "engine options in [global] against fio" "fio is not installed"; fi

# --- exec: the program runs once per thread, with %r and %n; killed after grace_time -------
cat >"$d/prog" <<EOF
#!/bin/sh
echo "\$1 \$2" >>"$d/marks"
echo "to stdout"
echo "to stderr" >&2
EOF
cat >"$d/stubborn" <<EOF
#!/bin/sh
trap '' TERM
echo \$\$ >"$d/pid"
while :; do sleep 1; done
EOF
chmod +x "$d/prog" "$d/stubborn"
mkdir "$d/cwd"
(cd "$d/cwd" && run_nm fio --no-save --output-format=json --name=ex --ioengine=exec --program="$d/prog" \
    --arguments="%r %n" --numjobs=3 --time_based --runtime=1
 echo "$rc" >"$d/rc")
[ "$(cat "$d/rc")" = 0 ] && [ "$(grep -c '^1 ex$' "$d/marks" 2>/dev/null)" = 3 ] &&
    ok "exec: the program ran once per thread, %r and %n expanded" ||
    not_ok "exec: the program ran once per thread" "rc $(cat "$d/rc"), marks: $(cat "$d/marks" 2>/dev/null | head -4)"
[ "$(cat "$d/cwd/ex.stdout" 2>/dev/null)" = "to stdout" ] && [ "$(cat "$d/cwd/ex.stderr" 2>/dev/null)" = "to stderr" ] &&
    ok "exec: std_redirect puts the output in NAME.stdout and NAME.stderr" ||
    not_ok "exec: std_redirect output files" "$(ls "$d/cwd")"
# A link planted as NAME.stdout / NAME.stderr is not followed (it would truncate its target).
echo precious >"$d/victim"
ln -s "$d/victim" "$d/cwd/lk.stdout"
ln -s "$d/victim" "$d/cwd/lk.stderr"
(cd "$d/cwd" && run_nm fio --no-save --output-format=json --name=lk --ioengine=exec --program="$d/prog" \
    --time_based --runtime=1; echo "$err" >"$d/err"; echo "$rc" >"$d/rc")
rc=$(cat "$d/rc")
check "exec: a link as NAME.stdout is not followed (its target unchanged)" test "$(cat "$d/victim")" = precious
check "exec: the links are still links" test -L "$d/cwd/lk.stdout" -a -L "$d/cwd/lk.stderr"
# The refusal names the file and why, not a read and ELOOP.
grep -q "lk.stdout is a symbolic link: nodemark does not write the program's output through a link" "$d/err" &&
    ! grep -q "read of\|Too many levels" "$d/err" && [ "$rc" = 1 ] &&
    ok "exec: the job fails on the link, naming the file and the reason, exit $rc" ||
    not_ok "exec: the link's refusal names the file and the reason (exit $rc)" "$(head -c 300 "$d/err")"
rm "$d/cwd/lk.stdout"
(cd "$d/cwd" && run_nm fio --no-save --output-format=json --name=lk --ioengine=exec --program="$d/prog" \
    --time_based --runtime=1; echo "$err" >"$d/err")
grep -q "lk.stderr is a symbolic link" "$d/err" && test "$(cat "$d/victim")" = precious &&
    ok "exec: a link as NAME.stderr alone is refused by name too" ||
    not_ok "exec: a link as NAME.stderr alone" "$(head -c 300 "$d/err")"
rm -f "$d/cwd/lk.stdout" "$d/cwd/lk.stderr"
# Without std_redirect a program that cannot start is the job's error, said as such.
run_nm fio --no-save --output-format=json --name=nr --ioengine=exec --program="$d/missing-program" \
    --std_redirect=0 --time_based --runtime=1
case $err in *"missing-program: cannot run: No such file or directory"*) ok "exec: a missing program is named (std_redirect=0)" ;;
*) not_ok "exec: a missing program is named (std_redirect=0)" "$(printf '%s' "$err" | head -c 300)" ;; esac
run_nm fio --no-save --output-format=json --name=st --ioengine=exec --program="$d/stubborn" --grace_time=0 \
    --std_redirect=0 --time_based --runtime=1
pid=$(cat "$d/pid" 2>/dev/null)
[ "$rc" = 0 ] && [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && ok "exec: a program that ignores SIGTERM is killed at the end" ||
    not_ok "exec: a program that ignores SIGTERM is killed" "rc $rc, pid '$pid' ${err:0:200}"
[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null

# --- net: TCP and UDP over loopback ---------------------------------------------------------
# The receiver runs first, and the sender starts once the receiver's socket is bound (seen in
# /proc/net): a startdelay= would race the receiver's start on a busy machine (a refused
# connect, datagrams sent before anyone reads).
port=$((20000 + $$ % 20000))
wait_bound() { # tcp|udp PORT: until a socket is bound to PORT (listening, for TCP); 30 s at most
    local hex i
    hex=$(printf ':%04X' "$2")
    for i in $(seq 300); do
        if [ "$1" = tcp ]; then
            awk -v p="$hex" '$2 ~ p"$" && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null && return 0
        else
            awk -v p="$hex" '$2 ~ p"$" { f = 1 } END { exit !f }' /proc/net/udp /proc/net/udp6 2>/dev/null && return 0
        fi
        sleep 0.1
    done
    return 1
}
# net_pair tcp|udp PORT GLOBAL-LINES: sets rc (the sender's), rrc (the receiver's), out (the
# sender's JSON) and rout (the receiver's JSON)
net_pair() {
    local g="[global]\nioengine=net\nport=$2\nruntime=20\n$3" listen="" rpid
    [ "$1" = tcp ] && listen="listen\n"
    printf "$g[receiver]\n${listen}rw=read\n" >"$d/recv.fio"
    printf "$g[sender]\nhostname=127.0.0.1\nrw=write\n" >"$d/send.fio"
    "$NM" fio --no-save --output-format=json "$d/recv.fio" >"$d/recv.json" 2>"$d/recv.err" &
    rpid=$!
    if wait_bound "$1" "$2"; then
        run_nm fio --no-save --output-format=json "$d/send.fio"
    else
        rc=99 out="" err="the receiver never bound port $2"
        kill "$rpid" 2>/dev/null
    fi
    wait "$rpid"
    rrc=$?
    rout=$(cat "$d/recv.json") err="$err $(cat "$d/recv.err")"
}
rget() { out="$rout" jget "$1"; }
net_pair tcp "$port" "bs=4k\nsize=1m\n"
[ "$rc:$rrc" = 0:0 ] && [ "$(rget 'j["jobs"][0]["read"]["io_bytes"]') $(jget 'j["jobs"][0]["write"]["io_bytes"]')" = "1048576 1048576" ] &&
    ok "net tcp: 1 MiB sent and the same received" || not_ok "net tcp: 1 MiB both ways" "rc $rc/$rrc: $(rget 'j["jobs"][0]["read"]["io_bytes"]') ${err:0:300}"
net_pair tcp $((port + 1)) "bs=4k\nsize=1m\npingpong=1\nnodelay=1\n"
[ "$rc:$rrc" = 0:0 ] && [ "$(rget 'j["jobs"][0]["read"]["total_ios"]') $(jget 'j["jobs"][0]["write"]["total_ios"]')" = "256 256" ] &&
    ok "net tcp pingpong: every message answered" || not_ok "net tcp pingpong" "rc $rc/$rrc ${err:0:300}"
net_pair udp $((port + 2)) "bs=1k\nsize=256k\nprotocol=udp\n"
got="$(rget 'j["jobs"][0]["read"]["io_bytes"]') $(jget 'j["jobs"][0]["write"]["io_bytes"]')"
set -- $got
# datagrams the reader's buffer had no room for are lost (as with fio): it gets at most what
# was sent, and ends at the writer's close message, long before the runtime
rt=$(rget 'j["jobs"][0]["job_runtime"]')
[ "$rc:$rrc" = 0:0 ] && [ "${2:-0}" = 262144 ] && [ "${1:-0}" -gt 0 ] && [ "${1:-0}" -le 262144 ] && [ "${rt:-20000}" -lt 15000 ] &&
    ok "net udp: 256 KiB sent, the reader ends at the writer's close" || not_ok "net udp" "rc $rc/$rrc, '$got', runtime $rt ms ${err:0:300}"
run_nm fio --no-save --name=r --ioengine=net --listen --port=$((port + 3)) --rw=read --size=1m --runtime=1
[ "$rc" = 1 ] && grep -q "port $((port + 3)): waiting for a connection: Connection timed out" <<<"$err" &&
    ok "net: a listener no one connects to gives up at its runtime, naming the port" || not_ok "net: listener gives up" "rc $rc: $err"
"$NM" fio --no-save --name=r --ioengine=net --listen --port=$((port + 4)) --rw=read --size=1m >/dev/null 2>"$d/err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 130 ] && ok "net: Ctrl-C while waiting for the peer: exit 130" || not_ok "net: Ctrl-C while waiting: exit 130" "rc $rc: $(cat "$d/err")"
run_nm fio --no-save --name=n --ioengine=net --rw=write --size=1m
expect_rc 2 "net without port= is refused"
one_line_error "net without port: one line"

# --- --enghelp: every engine fio's ioengine= takes ---------------------------------------------
run_nm fio --name=x --ioengine=no_such_engine
engines=$(sed -n 's/.*not supported (\(.*\) are)$/\1/p' <<<"$err" | sed 's/ and /, /; s/,//g')
run_nm fio --enghelp
missing=$(for e in $engines; do grep -qx "	$e" <<<"$out" || echo "$e"; done)
[ "$rc" = 0 ] && [ -n "$engines" ] && [ -z "$missing" ] && ok "--enghelp lists every engine ioengine= takes" ||
    not_ok "--enghelp lists every engine ioengine= takes" "rc $rc, missing: $missing; engines: $engines"
run_nm fio --enghelp=net
[ "$rc" = 0 ] && grep -q "^port " <<<"$out" && grep -q "^pingpong " <<<"$out" && ! grep -q "^cpuload" <<<"$out" &&
    ok "--enghelp=net: the net engine's options, no others" || not_ok "--enghelp=net" "rc $rc: ${out:0:300}"

# --- sync: fio's read/write at the file's position, an lseek only where an I/O starts elsewhere
# (was psync's pread/pwrite with a note on stderr, which failed fio's own t0005). The calls on
# a 64 KiB file both tools find laid out (their layouts differ), in order, beside fio's.
sync_calls() { grep -E '^[0-9]+ +(lseek|read|write|pread64|pwrite64)\([0-9]+</' "$1" | grep "$2>" |
    sed -E 's/^[0-9]+ +//; s/\([0-9]+<[^>]*>, /(/; s/ = .*//'; }
if [ $HAVE_FIO = 1 ] && [ $HAVE_STRACE = 1 ]; then
    for job in "--rw=randwrite --norandommap" "--rw=write:8k" "--rw=randread --bsrange=1k-8k --norandommap" \
               "--rw=read:-8k" "--rw=randrw --norandommap --direct=1"; do
        head -c 64k /dev/zero >"$d/sf"
        # shellcheck disable=SC2086
        strace_fio fio "$d/sf.st" -y -s 0 -e trace=lseek,read,write,pread64,pwrite64 -- --name=s --ioengine=sync \
            --filename="$d/sf" --size=64k --bs=4k $job --output-format=terse >/dev/null 2>"$d/sf.err"
        frc=$rc
        head -c 64k /dev/zero >"$d/sf"
        # shellcheck disable=SC2086
        strace_fio nm "$d/sn.st" -y -s 0 -e trace=lseek,read,write,pread64,pwrite64 -- --name=s --ioengine=sync \
            --filename="$d/sf" --allow-write="$d/sf" --size=64k --bs=4k $job --output-format=terse >/dev/null 2>"$d/sn.err"
        fc=$(sync_calls "$d/sf.st" "$d/sf") nc=$(sync_calls "$d/sn.st" "$d/sf")
        [ $frc = 0 ] && [ "$rc" = 0 ] && [ -n "$fc" ] && [ "$fc" = "$nc" ] && [ ! -s "$d/sn.err" ] &&
            ok "ioengine=sync $job: fio's calls, in order ($(grep -c lseek <<<"$nc") lseek), nothing on stderr" ||
            not_ok "ioengine=sync $job: fio's calls" "fio $frc: $(head -c 300 <<<"$fc"); nodemark $rc: $(head -c 300 <<<"$nc") $(head -c 200 "$d/sn.err")"
    done
else
    skip "ioengine=sync beside fio" "fio or strace is missing"
fi

# --- the structure fio gives the same jobs ---------------------------------------------------
if [ $HAVE_FIO = 1 ]; then
    for job in "--name=fs --ioengine=filestat --nrfiles=4 --filesize=4k" \
               "--name=cpu --ioengine=cpuio --cpuload=50 --time_based --runtime=1" \
               "--name=fc --ioengine=filecreate --nrfiles=4 --filesize=4k"; do
        mode=--sizes
        case $job in *time_based*) mode=--loose ;; esac
        # shellcheck disable=SC2086
        json_like_fio "${job%% *}: the JSON structure fio gives (${job#* })" $mode "$d/f" --directory="$d/f" $job
    done
else
    not_ok "fio is installed (scripts/deps.sh installs it)"
fi
