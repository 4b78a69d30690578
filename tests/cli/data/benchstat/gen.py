#!/usr/bin/env python3
"""Writes the inputs of tests/cli/test_benchstat.sh (deterministic; run once, outputs committed).

Each file stresses one thing benchstat does: ties and zero variance, unequal sample counts,
several units, configuration blocks that change mid-file, sub-benchmark keys, unit metadata,
syntax errors.  expected/ holds what the real benchstat printed for cases.txt."""
import random

rnd = random.Random(17)


def w(name, lines):
    with open(name, "w") as f:
        f.write("\n".join(lines) + "\n")


# Two machines, two notes each, several units, sub-benchmarks with size and algo keys.
for tag, speed in (("a", 1.0), ("b", 0.93)):
    out = ["goos: linux", "goarch: amd64", "pkg: example.com/hashes", "cpu: Example CPU @ 2.0GHz"]
    for note, extra in (("cold", 1.08), ("warm", 1.0)):
        out.append("note: " + note)
        for rep in range(8 if tag == "a" else 10):
            for algo in ("fnv", "crc", "xx"):
                for size in ("64", "1k", "16k", "1M"):
                    base = {"64": 20, "1k": 180, "16k": 2700, "1M": 170000}[size]
                    base *= {"fnv": 1.7, "crc": 1.0, "xx": 0.6}[algo] * speed * extra
                    ns = base * (1 + rnd.gauss(0, 0.02))
                    nbytes = {"64": 64, "1k": 1024, "16k": 16384, "1M": 1 << 20}[size]
                    mbs = nbytes / ns * 1e3
                    allocs = 0 if algo != "fnv" else 1
                    out.append(f"BenchmarkHash/algo={algo}/size={size}-8 \t{rnd.randint(1000, 90000)}\t"
                               f"{ns:.1f} ns/op\t{mbs:.2f} MB/s\t{allocs * 16} B/op\t{allocs} allocs/op")
    out += ["PASS", "ok  \texample.com/hashes\t12.3s"]
    w(f"hash-{tag}.txt", out)

# Ties and zero variance: every value equal, two values alternating, a constant zero.
out = ["goos: linux"]
for rep in range(6):
    out.append("BenchmarkConst-4   1000   500 ns/op   0 B/op")
    out.append(f"BenchmarkTies-4   1000   {500 if rep % 2 else 510} ns/op   8 B/op")
w("ties-old.txt", out)
out = ["goos: linux"]
for rep in range(6):
    out.append("BenchmarkConst-4   1000   500 ns/op   0 B/op")
    out.append(f"BenchmarkTies-4   1000   {510 if rep % 3 else 500} ns/op   8 B/op")
    out.append(f"BenchmarkNew-4   1000   {rnd.randint(100, 120)} ns/op   8 B/op")
w("ties-new.txt", out)

# Unequal n, too few samples, a benchmark missing on one side, a deleted configuration key,
# unit metadata, a custom unit, and lines benchfmt refuses.
out = ["goos: linux", "branch: main", "Unit frames assume=exact", "Unit ns/frame better=lower"]
for rep in range(3):
    out.append(f"BenchmarkSmall   {100 + rep}   {1000 + rep * 7} ns/op   60 frames   {16.6 + rep * 0.1:.1f} ns/frame")
for rep in range(12):
    out.append(f"BenchmarkMany/n=10   500   {2000 + rnd.randint(-40, 40)} ns/op")
out.append("branch:")
out.append("BenchmarkAfterDelete   10   1 ns/op")
out.append("BenchmarkBroken   x   1 ns/op")
out.append("BenchmarkNoUnit   10   1")
out.append("Unit frames assume=none")
w("uneven-old.txt", out)
out = ["goos: linux", "branch: dev"]
for rep in range(5):
    out.append(f"BenchmarkSmall   {100 + rep}   {900 + rep * 5} ns/op   60 frames   {15.1 + rep * 0.2:.1f} ns/frame")
for rep in range(20):
    out.append(f"BenchmarkMany/n=10   500   {1950 + rnd.randint(-40, 40)} ns/op")
    out.append(f"BenchmarkMany/n=100   50   {19500 + rnd.randint(-400, 400)} ns/op")
w("uneven-new.txt", out)
