"""Check that docs/fio-compat.md agrees with the option table (`nodemark fio --cmdhelp`).

Every option the table lists must be named (in backticks) in the section for its status:
"supported" under "## Options that work", "ignored" under "## Options ignored...",
"refused" under "## Options that stop the run", and nothing unsupported under the
first. Prints each disagreement; exit 1 if any."""
import re
import sys

help_text, doc_path = open(sys.argv[1]).read(), sys.argv[2]
sections, cur = {}, None
for line in open(doc_path):
    if line.startswith("## "):
        h = line.lower()
        cur = ("supported" if "work" in h else "ignored" if "ignored" in h
               else "refused" if "stop the run" in h else None)
    elif cur:
        sections.setdefault(cur, set()).update(re.findall(r"`([a-z0-9_]+)`", line))
bad = 0
for line in help_text.splitlines():
    f = line.split()
    name, status = f[0], f[2].rstrip(":")
    if name not in sections.get(status, set()):
        print(f"{name}: {status} in the table, not listed so in {doc_path}")
        bad = 1
    # an option that does not work must never be listed as one that does
    for other, names in sections.items():
        if other == "supported" and status != other and name in names:
            print(f"{name}: {status} in the table, but also listed as {other}")
            bad = 1
sys.exit(bad)
