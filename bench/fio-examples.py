#!/usr/bin/env python3
"""Run fio's own example job files through real fio and `nodemark fio`, side by side.

    bench/fio-examples.py FIO_CHECKOUT/examples [--nodemark build/nodemark] [--only NAME...]

Each example is rewritten the way a user trying it on a laptop would (nothing of it is kept
here: the files are read from the user's fio checkout at run time): sizes cut to 8 MiB,
runtimes to 1 s, numjobs to 4, devices and paths turned into files in a scratch directory.
Then fio runs it; the examples fio runs cleanly are run by nodemark, and the two JSON outputs
are compared: job names, group ids, the jobs' options, and the figures within a loose factor.
Prints one line per example and a summary: how many of those fio runs also run under nodemark
with fio's structure.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

MIB = 1 << 20
UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}


def parse_size(v):
    m = re.fullmatch(r"\s*(\d+)\s*([kmgtp]?)(i?b)?\s*", v.lower())
    return int(m.group(1)) * UNITS[m.group(2)] if m else None


def cap_size(v, cap):
    n = parse_size(v)
    if n is None:
        return v if "-" in v else str(cap)  # ranges stay; percentages and odd forms get the cap
    return str(min(n, cap))


def cap_seconds(v, cap):
    m = re.fullmatch(r"\s*(\d+)\s*(s|m|h|ms|us)?\s*", v.lower())
    if not m:
        return str(cap)
    n = int(m.group(1)) * {None: 1, "s": 1, "m": 60, "h": 3600, "ms": 0.001, "us": 1e-6}[m.group(2)]
    return str(cap) if n > cap else v


def local_path(v):
    """A device or absolute path becomes a file name in the scratch directory."""
    return ":".join(re.sub(r"[^A-Za-z0-9_.-]", "_", p.strip("/")) or "f" for p in v.split(":"))


def rewrite(text):
    # a size for jobs on devices (fio sizes those from the device) and a runtime for rate-limited
    # ones; the job's own win
    out = ["[global]", "size=8m", "runtime=3"]
    for line in text.splitlines():
        m = re.match(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$", line)
        if not m or line.lstrip().startswith((";", "#")):
            out.append(line)
            continue
        ind, key, val = m.groups()
        if "$" in val:
            pass
        elif key in ("size", "filesize", "io_size", "io_limit"):
            val = cap_size(val, 8 * MIB)
        elif key in ("offset", "offset_increment"):
            val = cap_size(val, MIB)
        elif key in ("runtime", "timeout"):
            val = cap_seconds(val, 1)
        elif key in ("ramp_time", "startdelay"):
            val = cap_seconds(val, 1)
        elif key in ("numjobs", "nrfiles", "nr_files"):
            val = str(min(int(val), 4)) if val.isdigit() else val
        elif key == "loops":
            val = str(min(int(val), 2)) if val.isdigit() else val
        elif key == "filename":
            val = local_path(val)
        elif key == "directory":
            val = "."
        out.append(f"{ind}{key}={val}")
    return "\n".join(out) + "\n"


def descendants(pid):
    """The pids below pid in the process tree, from /proc (children first found, then theirs)."""
    parent = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out, todo = [], [pid]
    while todo:
        kids = [c for c, pp in parent.items() if pp == todo[0]]
        todo = todo[1:] + kids
        out += kids
    return out


def run(cmd, cwd, timeout):
    # a session of its own, so that a timeout kills fio's forked job processes too, not only
    # the parent (they would otherwise run on, holding the scratch directory, after the script)
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        # fio's job processes call setsid() themselves: the group kill misses them, and they hold
        # the pipes open, so every descendant is killed by name of its parent too
        for pid in [p.pid] + descendants(p.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.communicate()
        return 124, "", f"timed out after {timeout} s"


def load_json(text):
    start = text.find("{")  # fio may print warnings before the JSON
    try:
        return json.loads(text[start:]) if start >= 0 else None
    except ValueError:
        return None


def io_kib(job):
    # unified_rw_reporting=mixed: one "mixed" object in place of the directions
    dirs = ("read", "write") if "read" in job else ("mixed",)
    return sum(job[d]["io_kbytes"] for d in dirs if d in job)


def compare(fj, nj):
    """Differences in structure; figures only within a factor of 10 (a sanity check)."""
    diffs = []
    fs = [(j["jobname"], j["groupid"]) for j in fj["jobs"]]
    ns = [(j["jobname"], j["groupid"]) for j in nj["jobs"]]
    if fs != ns:
        return [f"jobs/groups: fio {fs[:6]}{'...' if len(fs) > 6 else ''}, nodemark {ns[:6]}"]
    for a, b in zip(fj["jobs"], nj["jobs"]):
        if a.get("job options") != b.get("job options"):
            diffs.append(f"{a['jobname']}: job options differ")
        missing = set(a) - set(b)
        if missing:
            diffs.append(f"{a['jobname']}: JSON keys missing: {sorted(missing)[:4]}")
        fa, fb = io_kib(a), io_kib(b)
        if (fa == 0) != (fb == 0) or (fa and not (0.1 <= fb / fa <= 10)):
            diffs.append(f"{a['jobname']}: io {fa} KiB vs {fb} KiB")
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("examples")
    ap.add_argument("--nodemark", default=os.path.join(os.path.dirname(__file__), "..", "build", "nodemark"))
    ap.add_argument("--fio", default="fio")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=60)
    a = ap.parse_args()
    nm = os.path.abspath(a.nodemark)
    names = sorted(f for f in os.listdir(a.examples) if f.endswith(".fio"))
    if a.only:
        names = [n for n in names if n in a.only or n[:-4] in a.only]
    scratch = tempfile.mkdtemp(prefix="nm-fio-examples.", dir=os.environ.get("TMPDIR", "/var/tmp"))
    fio_ok, nm_ok, rows = [], [], []
    try:
        for name in names:
            text = rewrite(open(os.path.join(a.examples, name)).read())
            d = os.path.join(scratch, name[:-4])
            for sub in ("fio", "nm"):
                os.makedirs(os.path.join(d, sub))
                with open(os.path.join(d, sub, "job.fio"), "w") as f:
                    f.write(text)
            rc, out, err = run([a.fio, "--output-format=json", "job.fio"], os.path.join(d, "fio"), a.timeout)
            fj = load_json(out)
            if rc != 0 or not fj or not fj.get("jobs") or any(j.get("error") for j in fj["jobs"]):
                rows.append((name, "fio fails here", (err.strip().splitlines() or ["?"])[-1][:100]))
                continue
            fio_ok.append(name)
            rc, out, err = run([nm, "fio", "--no-save", "--output-format=json", "job.fio"], os.path.join(d, "nm"), a.timeout)
            nj = load_json(out)
            if rc != 0 or not nj:
                rows.append((name, "REFUSED" if rc == 2 else f"FAILED rc={rc}",
                             (err.strip().splitlines() or ["?"])[-1][:140]))
                continue
            diffs = compare(fj, nj)
            if diffs:
                rows.append((name, "DIFFERS", "; ".join(diffs)[:160]))
            else:
                nm_ok.append(name)
                rows.append((name, "ok", f"{len(fj['jobs'])} jobs"))
            # log files fio writes too are the job's output, not nodemark's leftovers
            fio_left = {f for f in os.listdir(os.path.join(d, "fio")) if f.endswith(".log")}
            left = [f for f in os.listdir(os.path.join(d, "nm")) if f != "job.fio" and f not in fio_left]
            if left:
                rows.append((name, "LEFT FILES", " ".join(left[:5])))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for r in rows:
        print(f"{r[0]:40} {r[1]:15} {r[2]}")
    print(f"\nfio runs {len(fio_ok)} of {len(names)} examples here; nodemark runs {len(nm_ok)} of those "
          f"with fio's jobs, groups and options")
    return 0


if __name__ == "__main__":
    sys.exit(main())
