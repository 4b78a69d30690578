# The results store checks what it opens before changing it: a store with a damaged B-tree page
# is refused with a message naming the file (PRAGMA quick_check) and is not written to; another
# program's SQLite file is refused before nodemark switches it to WAL (it stays as it was); and a
# store on a full file system can still be read.
. "$TESTS_DIR/cli/lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/nm-store.XXXXXX")
trap 'umount "$work/mnt" 2>/dev/null; rm -rf "$work"' EXIT
save3() { for _ in 1 2 3; do "$NM" hash --db "$1" --size 64k --threads 1 --algo sha256 --runs 1 >/dev/null 2>&1; done; }

# A damaged B-tree page: the samples table's root page gets garbage in its cell pointers.
db=$work/damaged.db
save3 "$db"
root=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT rootpage FROM sqlite_master WHERE name='samples'\").fetchone()[0])" "$db")
python3 -c "import sys; f=open(sys.argv[1],'r+b'); f.seek(4096*(int(sys.argv[2])-1)+8); f.write(b'\xff'*64)" "$db" "$root"
sum=$(md5sum <"$db")
run_nm runs --db "$db"
expect_rc 2 "a damaged store: runs refuses it (exit 2)"
expect_err_has "$db: the results store is damaged" "a damaged store: the message names the file"
one_line_error "a damaged store: one line"
run_nm hash --db "$db" --size 64k --threads 1 --algo sha256 --runs 1
expect_rc 1 "a damaged store: a run is not saved into it (exit 1)"
check "a damaged store: the file is not written to" test "$(md5sum <"$db")" = "$sum"

# Another program's database (journal mode delete): refused, and still not in WAL mode.
db=$work/photos.db
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE photos(x)'); c.execute('INSERT INTO photos VALUES (1)'); c.commit()" "$db"
sum=$(md5sum <"$db")
for cmd in runs "hash --size 64k --threads 1 --algo sha256 --runs 1"; do
	# shellcheck disable=SC2086
	run_nm $cmd --db "$db"
	expect_err_has "not a nodemark results store" "another program's database: ${cmd%% *} refuses it"
done
check "another program's database: not switched to WAL, not changed" test "$(md5sum <"$db")" = "$sum"
check "another program's database: no WAL file was made" test ! -e "$db-wal"

# A refused file gets no -wal or -shm file beside it, not even for the moment SQLite has it open
# (they were made and removed again, and stayed after a kill): another program's WAL database, a
# newer nodemark's store, a file that is not SQLite. Checked on the open calls (strace).
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA journal_mode=WAL'); c.execute('CREATE TABLE photos(x)'); c.commit(); c.close()" "$work/walphotos.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA user_version=99'); c.execute('CREATE TABLE t(x)'); c.commit(); c.close()" "$work/newer.db"
head -c 8192 /dev/urandom > "$work/random.db"
for f in walphotos newer random; do
	db=$work/$f.db
	sum=$(md5sum <"$db")
	for cmd in runs "hash --size 64k --threads 1 --algo sha256 --runs 1"; do
		# shellcheck disable=SC2086
		if command -v strace >/dev/null; then
			# LeakSanitizer cannot run under ptrace: its own lines would fill stderr.
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
				strace -f -e trace=open,openat,creat -o "$work/trace" "$NM" $cmd --db "$db" >/dev/null 2>"$work/err"
			made=$(grep -E -- '-(wal|shm)"' "$work/trace" | grep -v ENOENT)
		else
			"$NM" $cmd --db "$db" >/dev/null 2>"$work/err"
			made=""
		fi
		check "$f: ${cmd%% *} refuses it in one line" test "$(wc -l <"$work/err")" = 1
		if [ -z "$made" ] && [ ! -e "$db-wal" ] && [ ! -e "$db-shm" ]; then
			ok "$f: ${cmd%% *} makes no -wal or -shm file beside it"
		else
			not_ok "$f: ${cmd%% *} makes no -wal or -shm file beside it" "$made"
		fi
	done
	check "$f: the file is unchanged" test "$(md5sum <"$db")" = "$sum"
done

# A store on a full file system can still be read.
mkdir -p "$work/mnt"
if mount -t tmpfs -o size=2m tmpfs "$work/mnt" 2>/dev/null; then
	db=$work/mnt/results.db
	save3 "$db"
	dd if=/dev/zero of="$work/mnt/fill" bs=64k count=64 2>/dev/null
	run_nm runs --db "$db" --json
	expect_rc 0 "a store on a full disk: runs reads it"
	check "a store on a full disk: all 3 runs are listed" test "$(json_get 'len(j)')" = 3
	id=$(json_get 'j[0]["id"]')
	run_nm export "$id" --db "$db"
	expect_rc 0 "a store on a full disk: export reads a run"
	run_nm hash --db "$db" --size 64k --threads 1 --algo sha256 --runs 1
	expect_rc 1 "a store on a full disk: saving fails (exit 1)"
	one_line_error "a store on a full disk: saving fails with one line"
	umount "$work/mnt"
else
	ok "a store on a full disk: cannot mount a tmpfs here, skipped"
fi
