#!/usr/bin/env bash
# An engine is its file under src/io/ plus one line of io/engines.c' table: nothing outside
# src/io/ may know one. Reads the engines' names (.name, .aliases, .fio_names) and their
# options (the rows of each engine's io_engine_option table) from src/io/*.c, then reports,
# outside src/io/ (comments left out):
#   - an engine's ops named (io_null_ops, ...): an engine is used through the table;
#   - an engine enum (enum io_engine_kind, as there was): the ops pointer is the identity;
#   - an engine's name compared or listed where an engine is meant (a line that says
#     "engine": strcmp(engine, "uring"), a second list of names): ask the table or a capability;
#   - in src/fio/ (fio's front end), an engine option's name as a string ("hipri") or io_job.eopts
#     read or written: the front end finds the option and its type in the table and sets it by
#     name on the job's engine.
# ("sync", "null" and "hostname" are other things elsewhere: fio's sync=, inventory's host.)
#
#   scripts/engines_outside_io.sh [ROOT]    prints "file:line: what" per finding; exit 1 if any
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
exec python3 - "$root" <<'PY'
import os, re, sys

root = sys.argv[1]
src = os.path.join(root, "src")
comment = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
strings = lambda t: re.findall(r'"([^"\\\n]*)"', t)

names, options = set(), set()
io = os.path.join(src, "io")
for f in sorted(os.listdir(io)):
    if not f.endswith(".c"):
        continue
    text = comment.sub("", open(os.path.join(io, f)).read())
    for m in re.finditer(r'\.(name|aliases|fio_names)\s*=\s*(\{[^}]*\}|"[^"]*")', text):
        names.update(strings(m.group(2)))
    for m in re.finditer(r'\{\s*"([a-z0-9_]+)"\s*,\s*(NULL|"[a-z0-9_]+")\s*,\s*IO_EOPT_', text):
        options.add(m.group(1))
        if m.group(2) != "NULL":
            options.add(m.group(2).strip('"'))

found = []
for d, _, files in os.walk(src):
    rel = os.path.relpath(d, src)
    if rel == "io" or rel.startswith("io" + os.sep):
        continue
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.join(d, f)
        text = comment.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), open(path).read())
        for n, line in enumerate(text.split("\n"), 1):
            where = f"{os.path.relpath(path, root)}:{n}"
            for ops in re.findall(r'\bio_[a-z0-9_]+_ops\b', line):
                if ops != "io_engine_ops":
                    found.append(f"{where}: names the engine {ops}")
            if re.search(r'\benum\s+io_engine_kind\b', line):
                found.append(f"{where}: an engine enum")
            if re.search(r'engine', re.sub(r'"[^"\\\n]*"', '', line), re.I):
                for s in strings(line):
                    if s in names:
                        found.append(f"{where}: names the engine \"{s}\"")
            for s in strings(line) if rel == "fio" else []:
                if s in options:
                    found.append(f"{where}: names the engine option \"{s}\"")
            if rel == "fio" and re.search(r'(\.|->)eopts\b', line):
                found.append(f"{where}: sets io_job.eopts")
for line in found:
    print(line)
sys.exit(1 if found else 0)
PY
