/* The compare tables as text (aligned like benchstat's), Markdown, CSV and JSON. */
#include "export/compare_fmt.h"
#include "export/calls_fmt.h"
#include "export/texttab.h"
#include "stats/scale.h"
#include "stats/summary.h"
#include "util/escape.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

/* Padded by display columns (util/textwidth), as nodemark's other tables: compare's table is
 * nodemark's own, so a wide label takes its two columns; `nodemark benchstat` keeps Go's rune
 * count (texttab's go_runes) for benchstat's byte-for-byte tables. */
static size_t width(const char *s) { return text_width(s); }
static void put_left(FILE *f, const char *s, size_t w) { text_put(f, s, w, 0); }
static void put_right(FILE *f, const char *s, size_t w) { text_put(f, s, w, 1); }

static void put_center(FILE *f, const char *s, size_t w)
{
	size_t sw = width(s), left = w > sw ? (w - sw) / 2 : 0;
	pad(f, left);
	fputs(s, f);
	pad(f, w > sw + left ? w - sw - left : 0);
}

/* Footnote numbers for warnings, shared by all tables of one output. */
struct notes {
	const char *text[64];
	size_t n;
};

static size_t note_index(struct notes *nt, const char *w)
{
	for (size_t i = 0; i < nt->n; i++)
		if (nt->text[i] == w || strcmp(nt->text[i], w) == 0)
			return i + 1;
	if (nt->n < 64)
		nt->text[nt->n++] = w;
	return nt->n;
}

static void footnotes(struct notes *nt, const char *const *warn, size_t nwarn, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < nwarn; i++) {
		char sup[32];
		tt_superscript(note_index(nt, warn[i]), sup, sizeof sup);
		if (i)
			strncat(buf, " ", len - strlen(buf) - 1);
		strncat(buf, sup, len - strlen(buf) - 1);
	}
}

/* Every text of one table, laid out before widths are known. */
struct cellstr {
	char center[112], pct[16], warn[64], delta[24], pn[48], dwarn[64];
	int present, compared;
};

static void table_strings(const struct ct_result *res, const struct ct_table *t, struct notes *nt,
			  struct cellstr *cs /* (nrows + 1) * ncols: the last row is the geomean */)
{
	size_t nc = res->ncols;
	enum scale_class cls = scale_class_of(t->unit);
	/* nodemark's own metrics (named apart from their unit) follow the unit policy; Go
	 * benchmark units (the metric is its unit) keep benchstat's exact scaling. */
	int own = ct_own_metric(t);
	double *centers = malloc(nc * sizeof *centers);
	if (!centers)
		abort();
	for (size_t r = 0; r < t->nrows; r++) {
		size_t n = 0;
		for (size_t c = 0; c < nc; c++)
			if (ct_cell_at(res, t, r, c))
				centers[n++] = ct_cell_at(res, t, r, c)->sum.center;
		struct scaler sc = scale_common(centers, n, cls);
		for (size_t c = 0; c < nc; c++) {
			const struct ct_cell *cell = ct_cell_at(res, t, r, c), *base = ct_cell_at(res, t, r, 0);
			struct cellstr *s = &cs[r * nc + c];
			if (!cell)
				continue;
			s->present = 1;
			/* a spread past 100% is no figure: "unstable: V, range LO to HI", without the ± */
			int unstable = summary_unstable(&cell->sum);
			double v3[3] = { cell->sum.center, cell->sum.lo, cell->sum.hi };
			char f3[3][48];
			for (int k = 0; k < (unstable ? 3 : 1); k++)
				if (own)
					units_figure(v3[k], t->metric, t->unit, f3[k], sizeof f3[k]);
				else
					scale_format(&sc, v3[k], f3[k], sizeof f3[k]);
			summary_range_pct(&cell->sum, s->pct, sizeof s->pct);
			if (unstable) {
				stats_spread_text(s->center, sizeof s->center, v3[0], v3[1], v3[2], s->pct, f3[0], f3[1],
						  f3[2]);
				s->pct[0] = '\0';
			} else {
				snprintf(s->center, sizeof s->center, "%s", f3[0]);
			}
			/* the cell's own warnings (summary), then the comparison's */
			size_t nsum = 0;
			while (nsum < cell->nwarn && strncmp(cell->warn[nsum], "need >= ", 8) == 0 &&
			       strstr(cell->warn[nsum], "confidence interval"))
				nsum++;
			footnotes(nt, cell->warn, nsum, s->warn, sizeof s->warn);
			if (c > 0 && base && cell->is_total) {
				/* Sums have no test of their own: the change alone. */
				s->compared = 1;
				if (base->sum.center != 0)
					snprintf(s->delta, sizeof s->delta, "%+.2f%%",
						 (cell->sum.center / base->sum.center - 1) * 100);
				else
					snprintf(s->delta, sizeof s->delta, "?");
			} else if (c > 0 && base && cell->has_cmp) {
				s->compared = 1;
				ct_delta(res, base, cell, s->delta, sizeof s->delta);
				ct_pn(base, cell, s->pn, sizeof s->pn);
				footnotes(nt, cell->warn + nsum, cell->nwarn - nsum, s->dwarn, sizeof s->dwarn);
			}
		}
	}
	free(centers);
	for (size_t c = 0; c < nc; c++) {
		const struct ct_colsum *sum = &t->sums[c];
		struct cellstr *s = &cs[t->nrows * nc + c];
		s->present = 1;
		if (sum->has_gm && own)
			units_figure(sum->gm, t->metric, t->unit, s->center, sizeof s->center);
		else if (sum->has_gm)
			scale_one(sum->gm, cls, s->center, sizeof s->center);
		if (c > 0) {
			s->compared = 1;
			if (sum->has_ratio)
				snprintf(s->delta, sizeof s->delta, "%+.2f%%", (sum->ratio - 1) * 100);
			else
				snprintf(s->delta, sizeof s->delta, "?");
		}
		footnotes(nt, sum->warn, sum->nwarn, c > 0 ? s->dwarn : s->warn, sizeof s->warn);
	}
}

/* Table t's cells as text, its rows and then the geomean row (free it); its notes join nt. */
static struct cellstr *table_cells(const struct ct_result *res, const struct ct_table *t, struct notes *nt)
{
	struct cellstr *cs = calloc((t->nrows + 1) * res->ncols, sizeof *cs);
	if (!cs)
		abort();
	table_strings(res, t, nt, cs);
	return cs;
}

struct ct_text *ct_texts(const struct ct_result *res, const struct ct_table *t)
{
	size_t n = (t->nrows + 1) * res->ncols;
	struct ct_text *out = calloc(n, sizeof *out);
	struct notes nt = { .n = 0 };
	if (!out)
		abort();
	struct cellstr *cs = table_cells(res, t, &nt);
	for (size_t i = 0; i < n; i++) {
		memcpy(out[i].center, cs[i].center, sizeof out[i].center);
		memcpy(out[i].pct, cs[i].pct, sizeof out[i].pct);
		memcpy(out[i].delta, cs[i].delta, sizeof out[i].delta);
		memcpy(out[i].pn, cs[i].pn, sizeof out[i].pn);
		out[i].present = cs[i].present;
		out[i].compared = cs[i].compared;
	}
	free(cs);
	return out;
}

static void write_notes(FILE *f, const struct notes *nt)
{
	for (size_t i = 0; i < nt->n; i++) {
		char sup[32];
		tt_superscript(i + 1, sup, sizeof sup);
		fprintf(f, "%s %s\n", sup, nt->text[i]);
	}
}

static void write_config(FILE *f, const struct ct_result *res)
{
	for (size_t i = 0; i < res->nconfig; i++)
		fprintf(f, "%s: %s\n", res->config_keys[i], res->config_values[i]);
}

static void text_tables(FILE *f, const struct ct_result *res, const char *metric);

/* Lay the tables out in memory, then drop the padding at the ends of lines. */
void ct_write_text(FILE *out, const struct ct_result *res, const char *metric)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	text_tables(f, res, metric);
	fclose(f);
	for (char *line = buf, *nl; line < buf + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			nl = buf + len;
		char *end = nl;
		while (end > line && end[-1] == ' ')
			end--;
		fwrite(line, 1, (size_t)(end - line), out);
		if (nl < buf + len)
			fputc('\n', out);
	}
	free(buf);
}

/* Per column the widths of its parts (center, pct, warn, delta, p/n, delta warning) and of
 * the whole group, w[c][6]: wide enough for the column's head and the unit line. */
static void column_widths(const struct ct_result *res, const struct cellstr *cs, size_t nr, size_t lines,
			  const char *title, size_t (*w)[7])
{
	size_t nc = res->ncols;
	for (size_t c = 0; c < nc; c++) {
		for (size_t r = 0; r < lines; r++) {
			const struct cellstr *s = &cs[(r < nr ? r : nr) * nc + c];
			size_t v[6] = { width(s->center), width(s->pct), width(s->warn), width(s->delta),
					width(s->pn) + (*s->pn ? 2 : 0), width(s->dwarn) };
			for (int k = 0; k < 6; k++)
				if (v[k] > w[c][k])
					w[c][k] = v[k];
		}
		size_t g = w[c][0] + 3 + w[c][1] + (w[c][2] ? 1 + w[c][2] : 0);
		if (c > 0 && width(title) > g) {
			/* the unit heads the values and "vs base" the deltas: widen the values */
			w[c][0] += width(title) - g;
			g = width(title);
		}
		if (c > 0)
			g += 2 + w[c][3] + 1 + w[c][4] + (w[c][5] ? 1 + w[c][5] : 0);
		size_t head = width(res->cols[c]);
		size_t unit = width(title) + (c > 0 ? 2 + width("vs base") : 0);
		if (head > g)
			g = head;
		if (unit > g)
			g = unit;
		w[c][6] = g;
	}
}

/* The two head lines: the columns' names, then the unit over the values and "vs base". */
static void write_heads(FILE *f, const struct ct_result *res, const char *title, size_t w0, size_t (*w)[7])
{
	size_t nc = res->ncols;
	pad(f, w0);
	for (size_t c = 0; c < nc; c++) {
		fputs(" │ ", f);
		put_center(f, res->cols[c], w[c][6]);
	}
	fputs(" │\n", f);
	pad(f, w0);
	for (size_t c = 0; c < nc; c++) {
		fputs(" │ ", f);
		if (c == 0) {
			put_center(f, title, w[c][6]);
		} else {
			size_t left = w[c][0] + 3 + w[c][1] + (w[c][2] ? 1 + w[c][2] : 0);
			put_center(f, title, left);
			fputs("  ", f);
			put_left(f, "vs base", w[c][6] > left + 2 ? w[c][6] - left - 2 : 0);
		}
	}
	fputs(" │\n", f);
}

/* One cell of a row: value ± pct and warning; beside the baseline, delta (p=, n=) and its warning. */
static void write_cell(FILE *f, const struct cellstr *s, size_t c, int gm, const size_t *wc)
{
	size_t used = 0;
	fputs("   ", f);
	if (s->present) {
		put_right(f, s->center, wc[0]);
		fputs(gm || !*s->pct ? "   " : " ± ", f);
		put_right(f, s->pct, wc[1]);
		used = wc[0] + 3 + wc[1];
		if (wc[2]) {
			fputc(' ', f);
			put_left(f, s->warn, wc[2]);
			used += 1 + wc[2];
		}
		if (c > 0) {
			char pn[64] = "";
			fputs("  ", f);
			put_right(f, s->delta, wc[3]);
			fputc(' ', f);
			if (*s->pn)
				snprintf(pn, sizeof pn, "(%s)", s->pn);
			put_left(f, pn, wc[4]);
			used += 2 + wc[3] + 1 + wc[4];
			if (wc[5]) {
				fputc(' ', f);
				put_left(f, s->dwarn, wc[5]);
				used += 1 + wc[5];
			}
		}
	}
	pad(f, wc[6] > used ? wc[6] - used : 0);
}

static void text_tables(FILE *f, const struct ct_result *res, const char *metric)
{
	struct notes nt = { .n = 0 };
	size_t nc = res->ncols, shown = 0;
	write_config(f, res);
	for (size_t ti = 0; ti < res->ntables; ti++) {
		const struct ct_table *t = res->tables[ti];
		if (metric && strcmp(t->metric, metric) != 0)
			continue;
		size_t nr = t->nrows, lines = nr + (nr > 1);
		struct cellstr *cs = table_cells(res, t, &nt);
		char title[160];
		ct_title_shown(res, t, title, sizeof title);

		size_t w0 = nr > 1 ? width("geomean") : 0;
		for (size_t r = 0; r < nr; r++)
			if (width(t->rows[r]) > w0)
				w0 = width(t->rows[r]);
		size_t (*w)[7] = calloc(nc, sizeof *w);
		if (!w)
			abort();
		column_widths(res, cs, nr, lines, title, w);
		if (shown++)
			fputc('\n', f);
		write_heads(f, res, title, w0, w);
		for (size_t r = 0; r < lines; r++) {
			int gm = r == nr;
			put_left(f, gm ? "geomean" : t->rows[r], w0);
			for (size_t c = 0; c < nc; c++)
				write_cell(f, &cs[r * nc + c], c, gm, w[c]);
			fputs("\n", f);
		}
		free(w);
		free(cs);
	}
	write_notes(f, &nt);
}

/* A compared cell's verdict for Markdown: "**regression**: why" for a call, the reason else;
 * then the verdict's line (stats/verdict.h: called, no change beyond ±X%, can't tell). */
static void md_verdict(FILE *f, const struct ct_cell *cell)
{
	const struct call *k = cell ? cell->call : NULL;
	if (!k) {
		fputs(" |", f);
		return;
	}
	const char *kind = verdict_kind_name(k->v.kind);
	size_t n = strlen(kind);
	char sum[1200];
	verdict_summary(&k->v, sum, sizeof sum);
	if (verdict_is_call(k->v.kind) && strncmp(k->v.why, kind, n) == 0) {
		fprintf(f, " **%s**", kind);
		md_put(f, k->v.why + n);
	} else if (k->v.kind == VERDICT_UNCHANGED && k->v.recheck != VERDICT_WITHDRAWN) {
		fputc(' ', f);
		md_put(f, k->v.text);
		fputs(" |", f);
		return;
	} else {
		fputc(' ', f);
		md_put(f, k->v.why);
	}
	fputs("; ", f);
	md_put(f, sum);
	fputs(" |", f);
}

void ct_write_markdown(FILE *f, const struct cmp_model *m)
{
	const struct ct_result *res = &m->tab;
	int verdicts = m->calls.n > 0;
	struct notes nt = { .n = 0 };
	size_t nc = res->ncols;
	for (size_t i = 0; i < res->nconfig; i++) {
		fputs(i ? ", " : "", f);
		md_put(f, res->config_keys[i]);
		fputs(": ", f);
		md_put(f, res->config_values[i]);
	}
	if (res->nconfig)
		fputs("\n\n", f);
	for (size_t ti = 0; ti < res->ntables; ti++) {
		const struct ct_table *t = res->tables[ti];
		size_t nr = t->nrows, lines = nr + (nr > 1);
		struct cellstr *cs = table_cells(res, t, &nt);
		char title[160];
		fputs("| ", f);
		md_put(f, ct_title_shown(res, t, title, sizeof title));
		fputs(" |", f);
		for (size_t c = 0; c < nc; c++) {
			fputc(' ', f);
			md_put(f, res->cols[c]);
			if (c) {
				fputs(" | vs ", f);
				md_put(f, res->cols[0]);
			}
			fputs(c && verdicts ? " | verdict |" : " |", f);
		}
		fputs("\n|---|", f);
		for (size_t c = 0; c < nc; c++)
			fputs(c ? (verdicts ? "--:|---|---|" : "--:|---|") : "--:|", f);
		fputc('\n', f);
		for (size_t r = 0; r < lines; r++) {
			int gm = r == nr;
			fputs("| ", f);
			if (gm)
				fputs("**geomean**", f);
			else
				md_put(f, t->rows[r]);
			fputs(" |", f);
			for (size_t c = 0; c < nc; c++) {
				const struct cellstr *s = &cs[r * nc + c];
				if (!s->present) {
					fputs(c ? (verdicts ? " | | |" : " | |") : " |", f);
					continue;
				}
				fprintf(f, " %s%s%s%s%s |", s->center, gm || !*s->pct ? "" : " ± ", gm ? "" : s->pct,
					*s->warn ? " " : "", s->warn);
				if (c > 0)
					fprintf(f, " %s%s%s%s%s%s |", s->delta, *s->pn ? " (" : "", s->pn, *s->pn ? ")" : "",
						*s->dwarn ? " " : "", s->dwarn);
				if (c > 0 && verdicts)
					md_verdict(f, gm ? NULL : ct_cell_at(res, t, r, c));
			}
			fputc('\n', f);
		}
		fputc('\n', f);
		free(cs);
	}
	for (size_t i = 0; i < nt.n; i++) {
		char sup[32];
		tt_superscript(i + 1, sup, sizeof sup);
		fprintf(f, "%s %s%s\n", sup, nt.text[i], i + 1 < nt.n ? "  " : "");
	}
}

/* The shortest text that reads back as the same double (as Go's %v prints). */
static const char *shortest(double v, char *buf, size_t len)
{
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* 1 when some compared cell has a verdict (nodemark's runs; never Go benchmark text, whose CSV
 * stays benchstat's). */
static int has_verdicts(const struct ct_result *res)
{
	for (size_t ti = 0; ti < res->ntables; ti++)
		for (size_t r = 0; r < res->tables[ti]->nrows; r++)
			for (size_t c = 1; c < res->ncols; c++) {
				const struct ct_cell *cell = ct_cell_at(res, res->tables[ti], r, c);
				if (cell && cell->call)
					return 1;
			}
	return 0;
}

void ct_write_csv(FILE *f, const struct ct_result *res)
{
	size_t nc = res->ncols;
	int verdicts = has_verdicts(res);
	for (size_t ti = 0; ti < res->ntables; ti++) {
		const struct ct_table *t = res->tables[ti];
		char title[160], num[40], pct[16], d[24], pn[48];
		if (ti)
			fputc('\n', f);
		/* each name over its own median column: the first column has 2 fields (median, CI),
		 * the others 4 (median, CI, vs base, P) */
		for (size_t c = 0; c < nc; c++) {
			fputc(',', f);
			esc_csv(f, res->cols[c]);
			fputs(c ? (verdicts ? ",,,," : ",,,") : ",", f);
		}
		fputc('\n', f);
		for (size_t c = 0; c < nc; c++) {
			fputc(',', f);
			esc_csv(f, ct_title(t, title, sizeof title));
			fputs(",CI", f);
			if (c)
				fputs(verdicts ? ",vs base,P,verdict" : ",vs base,P", f);
		}
		fputc('\n', f);
		for (size_t r = 0; r <= t->nrows; r++) {
			int gm = r == t->nrows;
			esc_csv(f, gm ? "geomean" : t->rows[r]);
			for (size_t c = 0; c < nc; c++) {
				if (gm) {
					const struct ct_colsum *s = &t->sums[c];
					fprintf(f, ",%s,", s->has_gm ? shortest(s->gm, num, sizeof num) : "");
					if (c) {
						if (s->has_ratio)
							fprintf(f, ",%+.2f%%,", (s->ratio - 1) * 100);
						else
							fputs(",?,", f);
						if (verdicts)
							fputc(',', f);
					}
					continue;
				}
				const struct ct_cell *cell = ct_cell_at(res, t, r, c), *base = ct_cell_at(res, t, r, 0);
				if (!cell) {
					fputs(c ? (verdicts ? ",,,,," : ",,,,") : ",,", f);
					continue;
				}
				fprintf(f, ",%s,%s", shortest(cell->sum.center, num, sizeof num),
					summary_range_pct(&cell->sum, pct, sizeof pct));
				if (c) {
					if (base && cell->has_cmp)
						fprintf(f, ",%s,%s", ct_delta(res, base, cell, d, sizeof d),
							ct_pn(base, cell, pn, sizeof pn));
					else
						fputs(",,", f);
					if (verdicts) {
						fputc(',', f);
						if (cell->call)
							esc_csv(f, cell->call->v.text);
					}
				}
			}
			fputc('\n', f);
		}
	}
}

static json_t *warn_array(const char *const *w, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(w[i]));
	return a;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *ct_to_json(const struct ct_result *res)
{
	json_t *j = json_object(), *config = json_object(), *cols = json_array(), *tables = json_array();
	size_t nc = res->ncols;
	for (size_t i = 0; i < res->nconfig; i++)
		json_object_set_new(config, res->config_keys[i], json_string(res->config_values[i]));
	for (size_t c = 0; c < nc; c++)
		json_array_append_new(cols, json_string(res->cols[c]));
	for (size_t ti = 0; ti < res->ntables; ti++) {
		const struct ct_table *t = res->tables[ti];
		json_t *jt = json_object(), *rows = json_array(), *gm = json_array();
		char pct[16], d[24];
		json_object_set_new(jt, "metric", json_string(t->metric));
		json_object_set_new(jt, "unit", json_string(t->unit));
		json_object_set_new(jt, "direction",
				    json_string(t->direction > 0 ? "higher" : t->direction < 0 ? "lower" : "neutral"));
		for (size_t r = 0; r < t->nrows; r++) {
			json_t *jr = json_object(), *cells = json_array();
			json_object_set_new(jr, "name", json_string(t->rows[r]));
			for (size_t c = 0; c < nc; c++) {
				const struct ct_cell *cell = ct_cell_at(res, t, r, c), *base = ct_cell_at(res, t, r, 0);
				if (!cell) {
					json_array_append_new(cells, json_null());
					continue;
				}
				json_t *jc = json_object();
				json_object_set_new(jc, "column", json_string(res->cols[c]));
				json_object_set_new(jc, "n", json_integer((json_int_t)cell->n));
				json_object_set_new(jc, "median", num_or_null(cell->sum.center));
				json_object_set_new(jc, "ci_lo", num_or_null(cell->sum.lo));
				json_object_set_new(jc, "ci_hi", num_or_null(cell->sum.hi));
				json_object_set_new(jc, "range", json_string(summary_range_pct(&cell->sum, pct, sizeof pct)));
				if (summary_unstable(&cell->sum))
					json_object_set_new(jc, "unstable", json_true());
				if (cell->is_total)
					json_object_set_new(jc, "total", json_true());
				if (c > 0 && base && cell->has_cmp) {
					json_object_set_new(jc, "p", json_real(cell->p));
					json_object_set_new(jc, "delta", json_string(ct_delta(res, base, cell, d, sizeof d)));
					json_object_set_new(jc, "significant", json_boolean(cell->p <= res->alpha));
					if (isfinite(cell->ratio))
						json_object_set_new(jc, "ratio", json_real(cell->ratio));
				}
				if (cell->call) {
					json_t *jv = json_pack("{s:s, s:s}", "call", verdict_kind_name(cell->call->v.kind),
							       "why", cell->call->v.why);
					calls_verdict_json(jv, &cell->call->v);
					json_object_set_new(jc, "verdict", jv);
				}
				json_object_set_new(jc, "warnings", warn_array(cell->warn, cell->nwarn));
				json_array_append_new(cells, jc);
			}
			json_object_set_new(jr, "cells", cells);
			json_array_append_new(rows, jr);
		}
		for (size_t c = 0; c < nc; c++) {
			const struct ct_colsum *s = &t->sums[c];
			json_t *jg = json_object();
			json_object_set_new(jg, "column", json_string(res->cols[c]));
			json_object_set_new(jg, "geomean", s->has_gm ? json_real(s->gm) : json_null());
			if (c > 0)
				json_object_set_new(jg, "ratio", s->has_ratio ? json_real(s->ratio) : json_null());
			json_object_set_new(jg, "benchmarks", json_integer((json_int_t)s->ncommon));
			json_object_set_new(jg, "of", json_integer((json_int_t)s->nrows));
			json_object_set_new(jg, "warnings", warn_array(s->warn, s->nwarn));
			json_array_append_new(gm, jg);
		}
		json_object_set_new(jt, "rows", rows);
		json_object_set_new(jt, "geomean", gm);
		json_array_append_new(tables, jt);
	}
	json_object_set_new(j, "config", config);
	json_object_set_new(j, "columns", cols);
	json_object_set_new(j, "alpha", json_real(res->alpha));
	json_object_set_new(j, "tables", tables);
	return j;
}

const char *ct_delta(const struct ct_result *res, const struct ct_cell *base, const struct ct_cell *c, char *buf,
		     size_t len)
{
	double old = base->sum.center, new = c->sum.center;
	return tt_delta(old, new, c->p, res->alpha, buf, len);
}

const char *ct_pn(const struct ct_cell *base, const struct ct_cell *c, char *buf, size_t len)
{
	char p[32] = "";
	if (c->p != 0)
		snprintf(p, sizeof p, "p=%.3f ", c->p);
	if (base->n == c->n)
		snprintf(buf, len, "%sn=%zu", p, c->n);
	else
		snprintf(buf, len, "%sn=%zu+%zu", p, base->n, c->n);
	return buf;
}

const char *ct_title_shown(const struct ct_result *res, const struct ct_table *t, char *buf, size_t len)
{
	if (!ct_own_metric(t))
		return ct_title(t, buf, len);
	char units[96] = "", fig[48];
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < res->ncols; c++) {
			const struct ct_cell *cell = ct_cell_at(res, t, r, c);
			if (cell)
				units_shown_add(units, sizeof units,
					     units_figure(cell->sum.center, t->metric, t->unit, fig, sizeof fig));
		}
	for (size_t c = 0; c < res->ncols; c++)
		if (t->sums[c].has_gm && t->nrows > 1)
			units_shown_add(units, sizeof units, units_figure(t->sums[c].gm, t->metric, t->unit, fig, sizeof fig));
	return units_header(t->metric, units, buf, len);
}

const char *ct_title(const struct ct_table *t, char *buf, size_t len)
{
	if (strcmp(t->metric, t->unit) == 0)
		snprintf(buf, len, "%s", t->unit);
	else
		snprintf(buf, len, "%s (%s)", t->metric, t->unit);
	return buf;
}
