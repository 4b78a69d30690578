# serial: peak memory is measured beside GNU time
# nodemark time: peak memory (RSS) is the command's own, measured against GNU time in the same
# test, whatever nodemark itself holds; the spawner behind it (src/proc/spawner.h) leaves the
# command's descriptors, signals and parent as a direct spawn would, and goes with nodemark.
. "$TESTS_DIR/cli/lib.sh"

# The median peak of N runs, in KiB, from the hyperfine JSON in $out.
rss_kib() { json_get 'sorted(j["results"][0]["memory_usage_byte"])[len(j["results"][0]["memory_usage_byte"]) // 2] // 1024'; }
gnu_time=/usr/bin/time
if ! "$gnu_time" -f %M true >/dev/null 2>&1; then
    skip "peak memory against GNU time" "GNU time (/usr/bin/time, Debian package time) is not installed"
else
    gnu=$(for i in 1 2 3 4 5; do "$gnu_time" -f %M true 2>&1 >/dev/null; done | sort -n | sed -n 3p)
    near_gnu() { # KIB WHAT: within 1 MiB of GNU time's figure for the same command
        if [ $(($1 - gnu)) -lt 1024 ] && [ $((gnu - $1)) -lt 1024 ]; then ok "$2"
        else not_ok "$2" "nodemark $1 KiB, GNU time $gnu KiB"; fi
    }
    run_nm time --no-save -N -r 5 --export-json - true
    near_gnu "$(rss_kib)" "true: peak memory within 1 MiB of GNU time's"

    # nodemark holding 200 MiB (a test knob) does not show in its children's peak
    NODEMARK_TEST_BALLAST_MIB=200 run_nm time --no-save -N -r 5 --export-json - true
    near_gnu "$(rss_kib)" "true while nodemark holds 200 MiB: still within 1 MiB of GNU time's"
    # ... which is what the spawner is for: spawned by nodemark itself, the child inherits it
    NODEMARK_SPAWNER=off NODEMARK_TEST_BALLAST_MIB=200 run_nm time --no-save -N -r 2 --export-json - true
    check "without the spawner the child's peak starts at nodemark's 200 MiB (what the test guards)" \
        test "$(rss_kib)" -ge $((200 << 10))
    # the fallback spawner (a fork of nodemark, where the helper cannot run) is not made big either
    NODEMARK_SPAWNER=fork NODEMARK_TEST_BALLAST_MIB=200 run_nm time --no-save -N -r 2 --export-json - true
    check "the fork fallback does not take nodemark's later 200 MiB" test "$(rss_kib)" -lt $((100 << 10))

    # a command that touches 48 MiB reports at least that, and not nodemark's 200 MiB on top
    toucher=(python3 -c 'b = bytearray(48 << 20); b[::4096] = b"x" * len(b[::4096])')
    NODEMARK_TEST_BALLAST_MIB=200 run_nm time --no-save -N -r 1 --export-json - -- "${toucher[@]}"
    k=$(rss_kib)
    g=$("$gnu_time" -f %M "${toucher[@]}" 2>&1 >/dev/null)
    check "a command touching 48 MiB reports >= 48 MiB" test "$k" -ge $((48 << 10))
    near_gnu_k() { if [ $(($1 - $2)) -lt 1024 ] && [ $(($2 - $1)) -lt 1024 ]; then ok "$3"; else not_ok "$3" "nodemark $1 KiB, GNU time $2 KiB"; fi; }
    near_gnu_k "$k" "$g" "... within 1 MiB of GNU time's figure for it"
fi

# What the command sees is what a direct spawn gives it: descriptors, blocked and ignored signals.
seen() { run_nm time --no-save -r 1 --show-output --style none -- ls /proc/self/fd; local fds=$out
    run_nm time --no-save -r 1 --show-output --style none -- grep -E '^Sig(Blk|Ign)' /proc/self/status
    echo $fds $out; }
via_spawner=$(seen)
direct=$(NODEMARK_SPAWNER=off seen)
check "the command gets the same descriptors and signal state as from a direct spawn" test "$via_spawner" = "$direct"
check "... with no signal blocked" grep -q "SigBlk: 0000000000000000" <<<"$via_spawner"

# The command is nodemark's own child; the spawner goes when nodemark does, also on SIGKILL.
"$NM" time --no-save -r 1 -- sleep 2 >/dev/null 2>&1 &
nm_pid=$!
spawner="" sleeper=""
for _ in $(seq 50); do
    for c in $(cat /proc/$nm_pid/task/*/children 2>/dev/null); do
        case $(cat /proc/$c/comm 2>/dev/null) in nodemark-spawn) spawner=$c ;; sleep) sleeper=$c ;; esac
    done
    [ -n "$spawner" ] && [ -n "$sleeper" ] && break
    sleep 0.1
done
check "the spawner runs beside nodemark (a child named nodemark-spawn)" test -n "$spawner"
check "the command's parent is nodemark, not the spawner" test -n "$sleeper"
exec 3>&2 2>/dev/null # not bash's "Killed" notice
kill -KILL $nm_pid
wait $nm_pid
exec 2>&3 3>&-
gone=0
for _ in $(seq 50); do
    [ -n "$spawner" ] && ! kill -0 "$spawner" 2>/dev/null && { gone=1; break; }
    sleep 0.1
done
check "the spawner exits when nodemark is killed" test $gone = 1
[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null

# A program the kernel refuses: one line, exit 1, through the spawner and without it.
printf '\177ELF not really' >notelf && chmod +x notelf
for mode in on off; do
    NODEMARK_SPAWNER=$mode run_nm time --no-save -N -r 1 ./notelf
    expect_rc 1 "an executable the kernel cannot run exits 1 (spawner $mode)"
    expect_err_has "cannot run './notelf': Exec format error" "... and says why (spawner $mode)"
done
