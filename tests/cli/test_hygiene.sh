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

# An engine is its file in src/io/ and one line of the table: nothing outside io/ names one
# (its ops, an engine enum, its name where an engine is meant), and fio's front end names none
# of the engines' options (scripts/engines_outside_io.sh).
script="$root/scripts/engines_outside_io.sh"
run_cmd "$script" "$root"
if [ "$rc" = 0 ] && [ -z "$out" ]; then ok "nothing outside src/io/ names an engine or fio names an engine option"; else
    not_ok "nothing outside src/io/ names an engine or fio names an engine option" "$out"; fi

# The script finds each kind: an engine file with an option, and a front end that knows both.
scratch_dir
mkdir -p "$d/src/io" "$d/src/fio"
printf 'static const struct io_engine_option o[] = { { "depth", NULL, IO_EOPT_UINT }, { 0 } };\n%s\n' \
    'const struct io_engine_ops io_toy_ops = { .name = "toy", .fio_names = { "toyio", NULL }, .options = o };' \
    >"$d/src/io/toy.c"
printf '%s\n' 'int f(const char *engine) { return strcmp(engine, "toyio") == 0; }' \
    'const void *g(void) { return &io_toy_ops; }' 'enum io_engine_kind k;' 'const char *h = "depth";' \
    'void s(struct fio_job *j) { j->io.eopts.of = 0; }' >"$d/src/fio/x.c"
run_cmd "$script" "$d"
want='src/fio/x.c:1: names the engine "toyio"
src/fio/x.c:2: names the engine io_toy_ops
src/fio/x.c:3: an engine enum
src/fio/x.c:4: names the engine option "depth"
src/fio/x.c:5: sets io_job.eopts'
check "the script finds an engine named, an engine enum and an engine option outside io/" test "$rc:$out" = "1:$want"
