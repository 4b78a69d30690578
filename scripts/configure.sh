#!/usr/bin/env bash
# Writes the build configuration (make syntax) to stdout: where BLAKE3's C sources are, the
# compiler and linker flags of the pkg-config packages, and whether mpicc is there. The Makefile
# runs it into build/config.mk after scripts/deps.sh has installed the packages, so a fresh
# machine gets a right configuration on the first `make`, not the second.
#
#   scripts/configure.sh PKG...      the pkg-config names of the libraries to link
set -u
mpicc=${MPICC:-mpicc}
missing=""

# The official BLAKE3 C implementation, shipped as source by Debian's librust-blake3-dev.
blake3=$(ls -d /usr/share/cargo/registry/blake3-*/c 2>/dev/null | sort -V | tail -n 1)
[ -n "$blake3" ] && [ -f "$blake3/blake3.h" ] || { blake3=""; missing="$missing librust-blake3-dev"; }

# pkg-config name -> the Debian package that ships it, for the error message.
debian_name() {
    case $1 in
    liburing) echo liburing-dev ;;
    jansson) echo libjansson-dev ;;
    sqlite3) echo libsqlite3-dev ;;
    libcrypto) echo libssl-dev ;;
    libpcre2-8) echo libpcre2-dev ;;
    *) echo "$1 (pkg-config)" ;;
    esac
}
if ! command -v pkg-config >/dev/null 2>&1; then
    missing="$missing pkg-config"
else
    for p in "$@"; do
        pkg-config --exists "$p" 2>/dev/null || missing="$missing $(debian_name "$p")"
    done
fi

echo "# Written by scripts/configure.sh; remade when the Makefile, the scripts or the installed packages change."
echo "BLAKE3_DIR := $blake3"
if [ -z "$missing" ]; then
    echo "PKG_CFLAGS := $(pkg-config --cflags "$@")"
    echo "PKG_LIBS := $(pkg-config --libs "$@")"
fi
echo "MISSING_PKGS :=$missing"
if command -v "$mpicc" >/dev/null 2>&1; then echo "HAVE_MPICC := 1"; else echo "HAVE_MPICC :="; fi
