/* What every benchmarking command shares: the options that label and save a run,
 * and the last step (attach inventory, save, print the run id). */
#ifndef NM_CLI_RUN_OPTS_H
#define NM_CLI_RUN_OPTS_H

#include "results/record.h"
#include "util/opt.h"

/* Option ids from 1000 up, so commands can mix these into their own tables. */
enum {
	RUN_OPT_TAG = 1000,
	RUN_OPT_LABEL,
	RUN_OPT_NO_SAVE,
	RUN_OPT_DB,
};

#define RUN_OPT_SPECS                                                                   \
	{ "tag", OPT_ARG, RUN_OPT_TAG }, { "label", OPT_ARG, RUN_OPT_LABEL },            \
	{ "no-save", OPT_NOARG, RUN_OPT_NO_SAVE }, { "db", OPT_ARG, RUN_OPT_DB }

/* --db, shared by every command that reads or writes the store. */
#define DB_OPT_USAGE                                                                         \
	"  --db FILE           the results store (default $NODEMARK_DB or\n"                     \
	"                      $XDG_DATA_HOME/nodemark/results.db)\n"

#define RUN_OPT_USAGE                                                                        \
	"  --tag KEY=VALUE     tag the saved run (repeatable), e.g. --tag fs=xfs\n"              \
	"  --label TEXT        name the saved run, so it can be named later\n"                   \
	"  --no-save           do not save the run in the results store\n"                       \
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
void run_opts_free(struct run_opts *o);

/* Label, tags and the inventory (for the directory `path`, NULL = ".") onto the record. */
void run_opts_apply(const struct run_opts *o, struct record *r, const char *path);

/* Save the record unless --no-save and say its id on stderr ("saved run 6a1f... "),
 * Returns 0, or -1 after printing why it could not be saved. */
int run_save(const struct run_opts *o, const struct record *r);

#endif
