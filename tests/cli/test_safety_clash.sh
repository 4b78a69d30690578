# An output never replaces an input: every output option of every command is checked, before
# anything is measured or written, against the results store (--db, $NODEMARK_DB), its -wal/-shm
# files, the command's input files and its other outputs (same path, or same file through a link
# or another spelling).  A clash is one line, exit 2, and the store is left byte for byte.
# (`export last --db store.db -o store.db` used to exit 0 with every saved run gone.)
. "$TESTS_DIR/cli/lib.sh"

STORE=$PWD/store.db
"$NM" hash --db "$STORE" --size 64k --algo sha256 --threads 1 --runs 1 --label a >/dev/null 2>&1
"$NM" export --db "$STORE" a >a.json 2>/dev/null
check "a store and a record to work with" test -s a.json
before=$(md5sum <"$STORE")
ln -s "$STORE" link.db
mkdir T
printf '[j]\nrw=read\nsize=1m\nioengine=null\n' >job.fio

# Row: COMMAND ARGS with OUT for the output that names the store.  Each would measure for
# minutes if the check came later; the timeout turns that into a failure, not a hang.
rows=$(cat <<'ROWS'
export a --db STORE -o OUT
report a --db STORE -o OUT
compare a --db STORE -o OUT
hash --size 1GiB --runs 1000 --db STORE --output OUT
time --runs 1000 --db STORE --export-json OUT -- sleep 1
time --runs 1000 --db STORE --export-markdown OUT -- sleep 1
disk T --db STORE --output OUT
info --db STORE --output OUT
fio --db STORE --output=OUT --name=j --rw=read --size=1g --runtime=60 --time_based --ioengine=null
pieces T --count 200000 --size 4k --db STORE --output OUT
pieces verify T --output OUT
run --quick --no-report --db STORE --json=OUT T
ROWS
)
spellings=("$STORE" ./store.db link.db store.db-wal)
i=0
while read -r row; do
    [ -n "$row" ] || continue
    # export (the reproducer) every way the store can be named, the others one way each in turn
    if [[ $row == export* ]]; then outs=("${spellings[@]}"); else outs=("${spellings[i++ % 4]}"); fi
    for out in "${outs[@]}"; do
        [[ $row == "pieces verify"* ]] && run_args=${row//--output OUT/--output $out} || run_args=${row//OUT/$out}
        run_args=${run_args//STORE/$STORE}
        [[ $row == "pieces verify"* ]] && export NODEMARK_DB=$STORE # verify has no --db: the default
        run_cmd timeout 60 "$NM" $run_args
        unset NODEMARK_DB
        expect_refused "$row with the output $out is refused" "an output never replaces an input"
    done
done <<<"$rows"
[ "$(md5sum <"$STORE")" = "$before" ] && ok "the store is unchanged, byte for byte" || not_ok "the store changed"
[ ! -e store.db-wal ] || [ "$(stat -c %s store.db-wal)" = 0 ] && ok "no -wal file was written by an output" || not_ok "store.db-wal was written"

# The default store ($NODEMARK_DB) counts as much as --db.
NODEMARK_DB=$STORE run_nm export a -o store.db
expect_refused "export -o \$NODEMARK_DB is refused" 'the results store'

# Inputs: a record file, a job file, a file to hash.
cp a.json in.json
for cmd in "compare in.json -o in.json" "report in.json -o ./in.json" "hash --file in.json --no-save --runs 1 --output in.json" \
    "fio --no-save --output=job.fio job.fio" "fio --no-save --output job.fio job.fio"; do
    run_nm $cmd
    expect_refused "$cmd: an output naming an input is refused" "is the"
done
cmp -s a.json in.json && ok "the input record is unchanged" || not_ok "in.json changed"

# Two outputs of one command naming one file.
run_nm time --runs 1 --no-save --export-json x.json --export-csv ./x.json -- true
expect_refused "time: two exports to one file are refused" "also the output of --export-json"
[ ! -e x.json ] && ok "nothing was written" || not_ok "x.json was written"
run_nm run --quick --json=nodemark-report.html --db "$STORE" T
expect_refused "run: --json naming its report is refused" "also the output of --json"

# What is written in place (a character device) is not replaced, so it may be named twice.
run_nm time --runs 1 --no-save --export-json /dev/null --export-csv /dev/null -- true
expect_rc 0 "time: /dev/null twice is allowed"
run_nm export a --db "$STORE" -o other.json
expect_rc 0 "export to another file works"
check "and wrote it" test -s other.json
