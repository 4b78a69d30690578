#!/usr/bin/env bash
# Installs every package nodemark needs to build and test on Debian/Ubuntu.
# Idempotent and quiet: when everything is there it prints nothing and exits 0.
# As root it installs with apt-get; otherwise it prints the exact command and exits 1.
#
#   scripts/deps.sh          everything: the build, the tests, the benchmarks
#   scripts/deps.sh build    only what `make` needs to build nodemark
set -eu
mode=${1:-all}
case $mode in all | build) ;; *) echo "deps.sh: unknown argument '$mode' (expected: build)" >&2; exit 2 ;; esac

# Build: compiler toolchain, pkg-config and the libraries of docs/design.md.
BUILD_PKGS="build-essential pkg-config liburing-dev libssl-dev libjansson-dev libsqlite3-dev librust-blake3-dev libpcre2-dev"
# Tests and benchmarks: the reference tools we compare against (fio's plot tools need gnuplot),
# fuzzing, MPI, the browser for reports, zsh and fish (their completion scripts are tested).
# (fiologparser_hist.py's numpy and pandas are left to whoever has a fio checkout for that
# test: CI has neither, and the test says it skipped.)
TEST_PKGS="fio hyperfine b3sum openssl sqlite3 clang libclang-rt-14-dev libopenmpi-dev openmpi-bin
           chromium python3 python3-six util-linux coreutils procps valgrind strace ripgrep time bc
           gnuplot-nox zsh fish"

wanted=$BUILD_PKGS
[ "$mode" = all ] && wanted="$wanted $TEST_PKGS"
missing=""
for p in $wanted; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y -q --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "nodemark: missing packages:$missing" >&2
    echo "run as root:  apt-get update && $cmd" >&2
    exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Only refresh the package lists when they are missing or the first install attempt fails.
if ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1 || ! $cmd >/tmp/nodemark-deps.log 2>&1; then
    apt-get update -q >/tmp/nodemark-deps.log 2>&1
    $cmd >>/tmp/nodemark-deps.log 2>&1 || { tail -20 /tmp/nodemark-deps.log >&2; exit 1; }
fi
