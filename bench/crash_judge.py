#!/usr/bin/env python3
"""Judge one round of bench/crash_harness.sh: read `pieces verify --json`'s output and check it
against the store itself.

    crash_judge.py BACKEND LIVE CHECKED VERIFY_JSON VERIFY_ERR VERIFY_RC ACKED IN_FLIGHT ACKED_NAMES

LIVE is the store on the live file system when the run was stopped (the truth: every byte the
run wrote is there), CHECKED the store verify checked (LIVE itself after a SIGKILL, the copy after
a power cut). ACKED is the committed pieces counted on LIVE at the stop, ACKED_NAMES (files
backend) a file with their paths relative to the store, IN_FLIGHT how many of them may not have
been acknowledged yet.

Prints one line:
    verdict FOUND CORRUPT LOST WRONG [why]   verify gave a verdict; WRONG 1 when it is not right
    noverdict why                            verify gave none (no JSON, an unexpected exit code)
"""
import json
import os
import sys


def files_pieces(store):
    """Relative paths of every piece file (*.sj1) under STORE/blobs."""
    out = set()
    top = os.path.join(store, "blobs")
    for dirpath, _dirs, names in os.walk(top):
        for n in names:
            if n.endswith(".sj1"):
                out.add(os.path.relpath(os.path.join(dirpath, n), store))
    return out


def same_bytes(a, b):
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


def main():
    backend, live, checked, json_path, err_path, rc, acked, in_flight, names_path = sys.argv[1:10]
    rc, acked, in_flight = int(rc), int(acked), int(in_flight)
    with open(err_path, errors="replace") as f:
        err = f.read()
    if rc == 2 and "not a piece store" in err:
        # No store, or no PIECES marker in it (a power cut before the store's directory entry or
        # its marker reached the disk): verify rightly refuses it, and finds nothing.
        j = {"pieces": 0, "corrupt": 0, "missing": 0, "sound": False, "findings": []}
        rc = 1
    else:
        j = None
    try:
        if j is None:
            with open(json_path) as f:
                j = json.load(f)
        found, corrupt, sound = j["pieces"], j["corrupt"], j["sound"]
        findings = j["findings"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("noverdict verify's JSON cannot be read (exit %d): %s" % (rc, str(e).replace("\n", " ")))
        return
    if rc not in (0, 1):
        print("noverdict verify exited %d" % rc)
        return

    wrong = []
    # The exit code agrees with the report, and every corrupt piece is named.
    if (rc == 0) != bool(sound):
        wrong.append("exit %d but sound=%s" % (rc, sound))
    if (corrupt or j["missing"]) and sound:
        wrong.append("corrupt or missing pieces, yet sound")
    named = {f["path"] for f in findings if f.get("kind") == "corrupt"}
    if len(named) != corrupt:
        wrong.append("%d corrupt, %d named" % (corrupt, len(named)))

    lost = max(0, acked - in_flight - found)
    if backend == "files" and checked:
        # Independent of verify: the live store holds what the run wrote. A piece of the checked
        # store whose bytes differ from the live one is damaged and must be reported corrupt; one
        # whose bytes are the same must not be.
        pieces = files_pieces(checked)
        if found < len(pieces):
            wrong.append("%d piece files, verify counted %d" % (len(pieces), found))
        reported = {os.path.relpath(p, checked) for p in named if p.startswith(checked + "/")}
        if checked != live:
            damaged = {p for p in pieces if not same_bytes(os.path.join(checked, p), os.path.join(live, p))}
            missed, false_alarm = damaged - reported, (reported & pieces) - damaged
            if missed:
                wrong.append("%d damaged pieces not reported, e.g. %s" % (len(missed), sorted(missed)[0]))
            if false_alarm:
                wrong.append("%d intact pieces reported corrupt, e.g. %s" % (len(false_alarm), sorted(false_alarm)[0]))
        with open(names_path) as f:
            acked_names = {line.strip() for line in f if line.strip()}
        lost = max(lost, len(acked_names - pieces) - in_flight)
    print("verdict %d %d %d %d %s" % (found, corrupt, lost, 1 if wrong else 0, "; ".join(wrong)))


if __name__ == "__main__":
    main()
