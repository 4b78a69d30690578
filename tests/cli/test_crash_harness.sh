# The crash and power-cut harness (bench/crash_harness.sh), a few rounds: no corrupt piece and no
# lost acknowledged piece where durability is promised. Needs root and loop devices.
. "$TESTS_DIR/cli/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null ||
	! losetup -f >/dev/null 2>&1; then
	ok "crash harness: needs root, loop devices and mkfs.ext4: skipped"
	exit 0
fi
out=$(NODEMARK=$NM "$TESTS_DIR/../bench/crash_harness.sh" 2 files-sync-dirsync log-sync-batch 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c '^\(files\|log\)-' <<<"$out")" -eq 4 ]; then
	ok "crash harness: 2 rounds of kill and power cut, 2 configurations: 0 corrupt, 0 lost"
else
	not_ok "crash harness: 2 rounds of kill and power cut, 2 configurations: 0 corrupt, 0 lost" "exit $rc: $out"
fi
awk '$5 > 0 { bad = 1 } END { exit bad }' <<<"$(grep '^\(files\|log\)-' <<<"$out")" &&
	ok "crash harness: the corrupt column is 0 in every row" ||
	not_ok "crash harness: the corrupt column is 0 in every row" "$out"
