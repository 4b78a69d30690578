#!/usr/bin/env bash
# The engine table (src/io/engines.c) is the one list of engines: the error for an unknown one
# lists it, and every help text and docs/disk.md's engine table name each engine in it.
. "$(dirname "$0")/lib.sh"
run_nm disk /tmp --engine no_such_engine
expect_rc 2 "an unknown engine is bad input"
one_line_error "an unknown engine: one line"
list=$(sed -n 's/.*--engine: expected \(.*\)$/\1/p' <<<"$err" | sed 's/ or /, /; s/,/ /g')
[ -n "$list" ] && ok "the error lists the engines ($list)" || not_ok "the error lists the engines" "$err"
disk_help=$("$NM" disk --help 2>&1)
# the --engine entry: its line and the indented lines that continue it
engine_help=$(awk '/--engine NAME/ {p = 1; print; next} p && /^ *--/ {p = 0} p' <<<"$disk_help" | tr '\n' ' ')
docs=${TESTS_DIR:?}/../docs/disk.md
for e in $list; do
    grep -q -- "--engine NAME.*\b$e\b" <<<"$engine_help" && ok "disk --help names engine $e" ||
        not_ok "disk --help names engine $e" "$engine_help"
    [ "$e" = auto ] && continue
    grep -q "^| \`$e\` |" "$docs" && ok "docs/disk.md has a row for engine $e" ||
        not_ok "docs/disk.md has a row for engine $e"
done
