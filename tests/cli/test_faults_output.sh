# Output files (--output) are atomic: when the fsync or the rename of the temp file fails, the
# command says so with the file name and exits 1, the old file is untouched and no temp file is
# left. Driven by the fault shim (tests/shim/faults.c).
. "$TESTS_DIR/cli/lib.sh"

SHIM=${SHIM_DIR:?}/faults.so
landed=" hash "
# Row: COMMAND ARGS...   (OUT is replaced by the output file's name)
rows=$(cat <<'ROWS'
hash --no-save --size 64k --algo sha256 --threads 1 --output OUT
ROWS
)

while IFS= read -r row; do
	eval "set -- ${row//OUT/out.json}"
	case $landed in *" $1 "*) ;; *) continue ;; esac
	for fault in fsync:EIO rename:ENOSPC; do
		rm -rf w && mkdir w && cd w
		echo '{"old": true}' >out.json
		NM_FAULT="$fault:path=out.json" NM_FAULT_LOG=$PWD/../fault.log LD_PRELOAD=$SHIM "$NM" "$@" >../o 2>../e
		rc=$?
		err=$(cat ../e)
		left=$(ls -A | grep -v '^out.json$')
		cd ..
		what="$1 with a failing ${fault%%:*} of its --output"
		if ! grep -q "nm-fault: ${fault%%:*} .*out.json" fault.log 2>/dev/null; then
			not_ok "$what: the fault fired" "$(cat fault.log 2>/dev/null)"
		elif [ "$rc" -ne 1 ]; then
			not_ok "$what: exits 1" "exit $rc: $err"
		elif [ "$(grep -c . e)" -ne 1 ] || ! grep -q "out.json" e; then
			not_ok "$what: one line naming the file" "$err"
		elif [ "$(cat w/out.json)" != '{"old": true}' ]; then
			not_ok "$what: the old file is untouched" "$(head -c 200 w/out.json)"
		elif [ -n "$left" ]; then
			not_ok "$what: no temp file is left" "$left"
		else
			ok "$what"
		fi
		rm -f fault.log
	done
done <<<"$rows"
