"""Check that docs/fio-compat.md agrees with the option table (`nodemark fio --cmdhelp`).

Every option the table lists must be named (in backticks) in the section for its status:
"supported" under "## Options that work", "ignored" under "## Options ignored...",
"refused" under "## Options that stop the run", and nothing unsupported under the
first; a supported or ignored option's row says what the table says (its default, aliases and
text: the rows are written by scripts/fio-compat-options.py, so an edit by hand that the table
lacks would be lost at its next run). Prints each disagreement; exit 1 if any."""
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
# the rows of the generated tables: "| `name` | `alias`... | default | text |" or "| `name` | text |"
# between the generator's markers (an engine's option may have a row per engine)
doc = open(doc_path).read()
doc = doc[doc.index("<!-- options: begin -->"):doc.index("<!-- options: end -->")]
rows = {}
for line in doc.splitlines():
    m = re.match(r"^\| `([a-z0-9_]+)` \|(.*)\|$", line)
    if m:
        rows.setdefault(m.group(1), []).append([c.strip() for c in m.group(2).split(" | ")])
for line in help_text.splitlines():
    m = re.match(r"^(\S+)\s+(\S+)\s+(\S+?)(?: default (\S+))?(?: \(alias ([^)]+)\))?: (.*)$", line)
    if not m or m.group(3) not in ("supported", "ignored"):
        continue
    name, _t, status, default, aliases, text = m.groups()
    want = ([" ".join(f"`{x}`" for x in (aliases or "").split()), default or "", text] if status == "supported"
            else [text])
    if want not in rows.get(name, []):
        print(f"{name}: its row in {doc_path} is {rows.get(name)}, the table says {want}")
        bad = 1
sys.exit(bad)
