# An output file that cannot be written is refused while the options are read, before anything
# is measured: exit 2, one line naming the option, the file and the directory, nothing written,
# nothing saved. And output files that are not regular files (/dev/null, a FIFO) are written in
# place, never replaced by a renamed temp file.
. "$TESTS_DIR/cli/lib.sh"

mkdir T
echo text >plain.txt
STORE=$PWD/out.db
"$NM" hash --db "$STORE" --size 64k --algo sha256 --threads 1 --runs 1 --label a >/dev/null 2>&1
"$NM" export --db "$STORE" a >a.json 2>/dev/null
rm -f "$STORE"
check "a record to compare and report on" test -s a.json

# Row: COMMAND ARGS...   OUT is the bad output path. Each would run for minutes (or hours) if
# the check came after measuring; the timeout turns that into a failure, not a hang.
rows=$(cat <<'ROWS'
hash --size 1GiB --runs 1000 --output OUT
pieces T --count 200000 --size 4k --sync --output OUT
pieces verify T --output OUT
time -r 100000 --export-json OUT -- sleep 1
time -r 100000 --export-csv OUT -- sleep 1
time -r 100000 --export-markdown OUT -- sleep 1
disk T --rw randread --size 1m --runtime 1h --output OUT
fio --name=j --directory=T --rw=randread --size=1m --time_based --runtime=1h --output=OUT
fio --output OUT --name=j --directory=T --rw=randread --size=1m --time_based --runtime=1h
compare a.json a.json -o OUT
export a --output OUT
report a.json --output OUT
info --output OUT
ROWS
)

# BAD | the text the error must have (with OUT's directory)
bads=$(cat <<'BADS'
/nonexistent-nm/dir/x.json | directory "/nonexistent-nm/dir" does not exist
plain.txt/x.json | "plain.txt" is not a directory
T | is a directory
T/ | names a directory
BADS
)

files() { find . -path ./o -prune -o -path ./e -prune -o -print | sort; }
n=0
while IFS= read -r row; do
	while IFS='|' read -r bad want; do
		bad=$(echo $bad) want=${want# }
		eval "set -- ${row//OUT/$bad}"
		opt=$(grep -oE -- '(--?[a-z-]+)[= ]OUT' <<<"$row" | sed 's/[= ]OUT$//')
		before=$(files)
		NODEMARK_DB=$STORE timeout 60 "$NM" "$@" >o 2>e </dev/null
		rc=$?
		after=$(files)
		what="$* refused before measuring"
		n=$((n + 1))
		if [ "$rc" -ne 2 ]; then
			not_ok "$what: exits 2" "exit $rc: $(head -c 300 e)"
		elif [ "$(grep -c . e)" -ne 1 ] || ! grep -qF -- "$opt: " e || ! grep -qF -- "$want" e; then
			not_ok "$what: one line naming $opt and '$want'" "$(cat e)"
		elif [ "$before" != "$after" ] || [ -e "$STORE" ]; then
			not_ok "$what: writes and saves nothing" "$(diff <(echo "$before") <(echo "$after")) $(ls "$STORE" 2>&1)"
		else
			ok "$what"
		fi
	done <<<"$bads"
done <<<"$rows"
echo "# $n unwritable outputs checked"

# The report `run` writes in the current directory, and any --output in a read-only directory.
mkdir ro
if mount -t tmpfs -o ro,size=1m tmpfs ro 2>/dev/null; then
	trap 'umount ro 2>/dev/null' EXIT
	readonly_dir=1
elif [ "$(id -u)" -ne 0 ]; then
	chmod 555 ro
	readonly_dir=1
else
	skip "read-only directory" "cannot mount a read-only tmpfs here"
	readonly_dir=0
fi
if [ $readonly_dir = 1 ]; then
	timeout 60 "$NM" hash --no-save --size 1GiB --runs 1000 --output ro/x.json >o 2>e
	rc=$? err=$(cat e)
	expect_rc 2 "hash --output in a read-only directory: refused before measuring"
	expect_err_has 'directory "ro" is not writable' "and says the directory is not writable"
	(cd ro && timeout 60 "$NM" run "$PWD/../T" --quick --no-save >../o 2>../e)
	rc=$? err=$(cat e)
	expect_rc 2 "run in a read-only directory: refused before the suite (the report goes there)"
	expect_err_has "nodemark-report.html" "and names the report"
	expect_err_has "--no-report" "and says how to do without it"
	check "run wrote nothing in the target" test -z "$(ls -A T)"
fi

# Values that are not files in a directory: "-" is standard output ...
run_nm hash --no-save --size 64k --algo sha256 --threads 1 --output -
expect_rc 0 "--output - writes to standard output"
check "and standard output has the JSON record" python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out"
# ... a value given with '=' may start with "--" ...
run_nm hash --no-save --size 64k --algo sha256 --threads 1 --output=--odd.json
expect_rc 0 "--output=--odd.json is taken as a file name"
check "and that file is written" python3 -c 'import json; json.load(open("--odd.json"))'
rm -f -- --odd.json
# ... a FIFO is written in place (a reader gets the JSON, the FIFO stays) ...
mkfifo fifo
cat fifo >from-fifo &
reader=$!
run_nm hash --no-save --size 64k --algo sha256 --threads 1 --output fifo
wait $reader
expect_rc 0 "--output FIFO exits 0"
check "the FIFO is still a FIFO" test -p fifo
check "its reader got the JSON record" python3 -c 'import json; json.load(open("from-fifo"))'
# ... and so is a character device: renaming over /dev/null would replace it with a file.
if mknod null c 1 3 2>/dev/null; then
	run_nm hash --no-save --size 64k --algo sha256 --threads 1 --output null
	expect_rc 0 "--output to a character device exits 0"
	check "the device is still a character device" test -c null
	check "and nothing else is left beside it" test -z "$(ls -A | grep '^null.tmp-')"
else
	skip "--output to a character device" "mknod not allowed here"
fi
