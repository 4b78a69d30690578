# kill -9 in the middle of a --sync run: `pieces verify` must find no corrupt committed piece,
# only leftovers of the write in flight, which --repair removes. Both backends.
. "$TESTS_DIR/cli/lib.sh"

crash_run() { # backend, extra options...
    local backend=$1 dir=crash-$1 committed pid
    shift
    mkdir -p "$dir"
    "$NM" pieces "$dir" --backend "$backend" --sync --count 100000 --size 96k --block 16k --no-save "$@" \
        >/dev/null 2>&1 &
    pid=$!
    # Kill it once a few pieces are committed, while it is writing the next ones.
    for _ in $(seq 300); do
        if [ "$backend" = files ]; then
            committed=$(find "$dir" -name '*.sj1' 2>/dev/null | wc -l)
        else
            committed=$(find "$dir" -name 'log-*.log' -size +400k 2>/dev/null | wc -l)
        fi
        [ "$committed" -ge 1 ] && break
        sleep 0.05
    done
    sleep 0.2
    kill -9 $pid
    wait $pid 2>/dev/null
    store=$(ls -d "$dir"/.nodemark-* 2>/dev/null | head -1)
    check "$backend: kill -9 leaves the store behind" test -n "$store"

    run_nm pieces verify "$dir" --json
    expect_rc 0 "$backend: verify after kill -9 exits 0"
    pieces=$(grep -o '"pieces": [0-9]*' <<<"$out" | grep -o '[0-9]*$')
    corrupt=$(grep -o '"corrupt": [0-9]*' <<<"$out" | grep -o '[0-9]*$')
    check "$backend: verify found committed pieces ($pieces)" test "${pieces:-0}" -ge 1
    check "$backend: no committed piece is corrupt" test "${corrupt:-1}" -eq 0

    run_nm pieces verify "$store" --repair
    expect_rc 0 "$backend: verify --repair exits 0"
    run_nm pieces verify "$store"
    expect_rc 0 "$backend: verify after repair exits 0"
    expect_out_has "leftover temp files: 0, unindexed log bytes: 0" "$backend: repair left no leftovers"
    expect_out_has "$pieces pieces, $pieces ok, 0 corrupt" "$backend: repair kept every committed piece"
    if [ "$backend" = files ]; then
        check "files: no temp file is left after repair" test -z "$(find "$store/temp" -type f)"
    fi
    rm -rf "$dir"
}

crash_run files
crash_run log --sync-batch 4 --log-size 1MiB
