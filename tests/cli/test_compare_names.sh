# compare and report: a word that is both a file here and a saved run's label is refused,
# naming both; ./NAME means the file and the run's id the run.
. "$TESTS_DIR/cli/lib.sh"
export NODEMARK_DB="$PWD/store.db" NODEMARK_NO_PROGRESS=1

run_nm time -r 2 --label base -N 'true'
expect_rc 0 "a run labelled base is saved"
id=$(sed -n 's/^saved run \([0-9a-f]*\).*/\1/p' <<<"$err$out" | head -1)
printf 'BenchmarkX-2 10 100 ns/op\nBenchmarkX-2 10 101 ns/op\n' >base
printf 'BenchmarkX-2 10 120 ns/op\nBenchmarkX-2 10 121 ns/op\n' >other.txt

run_nm compare base other.txt
expect_rc 2 "compare refuses a word that is a file and a run"
one_line_error "the refusal is one line"
expect_err_has "both a file here and saved run $id" "it names the run"
expect_err_has "./base" "and says how to mean the file"
run_nm report base other.txt -o r.html
expect_rc 2 "report refuses it too"

run_nm compare ./base other.txt
expect_rc 0 "./base is the file"
expect_out_has "./base" "the file is the first column"
run_nm compare "$id" base
expect_rc 2 "the bare word stays refused beside an id"
run_nm compare other.txt other.txt
expect_rc 0 "a file that no run is named after is read as before"

# A wide name (two terminal columns a character) heads its column centred by display width, so
# the column's bars fall at the same terminal column on every line (a character count put them
# two columns apart for 基线).
printf 'BenchmarkX-2 10 100 ns/op\nBenchmarkX-2 10 101 ns/op\nBenchmarkX-2 10 102 ns/op\n' >基线.txt
run_nm compare 基线.txt other.txt
bars=$(printf '%s\n' "$out" | head -2 | python3 -c '
import sys, unicodedata
for line in sys.stdin:
    col, at = 0, []
    for ch in line.rstrip("\n"):
        if ch == "\u2502": at.append(col)
        col += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    print(at)')
[ "$rc" -eq 0 ] && [ "$(sed -n 1p <<<"$bars")" = "$(sed -n 2p <<<"$bars")" ] &&
    ok "a wide file name heads its column by display width ($(head -1 <<<"$bars"))" ||
    not_ok "a wide file name heads its column by display width" "$bars; $out"
