#!/usr/bin/env python3
"""Records for the report's chart tests, with figures chosen so the charts' texts are known.
mkcharts.py disk ID LABEL SCALE: a CrystalDiskMark profile's 8 tests ("SEQ1M Q8T1 read", ...),
  bytes_per_sec = base * SCALE (SEQ1M Q8T1 read: 500 MB/s at SCALE 1) and iops = bytes / bs.
mkcharts.py time ID LABEL OFFSET [MAKE_S]: `time` runs of "sleep 0.2" and "make -j2" (0.9 s, or
  MAKE_S), 5 wall_s samples each (+OFFSET s): the samples +0, +0.01, +0.02, +0.03, +0.12 s."""
import json, sys

kind, rid, label, arg = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
benches = []
if kind == "disk":
    tests = [("SEQ1M Q8T1", "read", 1 << 20, 8, 500e6), ("SEQ1M Q8T1", "write", 1 << 20, 8, 400e6),
             ("SEQ1M Q1T1", "read", 1 << 20, 1, 300e6), ("SEQ1M Q1T1", "write", 1 << 20, 1, 250e6),
             ("RND4K Q32T1", "read", 4096, 32, 80e6), ("RND4K Q32T1", "write", 4096, 32, 60e6),
             ("RND4K Q1T1", "read", 4096, 1, 20e6), ("RND4K Q1T1", "write", 4096, 1, 40e6)]
    for name, rw, bs, qd, bw in tests:
        bw *= arg
        rwname = ("" if name.startswith("SEQ") else "rand") + rw
        benches.append({"name": "%s %s" % (name, rw),
                        "settings": {"rw": rwname, "bs": bs, "iodepth": qd, "numjobs": 1},
                        "metrics": [{"name": "bytes_per_sec", "unit": "B/s", "direction": "higher",
                                     "samples": [bw * 0.99, bw, bw * 1.01]},
                                    {"name": "iops", "unit": "op/s", "direction": "higher",
                                     "samples": [bw * 0.99 / bs, bw / bs, bw * 1.01 / bs]}],
                        "series": [], "hists": []})
    command = "disk"
else:
    command = "time"
    make_s = float(sys.argv[5]) if len(sys.argv) > 5 else 0.9
    for cmd, base in (("sleep 0.2", 0.2), ("make -j2", make_s)):
        benches.append({"name": cmd, "settings": {"command": cmd},
                        "metrics": [{"name": "wall_s", "unit": "s", "direction": "lower",
                                     "samples": [base + arg + d for d in (0.0, 0.01, 0.02, 0.03, 0.12)]}],
                        "series": [], "hists": []})
print(json.dumps({"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1700000300000,
                  "time": "", "host": "node1", "version": "0.1.0", "command": command,
                  "cmdline": "nodemark " + command, "label": label, "tags": {},
                  "inventory": None, "extra": {}, "benches": benches}))
