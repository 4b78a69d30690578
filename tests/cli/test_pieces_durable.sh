# What makes a piece store survive a power cut, seen in the system calls (strace): the PIECES
# marker is written aside, fsynced, renamed and its directory fsynced (an empty marker after a
# power cut made verify refuse the store); a --sync run of the files backend without --dirsync
# fsyncs every directory of the store at its end, and says that a piece is durable only then.
. "$TESTS_DIR/cli/lib.sh"

skip_without strace "the system calls of a --sync run"
work=$(mktemp -d "${TMPDIR:-/tmp}/nm-durable.XXXXXX")
trap 'rm -rf "$work"' EXIT

# LeakSanitizer cannot run under ptrace (the sanitizer build would exit 99 at the end): under
# strace leaks are not checked; the rest of the suite checks them.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -y -qq -e trace=fsync,fdatasync,rename,renameat,renameat2 -o "$work/trace" \
	"$NM" pieces "$work" --count 40 --size 4k --sync --keep --no-save >"$work/out" 2>"$work/err"
rc=$?
out=$(cat "$work/out")
expect_rc 0 "a --sync run under strace exits 0"
S=$(ls -d "$work"/.nodemark-*)
T=$work/trace

# The marker: fsync of PIECES.new, then its rename to PIECES, then an fsync of the store root.
python3 - "$T" "$S" <<'PY' && ok "the PIECES marker is fsynced, renamed, and its directory fsynced" || not_ok "the PIECES marker is fsynced, renamed, and its directory fsynced" "$(grep -n PIECES "$T" | head)"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
root = sys.argv[2]
i = next(k for k, l in enumerate(lines) if re.search(r"fsync\(\d+<" + re.escape(root) + r"/PIECES\.new>", l))
j = next(k for k, l in enumerate(lines) if k > i and "rename" in l and "PIECES.new" in l)
next(k for k, l in enumerate(lines) if k > j and re.search(r"fsync\(\d+<" + re.escape(root) + r">\)", l))
PY

# Every directory holding a piece is fsynced after the last piece was renamed into it.
python3 - "$T" "$S" <<'PY' && ok "--sync without --dirsync: every piece directory is fsynced after the last rename" || not_ok "--sync without --dirsync: every piece directory is fsynced after the last rename" "$(tail -5 "$T")"
import glob, os, re, sys
lines = open(sys.argv[1]).read().splitlines()
S = sys.argv[2]
last = max(k for k, l in enumerate(lines) if "rename" in l and ".sj1" in l)
synced = {m.group(1) for l in lines[last:] for m in [re.search(r"fsync\(\d+<([^>]*)>\)", l)] if m}
dirs = {os.path.dirname(p) for p in glob.glob(S + "/blobs/*/*/*.sj1")}
missing = dirs - synced
assert dirs and not missing, missing
PY
expect_out_has "durability: a committed piece is not durable until the run ends" \
	"the result says a commit without a directory sync is not durable"

run_nm pieces "$work" --count 3 --size 4k --sync --dirsync --no-save
expect_out_has "durability: each piece is durable when it is committed" "with --dirsync: durable on commit"
run_nm pieces "$work" --count 3 --size 4k --no-save --json
check "without --sync the JSON says durable: none" test "$(json_get 'j["durable"]')" = none
