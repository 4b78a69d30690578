/* The inputs of compare and report: each word names a file of JSON records, a file of Go
 * benchmark text, or a saved run.  A bare word that is both a file here and a saved run is an
 * error naming both ("./NAME" is the file, the run's id the run). */
#ifndef NM_CLI_COMPARE_INPUT_H
#define NM_CLI_COMPARE_INPUT_H

#include <stddef.h>

#include "export/comparetab.h"
#include "results/store.h"
#include "util/opt.h"

#define COMPARE_MAX_FILTERS 32

struct compare_inputs {
	struct ct_input *v;
	size_t n;
	struct record **owned;
	char **owned_names;
	size_t nowned;
};

/* 0, or -1 after printing a one-line error (bad file, unknown run, bad store). */
int compare_inputs_load(struct compare_inputs *ci, const char *const *words, size_t nwords, const char *db);
/* The same, plus every saved run that matches where (NULL: none), oldest first, after the
 * words; -1 too when where matches no run. */
int compare_inputs_load_where(struct compare_inputs *ci, const char *const *words, size_t nwords,
			      const struct store_filter *where, const char *db);

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

#endif
