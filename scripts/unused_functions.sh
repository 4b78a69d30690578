#!/usr/bin/env bash
# Public functions without a caller: each function a header under src/ declares whose name
# occurs nowhere but in that declaration and its definition.  src/, tests/, fuzz/ and bench/
# are read alike (a function a test or a fuzz harness calls has a caller), comments and string
# literals left out (a comment that names a function does not call it).
#
#   scripts/unused_functions.sh [ROOT]    prints "header: name" per function; exit 1 if any
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
exec python3 - "$root" <<'PY'
import os, re, sys
from collections import Counter

root = sys.argv[1]
comment_or_string = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
ident = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
# a declaration: at column 0 in a header, a type, then a name followed by '('
decl = re.compile(r'^(?!typedef|static|extern\b|#)[a-z][a-z0-9_ ]*[ *]+([a-z_][a-z0-9_]*)\(', re.M)

counts, headers = Counter(), []
for top in ("src", "tests", "fuzz", "bench"):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            with open(path, errors="replace") as fh:
                text = comment_or_string.sub(" ", fh.read())
            counts.update(ident.findall(text))
            if top == "src" and f.endswith(".h"):
                headers.append((os.path.relpath(path, root), text))

unused = sorted({(h, m.group(1)) for h, text in headers for m in decl.finditer(text)
                 if counts[m.group(1)] <= 2}, key=lambda x: x)
for h, name in unused:
    print(f"{h}: {name}")
sys.exit(1 if unused else 0)
PY
