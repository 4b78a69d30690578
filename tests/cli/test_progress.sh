# Long commands show a progress line (phase, elapsed, ETA) on a terminal, and nothing otherwise.
. "$TESTS_DIR/cli/lib.sh"
mkdir -p store
run_nm pieces store --count 200 --no-save
expect_rc 0 "pieces without a terminal exits 0"
check "pieces: no progress line when stderr is not a terminal" bash -c '! grep -q "pieces write:" <<<"$1"' _ "$err"
if command -v script >/dev/null; then
    script -qec "env -u NODEMARK_NO_PROGRESS $NM pieces store --count 200 --no-save >/dev/null" /dev/null >tty.out 2>&1
    grep -qE 'pieces write: [0-9]+/200 pieces \([0-9]+%\), elapsed [0-9.]+[nµm]?s, ETA ' tty.out \
        && ok "pieces: phase, count, elapsed and ETA on a terminal" || not_ok "pieces progress line" "$(tr '\r' '\n' <tty.out | head -3)"
fi
