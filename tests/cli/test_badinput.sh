# Bad invocations of every command: each exits 2 with exactly one line on stderr that names the
# problem, without a crash, a sanitizer report, or any file left in the working directory (so no
# partial --output file). Table-driven: one row per invocation.
#
# Row: COMMAND ARGS... | TEXT      TEXT must appear in the error line (it names the problem).
# Rows of a command not in $landed are skipped, so the table can be written ahead of the command;
# add the command to $landed when it lands on main.
. "$TESTS_DIR/cli/lib.sh"

landed=" - hash pieces time runs show export import rm compare info disk fio track run report "
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
hash --size 18446744073709551615 | at most 1TiB
hash --algo md5 | "md5"
hash --algo blake3,,sha256 | empty item
hash --algo '' | --algo
hash --block 0 | --block
hash --block 1TiB --size 1MiB | --block
hash --threads 0 | --threads
hash --threads x | "x"
hash --threads 100000 | --threads
hash --threads 1,,2 | empty item
hash --threads 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 | --threads: at most 16 thread counts
hash --algo blake3,sha256,none,blake3,sha256,none,blake3,sha256,none,blake3,sha256,none,blake3,sha256,none,blake3,sha256 | --algo: at most 16 hashes
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
pieces | expected a directory
pieces pd --count 0 | --count
pieces pd --count x | "x"
pieces pd --count 99999999999999999999 | too large
pieces pd --size 0 | --size
pieces pd --size 2.5q | "2.5q"
pieces pd --block 0 | --block
pieces pd --hash md5 | --hash
pieces pd --backend zfs | --backend
pieces pd --workers 0 | --workers
pieces pd --sync=meta | --sync
pieces pd --sync-batch 0 --backend log | --sync-batch
pieces pd --sync-batch 4 --backend files | --sync-batch
pieces pd --log-size 0 --backend log | --log-size
pieces pd --matrix --runs 0 | --runs
pieces nonexistent-dir --count 1 | nonexistent-dir
pieces /etc/passwd --count 1 | not a directory
pieces pd --size 1TiB --count 1000 | not enough free space
pieces pd --size 1EiB --count 1 | at most 1TiB
pieces pd --size 18446744073709551615 | --size
pieces pd --size 18446744073709551615 --backend log | --size
pieces pd --size 16EiB | --size
pieces pd --count 1000000000 --size 1TiB | too large
pieces pd --log-size 18446744073709551615 --backend log --count 2 --size 4k | --log-size
pieces pd --output | --output
pieces pd --tag x | --tag
pieces verify | expected the store's directory
pieces verify nonexistent | nonexistent
pieces verify /etc/passwd | not a directory
pieces verify pd pd | one directory at a time
pieces verify pd --frob | --frob
time | no command to time
time -- | expected a command
time --runs 0 true | --runs
time -r x true | "x"
time --min-runs 5 --max-runs 2 true | --max-runs
time --warmup -1 true | must not be negative
time --timeout 5q true | "5q"
time --param x true | --param
time --param n=1,,2 'echo {n}' | empty item
time -L x=1 -L x=2 'echo {x}' | given twice
time --scan x=5:1 'echo {x}' | --scan
time --scan x=a:b 'echo' | --scan
time --name | --name
time --prepare | --prepare
time --export-csv | --export-csv
time --frob true | --frob
runs --frob | --frob
runs --limit x | --limit
runs --host | --host
show | which run
show nosuchrun | "nosuchrun"
show r1 r2 | one run at a time
export | which runs
export nosuchrun | "nosuchrun"
export last --format yaml | --format
import | which files
import nosuchfile.json | nosuchfile.json
import /etc/passwd | invalid JSON
rm | which runs
rm nosuchrun | "nosuchrun"
compare | what to compare
compare nosuchrun | "nosuchrun"
compare a b --format xml | --format
compare a b --col | --col
info --frob | --frob
info --sysroot /nonexistent | --sysroot
info --path /nonexistent | --path
info extra | 'extra'
disk | missing target
disk pd --rw bogus | --rw
disk pd --bs 0 | --bs
disk pd --bs 4q | "4q"
disk pd --iodepth 70000 | --iodepth
disk pd --iodepth 65536 | 32768
disk pd --profile nope | --profile
disk pd --jobs 0 | --jobs
disk pd --rwmix 150 | --rwmix
disk pd --runtime 5q | "5q"
disk pd --engine nope | --engine
disk nonexistent --rw read | nonexistent
disk pd --size 1EiB --rw write | not enough free space
disk pd --rw write --allow-write /dev/null | --allow-write
disk pd --rw write --output out.json --bs 0 | --bs
fio --name=j --rw=bogus --directory=pd | rw
fio --name=j --bs=4q --directory=pd | "4q"
fio --name=j --iodepth=0 --directory=pd | iodepth
fio --name=j --ioengine=nope --directory=pd | ioengine
fio nosuchjobfile.fio | nosuchjobfile.fio
fio --frob | --frob
fio --name=j --size=0 --directory=pd | needs a size
track | --pattern
track --pattern x | nothing to track
track --pattern x --every 5q -- true | --every
track --pattern x -- true | --every
run --phases bogus | --phases
run --phases '' | --phases
run --quick --full | choose one
run /nonexistent | /nonexistent
run pd pd | one directory at most
report | -o FILE
report a b --format xml | --format
report --output | --output
hash --output --no-save | option '--output' needs a value, not the option '--no-save'
hash --size --runs 1 | option '--size' needs a value
hash --output -- | option '--output' needs a value
pieces pd --output --json | option '--output' needs a value
pieces verify pd --output --json | option '--output' needs a value
time -r --warmup 1 true | option '-r' needs a value
time --export-json -- true | option '--export-json' needs a value
time --prepare --show-output true | option '--prepare' needs a value
disk pd --output --json | option '--output' needs a value
disk pd --allow-write --rw write | option '--allow-write' needs a value
fio --name=j --directory=pd --output --output-format=json | --output: needs a file name
fio --name=j --bs --directory=pd | --bs: needs a value
fio --tag --name=j --directory=pd | option '--tag' needs a value
compare a b -o --format text | option '-o' needs a value
report a --output --title x | option '--output' needs a value
export last --output --all | option '--output' needs a value
info --output --json | option '--output' needs a value
track --pattern --every 1 -- true | option '--pattern' needs a value
run --baseline --quick | option '--baseline' needs a value
runs --host --json | option '--host' needs a value
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
	# (not before a sub-action: "pieces verify" saves nothing)
	case $saving in *" $cmd "*) [ "${2:-}" = verify ] || set -- "$cmd" --no-save "${@:2}" ;; esac
	n=$((n + 1))
	rm -rf row && mkdir -p row/pd
	(cd row && ulimit -c unlimited 2>/dev/null; "$NM" "$@" >../o 2>../e </dev/null)
	rc=$?
	err=$(cat e)
	what="$words"
	lines=$(grep -c . e)
	left=$(ls -A row | grep -vx pd; ls -A row/pd)
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
if [ "$n" -ge 60 ]; then ok "the table has at least 60 live rows ($n)"; else not_ok "the table has at least 60 live rows ($n)"; fi
