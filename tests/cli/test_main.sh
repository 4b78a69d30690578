# The command table, help, version, and unknown commands/options.
. "$TESTS_DIR/cli/lib.sh"

run_nm --version
expect_rc 0 "--version exits 0"
expect_out_matches '^nodemark [0-9]+\.[0-9]+\.[0-9]+$' "--version prints the version"

run_nm --help
expect_rc 0 "--help exits 0"
for c in run info disk fio hash pieces time track compare report runs show export import rm; do
    expect_out_has "  $c " "--help lists $c"
done

run_nm
expect_rc 2 "no command is a usage error"

run_nm dsik
expect_rc 2 "unknown command exits 2"
one_line_error "unknown command is one line"
expect_err_has "did you mean 'disk'" "unknown command suggests the closest"

run_nm --frobnicate
expect_rc 2 "unknown global option exits 2"
one_line_error "unknown global option is one line"

run_nm help disk
expect_rc 0 "help disk exits 0"
expect_out_has "usage: nodemark disk" "help disk shows disk's usage"

run_nm disk --help
expect_rc 0 "disk --help exits 0"
expect_out_has "usage: nodemark disk" "disk --help shows disk's usage"

run_nm help nosuch
expect_rc 2 "help of an unknown command exits 2"

# Usage texts are printed as they are (not through printf): a "%%" there is a typo users see.
for c in run info disk fio hash pieces time track compare report runs show export import rm; do
    run_nm help "$c"
    if [ "$rc" -eq 0 ] && ! grep -qF '%%' <<<"$out" && grep -q "usage: nodemark $c" <<<"$out"; then
        ok "help $c prints its usage cleanly"
    else
        not_ok "help $c prints its usage cleanly" "rc=$rc: $(grep -F '%%' <<<"$out" | head -2)"
    fi
done

# Helps written from option tables keep every option: hyperfine's for time (long and short
# names), benchstat's flags with one dash, run's and the store commands' own.
help_lists() { # CMD WHAT NAME...
    local cmd=$1 what=$2 h missing=""
    shift 2
    h=$("$NM" help "$cmd" 2>&1)
    for o in "$@"; do grep -qE -- "(^|[ ,])$o([ =,[]|$)" <<<"$h" || missing="$missing $o"; done
    if [ -z "$missing" ]; then ok "help $cmd lists $what"; else not_ok "help $cmd lists $what" "missing:$missing"; fi
}
help_lists time "hyperfine's options" --runs -r --min-runs -m --max-runs -M --warmup -w --min-benchmarking-time \
    --prepare -p --conclude -C --setup -s --cleanup -c --parameter-scan -P --parameter-step-size -D \
    --parameter-list -L --shell -S -N --ignore-failure -i --style --sort --time-unit -u --export-asciidoc \
    --export-csv --export-json --export-markdown --export-orgmode --show-output --output --input \
    --command-name -n --reference --reference-name
help_lists time "nodemark's own options" --interleave --timeout --scan --param --suite --json --name \
    --tag --label --no-save --db
help_lists benchstat "benchstat's flags" -table -row -col -ignore -filter -alpha -confidence -format
help_lists run "its options" --quick --full --phases --baseline --no-report --json --tag --label --no-save --db
help_lists runs "its filters" --host --label --tag --command --limit --json --db
help_lists show "its options" --json --db
help_lists export "its options" --all --format -o --output --db
help_lists import "its options" --db
help_lists rm "its options" --db
run_nm time --help
expect_out_has "Hooks (shell commands, not timed" "time's help keeps its groups of options"

# Every help fits an 80-column terminal: nodemark --help and each command's, counted in
# characters (µ, ±, … are one column each).
wide=""
for c in "" $("$NM" --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
    w=$("$NM" $c --help | python3 -c 'import sys
for l in sys.stdin.read().split("\n"):
    if len(l) > 80: print(repr(l))')
    [ -n "$w" ] && wide="$wide
${c:-nodemark}: $w"
done
if [ -z "$wide" ]; then ok "no help line is wider than 80 columns"; else not_ok "no help line is wider than 80 columns" "$wide"; fi
