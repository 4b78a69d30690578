#!/usr/bin/env bash
# nodemark info against the hardware-info script people run today (lscpu + lsblk + findmnt +
# os-release), side by side in one hyperfine run; prints both medians and their ratio.
#
#   bench/info.sh [RUNS]        (default 30; needs hyperfine, and build/nodemark from `make`)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-30}
nm=build/nodemark
[ -x $nm ] || { echo "bench/info.sh: build nodemark first (make)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "bench/info.sh: hyperfine is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script='lscpu -J >/dev/null; lsblk -J -O >/dev/null; findmnt -J -T . >/dev/null; cat /etc/os-release >/dev/null'
hyperfine -N --warmup 3 --runs "$runs" --export-json "$tmp/h.json" \
    -n "nodemark info --json" "$nm info --json" \
    -n "lscpu+lsblk+findmnt" "sh -c '$script'" >/dev/null
python3 - "$tmp/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
a, b = r["nodemark info --json"], r["lscpu+lsblk+findmnt"]
for x in (a, b):
    print("%-22s median %6.1f ms  (min %5.1f, max %6.1f, n=%d)  cpu (user+sys, mean) %5.1f ms" % (
          x["command"], x["median"] * 1e3, x["min"] * 1e3, x["max"] * 1e3, len(x["times"]),
          (x["user"] + x["system"]) * 1e3))
print("ratio (script / nodemark): wall medians %.2fx, cpu %.2fx" % (b["median"] / a["median"],
      (b["user"] + b["system"]) / (a["user"] + a["system"])))
PY
