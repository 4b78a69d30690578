#!/bin/bash
# The functions longer than N lines (default 80, the house rule of docs/design.md), longest first:
#   scripts/long-functions.sh [N] [FILES...]   (FILES from the repository root; default src/**/*.c)
# A function is what the house style writes: its signature at column 0, "{" alone at column 0,
# and "}" at column 0 closing it; its length counts both braces.
set -eu
n=${1:-80}
shift || true
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
    mapfile -t files < <(find src -name '*.c' | sort)
    set -- "${files[@]}"
fi
awk -v max="$n" '
    FNR == 1 { start = 0; sig = "" }
    /^[A-Za-z_].*\(/ { sig = $0; sigline = FNR }
    /^\{/ { start = FNR }
    /^\}/ && start {
        len = FNR - start + 1
        if (len > max) {
            name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
            printf "%d %s:%d %s\n", len, FILENAME, sigline, name
        }
        start = 0
    }' "$@" | sort -rn
