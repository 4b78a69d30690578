#!/usr/bin/env python3
"""Write the option lists of docs/fio-compat.md from nodemark's option table.

    scripts/fio-compat-options.py FIO_CHECKOUT [--nodemark build/nodemark] [--doc docs/fio-compat.md]

The table is `nodemark fio --cmdhelp` (src/fio/options.c). fio's own option names come from
FIO_CHECKOUT/options.c (names and categories only); every fio option that nodemark's table does
not have is listed as refused, with the reason for its category. The text between the markers
"<!-- options: begin -->" and "<!-- options: end -->" is replaced; the rest of the page is kept.
"""
import argparse
import re
import subprocess

WHY = {  # fio's option group or category -> why nodemark refuses the options in it
    "VERIFY": "this verify option is not implemented (verify= and its common options are)",
    "IOLOG": "I/O logs (write_iolog) and their replay are not implemented",
    "LOG": "not implemented (fio's log files are written, without this option: docs above)",
    "RATE": "rate limits are not implemented",
    "THINKTIME": "think time is not implemented",
    "ZONE": "zoned block devices (zonemode=zbd) are not supported",
    "TRIM": "the trims of verified blocks (verify's trim phase) are not implemented",
    "LATPROF": "latency targets are not implemented",
    "IO_FLOW": "flow control between jobs is not implemented",
    "CGROUP": "cgroups are not managed",
    "CRED": "process credentials and placement are not managed",
    "PROCESS": "process control options are not implemented",
    "CLOCK": "nodemark keeps its own clock (CLOCK_MONOTONIC)",
    "IO_BUF": "buffer contents other than random or zeros are not implemented",
    "RANDOM": "this random-offset option is not implemented (random_distribution is)",
    "ERR": "every error stops the job",
    "STAT": "this reporting option is not implemented",
    "FILE": "this file-handling option is not implemented",
    "FILENAME": "this file-handling option is not implemented",
}


def fio_options(checkout):
    s = open(f"{checkout}/options.c").read()
    s = s[s.index("struct fio_option fio_options[FIO_MAX_OPTS]"):]
    pos = list(re.finditer(r'\.name\s*=\s*"([^"]+)"', s))
    out = []
    for i, m in enumerate(pos):
        body = s[m.end():pos[i + 1].start() if i + 1 < len(pos) else len(s)]
        g = re.search(r"\.group\s*=\s*FIO_OPT_G_([A-Z_0-9]+)", body)
        c = re.search(r"\.category\s*=\s*FIO_OPT_C_([A-Z_0-9]+)", body)
        al = re.search(r'\.alias\s*=\s*"([^"]+)"', body)
        group = g.group(1) if g and g.group(1) != "INVALID" else (c.group(1) if c else "")
        out.append((m.group(1), al.group(1) if al else "", group))
    return out


def ours(nodemark):
    text = subprocess.run([nodemark, "fio", "--cmdhelp"], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in text.splitlines():
        m = re.match(r"^(\S+)\s+(\S+)\s+(\S+?)(?: default (\S+))?(?: \(alias ([^)]+)\))?: (.*)$", line)
        rows.append(m.groups())
    return rows


def md(rows, header):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fio_checkout")
    ap.add_argument("--nodemark", default="build/nodemark")
    ap.add_argument("--doc", default="docs/fio-compat.md")
    a = ap.parse_args()
    table = ours(a.nodemark)
    known = set()
    for name, _t, _s, _d, aliases, _x in table:
        known.add(name)
        known.update((aliases or "").split())
    lines = ["<!-- options: begin -->", "<!-- written by scripts/fio-compat-options.py from `nodemark fio --cmdhelp`; "
             "a test checks it against the table -->", "", "## Options that work", "",
             "Some take only the values that ask for nothing nodemark lacks (the note says which);",
             "another value stops the run in one line that names the option and says why.", ""]
    lines += md([(f"`{n}`", " ".join(f"`{x}`" for x in (al or "").split()), d or "", x)
                 for n, t, s, d, al, x in table if s == "supported"], ["option", "aliases", "fio's default", "what it does here"])
    lines += ["", "## Options ignored with a warning (they only touch fio's bookkeeping)", "",
              "The run goes on; stderr names each once: `nodemark: fio: warning: gtod_reduce: ignored (...)`.", ""]
    lines += md([(f"`{n}`", x) for n, t, s, d, al, x in table if s == "ignored"], ["option", "why it changes nothing here"])
    lines += ["", "## Options that stop the run (exit 2)", "",
              "Named on stderr in one line, e.g. `nodemark: fio: --exitall: not supported by nodemark fio: every",
              "job runs to its end`. First those nodemark's table names, then every other option of fio's",
              "options.c (the options of fio's other engines -- rdma, http, sg, ... -- go with their",
              "engine, which is refused).", ""]
    refused = [(f"`{n}`", x) for n, t, s, d, al, x in table if s == "refused"]
    seen = set(known)
    for name, alias, group in fio_options(a.fio_checkout):
        if name in seen:
            continue
        seen.add(name)
        why = WHY.get(group, "not implemented")
        refused.append((f"`{name}`" + (f" (`{alias}`)" if alias and alias not in seen else ""), why))
        seen.add(alias)
    lines += md(refused, ["option", "why"])
    lines += ["", "<!-- options: end -->"]
    doc = open(a.doc).read()
    b, e = doc.index("<!-- options: begin -->"), doc.index("<!-- options: end -->") + len("<!-- options: end -->")
    open(a.doc, "w").write(doc[:b] + "\n".join(lines) + doc[e:])


if __name__ == "__main__":
    main()
