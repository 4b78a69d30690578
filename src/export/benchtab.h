/* benchstat's tables (its internal benchtab package): results projected into tables (-table,
 * with the unit), rows (-row) and columns (-col); per cell the summary (median and confidence
 * interval, or the mode for units declared "assume=exact"), per cell after the first column the
 * comparison with the first column's cell of its row (Mann-Whitney U), per column the geomean
 * of the summaries and of the ratios to the base.  Warnings are kept with what they are about;
 * the renderers turn them into footnotes (text) or cell references on stderr (CSV). */
#ifndef NM_EXPORT_BENCHTAB_H
#define NM_EXPORT_BENCHTAB_H

#include <stddef.h>
#include <stdio.h>

#include "results/benchfmt.h"
#include "results/benchproc.h"

#define BT_MAX_WARN 6

struct bt_warnings {
	char *w[BT_MAX_WARN];
	size_t n;
};

struct bt_cell {
	const struct bp_key *row, *col;
	double *v;                  /* sorted once built */
	size_t n, cap;
	const struct bp_key **residue;
	size_t nresidue;
	double center, lo, hi;
	struct bt_warnings sample_warn, summary_warn;
	struct bt_cell *baseline;   /* the first column's cell in this row, if any */
	double p, alpha;
	size_t n1, n2;
	struct bt_warnings cmp_warn;
};

struct bt_sum {
	int has_summary, has_ratio;
	double summary, ratio;
	struct bt_warnings warn;
};

struct bt_table {
	const struct bp_key *key;
	const char *unit;
	int exact;                  /* Unit ... assume=exact */
	const struct bp_key **rows, **cols;
	size_t nrows, ncols;
	struct bt_cell **cells;     /* while building: every cell; then nrows * ncols, NULL where empty */
	size_t ncells, cellcap;
	size_t *slots, nslots;      /* (row, col) -> cell index + 1, while building */
	struct bt_sum *sums;        /* per column */
};

struct bt_builder {
	struct bp_projection *table_by, *row_by, *col_by, *residue;
	struct bt_table **tables;
	size_t ntables;
};

void bt_add(struct bt_builder *b, const struct bf_result *r);
/* Sorts and summarizes; alpha and confidence as benchstat's -alpha and -confidence. */
void bt_finish(struct bt_builder *b, const struct bf_set *units, double alpha, double confidence);
void bt_free(struct bt_builder *b);

static inline struct bt_cell *bt_cell_at(const struct bt_table *t, size_t row, size_t col)
{
	return t->cells[row * t->ncols + col];
}

/* benchstat's texts: "± 3%" range, "-4.62%" / "~" / "?" delta, "p=0.008 n=10". */
const char *bt_range_pct(const struct bt_cell *c, char *buf, size_t len);
const char *bt_delta(const struct bt_cell *c, char *buf, size_t len);
const char *bt_pn(const struct bt_cell *c, char *buf, size_t len);

/* Renderers (export/benchtab_out.c). */
void bt_write_text(FILE *f, struct bt_builder *b);
void bt_write_csv(FILE *out, FILE *warnings, struct bt_builder *b);

#endif
