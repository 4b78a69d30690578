#!/usr/bin/env python3
"""Write a JSON record for the CLI tests: mkrecord.py ID TIME_MS HOST LABEL KEY=VALUE... -- BENCH=v1,v2,...
Metric "iops" (op/s, higher is better) per bench; values are the samples."""
import json, sys

args = sys.argv[1:]
rid, time_ms, host, label = args[0], int(args[1]), args[2], args[3]
tags, benches, rest = {}, [], args[4:]
while rest and rest[0] != "--":
    k, v = rest.pop(0).split("=", 1)
    tags[k] = v
for spec in rest[1:]:
    name, vals = spec.split("=", 1)
    benches.append({"name": name, "settings": {"bs": 4096},
                    "metrics": [{"name": "iops", "unit": "op/s", "direction": "higher",
                                 "samples": [float(x) for x in vals.split(",")]}],
                    "series": [{"name": "iops", "x_unit": "s", "y_unit": "op/s", "x": [1, 2, 3], "y": [10, 20, 15]}],
                    "hists": [{"name": "clat_read", "value_ns": [1000, 2000, 4000], "count": [5, 3, 1]}]})
print(json.dumps({"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": time_ms,
                  "time": "", "host": host, "version": "0.1.0", "command": "disk",
                  "cmdline": "nodemark disk /data", "label": label or None, "tags": tags,
                  "inventory": {"summary": host + " test machine"}, "extra": {}, "benches": benches}))
