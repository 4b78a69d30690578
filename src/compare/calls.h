/* nodemark's calls next to benchstat's tables: for each row of a comparison of nodemark runs,
 * whether the change is one to act on (stats/verdict.h: quiet runs, enough samples, p <= alpha,
 * beyond the noise floor) or why it was not compared.  benchstat's tables are unchanged; the
 * calls are a section after them, built from the same cells, so `run`, `compare` and `report`
 * make the same calls about the same two runs.
 *
 * Calls are made when the columns are the inputs and the rows the benchmark names (the default
 * keys) and no input is Go benchmark text (benchstat's contract there is its own output). */
#ifndef NM_COMPARE_CALLS_H
#define NM_COMPARE_CALLS_H


#include "compare/table.h"
#include "stats/verdict.h"

struct call {
	const char *metric, *unit;      /* the table's */
	const char *row;                /* the benchmark */
	const char *phase;              /* its phase in a nodemark run, or NULL */
	size_t table, rowi;             /* its cell: tables[table], row rowi ... */
	size_t col;                     /* ... and column col, compared with column 0 */
	struct verdict v;
};

struct call_list {
	struct call *v;
	size_t n;
	const struct ct_result *res;
};

/* 0 with the calls in out (out->n may be 0: nothing to call, or keys/inputs where calls are not
 * made). */
void calls_build(const struct ct_input *in, size_t nin, const struct ct_opts *o, const struct ct_result *res,
		 struct call_list *out);
void calls_free(struct call_list *cl);

/* Counts by kind: calls (regression + improvement + changed), unchanged, not compared; metric
 * NULL: every metric. */
void calls_count(const struct call_list *cl, const char *metric, size_t *called, size_t *unchanged,
		 size_t *not_compared);

#endif
