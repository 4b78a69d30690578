# Bad invocations of every command: each exits 2 with exactly one line on stderr that names the
# problem, without a crash, a sanitizer report, or any file left in the working directory (so no
# partial --output file). Table-driven: one row per invocation.
#
# Row: COMMAND ARGS... | TEXT      TEXT must appear in the error line (it names the problem).
# Rows of a command not in $landed are skipped, so the table can be written ahead of the command;
# add the command to $landed when it lands on main.
. "$TESTS_DIR/cli/lib.sh"

landed=" - hash "
# Commands that save a run: rows get --no-save (first, so a missing value cannot swallow it).
saving=" hash disk fio pieces time track run "

rows=$(cat <<'ROWS'
- dsik | unknown command 'dsik'
- --frobnicate | unknown option '--frobnicate'
- help nosuch | unknown command 'nosuch'
- '' | unknown command ''
hash --size 0 | --size
hash --size 4q | "4q"
hash --size -1k | must not be negative
hash --size 99999999999999999999999 | too large
hash --size 16EiB | too large
hash --algo md5 | "md5"
hash --algo blake3,,sha256 | empty item
hash --algo '' | --algo
hash --block 0 | --block
hash --block 1TiB --size 1MiB | --block
hash --threads 0 | --threads
hash --threads x | "x"
hash --threads 100000 | --threads
hash --threads 1,,2 | empty item
hash --runs 0 | --runs
hash --runs 1.5 | --runs
hash --file nonexistent.bin | nonexistent.bin
hash --file . | --file
hash --tag novalue --size 1k | --tag
hash --tag =x --size 1k | --tag
hash --tag 'k y=v' --size 1k | --tag
hash extra-arg | "extra-arg"
hash --frobnicate | --frobnicate
hash --size 1k --output out.json --frobnicate | --frobnicate
hash --size 1k --output out.json --algo nope | "nope"
hash --output | --output
ROWS
)

# A clean scratch directory per row, so anything a row leaves is seen.
n=0 skipped=0
while IFS= read -r row; do
	[ -z "$row" ] && continue
	words=${row%% | *}
	want=${row##* | }
	eval "set -- $words"
	cmd=$1
	case $landed in *" $cmd "*) ;; *) skipped=$((skipped + 1)); continue ;; esac
	shift
	[ "$cmd" = - ] || set -- "$cmd" "$@"
	case $saving in *" $cmd "*) set -- "$cmd" --no-save "${@:2}" ;; esac
	n=$((n + 1))
	rm -rf row && mkdir row
	(cd row && ulimit -c unlimited 2>/dev/null; "$NM" "$@" >../o 2>../e </dev/null)
	rc=$?
	err=$(cat e)
	what="$words"
	lines=$(grep -c . e)
	left=$(ls -A row)
	if [ "$rc" -ne 2 ]; then
		not_ok "$what: exits 2" "exit $rc; stderr: ${err:0:300}"
	elif [ "$lines" -ne 1 ] || [[ $err != nodemark:* ]]; then
		not_ok "$what: one line on stderr" "$err"
	elif ! grep -qF -- "$want" e; then
		not_ok "$what: the error names the problem" "wanted '$want' in: $err"
	elif [ -n "$left" ]; then
		not_ok "$what: leaves no file" "left: $left"
	elif [ -s o ] && [[ $words != *help* ]]; then
		not_ok "$what: prints nothing on stdout" "$(head -c 200 o)"
	else
		ok "$what"
	fi
done <<<"$rows"

echo "# $n bad invocations checked, $skipped waiting for their command to land"
if [ "$n" -ge 20 ]; then ok "the table has at least 20 live rows ($n)"; else not_ok "the table has at least 20 live rows ($n)"; fi
