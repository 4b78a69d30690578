# Valgrind finds no leak and no invalid access on the main commands (quick sizes). Skipped under
# `make asan` (an ASan binary cannot run under valgrind; ASan checks leaks there itself).
. "$TESTS_DIR/cli/lib.sh"

if [ -n "${NODEMARK_SANITIZED:-}" ]; then
	skip "valgrind" "the sanitizer build: ASan checks leaks there"
	exit 0
fi
if ! command -v valgrind >/dev/null; then
	not_ok "valgrind is installed (scripts/deps.sh installs it)"
	exit 0
fi

landed=" hash pieces time info compare disk fio report run "
# Row: COMMAND ARGS... | EXIT   (error paths are run too: they must not leak either)
rows=$(cat <<'ROWS'
hash --no-save --size 1MiB --algo blake3,sha256,none --threads 1,2 | 0
hash --no-save --size 64k --algo sha256 --threads 1 --output out.json | 0
hash --no-save --algo md5 | 2
pieces pd --no-save --count 4 --size 64k --block 16k --sync --read | 0
pieces pd --no-save --backend log --count 4 --size 64k --sync-batch 2 --read --json | 0
time --no-save -r 2 -- true | 0
info --json | 0
compare a.json b.json | 0
disk pd --no-save --rw randwrite --size 256k --bs 4k --iodepth 4 | 0
fio --no-save --name=j --directory=pd --rw=randrw --size=256k --bs=4k --output-format=json | 0
report a.json b.json -o report.html | 0
report a.json b.json --output report.md --title t | 0
report a.json -o /nonexistent-nm/report.html | 2
run pd --quick --phases inventory --no-save | 0
run pd --quick --phases bogus | 2
ROWS
)
mkdir pd
# Two small JSON records for compare, saved from quick runs into a scratch store.
for f in a b; do
	"$NM" hash --db records.db --size 64k --algo sha256 --threads 1 --runs 3 --label $f >/dev/null 2>&1
	"$NM" export --db records.db $f >$f.json 2>/dev/null
done

while IFS= read -r row; do
	words=${row%% | *}
	want=${row##* | }
	eval "set -- $words"
	case $landed in *" $1 "*) ;; *) continue ;; esac
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=3 --log-file=vg.log "$NM" "$@" >out 2>err
	rc=$?
	if [ "$rc" -eq "$want" ] && [ ! -s vg.log ]; then
		ok "valgrind: $words"
	else
		not_ok "valgrind: $words" "exit $rc (want $want); $(head -c 1500 vg.log) $(head -c 300 err)"
	fi
done <<<"$rows"
