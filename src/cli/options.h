/* Option tables that point at fields (git's parse-options): a command lists its options once,
 * each with where its value goes and its line of help, and cli_parse fills them; cli_help_print
 * writes the command's help from the same table.  No option ids, no switch.
 *
 *   static struct store_filter f; static int json;
 *   static const struct cli_option opts[] = {
 *       CLI_STRING("host", &f.host, CLI_HELP("NAME", "only runs from this host")),
 *       CLI_FLAG("json", &json, CLI_HELP(NULL, "print JSON")), CLI_END,
 *   };
 *   cli_parse("runs", argc, argv, opts, NULL, NULL);
 *
 * A table that help is written from lives at file scope, so the fields it points at are static
 * (a command runs once per process).  Values are parsed with util/opt.h (sizes, durations,
 * counts, output files), and a bad value, an unknown option or a missing value exits 2 with one
 * line naming the option, as opt_next does. */
#ifndef NM_CLI_OPTIONS_H
#define NM_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/opt.h"

enum cli_kind {
	CLI_KIND_END,
	CLI_KIND_FLAG,     /* int *: set to .set (1 for CLI_FLAG) */
	CLI_KIND_STRING,   /* const char **: the value, which may not be empty */
	CLI_KIND_TEXT,     /* const char **: the value, empty or not (a shell command, a filter) */
	CLI_KIND_SIZE,     /* uint64_t *: "4k", "1MiB", in [min, max] */
	CLI_KIND_DURATION, /* uint64_t *: nanoseconds, a bare number is seconds; in [min, max] */
	CLI_KIND_COUNT,    /* uint64_t *: a whole number in [min, max] */
	CLI_KIND_UINT,     /* unsigned *: a whole number in [min, max] */
	CLI_KIND_ENUM,     /* int * (an enum): the .set of the choice named, case aside */
	CLI_KIND_LIST,     /* const char **, room for .max: each use adds its value (repeatable) */
	CLI_KIND_OUTPUT,   /* const char **: a file to write later, its directory checked now */
	CLI_KIND_CALL,     /* call(it, value): for values with a shape of their own */
	CLI_KIND_WORDS,    /* words(it, value): a CALL that may take the words after its value
			    * too, advancing it->i (hyperfine's -P NAME MIN MAX) */
	CLI_KIND_REST,     /* char ***: the words after "--" (a command to run); not an option */
	CLI_KIND_NOTE,     /* a line of help that is no option of the table ("-h, --help") */
	CLI_KIND_SECTION,  /* a heading of help between groups of options ("Hooks:") */
};

/* The names CLI_KIND_ENUM accepts, ended by { NULL }. */
struct cli_choice {
	const char *name;
	int value;
};

struct cli_option {
	const char *name;
	const char *alias;  /* optional: a one-letter name too ("o": -o, --output) */
	enum cli_kind kind;
	void *value;
	uint64_t min, max;  /* SIZE, DURATION, COUNT, UINT: the range (max 0: none); LIST: room */
	int set;            /* FLAG: the value stored */
	int optional_value; /* CALL: --name alone or --name=VALUE (it->arg NULL when alone) */
	const struct cli_choice *choices;                     /* ENUM */
	void (*call)(const struct opt_iter *it, void *value); /* CALL; exits 2 on a bad value */
	void (*words)(struct opt_iter *it, void *value);      /* WORDS; the same */
	unsigned *count;    /* LIST: how many values it holds */
	int *seen;          /* optional: set to 1 when the option is given */
	/* The message for a value refused: STRING (or OUTPUT) empty, SIZE/DURATION below min,
	 * LIST full.  NULL: "empty value", "must be above <min>", "at most <max> values". */
	const char *bad;
	const char *arg;    /* help: what the value is ("SIZE"); "[=data]" for an optional one */
	const char *help;   /* help: lines separated by '\n' */
	/* help written by a layer below (an engine's flag: io_engine_flag_help), asked with the
	 * option's name when help is NULL; read through cli_option_help */
	const char *(*help_of)(const char *name);
};

/* o's help: help, else help_of(name), else NULL. */
const char *cli_option_help(const struct cli_option *o);

/* Each entry names the option and its field; what follows is optional designated fields:
 * CLI_HELP(arg, help) for its line of help, .alias, .seen, .bad, .min/.max (SIZE, DURATION). */
#define CLI_HELP(a, h) .arg = (a), .help = (h)
#define CLI_FLAG(n, p, ...) { .name = (n), .kind = CLI_KIND_FLAG, .value = (p), .set = 1, __VA_ARGS__ }
#define CLI_SET(n, p, v, ...) { .name = (n), .kind = CLI_KIND_FLAG, .value = (p), .set = (v), __VA_ARGS__ }
#define CLI_STRING(n, p, ...) { .name = (n), .kind = CLI_KIND_STRING, .value = (p), __VA_ARGS__ }
#define CLI_TEXT(n, p, ...) { .name = (n), .kind = CLI_KIND_TEXT, .value = (p), __VA_ARGS__ }
#define CLI_SIZE(n, p, ...) { .name = (n), .kind = CLI_KIND_SIZE, .value = (p), __VA_ARGS__ }
#define CLI_DURATION(n, p, ...) { .name = (n), .kind = CLI_KIND_DURATION, .value = (p), __VA_ARGS__ }
#define CLI_COUNT(n, p, lo, hi, ...)                                                                  \
	{ .name = (n), .kind = CLI_KIND_COUNT, .value = (p), .min = (lo), .max = (hi), __VA_ARGS__ }
#define CLI_UINT(n, p, lo, hi, ...)                                                                   \
	{ .name = (n), .kind = CLI_KIND_UINT, .value = (p), .min = (lo), .max = (hi), __VA_ARGS__ }
#define CLI_ENUM(n, p, ch, ...) { .name = (n), .kind = CLI_KIND_ENUM, .value = (p), .choices = (ch), __VA_ARGS__ }
#define CLI_LIST(n, p, cnt, room, ...)                                                                \
	{ .name = (n), .kind = CLI_KIND_LIST, .value = (p), .count = (cnt), .max = (room), __VA_ARGS__ }
#define CLI_OUTPUT(n, p, ...) { .name = (n), .kind = CLI_KIND_OUTPUT, .value = (p), __VA_ARGS__ }
#define CLI_CALL(n, fn, p, ...) { .name = (n), .kind = CLI_KIND_CALL, .value = (p), .call = (fn), __VA_ARGS__ }
#define CLI_WORDS(n, fn, p, ...) { .name = (n), .kind = CLI_KIND_WORDS, .value = (p), .words = (fn), __VA_ARGS__ }
#define CLI_REST(p) { .kind = CLI_KIND_REST, .value = (p) }
#define CLI_NOTE(left, h) { .name = (left), .kind = CLI_KIND_NOTE, .help = (h) }
#define CLI_SECTION(title) { .kind = CLI_KIND_SECTION, .help = (title) }
#define CLI_END { .kind = CLI_KIND_END }

/* 1 for a row that is an option (not the rest, a note, a section or the end). */
int cli_is_option(const struct cli_option *o);

/* Each positional word goes to positional(word, ctx), in order; with positional NULL a word is
 * a usage error ("<cmd> takes only options").  After "--" every word is positional, even one
 * that starts with a dash, unless the table has a CLI_REST: then the words after "--" are its
 * value (at least one, or "--: expected a command after it") and parsing ends there.
 * (--help is answered before a command runs: see cli/help.h.) */
void cli_parse(const char *cmd, int argc, char **argv, const struct cli_option *opts,
	       void (*positional)(const char *word, void *ctx), void *ctx);

/* The same table read with Go's flag syntax, for a command that speaks it (benchstat): one
 * dash or two before a whole name (-alpha 0.01, --alpha=0.01), flags end at the first word
 * that is none or after "--".  Errors are Go's ("flag provided but not defined: -x", "flag
 * needs an argument: -alpha"), one line, exit 2.  Returns the index of the first word after
 * the flags, or -1 when they ask for help (-h, -help). */
int cli_parse_go_flags(int argc, char **argv, const struct cli_option *opts);

/* The Options part of a command's help: a line per option, "  --name ARG" then its help from
 * the 23rd column (further lines of it indented as far); a section's title on its own line. */
void cli_options_print(FILE *out, const struct cli_option *opts);

/* A command's help written from its table: usage (up to and with "Options:\n"), the options,
 * then the rest (examples).  go_flags: with Go's spelling, "  -name ARG"
 * (cli_parse_go_flags). */
struct cli_help {
	const char *usage;
	const struct cli_option *options;
	const char *rest;
	int go_flags;
};
void cli_help_print(FILE *out, const struct cli_help *h);
char *cli_help_text(const struct cli_help *h); /* the same, malloc'd */

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
