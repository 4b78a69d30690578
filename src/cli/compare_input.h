/* The inputs of compare and report: each word names a file of JSON records, a file of Go
 * benchmark text, or a saved run.  A bare word that is both a file here and a saved run is an
 * error naming both ("./NAME" is the file, the run's id the run). */
#ifndef NM_CLI_COMPARE_INPUT_H
#define NM_CLI_COMPARE_INPUT_H

#include <stddef.h>

#include "compare/table.h"
#include "results/store.h"
#include "cli/options.h"
#include "util/opt.h"

#define COMPARE_MAX_FILTERS 32

struct compare_inputs {
	struct ct_input *v;
	size_t n;
	struct record **owned;
	char **owned_names;
	size_t nowned;
};

/* The runs the words name, then every saved run that matches where (NULL: none), oldest
 * first.  0, or -1 after printing a one-line error (bad file, unknown run, bad store, where
 * matching no run). */
int compare_inputs_load_where(struct compare_inputs *ci, const char *const *words, size_t nwords,
			      const struct store_filter *where, const char *db);
/* As above.  A bare "last" (or "last~N") means the newest run of the kind (command) of the runs
 * named beside it; runs of different kinds are refused unless mixed_kinds (report: a page of
 * several kinds' charts). */
int compare_inputs_load_kinds(struct compare_inputs *ci, const char *const *words, size_t nwords,
			      const struct store_filter *where, const char *db, int mixed_kinds);

/* --where KEY=VALUE into *where: KEY is host, label, command or a tag; repeatable (all must
 * hold). Exits 2 on a bad value or too many. */
void compare_where_add(struct store_filter *where, const struct opt_iter *it);

/* --metric GLOB into metrics[o->nmetrics++] (o->metrics = metrics); exits 2 when too many. */
void compare_metric_add(struct ct_opts *o, const char **metrics, const struct opt_iter *it);
void compare_inputs_free(struct compare_inputs *ci);

/* --filter KEY=GLOB or KEY!=GLOB into filters[o->nfilters++] (o->filters = filters);
 * exits 2 on a bad value or too many. */
void compare_filter_add(struct ct_opts *o, struct ct_filter *filters, const struct opt_iter *it);
void compare_filters_free(struct ct_opts *o);

/* What compare and report choose to show, and from which runs: the options they share, as
 * rows of an option table (cli/options.h) filling a struct compare_select. */
struct compare_select {
	struct ct_opts o;
	struct ct_filter filters[COMPARE_MAX_FILTERS];
	const char *metrics[COMPARE_MAX_FILTERS];
	struct store_filter where;
	int where_given;
	const char *db;
};
void compare_select_filter(const struct opt_iter *it, void *select); /* --filter */
void compare_select_where(const struct opt_iter *it, void *select);  /* --where */
void compare_select_metric(const struct opt_iter *it, void *select); /* --metric */

#define CLI_COMPARE_SELECT(s)                                                                        \
	CLI_STRING("col", &(s)->o.col_key,                                                           \
		   CLI_HELP("KEY", "columns by KEY instead of by input (e.g. host, label, a tag, a Go\n"   \
				   "configuration key such as goos, a setting such as bs, a parameter of\n" \
				   "time -P/-L, an inventory fact: kernel os fs device cpu virt)")), \
	CLI_STRING("row", &(s)->o.row_key, CLI_HELP("KEY", "rows by KEY instead of by benchmark name")),  \
	CLI_CALL("filter", compare_select_filter, (s),                                                \
		 CLI_HELP("KEY=GLOB", "keep only benchmarks whose KEY matches the glob; KEY!=GLOB drops them;\n" \
				      "repeatable (all must hold). Keys: as --col; a key no input has is an\n" \
				      "error naming those there are")),                              \
	CLI_CALL("where", compare_select_where, (s), .seen = &(s)->where_given,                       \
		 CLI_HELP("KEY=VALUE", "also every saved run whose host, label, command or tag KEY is VALUE\n" \
				       "(oldest first); repeatable (all must hold)")),               \
	CLI_CALL("metric", compare_select_metric, (s),                                                \
		 CLI_HELP("GLOB", "only the tables of metrics matching GLOB (e.g. 'lat_*'); repeatable")), \
	CLI_FLAG("total", &(s)->o.total_row,                                                          \
		 CLI_HELP(NULL, "a last row \"total\": each column's medians summed (the steps of a\n"    \
				"pipeline, one row per step)"))
#define CLI_COMPARE_DB(s)                                                                            \
	CLI_STRING("db", &(s)->db, .bad = "empty value: expected a file name",                        \
		   CLI_HELP("FILE", "the results store for run names (default $NODEMARK_DB or\n"          \
				    "$XDG_DATA_HOME/nodemark/results.db)"))

#endif
