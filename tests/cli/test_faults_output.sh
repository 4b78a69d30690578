# Output files (--output, run's report) are atomic: when the fsync or the rename of the temp file
# fails, the command says so with the file name (one error line; run also prints its progress
# lines and, on a busy machine, warnings) and exits 1, the old file is untouched and no temp file is
# left. Driven by the fault shim (tests/shim/faults.c).
. "$TESTS_DIR/cli/lib.sh"

SHIM=${SHIM_DIR:?}/faults.so
landed=" hash report run "
# Row: FILE | COMMAND ARGS...   (FILE is the output the command writes in the current directory;
# run writes nodemark-report.html there)
rows=$(cat <<'ROWS'
out.json | hash --no-save --size 64k --algo sha256 --threads 1 --output out.json
out.html | report $REC -o out.html
out.md | report $REC $REC --output out.md
nodemark-report.html | run $PD --quick --phases pieces --no-save
ROWS
)
REC=$PWD/rec.json PD=$PWD/pd
mkdir pd
"$NM" hash --db rec.db --size 64k --algo sha256 --threads 1 --runs 2 --label r >/dev/null 2>&1
"$NM" export --db rec.db r >rec.json 2>/dev/null
check "a record for the report" test -s rec.json

while IFS='|' read -r file words; do
	file=$(echo $file)
	eval "set -- $words"
	case $landed in *" $1 "*) ;; *) continue ;; esac
	for fault in fsync:EIO rename:ENOSPC; do
		rm -rf w && mkdir w && cd w
		echo '{"old": true}' >"$file"
		NM_FAULT="$fault:path=$file" NM_FAULT_LOG=$PWD/../fault.log LD_PRELOAD=$SHIM "$NM" "$@" >../o 2>../e
		rc=$?
		err=$(cat ../e)
		left=$(ls -A | grep -vxF "$file")
		cd ..
		what="$1 with a failing ${fault%%:*} of $file"
		if ! grep -q "nm-fault: ${fault%%:*} .*$file" fault.log 2>/dev/null; then
			not_ok "$what: the fault fired" "$(cat fault.log 2>/dev/null)"
		elif [ "$rc" -ne 1 ]; then
			not_ok "$what: exits 1" "exit $rc: $err"
		elif [ "$(grep -v '^nodemark: [a-z]*: warning: ' e | grep -c '^nodemark: ')" -ne 1 ] ||
			! grep -v '^nodemark: [a-z]*: warning: ' e | grep '^nodemark: ' | grep -qF "$file"; then
			not_ok "$what: one error line naming the file" "$err"
		elif [ "$(cat "w/$file")" != '{"old": true}' ]; then
			not_ok "$what: the old file is untouched" "$(head -c 200 "w/$file")"
		elif [ -n "$left" ]; then
			not_ok "$what: no temp file is left" "$left"
		else
			ok "$what"
		fi
		rm -f fault.log
	done
done <<<"$rows"
