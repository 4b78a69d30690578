# The source and the build keep no dead weight: no public function without a caller
# (scripts/unused_functions.sh), and no main() in libnodemark.a (the spawner helper's
# spawner_main.c is its own program, not part of the library every binary links).
. "$TESTS_DIR/cli/lib.sh"

root=$(cd "$TESTS_DIR/.." && pwd)
script="$root/scripts/unused_functions.sh"

run_cmd "$script" "$root"
if [ "$rc" = 0 ] && [ -z "$out" ]; then ok "every public function has a caller"; else not_ok "every public function has a caller" "$out"; fi

# The script finds one: a header's function that nothing calls, beside one that is called
# (a comment naming a function does not count as a call).
scratch_dir
mkdir -p "$d/src/x"
printf 'int x_used(void);\nint x_dead(void);\n' >"$d/src/x/x.h"
printf '#include "x/x.h"\nint x_used(void) { return 1; }\nint x_dead(void) { return 2; } /* not x_dead() */\n' >"$d/src/x/x.c"
printf '#include "x/x.h"\nint main(void) { return x_used(); }\n' >"$d/src/x/main.c"
run_cmd "$script" "$d"
check "the script names a function without a caller" test "$rc:$out" = "1:src/x/x.h: x_dead"

lib="$(dirname "$NM")/libnodemark.a"
if [ ! -f "$lib" ]; then
    skip "libnodemark.a defines no main" "no $lib beside $NM"
elif ! command -v nm >/dev/null; then
    skip "libnodemark.a defines no main" "nm is not installed"
else
    mains=$(nm -A "$lib" 2>/dev/null | awk '$NF == "main" && $(NF-1) == "T"')
    if [ -z "$mains" ]; then ok "libnodemark.a defines no main"; else not_ok "libnodemark.a defines no main" "$mains"; fi
fi
