/* The compact comparison of disk and fio runs (export/compare_out.h): a table per figure
 * family that fits a terminal, a row per job as the user named it, a column per run (or --col
 * value) and a ratio against the first; read and write figures share a family's table. */
#include "export/calls_fmt.h"
#include "export/compare_fmt.h"
#include "export/compare_out.h"
#include "export/texttab.h"
#include "util/color.h"
#include "util/textwidth.h"
#include "util/units.h"
#include "util/xalloc.h"
#include "stats/summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const directions[] = { "read_", "write_", "trim_" };

/* The family of a metric: its name without the direction ("read_iops" -> "iops"); *dir the
 * direction's index, or -1 when it has none. */
static const char *family(const char *metric, int *dir)
{
	for (int d = 0; d < 3; d++)
		if (strncmp(metric, directions[d], strlen(directions[d])) == 0) {
			*dir = d;
			return metric + strlen(directions[d]);
		}
	*dir = -1;
	return metric;
}

/* The job's name as the user wrote it: fio's "NAME (group G, entry E)" without the place. */
static void job_name(const char *row, char *buf, size_t len)
{
	const char *p = strstr(row, " (group ");
	size_t n = p && row[strlen(row) - 1] == ')' ? (size_t)(p - row) : strlen(row);
	snprintf(buf, len, "%.*s", (int)n, row);
}

/* Row r's job name, " #K" after it for the K-th row of table t with that name (two fio jobs named
 * x are "x" and "x #2", as the model numbers two benchmarks of one name). */
static void row_job_name(const struct ct_table *t, size_t r, char *buf, size_t len)
{
	char other[128];
	size_t nth = 1;
	job_name(t->rows[r], buf, len);
	for (size_t k = 0; k < r; k++) {
		job_name(t->rows[k], other, sizeof other);
		nth += strcmp(other, buf) == 0;
	}
	if (nth > 1) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " #%zu", nth);
	}
}

int cmp_compact_applies(const struct cmp_model *m)
{
	if (!m->nin || m->tab.ntables == 0)
		return 0;
	for (size_t i = 0; i < m->nin; i++) {
		const char *c = m->in[i].r->command;
		if (!c || (strcmp(c, "disk") != 0 && strcmp(c, "fio") != 0))
			return 0;
	}
	return 1;
}

struct line {
	char name[160];
	const struct ct_table *t;
	size_t row;
};

/* 1 when every verdict of the model is "too few samples" from a single run on a side (what the
 * footnote says once), so no calls need listing. */
static int only_single_sample_verdicts(const struct cmp_model *m)
{
	for (size_t i = 0; i < m->calls.n; i++) {
		const struct verdict *v = &m->calls.v[i].v;
		if (!(v->kind == VERDICT_NOT_COMPARED && (v->nbase < 2 || v->ncur < 2)))
			return 0;
	}
	return 1;
}

/* The ratio column of a cell against the first: "0.77x", with the verdict's word when it says
 * more than "a single sample". */
static void ratio_text(const struct ct_cell *c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!c || !isfinite(c->ratio))
		return;
	const struct call *k = c->call;
	const char *word = "";
	if (k && verdict_is_call(k->v.kind))
		word = verdict_kind_name(k->v.kind);
	else if (k && k->v.cat == VERDICT_CAT_NO_CHANGE)
		word = "no change";
	else if (k && k->v.cat == VERDICT_CAT_CANT_TELL && k->v.nbase > 1 && k->v.ncur > 1)
		word = "can't tell";
	char r[32];
	snprintf(buf, len, "%s%s%s", units_ratio(c->ratio, r, sizeof r), *word ? " " : "", word);
}

/* units: the units the family's cells show, for its header */
static void cell_text(const struct ct_table *t, const struct ct_cell *c, int *single, char *buf, size_t len,
		      char *units, size_t ulen)
{
	buf[0] = '\0';
	if (!c)
		return;
	char v[48], pct[16], lo[48] = "", hi[48] = "";
	units_figure(c->sum.center, t->metric, t->unit, v, sizeof v);
	units_shown_add(units, ulen, v);
	if (c->n < 2) {
		*single = 1;
		snprintf(buf, len, "%s", v);
		return;
	}
	if (summary_unstable(&c->sum)) {
		units_figure(c->sum.lo, t->metric, t->unit, lo, sizeof lo);
		units_figure(c->sum.hi, t->metric, t->unit, hi, sizeof hi);
	}
	stats_spread_text(buf, len, c->sum.center, c->sum.lo, c->sum.hi, summary_range_pct(&c->sum, pct, sizeof pct), v,
			  lo, hi);
}

/* One family's table: its lines are (table, row) pairs of the tables in it.  Columns: the name,
 * the first column's value, then each later column's value followed by its ratio to the first
 * (as benchstat puts "vs base" beside the column it belongs to: with three columns or more, two
 * "vs A" ratios at the end would not say which column each is). */
static void write_family(FILE *f, const struct cmp_model *m, const char *fam, const struct line *ln, size_t n,
			 int *single)
{
	const struct ct_result *res = &m->tab;
	size_t nc = res->ncols, nk = 2 * nc;
	char(*txt)[96] = calloc((n + 1) * nk, sizeof *txt);
	size_t *w = calloc(nk, sizeof *w);
	if (!txt || !w)
		abort();
	char units[64] = "";
	for (size_t c = 0; c < nc; c++) {
		snprintf(txt[1 + c], sizeof txt[0], "%s", res->cols[c]);
		if (c)
			snprintf(txt[nc + c], sizeof txt[0], "vs %s", res->cols[0]);
	}
	for (size_t i = 1; i <= n; i++) {
		const struct line *l = &ln[i - 1];
		snprintf(txt[i * nk], sizeof txt[0], "%s", l->name);
		for (size_t c = 0; c < nc; c++) {
			const struct ct_cell *cell = ct_cell_at(res, l->t, l->row, c);
			cell_text(l->t, cell, single, txt[i * nk + 1 + c], sizeof txt[0], units, sizeof units);
			if (c)
				ratio_text(cell, txt[i * nk + nc + c], sizeof txt[0]);
		}
	}
	/* the head names the units the cells show ("mean completion latency (µs, ms)"), not the one they
	 * were scaled from */
	units_header(fam, units, txt[0], sizeof txt[0]);
	for (size_t i = 0; i <= n; i++)
		for (size_t k = 0; k < nk; k++)
			if (text_width(txt[i * nk + k]) > w[k])
				w[k] = text_width(txt[i * nk + k]);
	/* the print order of the text columns: the value of column c is at 1 + c, its ratio at nc + c */
	size_t *order = calloc(nk, sizeof *order), no = 0;
	if (!order)
		abort();
	order[no++] = 1;
	for (size_t c = 1; c < nc; c++) {
		order[no++] = 1 + c;
		order[no++] = nc + c;
	}
	for (size_t i = 0; i <= n; i++) {
		fprintf(f, "%s%*s", txt[i * nk], (int)(w[0] - text_width(txt[i * nk])), "");
		for (size_t o = 0; o < no; o++) {
			size_t k = order[o];
			const char *s = txt[i * nk + k];
			/* a ratio whose verdict is a called regression or improvement, coloured after
			 * the widths are measured (escapes take no column) */
			const char *on = "", *off = "";
			if (i && k > nc) {
				const struct ct_cell *cell = ct_cell_at(res, ln[i - 1].t, ln[i - 1].row, k - nc);
				enum verdict_kind vk = cell && cell->call ? cell->call->v.kind : VERDICT_NOT_COMPARED;
				if (vk == VERDICT_REGRESSION || vk == VERDICT_IMPROVEMENT) {
					on = color_on(f, vk == VERDICT_REGRESSION ? COLOR_BAD : COLOR_GOOD);
					off = color_off(f);
				}
			}
			fprintf(f, "  %*s%s%s%s", (int)(w[k] - text_width(s)), "", on, s, off);
		}
		fputc('\n', f);
	}
	free(order);
	free(txt);
	free(w);
}

void cmp_write_compact(FILE *f, const struct cmp_model *m)
{
	const struct ct_result *res = &m->tab;
	int single = 0;
	const char **done = calloc(res->ntables, sizeof *done);
	struct line *ln = NULL;
	if (!done)
		abort();
	size_t shown = 0;
	for (size_t t0 = 0; t0 < res->ntables; t0++) {
		int d0;
		const char *fam = family(res->tables[t0]->metric, &d0);
		int seen = 0;
		for (size_t k = 0; k < t0; k++)
			seen |= done[k] && strcmp(done[k], fam) == 0;
		done[t0] = fam;
		if (seen)
			continue;
		/* the tables of this family (one per direction) and their rows */
		size_t n = 0;
		for (size_t t = t0; t < res->ntables; t++) {
			int d;
			const struct ct_table *tb = res->tables[t];
			if (strcmp(family(tb->metric, &d), fam) != 0 || strcmp(tb->unit, res->tables[t0]->unit) != 0)
				continue;
			for (size_t r = 0; r < tb->nrows; r++) {
				ln = xrealloc(ln, (n + 1) * sizeof *ln);
				char job[128];
				row_job_name(tb, r, job, sizeof job);
				if (d >= 0)
					snprintf(ln[n].name, sizeof ln[n].name, "%s %.*s", job,
						 (int)strlen(directions[d]) - 1, directions[d]);
				else
					snprintf(ln[n].name, sizeof ln[n].name, "%s", job);
				ln[n].t = tb;
				ln[n].row = r;
				n++;
			}
		}
		if (shown++)
			fputc('\n', f);
		write_family(f, m, fam, ln, n, &single);
	}
	free(ln);
	free(done);
	if (single)
		fputs("\na value alone is a single sample: single runs get no interval and no verdict (6 samples or "
		      "more per side give both: disk --loops 6)\n",
		      f);
	if (!only_single_sample_verdicts(m))
		calls_write_text(f, &m->calls, NULL);
}
