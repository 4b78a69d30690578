#!/usr/bin/env python3
"""Run fio's own regression job tests (t/run-fio-tests.py, t0001-t0026) on real fio and on
`nodemark fio`, side by side.

    bench/fio-tests.py [FIO_CHECKOUT] [--nodemark build/nodemark] [--fio fio] [--only N...]

FIO_CHECKOUT (default /var/tmp/fio-src) is fio's source of the installed version, e.g.
    mkdir -p /var/tmp/fio-src && git -C /work/.mirror/axboe+fio/repo archive fio-3.33 |
        tar -x -C /var/tmp/fio-src
Nothing of it is kept here: fio's runner and job files are read from the checkout at run time.
The runner is given a fio root of our own (a link to the checkout's t/ and a config-host.h
saying which of fio's build options the installed fio has), so that its own requirement
checks (libaio, io_uring, 4 CPUs) skip what this machine cannot run, as they would in fio's
build tree. Tests 1000 and up need fio's t/ C programs built, and are not run.

nodemark runs as a `fio` wrapper script that calls `nodemark fio --no-save "$@"`, so the
runner's checks (exit status, empty stderr, the JSON, the logs the jobs write) apply as
they are. A test that fails only because nodemark wrote its notes to stderr (an option it
ignores, the engine that runs an engine name: `nodemark: fio: warning: ...`) is run once more
with those lines set aside, so that fio's checks of its figures run too; it shows as NOTES
when they pass. Prints one row per test and a summary line.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

JOB_TESTS = range(1, 27)  # t0001..t0026: the tests that need only the fio binary


def fio_root(tmp, src, fio):
    """A root for run-fio-tests.py: t/ is the checkout's; config-host.h names the engines
    that the installed fio was built with (the runner greps it for CONFIG_LIBAIO)."""
    root = os.path.join(tmp, "root")
    os.makedirs(root)
    os.symlink(os.path.join(os.path.abspath(src), "t"), os.path.join(root, "t"))
    engines = subprocess.run([fio, "--enghelp"], capture_output=True, text=True).stdout.split()
    with open(os.path.join(root, "config-host.h"), "w") as f:
        f.write("/* written by nodemark's bench/fio-tests.py from fio --enghelp */\n")
        if "libaio" in engines:
            f.write("#define CONFIG_LIBAIO\n")
    return root


def processes():
    """{pid: (parent pid, seconds since boot it started at)} from /proc."""
    out = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    st = f.read().rsplit(")", 1)[1].split()
                out[int(d)] = (int(st[1]), int(st[19]) / os.sysconf("SC_CLK_TCK"))
            except (OSError, IndexError, ValueError):
                pass
    return out


def watchdog(runner, limit, hung, stop):
    """Kills a job (the runner's child) that has run past limit s, with every process under
    it. fio 3.33 can deadlock (its t0010, io_submit_mode=offload: every thread in a futex
    wait); the runner's own timeout then sends SIGTERM, which fio's parent waits on forever,
    and the runner with it. fio's job processes call setsid(), so they are found by parent."""
    with open("/proc/uptime") as f:
        boot_now = float(f.read().split()[0]) - time.monotonic()
    while not stop.wait(5):
        procs = processes()
        now = time.monotonic() + boot_now
        for pid, (ppid, start) in procs.items():
            if ppid != runner.pid or now - start < limit:
                continue
            tree, todo = [], [pid]
            while todo:
                kids = [c for c, (pp, _) in procs.items() if pp == todo[0]]
                tree += kids
                todo = todo[1:] + kids
            try:
                with open(f"/proc/{pid}/cmdline") as f:
                    m = re.search(r"/t(\d{4})[-.]", f.read())
                hung.append(int(m.group(1)) if m else 0)
            except OSError:
                pass
            for victim in reversed([pid] + tree):
                try:
                    os.kill(victim, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def run_suite(root, fio, art, only, timeout, job_limit):
    """Runs fio's runner; returns {test: (result, reason)} and the seconds it took."""
    cmd = [sys.executable, os.path.join(root, "t", "run-fio-tests.py"), "-r", root, "-f", fio,
           "-a", art, "-o"] + [str(n) for n in only]
    t0 = time.monotonic()
    runner = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    hung, stop = [], threading.Event()
    dog = threading.Thread(target=watchdog, args=(runner, job_limit, hung, stop), daemon=True)
    dog.start()
    try:
        out, err = runner.communicate(timeout=timeout)
    finally:
        stop.set()
        runner.kill()
        dog.join()
    p = subprocess.CompletedProcess(cmd, runner.returncode, out, err)
    took = time.monotonic() - t0
    res = {}
    for line in p.stdout.splitlines():
        m = re.match(r"Test (\d+) (PASSED|SKIPPED|FAILED)(.*)$", line)
        if not m:
            continue
        n, what, rest = int(m.group(1)), m.group(2), m.group(3).strip()
        if what == "FAILED":
            # "FAILED: reason, job.fio": the job name is the last word
            reason = rest.lstrip(":").strip()
            reason = reason.rsplit(" ", 1)[0] if reason.endswith(".fio") else reason
            res[n] = ("FAILED", reason.strip(" ,"))
        elif what == "SKIPPED":  # "(why) job.fio"
            m = re.match(r"\((.*)\)", rest)
            res[n] = ("SKIPPED", m.group(1) if m else rest)
        else:
            res[n] = ("PASSED", "")
    for n in hung:  # the runner saw only a killed job: say why
        if n in res:
            res[n] = ("FAILED", f"hung: killed after {job_limit} s")
    if not res:
        sys.exit(f"fio-tests: the runner printed no results:\n{p.stdout}\n{p.stderr}")
    return res, took


def stderr_lines(art, n):
    """The lines the test's jobs (a pre job's too) wrote to stderr."""
    d, out = os.path.join(art, f"{n:04d}"), []
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith(".stderr"):
            with open(os.path.join(d, f), errors="replace") as fh:
                out += [l.strip() for l in fh if l.strip()]
    return out


NOTE = "nodemark: fio: warning: "


def notes_only(res, art, n):
    """Whether test n failed only on stderr, and that stderr holds nothing but nodemark's notes
    (an option it ignores, the engine that runs an engine name): fio's checks of the figures
    never ran, so the test is run again with the notes set aside to see them."""
    r, why = res.get(n, ("?", ""))
    words = {w.strip() for w in why.split(",") if w.strip()}
    lines = stderr_lines(art, n)
    return (r == "FAILED" and words and words <= {"stderr not empty", "precondition step failed"}
            and lines and all(l.startswith(NOTE) for l in lines))


def wrapper(path, nm, drop_notes):
    with open(path, "w") as f:
        if drop_notes:  # bash: stderr through grep, the exit status nodemark's own
            f.write(f'#!/bin/bash\n"{nm}" fio --no-save "$@" 2> >(grep -v "^{NOTE}" >&2)\n'
                    'rc=$?\nwait\nexit $rc\n')
        else:
            f.write(f'#!/bin/sh\nexec "{nm}" fio --no-save "$@"\n')
    os.chmod(path, 0o755)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("checkout", nargs="?", default="/var/tmp/fio-src")
    ap.add_argument("--nodemark", default=os.environ.get("NODEMARK") or
                    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "nodemark"))
    ap.add_argument("--fio", default=shutil.which("fio") or "fio")
    ap.add_argument("--only", nargs="*", type=int)
    ap.add_argument("--keep", action="store_true", help="keep the artifact directories")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds for each suite run")
    ap.add_argument("--job-limit", type=int, default=180,
                    help="seconds after which a test's job is taken as hung and killed")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.checkout, "t", "run-fio-tests.py")):
        sys.exit(f"fio-tests: no t/run-fio-tests.py in {a.checkout}")
    only = [n for n in JOB_TESTS if not a.only or n in a.only]
    nm = os.path.abspath(a.nodemark)
    # big files (t0002 writes at 4 GiB, t0006 4 GiB): keep them off a tmpfs /tmp
    tmp = tempfile.mkdtemp(prefix="nm-fio-tests.", dir=os.environ.get("TMPDIR", "/var/tmp"))
    try:
        root = fio_root(tmp, a.checkout, a.fio)
        os.makedirs(os.path.join(tmp, "bin"))
        os.makedirs(os.path.join(tmp, "quiet"))
        wrap, quiet = os.path.join(tmp, "bin", "fio"), os.path.join(tmp, "quiet", "fio")
        wrapper(wrap, nm, False)
        wrapper(quiet, nm, True)
        fres, ftook = run_suite(root, a.fio, os.path.join(tmp, "fio"), only, a.timeout, a.job_limit)
        nart = os.path.join(tmp, "nodemark")
        nres, ntook = run_suite(root, wrap, nart, only, a.timeout, a.job_limit)
        again = [n for n in only if notes_only(nres, nart, n)]
        qres = run_suite(root, quiet, os.path.join(tmp, "quiet-run"), again, a.timeout, a.job_limit)[0] if again else {}
        print(f"{'test':6} {'fio':8} {'nodemark':8} nodemark's failure (or why skipped)")
        both = fio_pass = noted = 0
        for n in only:
            fr, fwhy = fres.get(n, ("?", ""))
            nr, why = nres.get(n, ("?", ""))
            if n in again:  # failed on its notes alone: what fio's checks say without them
                q, qwhy = qres[n]
                notes = sorted({l[len(NOTE):] for l in stderr_lines(nart, n)})
                nr = "NOTES" if q == "PASSED" else "FAILED"
                why = ("passes with its notes set aside: " if q == "PASSED" else qwhy + "; notes: ") + "; ".join(notes)
                noted += fr == "PASSED" and q == "PASSED"
            elif nr == "FAILED":
                err = stderr_lines(nart, n)
                why = f"{why}: {err[0]}" if err else why
            if fr != "PASSED" and fwhy and (fr, fwhy) != (nr, why):
                why = f"(fio: {fwhy[:60]}) {why}"
            print(f"t{n:04d}  {fr:8} {nr:8} {why[:200]}")
            if fr == "PASSED":
                fio_pass += 1
                both += nr == "PASSED"
        print(f"\nfio's runner took {ftook:.0f} s with fio, {ntook:.0f} s with nodemark; tests 1000+ "
              f"(t/axmap, t/lfsr-test, t/stest, ... need fio's t/ programs built) not run")
        print(f"nodemark passes {both} of {fio_pass} job tests that fio passes here"
              + (f"; {noted} more fail only on nodemark's notes on stderr (NOTES)" if noted else ""))
        if a.keep:
            print(f"artifacts kept in {tmp}")
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
