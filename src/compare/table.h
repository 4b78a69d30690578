/* The tables of `nodemark compare` (and of the report), computed as benchstat does.
 *
 * Inputs are records (saved runs, JSON records, Go benchmark text read into records), each
 * with a display name.  Every sample is placed by three keys: the metric (one table per metric),
 * the row (the benchmark name, or --row KEY) and the column (the input, or --col KEY); samples
 * with the same keys pool.  Per cell: median and 95% CI; per cell after the first column: the
 * two-sided Mann-Whitney U test against the first column's cell in the same row (alpha 0.05);
 * per column: the geometric mean of the medians and of the ratios to the first column.
 *
 * A KEY is one of compare/keys.h's; a key that no input has is refused (naming those there
 * are), and two benchmarks of one input never pool into one cell (an error saying which).  A
 * benchmark without the key has the empty string. */
#ifndef NM_COMPARE_TABLE_H
#define NM_COMPARE_TABLE_H

#include <stddef.h>
#include <string.h>

#include "results/record.h"
#include "stats/mannwhitney.h"
#include "stats/summary.h"

#define CT_MAX_WARN 4

struct call;

struct ct_input {
	const struct record *r;
	const char *name;
};

struct ct_filter {
	const char *key;
	const char *pattern;    /* fnmatch(3) glob */
	int negate;             /* KEY!=PATTERN */
};

struct ct_opts {
	const char *col_key;    /* NULL: "input" */
	const char *row_key;    /* NULL: "name" */
	const struct ct_filter *filters;
	size_t nfilters;
	const char *const *metrics; /* fnmatch(3) globs: only these metrics' tables (NULL: all) */
	size_t nmetrics;
	int total_row;          /* a last row "total": each column's medians summed (steps of a job) */
	double alpha;           /* 0: 0.05 */
	double confidence;      /* 0: 0.95 */
};

struct ct_cell {
	double *v;
	size_t n, cap;
	struct summary sum;
	int has_cmp;            /* compared with the first column */
	double p;
	const char *warn[CT_MAX_WARN];  /* static strings or owned by the result */
	size_t nwarn;
	int is_total;           /* the total row's: sum.center/lo/hi are sums over the rows */
	const char *kind;       /* what it measures (its table's kind): owned by the input record */
	double ratio;           /* median / the first column's median in this row; NAN: none */
	const struct call *call; /* its verdict against the first column (compare/model.h), or NULL */
	const struct bench *from; /* the benchmark its last samples came from, of input from_input */
	size_t from_input;
};

struct ct_colsum {
	int has_gm, has_ratio;
	double gm, ratio;       /* ratio: the geomean of the row ratios over the common rows */
	size_t ncommon, nrows;  /* rows present in this column and the first; rows in either */
	const char *warn[CT_MAX_WARN];
	size_t nwarn;
};

struct ct_table {
	char *metric, *unit;
	int direction;
	char *kind;             /* what the rows measure (a suite phase, else the command) */
	int mixed_kinds;        /* rows of different kinds: no geomean across them */
	char **rows;
	size_t nrows;
	struct ct_cell **cells;     /* nrows * ncols; NULL where no samples */
	struct ct_colsum *sums;     /* ncols */
};

struct ct_result {
	char **cols;
	size_t ncols;
	struct ct_table **tables;
	size_t ntables;
	char **config_keys, **config_values;   /* tags the same in every input, for the header */
	size_t nconfig;
	double alpha;
	char *warn_pool[64];                    /* formatted warnings owned here */
	size_t nwarn_pool;
};

/* 0, or -1 with a message (no samples left after the filters, a bad key). */
int ct_build(const struct ct_input *in, size_t nin, const struct ct_opts *o, struct ct_result *out,
	     char *err, size_t errlen);
void ct_free(struct ct_result *res);

static inline struct ct_cell *ct_cell_at(const struct ct_result *res, const struct ct_table *t, size_t row,
					 size_t col)
{
	return t->cells[row * res->ncols + col];
}

#endif
