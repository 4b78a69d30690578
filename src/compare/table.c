#include "compare/table.h"
#include "compare/keys.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* KEY's value (malloc'd), "" when the benchmark has none. */
static char *value_or_empty(const struct ct_input *in, const struct bench *b, const char *key)
{
	char *v = key_value(in, b, key);
	return v ? v : xstrdup("");
}

/* KEY's spelling (malloc'd), its value when it has no other. */
static char *spelling_or(const struct ct_input *in, const struct bench *b, const char *key, const char *value)
{
	char *l = key_spelling(in, b, key);
	return l ? l : xstrdup(value);
}

static int metric_wanted(const struct ct_opts *o, const char *name)
{
	if (!o->nmetrics)
		return 1;
	for (size_t i = 0; i < o->nmetrics; i++)
		if (fnmatch(o->metrics[i], name, 0) == 0)
			return 1;
	return 0;
}

static int passes(const struct ct_input *in, const struct bench *b, const struct ct_opts *o)
{
	for (size_t i = 0; i < o->nfilters; i++) {
		char *v = value_or_empty(in, b, o->filters[i].key);
		int match = fnmatch(o->filters[i].pattern, v, 0) == 0;
		free(v);
		if (!match && (v = key_spelling(in, b, o->filters[i].key))) { /* bs=4k as bs=4096 */
			match = fnmatch(o->filters[i].pattern, v, 0) == 0;
			free(v);
		}
		if (match == o->filters[i].negate)
			return 0;
	}
	return 1;
}

/* A warning text kept once in the result; returns the pooled copy. */
static const char *pool(struct ct_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *pool(struct ct_result *res, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < res->nwarn_pool; i++)
		if (strcmp(res->warn_pool[i], buf) == 0)
			return res->warn_pool[i];
	if (res->nwarn_pool == sizeof res->warn_pool / sizeof res->warn_pool[0])
		return "(more warnings)";
	return res->warn_pool[res->nwarn_pool++] = xstrdup(buf);
}

static void add_warn(const char **warn, size_t *n, const char *w)
{
	if (*n < CT_MAX_WARN)
		warn[(*n)++] = w;
}

/* A column: found by the key's value, shown as first spelled (key_spelling); ids beside cols. */
static size_t col_index(struct ct_result *out, char ***ids, const char *id, const char *label)
{
	for (size_t i = 0; i < out->ncols; i++)
		if (strcmp((*ids)[i], id) == 0)
			return i;
	*ids = xrealloc(*ids, (out->ncols + 1) * sizeof **ids);
	(*ids)[out->ncols] = xstrdup(id);
	out->cols = xrealloc(out->cols, (out->ncols + 1) * sizeof *out->cols);
	out->cols[out->ncols] = xstrdup(label);
	return out->ncols++;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A row as the column is: its id (the key's value) finds it, its label (the spelling) is shown;
 * with numbers for all rows (a setting such as bs), the rows are put in their order. */
struct row_key {
	char *id, *label; /* malloc'd */
	int has_num;
	double num;
};

struct table_builder {
	struct ct_table *t;
	size_t rows_cap;
	char **ids;
	double *num;
	int all_num;
};

static struct ct_cell *cell_for(struct table_builder *tb, size_t ncols, const struct row_key *row, size_t col)
{
	struct ct_table *t = tb->t;
	size_t r;
	for (r = 0; r < t->nrows; r++)
		if (strcmp(tb->ids[r], row->id) == 0)
			break;
	if (r == t->nrows) {
		if (t->nrows == tb->rows_cap) {
			tb->rows_cap = tb->rows_cap ? tb->rows_cap * 2 : 8;
			t->rows = xrealloc(t->rows, tb->rows_cap * sizeof *t->rows);
			t->cells = xrealloc(t->cells, tb->rows_cap * ncols * sizeof *t->cells);
			tb->ids = xrealloc(tb->ids, tb->rows_cap * sizeof *tb->ids);
			tb->num = xrealloc(tb->num, tb->rows_cap * sizeof *tb->num);
		}
		if (!t->nrows)
			tb->all_num = 1;
		tb->all_num &= row->has_num;
		tb->num[t->nrows] = row->num;
		tb->ids[t->nrows] = xstrdup(row->id);
		t->rows[t->nrows] = xstrdup(row->label);
		memset(&t->cells[t->nrows * ncols], 0, ncols * sizeof *t->cells);
		t->nrows++;
	}
	struct ct_cell **c = &t->cells[r * ncols + col];
	if (!*c) {
		*c = calloc(1, sizeof **c);
		if (!*c)
			abort();
	}
	return *c;
}

static void cell_add(struct ct_cell *c, double v)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->v = xrealloc(c->v, c->cap * sizeof *c->v);
	}
	c->v[c->n++] = v;
}

/* benchstat's advice when a sample cannot show a difference: the smallest n with
 * 2 / C(2n, n) <= alpha (4 at 0.05). */
static const char *utest_advice(struct ct_result *res, double alpha)
{
	for (size_t n = 1; n <= 9; n++)
		if (mwu_min_pvalue(n) <= alpha)
			return pool(res, "need >= %zu samples to detect a difference at alpha level %g", n, alpha);
	return pool(res, "need > 9 samples to detect a difference at alpha level %g", alpha);
}

/* Each cell's median and interval, and beside the baseline column the U test, with benchstat's
 * warnings. */
static void summarize_cells(struct ct_result *res, struct ct_table *t, double confidence)
{
	size_t nc = res->ncols;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < nc; c++) {
			struct ct_cell *cell = t->cells[r * nc + c];
			if (!cell)
				continue;
			summary_median(cell->v, cell->n, confidence, &cell->sum);
			if (isinf(cell->sum.lo) || isinf(cell->sum.hi)) {
				size_t need = summary_min_samples(confidence);
				add_warn(cell->warn, &cell->nwarn,
					 pool(res, "need %s %zu samples for confidence interval at level %g",
					      need > 50 ? ">" : ">=", need > 50 ? (size_t)50 : need, confidence));
			}
			struct ct_cell *base = t->cells[r * nc];
			cell->ratio = NAN;
			if (c == 0 || !base)
				continue;
			if (base->sum.center > 0)
				cell->ratio = cell->sum.center / base->sum.center;
			struct mwu_result m;
			mwu_test(base->v, base->n, cell->v, cell->n, &m);
			cell->has_cmp = 1;
			cell->p = m.p;
			if (m.all_equal) {
				add_warn(cell->warn, &cell->nwarn, pool(res, "all samples are equal"));
			} else if (m.p > res->alpha) {
				size_t need = 1;
				while (need <= 9 && mwu_min_pvalue(need) > res->alpha)
					need++;
				if (base->n < need && cell->n < need)
					add_warn(cell->warn, &cell->nwarn, utest_advice(res, res->alpha));
			}
		}
}

/* 1 when every column has row r (the geomean's common set). */
static int row_in_every_column(const struct ct_result *res, const struct ct_table *t, size_t r)
{
	for (size_t c = 0; c < res->ncols; c++)
		if (!t->cells[r * res->ncols + c])
			return 0;
	return 1;
}

/* Per column the geomean of the medians and of the ratios to the baseline column, both over
 * the rows every column has: a geomean over different sets of benchmarks compares nothing. */
static void summarize_columns(struct ct_result *res, struct ct_table *t)
{
	size_t nc = res->ncols;
	t->sums = calloc(nc, sizeof *t->sums);
	if (!t->sums)
		abort();
	if (t->mixed_kinds) {
		/* A mean over memory, hash and disk bandwidths means nothing: leave it out. */
		for (size_t c = 0; c < nc; c++)
			add_warn(t->sums[c].warn, &t->sums[c].nwarn,
				 pool(res, "no geomean: the rows measure different things"));
		return;
	}
	size_t ncommon = 0;
	for (size_t r = 0; r < t->nrows; r++)
		ncommon += row_in_every_column(res, t, r);
	double *centers = xrealloc(NULL, (t->nrows + 1) * sizeof *centers);
	double *ratios = xrealloc(NULL, (t->nrows + 1) * sizeof *ratios);
	for (size_t c = 0; c < nc; c++) {
		struct ct_colsum *s = &t->sums[c];
		size_t ncenter = 0, nratio = 0;
		int bad_ratio = 0;
		s->ncommon = ncommon;
		s->nrows = t->nrows;
		if (ncommon < t->nrows)
			add_warn(s->warn, &s->nwarn,
				 pool(res, "geomean over the %zu of %zu benchmarks that every column has", ncommon,
				      t->nrows));
		if (!ncommon)
			continue;
		for (size_t r = 0; r < t->nrows; r++) {
			if (!row_in_every_column(res, t, r))
				continue;
			struct ct_cell *cell = t->cells[r * nc + c], *base = t->cells[r * nc];
			centers[ncenter++] = cell->sum.center;
			if (c == 0)
				continue;
			double a = cell->sum.center, b = base->sum.center;
			if (a == b)
				ratios[nratio++] = 1;
			else if (b == 0)
				bad_ratio = 1, ratios[nratio++] = 0;
			else
				ratios[nratio++] = a / b;
		}
		s->gm = stats_geomean(centers, ncenter);
		if (isnan(s->gm))
			add_warn(s->warn, &s->nwarn, pool(res, "summaries must be >0 to compute geomean"));
		else
			s->has_gm = 1;
		if (c > 0 && !bad_ratio) {
			s->ratio = stats_geomean(ratios, nratio);
			if (isnan(s->ratio))
				add_warn(s->warn, &s->nwarn, pool(res, "ratios must be >0 to compute geomean"));
			else
				s->has_ratio = 1;
		}
	}
	free(centers);
	free(ratios);
}

static void summarize(struct ct_result *res, struct ct_table *t, double confidence)
{
	summarize_cells(res, t, confidence);
	summarize_columns(res, t);
}

/* A last row "total" (after the geomean is taken, so it is not part of it): per column the
 * sum of the rows' medians, the interval the sums of their bounds; a column missing a row has
 * none. */
static void add_total_row(struct ct_result *res, struct ct_table *t)
{
	size_t nc = res->ncols, r = t->nrows;
	t->rows = xrealloc(t->rows, (r + 1) * sizeof *t->rows);
	t->rows[r] = xstrdup("total");
	t->cells = xrealloc(t->cells, (r + 1) * nc * sizeof *t->cells);
	for (size_t c = 0; c < nc; c++) {
		struct ct_cell *cell = calloc(1, sizeof *cell);
		if (!cell)
			abort();
		cell->is_total = 1;
		for (size_t k = 0; k < r && cell; k++) {
			const struct ct_cell *x = t->cells[k * nc + c];
			if (!x) {
				free(cell);
				cell = NULL;
				break;
			}
			cell->sum.center += x->sum.center;
			cell->sum.lo += x->sum.lo;
			cell->sum.hi += x->sum.hi;
			cell->sum.n += x->sum.n;
		}
		t->cells[r * nc + c] = cell;
	}
	t->nrows++;
}

/* Tags with the same value in every input (and not used as a key) head the output. */
static void common_config(struct ct_result *res, const struct ct_input *in, size_t nin, const struct ct_opts *o)
{
	const struct record *r0 = in[0].r;
	for (size_t i = 0; i < r0->ntags; i++) {
		const char *k = r0->tag_keys[i], *v = r0->tag_values[i];
		int same = 1;
		if ((o->col_key && strcmp(o->col_key, k) == 0) || (o->row_key && strcmp(o->row_key, k) == 0))
			continue;
		for (size_t j = 1; j < nin && same; j++) {
			const char *w = record_tag(in[j].r, k);
			same = w && strcmp(w, v) == 0;
		}
		if (!same)
			continue;
		res->config_keys = xrealloc(res->config_keys, (res->nconfig + 1) * sizeof *res->config_keys);
		res->config_values = xrealloc(res->config_values, (res->nconfig + 1) * sizeof *res->config_values);
		res->config_keys[res->nconfig] = xstrdup(k);
		res->config_values[res->nconfig++] = xstrdup(v);
	}
}

/* The table of a metric and unit (made on first sight; tbs grows beside out->tables), with the
 * kind of figure it holds: a table of mixed kinds gets no geomean. */
static size_t table_for(struct ct_result *out, struct table_builder **tbs, const struct metric *mt, const char *kind)
{
	size_t t;
	for (t = 0; t < out->ntables; t++)
		if (strcmp(out->tables[t]->metric, mt->name) == 0 && strcmp(out->tables[t]->unit, mt->unit) == 0)
			break;
	if (t == out->ntables) {
		out->tables = xrealloc(out->tables, (t + 1) * sizeof *out->tables);
		*tbs = xrealloc(*tbs, (t + 1) * sizeof **tbs);
		out->tables[t] = calloc(1, sizeof **out->tables);
		if (!out->tables[t])
			abort();
		out->tables[t]->metric = xstrdup(mt->name);
		out->tables[t]->unit = xstrdup(mt->unit);
		out->tables[t]->direction = mt->direction;
		(*tbs)[t] = (struct table_builder){ out->tables[t], 0, NULL, NULL, 0 };
		out->ntables++;
	}
	if (!out->tables[t]->kind)
		out->tables[t]->kind = xstrdup(kind);
	else if (strcmp(out->tables[t]->kind, kind) != 0)
		out->tables[t]->mixed_kinds = 1;
	return t;
}

/* A cell whose samples were all NaN holds nothing: drop it. */
static void drop_empty_cells(struct ct_result *out)
{
	for (size_t t = 0; t < out->ntables; t++)
		for (size_t i = 0; i < out->tables[t]->nrows * out->ncols; i++) {
			struct ct_cell *c = out->tables[t]->cells[i];
			if (c && c->n == 0) {
				free(c->v);
				free(c);
				out->tables[t]->cells[i] = NULL;
			}
		}
}

/* A key no input has is refused, naming the keys there are: projecting over it would pool
 * every benchmark into one blank row or column. */
static int check_key(const struct ct_input *in, size_t nin, const char *opt, const char *key, char *err,
		     size_t errlen)
{
	if (!key || keys_known(in, nin, key))
		return 0;
	char have[640];
	keys_list(in, nin, have, sizeof have);
	return nm_errf(err, errlen, "%s %s: no input has this key; keys: %s", opt, key, have);
}

static int check_keys(const struct ct_input *in, size_t nin, const struct ct_opts *o, char *err, size_t errlen)
{
	if (check_key(in, nin, "--col", o->col_key, err, errlen) < 0 ||
	    check_key(in, nin, "--row", o->row_key, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < o->nfilters; i++)
		if (check_key(in, nin, "--filter", o->filters[i].key, err, errlen) < 0)
			return -1;
	return 0;
}

/* The row of benchmark b: its name (as the user named it, or its command as written when the
 * columns are one of its parameters), or the value of --row (found by its value, shown as
 * spelled, ordered by its number where it has one). */
static void row_of(const struct ct_input *in, const struct bench *b, const struct ct_opts *o, struct row_key *rk)
{
	*rk = (struct row_key){ 0 };
	if (o->row_key) {
		rk->id = value_or_empty(in, b, o->row_key);
		rk->label = spelling_or(in, b, o->row_key, rk->id);
		rk->has_num = key_number(in, b, o->row_key, &rk->num);
	} else {
		rk->id = key_row_name(b, o->col_key);
		rk->label = xstrdup(rk->id);
	}
}

/* The rows and columns that benchmarks of one input took so far (rows by their names). */
struct placed {
	size_t col;
	char *id;
};

/* Rows by the benchmarks' names: the K-th benchmark of an input with this row's name in one
 * column (two fio jobs named x, a test per target of disk --turns, an imported record) has a
 * row of its own, "x #2", paired with the K-th of that name in the other inputs, rather than
 * pooling with the first or being refused.  The id (never shown) is the name, '\n' and K: read
 * from its last '\n', no two (name, K) pairs share one. */
static void number_row(struct row_key *rk, size_t col, struct placed **seen, size_t *nseen)
{
	size_t k = 1;
	for (size_t i = 0; i < *nseen; i++)
		k += (*seen)[i].col == col && strcmp((*seen)[i].id, rk->id) == 0;
	*seen = xrealloc(*seen, (*nseen + 1) * sizeof **seen);
	(*seen)[(*nseen)++] = (struct placed){ col, xstrdup(rk->id) };
	struct strbuf id, label;
	sb_init(&id);
	sb_init(&label);
	sb_printf(&id, "%s\n%zu", rk->id, k);
	sb_puts(&label, rk->label);
	if (k > 1)
		sb_printf(&label, " #%zu", k);
	free(rk->id);
	free(rk->label);
	rk->id = sb_detach(&id);
	rk->label = sb_detach(&label);
}

static void free_placed(struct placed *seen, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(seen[i].id);
	free(seen);
}

/* The column of benchmark b (found by its value, shown as first spelled), made on first sight. */
static size_t col_of(const struct ct_input *in, const struct bench *b, const char *key, struct ct_result *out,
		     char ***ids)
{
	char *id = value_or_empty(in, b, key), *label = spelling_or(in, b, key, id);
	size_t col = col_index(out, ids, id, label);
	free(id);
	free(label);
	return col;
}

/* The rows in their numbers' order (4k, 64k, 1m), where every row has one; stable. */
static void order_rows(struct table_builder *tb, size_t ncols)
{
	struct ct_table *t = tb->t;
	if (!tb->all_num || t->nrows < 2)
		return;
	for (size_t i = 1; i < t->nrows; i++)
		for (size_t j = i; j > 0 && tb->num[j - 1] > tb->num[j]; j--) {
			double n = tb->num[j];
			tb->num[j] = tb->num[j - 1];
			tb->num[j - 1] = n;
			char *r = t->rows[j];
			t->rows[j] = t->rows[j - 1];
			t->rows[j - 1] = r;
			for (size_t c = 0; c < ncols; c++) {
				struct ct_cell *x = t->cells[j * ncols + c];
				t->cells[j * ncols + c] = t->cells[(j - 1) * ncols + c];
				t->cells[(j - 1) * ncols + c] = x;
			}
		}
}

static void free_builders(struct table_builder *tbs, size_t n)
{
	for (size_t t = 0; t < n; t++) {
		free_strs(tbs[t].ids, tbs[t].t->nrows);
		free(tbs[t].num);
	}
	free(tbs);
}

int ct_build(const struct ct_input *in, size_t nin, const struct ct_opts *o, struct ct_result *out, char *err,
	     size_t errlen)
{
	const char *col_key = o->col_key ? o->col_key : "input";
	double confidence = o->confidence > 0 ? o->confidence : 0.95;
	char **col_ids = NULL; /* beside out->cols: the values that find them */

	memset(out, 0, sizeof *out);
	out->alpha = o->alpha > 0 ? o->alpha : 0.05;
	if (nin == 0)
		return nm_errf(err, errlen, "nothing to compare");
	if (check_keys(in, nin, o, err, errlen) < 0)
		return -1;

	/* Pass 1: the columns, in order of appearance. */
	for (size_t i = 0; i < nin; i++)
		for (size_t k = 0; k < in[i].r->nbenches; k++)
			if (passes(&in[i], in[i].r->benches[k], o))
				col_of(&in[i], in[i].r->benches[k], col_key, out, &col_ids);
	if (out->ncols == 0)
		return nm_errf(err, errlen, "no benchmarks to compare%s", o->nfilters ? " (after --filter)" : "");

	/* Pass 2: samples into (metric, row, column) cells. */
	struct table_builder *tbs = NULL;
	int by_name = !o->row_key || strcmp(o->row_key, "name") == 0;
	for (size_t i = 0; i < nin; i++) {
		struct placed *seen = NULL;
		size_t nseen = 0;
		for (size_t k = 0; k < in[i].r->nbenches; k++) {
			const struct bench *b = in[i].r->benches[k];
			if (!passes(&in[i], b, o))
				continue;
			struct row_key rk;
			size_t col = col_of(&in[i], b, col_key, out, &col_ids);
			row_of(&in[i], b, o, &rk);
			if (by_name)
				number_row(&rk, col, &seen, &nseen);
			const char *row = rk.label;
			for (size_t m = 0; m < b->nmetrics; m++) {
				const struct metric *mt = b->metrics[m];
				if (!metric_wanted(o, mt->name))
					continue;
				const char *kind = bench_phase(b);
				if (!kind)
					kind = in[i].r->command ? in[i].r->command : "";
				size_t t = table_for(out, &tbs, mt, kind);
				struct ct_cell *c = cell_for(&tbs[t], out->ncols, &rk, col);
				/* samples of several inputs pool; two benchmarks of one input never do */
				if (c->from && c->from_input == i && c->from != b) {
					nm_errf(err, errlen,
						"%s: \"%s\" and \"%s\" of %s would pool into one cell (row %s, column %s): "
						"choose --row/--col keys that tell them apart",
						o->row_key ? "--row" : "--col", c->from->name, b->name, in[i].name,
						row[0] ? row : "(empty)", out->cols[col][0] ? out->cols[col] : "(empty)");
					free(rk.id);
					free(rk.label);
					free_placed(seen, nseen);
					free_builders(tbs, out->ntables);
					free_strs(col_ids, out->ncols);
					ct_free(out);
					return -1;
				}
				c->from = b;
				c->from_input = i;
				c->kind = kind;
				for (size_t s = 0; s < mt->nsamples; s++)
					if (!isnan(mt->samples[s]))
						cell_add(c, mt->samples[s]);
			}
			free(rk.id);
			free(rk.label);
		}
		free_placed(seen, nseen);
	}
	for (size_t t = 0; t < out->ntables; t++)
		order_rows(&tbs[t], out->ncols);
	free_builders(tbs, out->ntables);
	free_strs(col_ids, out->ncols);
	drop_empty_cells(out);
	if (out->ntables == 0 && o->nmetrics) {
		ct_free(out);
		return nm_errf(err, errlen, "no metric matches --metric %s%s", o->metrics[0],
			       o->nmetrics > 1 ? " (or the others)" : "");
	}
	for (size_t t = 0; t < out->ntables; t++) {
		summarize(out, out->tables[t], confidence);
		if (o->total_row && out->tables[t]->nrows > 1)
			add_total_row(out, out->tables[t]);
	}
	common_config(out, in, nin, o);
	return 0;
}

void ct_free(struct ct_result *res)
{
	for (size_t t = 0; t < res->ntables; t++) {
		struct ct_table *tb = res->tables[t];
		for (size_t i = 0; i < tb->nrows * res->ncols; i++) {
			if (tb->cells[i])
				free(tb->cells[i]->v);
			free(tb->cells[i]);
		}
		for (size_t r = 0; r < tb->nrows; r++)
			free(tb->rows[r]);
		free(tb->rows);
		free(tb->cells);
		free(tb->sums);
		free(tb->metric);
		free(tb->unit);
		free(tb->kind);
		free(tb);
	}
	free(res->tables);
	for (size_t c = 0; c < res->ncols; c++)
		free(res->cols[c]);
	free(res->cols);
	for (size_t i = 0; i < res->nconfig; i++) {
		free(res->config_keys[i]);
		free(res->config_values[i]);
	}
	free(res->config_keys);
	free(res->config_values);
	for (size_t i = 0; i < res->nwarn_pool; i++)
		free(res->warn_pool[i]);
	memset(res, 0, sizeof *res);
}
