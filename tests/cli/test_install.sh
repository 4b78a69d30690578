# serial: make install builds in the source tree
# make install / make uninstall into a DESTDIR: the binary, the man page, and the MPI binary
# when it was built; uninstall removes exactly what install wrote.
. "$TESTS_DIR/cli/lib.sh"

top=$(cd "$TESTS_DIR/.." && pwd)
build=$(cd "$(dirname "$NM")" && pwd)
dest=$PWD/dest
if ! command -v make >/dev/null; then
    skip "make install" "no make here"
    exit 0
fi
# BUILD names the tree the tests run from (build/ or build/asan/), so nothing is rebuilt; a
# tree older than the sources (edited while the tests run) would be rebuilt with the plain
# flags, into the binary the other scripts run: then the install is not tried
if ! make -q --no-print-directory -C "$top" BUILD="$build" "$build/nodemark" >/dev/null 2>&1; then
    skip "make install" "$build is older than the sources: make install would rebuild it"
    exit 0
fi
make -s --no-print-directory -C "$top" BUILD="$build" PREFIX=/usr DESTDIR="$dest" install >install.log 2>&1
rc=$?
expect_rc 0 "make install DESTDIR=... exits 0"
if [ -x "$dest/usr/bin/nodemark" ] && [ "$(stat -c %a "$dest/usr/bin/nodemark")" = 755 ]; then
    ok "install: bin/nodemark, mode 755"
else
    not_ok "install: bin/nodemark, mode 755" "$(ls -lR "$dest" 2>&1 | head -20)"
fi
if cmp -s "$NM" "$dest/usr/bin/nodemark"; then ok "install: the installed binary is the built one"; else not_ok "install: the installed binary is the built one"; fi
out=$("$dest/usr/bin/nodemark" --version 2>&1)
if [ "$out" = "$("$NM" --version 2>&1)" ] && [ -n "$out" ]; then ok "install: the installed binary runs ($out)"; else not_ok "install: the installed binary runs" "$out"; fi
if [ -f "$dest/usr/share/man/man1/nodemark.1" ] && grep -q '^\.TH NODEMARK' "$dest/usr/share/man/man1/nodemark.1"; then
    ok "install: share/man/man1/nodemark.1 is the man page"
else
    not_ok "install: share/man/man1/nodemark.1 is the man page" "$(head -3 "$dest/usr/share/man/man1/nodemark.1" 2>&1)"
fi
if [ -x "$build/nodemark-mpi" ]; then
    if cmp -s "$build/nodemark-mpi" "$dest/usr/bin/nodemark-mpi"; then ok "install: bin/nodemark-mpi, the built MPI binary"; else not_ok "install: bin/nodemark-mpi, the built MPI binary" "$(cat install.log)"; fi
else
    skip "install: bin/nodemark-mpi" "no MPI binary was built"
fi
# The completion scripts, where each shell looks for them, as `nodemark completion SHELL` writes them.
compl_ok=1
for f in bash:share/bash-completion/completions/nodemark zsh:share/zsh/vendor-completions/_nodemark \
    fish:share/fish/vendor_completions.d/nodemark.fish; do
    "$NM" completion "${f%%:*}" | cmp -s - "$dest/usr/${f#*:}" || compl_ok=0
done
if [ $compl_ok = 1 ]; then ok "install: the bash, zsh and fish completion scripts"; else not_ok "install: the bash, zsh and fish completion scripts" "$(cd "$dest" && find . -type f)"; fi
# Nothing but what install owns under DESTDIR.
extra=$(cd "$dest" && find . -type f | grep -v -x -e ./usr/bin/nodemark -e ./usr/bin/nodemark-mpi -e ./usr/share/man/man1/nodemark.1 \
    -e ./usr/share/bash-completion/completions/nodemark -e ./usr/share/zsh/vendor-completions/_nodemark \
    -e ./usr/share/fish/vendor_completions.d/nodemark.fish)
if [ -z "$extra" ]; then ok "install: writes only its own files"; else not_ok "install: writes only its own files" "$extra"; fi

make -s --no-print-directory -C "$top" BUILD="$build" PREFIX=/usr DESTDIR="$dest" uninstall >uninstall.log 2>&1
rc=$?
expect_rc 0 "make uninstall DESTDIR=... exits 0"
left=$(find "$dest" -type f)
if [ -z "$left" ]; then ok "uninstall removes every installed file"; else not_ok "uninstall removes every installed file" "$left"; fi
# A file beside ours is the user's: uninstall leaves it.
mkdir -p "$dest/usr/bin" && echo keep >"$dest/usr/bin/other"
make -s --no-print-directory -C "$top" BUILD="$build" PREFIX=/usr DESTDIR="$dest" uninstall >/dev/null 2>&1
if [ -f "$dest/usr/bin/other" ]; then ok "uninstall leaves other files in bin/"; else not_ok "uninstall leaves other files in bin/"; fi
