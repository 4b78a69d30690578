# nodemark benchstat: byte-identical to the real benchstat on the inputs of
# tests/cli/data/benchstat (expected/ was printed by golang.org/x/perf's cmd/benchstat, built
# from source; see gen.py and cases.txt), and nodemark's errors where benchstat would pool.
. "$TESTS_DIR/cli/lib.sh"
D="$TESTS_DIR/cli/data/benchstat"

n=0 same=0
while IFS=$'\t' read -r name args; do
    case $name in '#'* | '') continue ;; esac
    n=$((n + 1))
    (cd "$D" && eval "\"$NM\" benchstat $args") >"$name.out" 2>"$name.err"
    if cmp -s "$name.out" "$D/expected/$name.out" && cmp -s "$name.err" "$D/expected/$name.err"; then
        same=$((same + 1))
    else
        not_ok "case $name is benchstat's output" "$(diff "$D/expected/$name.out" "$name.out" | head -8; diff "$D/expected/$name.err" "$name.err" | head -4)"
    fi
done <"$D/cases.txt"
[ "$n" -ge 20 ] && [ "$same" -eq "$n" ] && ok "all $n cases print what benchstat prints (stdout and stderr)"

# A configuration line changing mid-file splits the tables: the notes are not pooled.
run_nm benchstat "$D/hash-a.txt"
expect_out_has "note: cold" "the first note heads its tables"
expect_out_has "note: warm" "a note changed mid-file starts new tables"

# Keys no result has are errors, not one pooled column.
run_nm benchstat -col nosuchkey "$D/hash-a.txt"
expect_rc 2 "an unknown -col key exits 2"
one_line_error "the unknown key is a one-line error"
expect_err_has '"nosuchkey"' "the error names the key"
run_nm benchstat -row /nosuch "$D/hash-a.txt"
expect_rc 2 "an unknown sub-benchmark key exits 2"
run_nm benchstat -filter 'nokey:1' "$D/hash-a.txt"
expect_rc 2 "an unknown -filter key exits 2"
run_nm benchstat -row .bogus "$D/hash-a.txt"
expect_rc 2 "an unknown dot key exits 2"

run_nm benchstat -filter '/size:(64' "$D/hash-a.txt"
expect_rc 2 "a bad -filter exits 2"
one_line_error "a filter syntax error is one line"
expect_err_has "syntax error at" "the filter error says where"
run_nm benchstat -table .unit "$D/hash-a.txt"
expect_rc 2 ".unit in a projection is refused, as benchstat does"
expect_err_has ".unit is only allowed in filters" "with benchstat's reason"
run_nm benchstat -format json "$D/hash-a.txt"
expect_rc 2 "-format json is refused"
run_nm benchstat -alpha 2 "$D/hash-a.txt"
expect_rc 2 "-alpha outside [0, 1] is refused"
run_nm benchstat -nosuchflag 1 "$D/hash-a.txt"
expect_rc 2 "an unknown flag exits 2"
one_line_error "the unknown flag is one line"
run_nm benchstat
expect_rc 2 "no inputs exits 2"
run_nm benchstat "$D/missing.txt"
expect_rc 2 "a missing file exits 2"
expect_err_has "missing.txt" "the error names the file"

# Flags Go's way: --flag and -flag=value read the same; flags stop at the first input.
run_nm benchstat --col=note "$D/hash-a.txt"
a=$out
run_nm benchstat -col note "$D/hash-a.txt"
[ "$a" = "$out" ] && ok "--col=note reads as -col note" || not_ok "--col=note" "$a"
run_nm benchstat -h
expect_rc 0 "-h prints the help"
expect_out_has "-filter QUERY" "the help lists benchstat's flags"
