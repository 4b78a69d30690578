#!/usr/bin/env python3
"""Compare nodemark fio's JSON with real fio's for the same job: the key tree of every job
entry, the jobnames and groupids, and (size-based jobs) io_bytes and total_ios (of "read" and
"write" added up, and of unified_rw_reporting's "mixed").

  fio_compare.py FIO.json NODEMARK.json [--sizes | --bytes | --loose]   exit 0 when they agree, else says why

--bytes: io_bytes only (a block-size mix: how many I/Os make them up follows each tool's random
draws of the sizes).

--loose (time-based jobs): the bytes moved by each entry within a factor of 20 of fio's, and
in the same directions (a sanity check on the figures, not a benchmark).
"""
import json
import sys


def tree(o, path=""):
    """Every key path in o; percentile and bins keys are data, not schema."""
    out = set()
    if isinstance(o, dict):
        for k, v in o.items():
            p = path + "/" + k
            out.add(p)
            if k in ("percentile", "bins", "job options", "global options"):
                continue
            out |= tree(v, p)
    return out


def main():
    a = json.load(open(sys.argv[1]))
    b = json.load(open(sys.argv[2]))
    sizes = "--sizes" in sys.argv
    only_bytes = "--bytes" in sys.argv
    loose = "--loose" in sys.argv
    bad = []
    top_a, top_b = list(a), list(b)
    if top_a != top_b:
        bad.append("top-level keys differ: fio %s, nodemark %s" % (top_a, top_b))
    # disk_util: the same devices in the same order, each with the same keys (the counts are
    # the machine's, shared with everything else running)
    da, db = a.get("disk_util", []), b.get("disk_util", [])
    if [d["name"] for d in da] != [d["name"] for d in db]:
        bad.append("disk_util devices: fio %s, nodemark %s" % ([d["name"] for d in da], [d["name"] for d in db]))
    for x, y in zip(da, db):
        if list(x) != list(y):
            bad.append("disk_util %s: keys fio %s, nodemark %s" % (x["name"], list(x), list(y)))
    ja, jb = a["jobs"], b["jobs"]
    if len(ja) != len(jb):
        bad.append("fio reports %d job entries, nodemark %d" % (len(ja), len(jb)))
    for i, (x, y) in enumerate(zip(ja, jb)):
        if (x["jobname"], x["groupid"]) != (y["jobname"], y["groupid"]):
            bad.append("entry %d: fio %s/%d, nodemark %s/%d" % (i, x["jobname"], x["groupid"], y["jobname"], y["groupid"]))
        ta, tb = tree(x), tree(y)
        if ta != tb:
            bad.append("entry %d: keys only in fio %s; only in nodemark %s" % (i, sorted(ta - tb)[:6], sorted(tb - ta)[:6]))
        if x.get("job options") != y.get("job options"):
            bad.append("entry %d: job options fio %s, nodemark %s" % (i, x.get("job options"), y.get("job options")))
        if sizes or only_bytes:
            for f in ("io_bytes",) if only_bytes else ("io_bytes", "total_ios"):
                # a mixed job's split between reads and writes is random: compare the sum;
                # unified_rw_reporting's "mixed" (in place of them, or after them) alone
                sa = sum(x[d][f] for d in ("read", "write") if d in x)
                sb = sum(y[d][f] for d in ("read", "write") if d in y)
                if sa != sb:
                    bad.append("entry %d (%s): %s fio %d, nodemark %d" % (i, x["jobname"], f, sa, sb))
                if "mixed" in x and "mixed" in y and x["mixed"][f] != y["mixed"][f]:
                    bad.append("entry %d (%s): mixed %s fio %d, nodemark %d" % (i, x["jobname"], f, x["mixed"][f], y["mixed"][f]))
                if "read" in x and "read" in y and (x["read"][f] and not y["read"][f] or x["write"][f] and not y["write"][f]):
                    bad.append("entry %d (%s): %s directions differ" % (i, x["jobname"], f))
        if loose:
            for d in ("read", "write", "mixed"):
                if d not in x or d not in y:
                    continue
                fa, fb = x[d]["io_bytes"], y[d]["io_bytes"]
                if (fa == 0) != (fb == 0) or (fa and not 1 / 20 <= fb / fa <= 20):
                    bad.append("entry %d (%s): %s io_bytes fio %d, nodemark %d" % (i, x["jobname"], d, fa, fb))
    if a.get("global options") != b.get("global options"):
        bad.append("global options fio %s, nodemark %s" % (a.get("global options"), b.get("global options")))
    for m in bad:
        print(m)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
