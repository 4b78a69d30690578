# A full file system (a small tmpfs; where mounting is not allowed, the shim's ENOSPC stands in):
# every writing command fails cleanly, with one line and no crash, and leaves nothing behind.
. "$TESTS_DIR/cli/lib.sh"

mkdir -p mnt
if ! mount -t tmpfs -o size=8m tmpfs mnt 2>/dev/null; then
	ok "full file system: cannot mount a tmpfs here, using the shim's ENOSPC instead"
	full_env=(env "NM_FAULT=anywrite+sync+open+rename:ENOSPC:path=$PWD/mnt/" "LD_PRELOAD=${SHIM_DIR:?}/faults.so")
	mounted=0
else
	trap 'umount mnt 2>/dev/null' EXIT
	full_env=(env)
	mounted=1
fi
mkdir -p mnt/pd mnt/dd
[ $mounted = 1 ] && { dd if=/dev/zero of=mnt/fill bs=1M count=16 2>/dev/null; }

landed=" hash pieces disk "
# Row: NAME | COMMAND ARGS... | EXIT   (F is the full file system)
rows=$(cat <<'ROWS'
hash --output | hash --no-save --size 64k --threads 1 --algo sha256 --output F/out.json | 1
hash, the store on it | hash --db F/results.db --size 64k --threads 1 --algo sha256 | 1
pieces files | pieces F/pd --no-save --count 3 --size 64k | 2
pieces log | pieces F/pd --no-save --backend log --count 3 --size 64k | 2
disk write | disk F/dd --no-save --rw write --size 1m | 2
disk read | disk F/dd --no-save --rw randread --size 1m | 2
ROWS
)
while IFS='|' read -r name words want; do
	name=$(echo $name) want=$(echo $want)
	eval "set -- ${words//F\//mnt/}"
	case $landed in *" $1 "*) ;; *) continue ;; esac
	before=$(cd mnt && find . | sort)
	"${full_env[@]}" "$NM" "$@" >out.txt 2>err.txt
	rc=$?
	err=$(cat err.txt)
	after=$(cd mnt && find . | sort)
	if [ "$rc" -ne "$want" ]; then
		not_ok "full fs, $name: exits $want" "exit $rc: $err"
	elif [ "$(grep -c . err.txt)" -ne 1 ] || [[ $err != nodemark:* ]]; then
		not_ok "full fs, $name: one error line" "$err"
	elif [[ $err != *"No space left"* && $err != *"not enough free space"* && $err != *"disk full"* ]]; then
		not_ok "full fs, $name: the error says the disk is full" "$err"
	elif [ "$before" != "$after" ] && [ "$(diff <(echo "$before") <(echo "$after") | grep -c '^>')" -gt 0 ]; then
		not_ok "full fs, $name: leaves nothing behind" "$(diff <(echo "$before") <(echo "$after"))"
	else
		ok "full fs, $name: $(head -c 120 err.txt)"
	fi
done <<<"$rows"

# The file system fills up during the run (another program writes into it): the command either
# finishes or stops with one clean error; it never crashes and never leaves its files.
if [ $mounted = 1 ]; then
	rm -f mnt/fill
	for backend in files log; do
		"$NM" pieces mnt/pd --no-save --backend $backend --count 40 --size 64k --block 16k >out.txt 2>err.txt &
		pid=$!
		dd if=/dev/zero of=mnt/fill bs=64k count=200 2>/dev/null
		wait $pid
		rc=$?
		if { [ $rc -eq 0 ] || { [ $rc -le 2 ] && [ "$(grep -c . err.txt)" -eq 1 ]; }; } && [ -z "$(ls -A mnt/pd)" ]; then
			ok "pieces $backend while the file system fills: exit $rc, clean"
		else
			not_ok "pieces $backend while the file system fills" "exit $rc, left: $(ls -A mnt/pd): $(cat err.txt)"
		fi
		rm -f mnt/fill
	done
fi
