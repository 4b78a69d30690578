# serial: it times how long a command waits
# Nothing waits for ever on a file that is not what it should be, and a full disk is named as
# such: a FIFO given where a regular file is read (hash --file) is refused at once; a FIFO with no
# reader given as --output fails at the end with a message, never blocks; ENOSPC while writing
# an output says "No space left on device" and names the file (not "Input/output error").
. "$TESTS_DIR/cli/lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/nm-hangs.XXXXXX")
trap 'umount "$work/mnt" 2>/dev/null; rm -rf "$work"' EXIT
mkfifo "$work/fifo"
with_env=(env)

# Each must finish well before the timeout; 124 means it hung.
run_timed() { # SECONDS ARGS...  (with_env=(env VAR=...) runs it under those variables)
	local secs=$1
	shift
	timeout "$secs" "${with_env[@]}" "$NM" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	err=$(cat "$work/err")
}

run_timed 20 hash --no-save --file "$work/fifo" --runs 1
if [ "$rc" = 124 ]; then not_ok "hash --file FIFO: does not hang" "still running after 20 s"; else
	expect_rc 2 "hash --file FIFO: refused with exit 2"
	expect_err_has "expected a regular file" "hash --file FIFO: says a regular file is expected"
	one_line_error "hash --file FIFO: one line"
fi

# Row: NAME | COMMAND ARGS (O is the FIFO)
rows=$(cat <<'ROWS'
hash --output | hash --no-save --size 64k --threads 1 --algo sha256 --runs 1 --output O
pieces --output | pieces W --no-save --count 2 --size 4k --output O
pieces verify --output | pieces verify S --output O
ROWS
)
mkdir -p "$work/W" "$work/kept"
"$NM" pieces "$work/kept" --count 2 --size 4k --keep --no-save >/dev/null 2>&1
while IFS='|' read -r name words; do
	name=$(echo $name)
	words=${words//O/$work/fifo}
	words=${words//W /$work/W }
	words=${words//S /$work/kept }
	eval "set -- $words"
	run_timed 30 "$@"
	if [ "$rc" = 124 ]; then
		not_ok "$name to a FIFO with no reader: does not hang" "still running after 30 s"
	elif [ "$rc" -ne 1 ] || ! grep -q "no one reads" <<<"$err"; then
		not_ok "$name to a FIFO with no reader: exit 1 saying no one reads it" "exit $rc: $err"
	else
		ok "$name to a FIFO with no reader: exit 1, not a hang"
	fi
done <<<"$rows"
check "nothing was left in the run's directory" test -z "$(ls -A "$work/W")"

# A FIFO that is read still gets the output.
cat "$work/fifo" >"$work/read.json" &
reader=$!
run_timed 30 hash --no-save --size 64k --threads 1 --algo sha256 --runs 1 --output "$work/fifo"
wait $reader
expect_rc 0 "hash --output to a FIFO that is read: exit 0"
check "the reader got the JSON" python3 -c "import json; json.load(open('$work/read.json'))"

# ENOSPC on an output file: the shim fails its write (stdio's writes now reach it).
with_env=(env "NM_FAULT=write:ENOSPC:path=full.json" "LD_PRELOAD=${SHIM_DIR:?}/faults.so")
run_timed 30 hash --no-save --size 64k --threads 1 --algo sha256 --runs 1 --output "$work/full.json"
expect_rc 1 "ENOSPC writing --output: exit 1"
expect_err_has "No space left on device" "ENOSPC writing --output: says no space is left"
expect_err_has "$work/full.json" "ENOSPC writing --output: names the file"
with_env=(env)
check "ENOSPC writing --output: no temp file is left" test -z "$(ls "$work" | grep full.json)"

# The same on a real full file system, where this machine lets us mount one.
mkdir -p "$work/mnt"
if mount -t tmpfs -o size=1m tmpfs "$work/mnt" 2>/dev/null; then
	dd if=/dev/zero of="$work/mnt/fill" bs=64k count=64 2>/dev/null
	run_timed 30 hash --no-save --size 64k --threads 1 --algo sha256 --runs 1 --output "$work/mnt/out.json"
	expect_rc 1 "full tmpfs, --output: exit 1"
	expect_err_has "No space left on device" "full tmpfs, --output: says no space is left"
	expect_err_has "$work/mnt/out.json" "full tmpfs, --output: names the file"
	umount "$work/mnt"
else
	ok "full tmpfs: cannot mount here (the shim's ENOSPC above stands in)"
fi
