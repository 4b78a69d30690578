/* What every benchmarking command shares: the options that label and save a run,
 * and the last step (attach inventory, save, print the run id). */
#ifndef NM_CLI_RUN_OPTS_H
#define NM_CLI_RUN_OPTS_H

#include "results/record.h"
#include "cli/options.h"
#include "util/opt.h"

/* The same options for a command line that is no option table of ours (nodemark fio reads
 * fio's own): ids from 1000 up, its usage lines and run_opts_handle.  Every other command
 * takes them as rows of its table: CLI_RUN_OPTIONS below. */
enum {
	RUN_OPT_TAG = 1000,
	RUN_OPT_LABEL,
	RUN_OPT_NO_SAVE,
	RUN_OPT_DB,
};

#define RUN_OPT_SPECS                                                                   \
	{ "tag", OPT_ARG, RUN_OPT_TAG }, { "label", OPT_ARG, RUN_OPT_LABEL },            \
	{ "no-save", OPT_NOARG, RUN_OPT_NO_SAVE }, { "db", OPT_ARG, RUN_OPT_DB }

/* The help of these options, in both forms: lines for fio's help, rows of an option table. */
#define RUN_OPT_TAG_HELP "tag the saved run (repeatable), e.g. --tag fs=xfs"
#define RUN_OPT_LABEL_HELP "name the saved run, so it can be named later"
#define RUN_OPT_NO_SAVE_HELP "do not save the run in the results store"
#define DB_OPT_HELP_1 "the results store (default $NODEMARK_DB or"
#define DB_OPT_HELP_2 "$XDG_DATA_HOME/nodemark/results.db)"

/* --db, as a line of fio's help. */
#define DB_OPT_USAGE                                                                         \
	"  --db FILE           " DB_OPT_HELP_1 "\n"                                              \
	"                      " DB_OPT_HELP_2 "\n"

#define RUN_OPT_USAGE                                                                        \
	"  --tag KEY=VALUE     " RUN_OPT_TAG_HELP "\n"                                           \
	"  --label TEXT        " RUN_OPT_LABEL_HELP "\n"                                         \
	"  --no-save           " RUN_OPT_NO_SAVE_HELP "\n"                                       \
	DB_OPT_USAGE

struct run_opts {
	const char *label;
	const char *db;
	int no_save;
	char *tag_keys[64];
	char *tag_values[64];
	unsigned ntags;
};

/* Returns 1 when id was one of RUN_OPT_*, 0 otherwise; exits 2 on a bad value. */
int run_opts_handle(struct run_opts *o, int id, const struct opt_iter *it);

/* The same options as rows of an option table (cli/options.h) filling *ro. */
void run_opts_add_tag(const struct opt_iter *it, void *run_opts); /* --tag KEY=VALUE */
#define CLI_DB_OPTION(p)                                                                          \
	CLI_STRING("db", (p), .bad = "empty value: expected a file name",                          \
		   CLI_HELP("FILE", DB_OPT_HELP_1 "\n" DB_OPT_HELP_2))
/* --progress N and -q/--quiet: the progress lines (util/progress.h) */
void run_opts_progress(const struct opt_iter *it, void *unused);
void run_opts_quiet(const struct opt_iter *it, void *unused);
/* --color=auto|always|never (util/color.h), on every command that colours its output */
void run_opts_color(const struct opt_iter *it, void *unused);
#define CLI_COLOR_OPTION                                                                          \
	CLI_CALL("color", run_opts_color, NULL,                                                    \
		 CLI_HELP("WHEN", "auto (a terminal, unless $NO_COLOR is set), always or never"))
#define CLI_RUN_OPTIONS(ro)                                                                       \
	CLI_CALL("progress", run_opts_progress, NULL,                                              \
		 CLI_HELP("N", "without a terminal, a progress line every N s (default 10)")),      \
	CLI_CALL("quiet", run_opts_quiet, NULL, .alias = "q", .optional_value = 1,                 \
		 CLI_HELP(NULL, "no progress lines")),                                              \
	CLI_COLOR_OPTION,                                                                          \
	CLI_CALL("tag", run_opts_add_tag, (ro), CLI_HELP("KEY=VALUE", RUN_OPT_TAG_HELP)),          \
	CLI_STRING("label", &(ro)->label, .bad = "empty value: expected a name for the run",       \
		   CLI_HELP("TEXT", RUN_OPT_LABEL_HELP)),                                           \
	CLI_FLAG("no-save", &(ro)->no_save, CLI_HELP(NULL, RUN_OPT_NO_SAVE_HELP)),                 \
	CLI_DB_OPTION(&(ro)->db)
void run_opts_free(struct run_opts *o);

/* Label, tags and the inventory (for the directory `path`, NULL = ".") onto the record. */
void run_opts_apply(const struct run_opts *o, struct record *r, const char *path);

/* Save the record unless --no-save and say its id on stderr ("saved run 6a1f... "),
 * Returns 0, or -1 after printing why it could not be saved. */
int run_save(const struct run_opts *o, const struct record *r);

#endif
