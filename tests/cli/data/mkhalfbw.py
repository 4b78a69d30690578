# Two quiet runs of one hash bench, lbl-a.json and lbl-b.json in the current directory, 6 samples
# each of bandwidth and mean latency, the second at half the bandwidth (and twice the latency):
# for the checks that a metric is named in words with its units (test_compare, test_report).
import json
def rec(rid, label, scale):
    b = {"name": "hash/blake3/1t", "settings": {"phase": "hash"}, "series": [], "hists": [],
         "metrics": [{"name": "bytes_per_sec", "unit": "B/s", "direction": "higher",
                      "samples": [v * scale for v in [500e6, 505e6, 495e6, 502e6, 498e6, 501e6]]},
                     {"name": "lat_mean_ns", "unit": "ns", "direction": "lower",
                      "samples": [v / scale for v in [2.1e6, 2.0e6, 2.2e6, 2.05e6, 2.15e6, 2.1e6]]}]}
    quiet = {"busy": False, "other_busy_pct": 1.0, "steal_pct": 0.0}
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1796119242862, "host": "vm",
            "version": "0.1.0", "command": "run", "cmdline": "nodemark run", "label": label, "tags": {},
            "extra": {"run": {"dir": "/data", "mode": "default"}, "noise": {"hash": quiet}}, "benches": [b]}
json.dump(rec("6b0e0000000000a1", "lbl-a", 1.0), open("lbl-a.json", "w"))
json.dump(rec("6b0e0000000000a2", "lbl-b", 0.5), open("lbl-b.json", "w"))
