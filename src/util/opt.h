/* A small command-line option iterator for subcommands.
 *
 *   static const struct opt_spec specs[] = {
 *       { "bs", OPT_ARG, OPT_BS }, { "json", OPT_NOARG, OPT_JSON }, { "o", OPT_ARG, OPT_OUT }, { 0 } };
 *   struct opt_iter it; opt_init(&it, argc, argv);
 *   for (int id; (id = opt_next(&it, specs)) != OPT_END;) switch (id) { ... it.arg ... }
 *
 * Accepts --name=value, --name value, -x value, -xvalue. A one-letter name is a short option.
 * A separate value that looks like an option ("--no-save", "--") is refused as a missing
 * value, so `--output --no-save` cannot write a file named "--no-save"; "-", "-1" and
 * "-x" still pass, and --output=--x gives such a value on purpose.
 * "--" ends options: opt_next returns OPT_DASHDASH once, then every later word as OPT_POSITIONAL
 * (a command that takes "-- CMD ARGS" uses it.argv + it.i instead).  An unknown option or a
 * missing value prints one line naming it (with the closest known option) and exits 2. */
#ifndef NM_UTIL_OPT_H
#define NM_UTIL_OPT_H

#include <stdint.h>

enum opt_has_arg { OPT_NOARG, OPT_ARG, OPT_OPTARG /* only as --name=value */ };

enum { OPT_END = -1, OPT_POSITIONAL = -2, OPT_DASHDASH = -3, OPT_HELP = -4 };

struct opt_spec {
	const char *name;
	enum opt_has_arg has_arg;
	int id; /* > 0 */
};

struct opt_iter {
	int argc;
	char **argv;
	int i;              /* next argv index to look at */
	const char *arg;    /* the value, or the positional word; NULL when none */
	const char *name;   /* the option as typed, without its value, for messages ("--bs") */
	char namebuf[72];
	int after_dashdash;
};

void opt_init(struct opt_iter *it, int argc, char **argv);
int opt_next(struct opt_iter *it, const struct opt_spec *specs);

/* Exit 2 with "<option>: <msg>": for a value that failed to parse. */
__attribute__((noreturn)) void opt_bad_value(const struct opt_iter *it, const char *msg);

/* The option's value parsed with util/parse.h; a bad value exits 2 naming the option. */
uint64_t opt_size(const struct opt_iter *it);
uint64_t opt_duration(const struct opt_iter *it);   /* a bare number is seconds */
uint64_t opt_count(const struct opt_iter *it, uint64_t min, uint64_t max);
/* The value split at commas into *n items (split_list; free with free_strv): an empty item, or
 * more than max ("at most MAX ITEMS"), exits 2 naming the option. */
char **opt_list(const struct opt_iter *it, int max, const char *items, int *n);
/* The value as a file to write later (util/atomicfile.h afile_check): a missing or read-only
 * directory exits 2 naming the option now, before anything is measured. */
const char *opt_output_file(const struct opt_iter *it);

/* "--" or "--" and a letter: the word is an option, not a separate option's value. */
int opt_is_option_word(const char *w);

/* Edit distance, for "did you mean" suggestions (also used for command names). */
int opt_edit_distance(const char *a, const char *b);

#endif
