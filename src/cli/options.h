/* Option tables that point at fields (git's parse-options): a command lists its options once,
 * each with where its value goes, and cli_parse fills them.  No option ids, no switch.
 *
 *   struct store_filter f = { 0 }; int json = 0; const char *db = NULL;
 *   const struct cli_option opts[] = {
 *       CLI_STRING("host", &f.host), CLI_FLAG("json", &json), CLI_STRING("db", &db), CLI_END,
 *   };
 *   cli_parse(argc, argv, opts, NULL, NULL);
 *
 * Values are parsed with util/opt.h (sizes, durations, counts, output files), and a bad value,
 * an unknown option or a missing value exits 2 with one line naming the option, as opt_next does. */
#ifndef NM_CLI_OPTIONS_H
#define NM_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "util/opt.h"

enum cli_kind {
	CLI_KIND_END,
	CLI_KIND_FLAG,     /* int *: set to 1 */
	CLI_KIND_STRING,   /* const char **: the value, which may not be empty */
	CLI_KIND_SIZE,     /* uint64_t *: "4k", "1MiB" */
	CLI_KIND_DURATION, /* uint64_t *: nanoseconds; a bare number is seconds */
	CLI_KIND_COUNT,    /* uint64_t *: a whole number in [min, max] */
	CLI_KIND_OUTPUT,   /* const char **: a file to write later, its directory checked now */
	CLI_KIND_CALL,     /* call(it, value): for values with a shape of their own */
};

struct cli_option {
	const char *name;
	enum cli_kind kind;
	void *value;
	uint64_t min, max;                                   /* CLI_KIND_COUNT */
	void (*call)(const struct opt_iter *it, void *value); /* CLI_KIND_CALL; exits 2 on a bad value */
};

#define CLI_FLAG(n, p) { .name = (n), .kind = CLI_KIND_FLAG, .value = (p) }
#define CLI_STRING(n, p) { .name = (n), .kind = CLI_KIND_STRING, .value = (p) }
#define CLI_SIZE(n, p) { .name = (n), .kind = CLI_KIND_SIZE, .value = (p) }
#define CLI_DURATION(n, p) { .name = (n), .kind = CLI_KIND_DURATION, .value = (p) }
#define CLI_COUNT(n, p, lo, hi) { .name = (n), .kind = CLI_KIND_COUNT, .value = (p), .min = (lo), .max = (hi) }
#define CLI_OUTPUT(n, p) { .name = (n), .kind = CLI_KIND_OUTPUT, .value = (p) }
#define CLI_CALL(n, fn, p) { .name = (n), .kind = CLI_KIND_CALL, .value = (p), .call = (fn) }
#define CLI_END { .kind = CLI_KIND_END }

/* Each positional word goes to positional(word, ctx), in order; with positional NULL a word is
 * a usage error ("<cmd> takes only options").  After "--" every word is positional, even one
 * that starts with a dash.  (--help is answered before a command runs: see cli/help.h.) */
void cli_parse(const char *cmd, int argc, char **argv, const struct cli_option *opts,
	       void (*positional)(const char *word, void *ctx), void *ctx);

/* The positional words in order, for a command that takes a list (names of runs, files):
 * pass cli_collect_word and a struct cli_words set up by cli_words_init(argc). */
struct cli_words {
	const char **v;
	size_t n;
};
void cli_words_init(struct cli_words *w, int argc);
void cli_collect_word(const char *word, void *words);
void cli_words_free(struct cli_words *w);

#endif
