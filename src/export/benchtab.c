#include "export/benchtab.h"
#include "export/texttab.h"
#include "stats/mannwhitney.h"
#include "stats/summary.h"
#include "util/gofloat.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void warn(struct bt_warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct bt_warnings *w, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (w->n < BT_MAX_WARN) {
		w->w[w->n] = strdup(buf);
		if (!w->w[w->n])
			abort();
		w->n++;
	}
}

static void warnings_free(struct bt_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->w[i]);
	w->n = 0;
}

/* ---- building ---- */

static size_t slot_of(const struct bt_table *t, const struct bp_key *row, const struct bp_key *col)
{
	uintptr_t h = ((uintptr_t)row * 31u) ^ ((uintptr_t)col * 1000003u);
	return (size_t)((h >> 4) % t->nslots);
}

static void rehash(struct bt_table *t)
{
	free(t->slots);
	t->nslots = t->nslots ? t->nslots * 2 : 64;
	t->slots = xcalloc(t->nslots, sizeof *t->slots);
	for (size_t i = 0; i < t->ncells; i++) {
		size_t s = slot_of(t, t->cells[i]->row, t->cells[i]->col);
		while (t->slots[s])
			s = (s + 1) % t->nslots;
		t->slots[s] = i + 1;
	}
}

static struct bt_cell *cell_for(struct bt_table *t, const struct bp_key *row, const struct bp_key *col)
{
	if (2 * (t->ncells + 1) > t->nslots)
		rehash(t);
	size_t s = slot_of(t, row, col);
	for (; t->slots[s]; s = (s + 1) % t->nslots) {
		struct bt_cell *c = t->cells[t->slots[s] - 1];
		if (c->row == row && c->col == col)
			return c;
	}
	if (t->ncells == t->cellcap) {
		t->cellcap = t->cellcap ? t->cellcap * 2 : 64;
		t->cells = xrealloc(t->cells, t->cellcap * sizeof *t->cells);
	}
	struct bt_cell *c = xcalloc(1, sizeof *c);
	c->row = row;
	c->col = col;
	t->cells[t->ncells++] = c;
	t->slots[s] = t->ncells;
	return c;
}

void bt_add(struct bt_builder *b, const struct bf_result *r)
{
	const struct bp_key *stack[64], **tkeys = r->nvalues <= 64 ? stack : xcalloc(r->nvalues, sizeof *tkeys);
	bp_project_values(b->table_by, r, tkeys);
	const struct bp_key *row = bp_project(b->row_by, r), *col = bp_project(b->col_by, r);
	const struct bp_key *res = bp_project(b->residue, r);
	for (size_t i = 0; i < r->nvalues; i++) {
		struct bt_table *t = NULL;
		for (size_t k = 0; k < b->ntables && !t; k++)
			if (b->tables[k]->key == tkeys[i])
				t = b->tables[k];
		if (!t) {
			b->tables = xrealloc(b->tables, (b->ntables + 1) * sizeof *b->tables);
			t = b->tables[b->ntables++] = xcalloc(1, sizeof *t);
			t->key = tkeys[i];
		}
		struct bt_cell *c = cell_for(t, row, col);
		if (c->n == c->cap) {
			c->cap = c->cap ? c->cap * 2 : 16;
			c->v = xrealloc(c->v, c->cap * sizeof *c->v);
		}
		c->v[c->n++] = r->values[i].value;
		size_t k;
		for (k = 0; k < c->nresidue && c->residue[k] != res; k++)
			;
		if (k == c->nresidue) {
			c->residue = xrealloc(c->residue, (c->nresidue + 1) * sizeof *c->residue);
			c->residue[c->nresidue++] = res;
		}
	}
	if (tkeys != stack)
		free(tkeys);
}

/* ---- summarizing ---- */

/* go-moremath's GeoMean: a running mean of the logs (the order of rounding shows in CSV). */
static double geomean(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double m = 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0 || isnan(x[i]))
			return NAN;
		m += (log(x[i]) - m) / (double)(i + 1);
	}
	return exp(m);
}

static void summarize_exact(struct bt_cell *c)
{
	double val = c->v[0], mode = val;
	size_t count = 1, mode_count = 1;
	for (size_t i = 1; i < c->n; i++) {
		if (c->v[i] == val) {
			if (++count > mode_count)
				mode = val, mode_count = count;
		} else {
			val = c->v[i];
			count = 1;
		}
	}
	c->center = mode;
	c->lo = c->v[0];
	c->hi = c->v[c->n - 1];
	if (mode_count != c->n) {
		char a[40], b[40];
		warn(&c->summary_warn, "exact distribution expected, but values range from %s to %s",
		     go_float(c->lo, a, sizeof a), go_float(c->hi, b, sizeof b));
	}
}

static void summarize_median(struct bt_cell *c, double confidence)
{
	struct summary s;
	char lvl[40];
	summary_median(c->v, c->n, confidence, &s);
	c->center = s.center;
	c->lo = s.lo;
	c->hi = s.hi;
	if (isinf(s.lo) || isinf(s.hi)) {
		size_t need = summary_min_samples(confidence);
		warn(&c->summary_warn, "need %s %zu samples for confidence interval at level %s", need > 50 ? ">" : ">=",
		     need > 50 ? (size_t)50 : need, go_float(confidence, lvl, sizeof lvl));
	}
}

static void compare(struct bt_cell *c, int exact, double alpha)
{
	const struct bt_cell *base = c->baseline;
	c->n1 = base->n;
	c->n2 = c->n;
	if (exact) {
		c->p = 0;
		c->alpha = 0;
		return;
	}
	struct mwu_result m;
	c->alpha = alpha;
	mwu_test(base->v, base->n, c->v, c->n, &m);
	if (m.all_equal) {
		c->p = 1;
		warn(&c->cmp_warn, "all samples are equal");
		return;
	}
	c->p = m.p;
	if (c->p > alpha) {
		size_t need;
		for (need = 1; need <= 9 && mwu_min_pvalue(need) > alpha; need++)
			;
		char a[40];
		if (c->n1 < need && c->n2 < need)
			warn(&c->cmp_warn, "need %s %zu samples to detect a difference at alpha level %s",
			     need > 9 ? ">" : ">=", need, go_float(alpha, a, sizeof a));
	}
}

static void residue_warning(struct bt_cell *c)
{
	struct bp_field *f[32];
	bp_sort_keys(c->residue, c->nresidue);
	size_t n = bp_nonsingular(c->residue, c->nresidue, f, 32);
	if (n == 0)
		return;
	char buf[512];
	size_t used = (size_t)snprintf(buf, sizeof buf, "benchmarks vary in ");
	for (size_t i = 0; i < n && used < sizeof buf; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", f[i]->name);
	warn(&c->sample_warn, "%s", buf);
}

static void summarize_col(struct bt_table *t, size_t col, size_t nbase)
{
	struct bt_sum *s = &t->sums[col];
	double *sums = xcalloc(t->nrows, sizeof *sums), *ratios = xcalloc(t->nrows, sizeof *ratios);
	size_t ns = 0, nr = 0;
	int bad_ratio = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		const struct bt_cell *c = bt_cell_at(t, r, col);
		if (!c)
			continue;
		sums[ns++] = c->center;
		if (!c->baseline)
			continue;
		double a = c->center, b = c->baseline->center;
		if (a == b)
			ratios[nr++] = 1;
		else if (b == 0)
			bad_ratio = 1, ratios[nr++] = 0;
		else
			ratios[nr++] = a / b;
	}
	if (col > 0 && nbase != nr)
		warn(&s->warn, "benchmark set differs from baseline; geomeans may not be comparable");
	double gm = geomean(sums, ns);
	if (isnan(gm))
		warn(&s->warn, "summaries must be >0 to compute geomean");
	else
		s->has_summary = 1, s->summary = gm;
	if (col > 0 && !bad_ratio) {
		gm = geomean(ratios, nr);
		if (isnan(gm))
			warn(&s->warn, "ratios must be >0 to compute geomean");
		else
			s->has_ratio = 1, s->ratio = gm;
	}
	free(sums);
	free(ratios);
}

static size_t key_index(const struct bp_key *const *keys, size_t n, const struct bp_key *k)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i] == k)
			return i;
	return n;
}

/* Distinct row and column keys of a table's cells, sorted. */
static void table_axes(struct bt_table *t)
{
	for (size_t i = 0; i < t->ncells; i++) {
		const struct bt_cell *c = t->cells[i];
		if (key_index(t->rows, t->nrows, c->row) == t->nrows) {
			t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
			t->rows[t->nrows++] = c->row;
		}
		if (key_index(t->cols, t->ncols, c->col) == t->ncols) {
			t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof *t->cols);
			t->cols[t->ncols++] = c->col;
		}
	}
	bp_sort_keys(t->rows, t->nrows);
	bp_sort_keys(t->cols, t->ncols);
}

static void finish_table(struct bt_builder *b, struct bt_table *t, const struct bf_set *units, double alpha,
			 double confidence)
{
	t->unit = bp_key_get(t->key, bp_unit_field(b->table_by));
	const char *assume = bf_unit_meta_get(units, t->unit, "assume");
	t->exact = assume && strcmp(assume, "exact") == 0;
	table_axes(t);
	struct bt_cell **grid = xcalloc(t->nrows * t->ncols, sizeof *grid);
	for (size_t i = 0; i < t->ncells; i++) {
		struct bt_cell *c = t->cells[i];
		grid[key_index(t->rows, t->nrows, c->row) * t->ncols + key_index(t->cols, t->ncols, c->col)] = c;
		stats_sort(c->v, c->n);
	}
	free(t->cells);
	free(t->slots);
	t->slots = NULL;
	t->cells = grid;
	size_t nbase = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		nbase += bt_cell_at(t, r, 0) != NULL;
		for (size_t col = 0; col < t->ncols; col++) {
			struct bt_cell *c = bt_cell_at(t, r, col);
			if (!c)
				continue;
			if (t->exact)
				summarize_exact(c);
			else
				summarize_median(c, confidence);
			if (col > 0 && (c->baseline = bt_cell_at(t, r, 0)))
				compare(c, t->exact, alpha);
			residue_warning(c);
		}
	}
	t->sums = xcalloc(t->ncols, sizeof *t->sums);
	for (size_t col = 0; col < t->ncols; col++)
		summarize_col(t, col, nbase);
}

void bt_finish(struct bt_builder *b, const struct bf_set *units, double alpha, double confidence)
{
	const struct bp_key **keys = xcalloc(b->ntables, sizeof *keys);
	struct bt_table **sorted = xcalloc(b->ntables, sizeof *sorted);
	for (size_t i = 0; i < b->ntables; i++)
		keys[i] = b->tables[i]->key;
	bp_sort_keys(keys, b->ntables);
	for (size_t i = 0; i < b->ntables; i++)
		for (size_t k = 0; k < b->ntables; k++)
			if (b->tables[k]->key == keys[i])
				sorted[i] = b->tables[k];
	free(b->tables);
	free(keys);
	b->tables = sorted;
	for (size_t i = 0; i < b->ntables; i++)
		finish_table(b, b->tables[i], units, alpha, confidence);
}

void bt_free(struct bt_builder *b)
{
	for (size_t i = 0; i < b->ntables; i++) {
		struct bt_table *t = b->tables[i];
		size_t n = t->sums ? t->nrows * t->ncols : t->ncells;
		for (size_t k = 0; k < n; k++) {
			struct bt_cell *c = t->cells[k];
			if (!c)
				continue;
			free(c->v);
			free(c->residue);
			warnings_free(&c->sample_warn);
			warnings_free(&c->summary_warn);
			warnings_free(&c->cmp_warn);
			free(c);
		}
		if (t->sums)
			for (size_t col = 0; col < t->ncols; col++)
				warnings_free(&t->sums[col].warn);
		free(t->cells);
		free(t->slots);
		free(t->sums);
		free(t->rows);
		free(t->cols);
		free(t);
	}
	free(b->tables);
	b->tables = NULL;
	b->ntables = 0;
}

static int sign(double v)
{
	return (v > 0) - (v < 0);
}

const char *bt_range_pct(const struct bt_cell *c, char *buf, size_t len)
{
	if (isinf(c->lo) || isinf(c->hi))
		snprintf(buf, len, "∞");
	else if (sign(c->center) != sign(c->lo) || sign(c->center) != sign(c->hi))
		snprintf(buf, len, "?");
	else if (c->center == 0)
		snprintf(buf, len, "0%%");
	else
		snprintf(buf, len, "%.0f%%", 100 * fmax(c->hi / c->center - 1, 1 - c->lo / c->center));
	return buf;
}

const char *bt_delta(const struct bt_cell *c, char *buf, size_t len)
{
	double old = c->baseline->center, new = c->center;
	return tt_delta(old, new, c->p, c->alpha, buf, len);
}

const char *bt_pn(const struct bt_cell *c, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (c->p != 0)
		used = (size_t)snprintf(buf, len, "p=%0.3f ", c->p);
	if (c->n1 == c->n2)
		snprintf(buf + used, len - used, "n=%zu", c->n1);
	else
		snprintf(buf + used, len - used, "n=%zu+%zu", c->n1, c->n2);
	return buf;
}
