#include "compare/track_table.h"
#include "stats/summary.h"
#include "util/escape.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "+36m22s", "+1.25s"; "-" for NAN. */
static const char *dur(double s, int sign, char *buf, size_t len)
{
	char t[24];
	if (isnan(s))
		return "-";
	if (s == 0)
		return "0s";
	units_duration((uint64_t)(fabs(s) * 1e9 + 0.5), t, sizeof t);
	snprintf(buf, len, "%s%s", sign ? (s < 0 ? "-" : "+") : "", t);
	return buf;
}

static const char *rate_fmt(double r, char *buf, size_t len)
{
	if (isnan(r))
		snprintf(buf, len, "-");
	else if (r < 1000)
		snprintf(buf, len, "%.3g", r);
	else
		units_count(r, buf, len);
	return buf;
}

static const char *num(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

/* A milestone's time of day, "2024-01-03T05:36:49" (to the second); "-" when unknown. */
static const char *time_of_day(const struct track *t, double wall, char *buf, size_t len)
{
	struct tm tm;
	time_t s = (time_t)floor(wall);
	if (isnan(wall) || !(t->wall_utc ? gmtime_r(&s, &tm) : localtime_r(&s, &tm)) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		return "-";
	return buf;
}

void track_print_header(FILE *fp, const struct track *t)
{
	fprintf(fp, "%14s %7s %10s %10s %8s %10s %12s %9s %19s%s\n", "milestone", "%", "segment", "seconds",
		"x first", "elapsed", "rate /s", "ETA", "time of day", t->baseline ? "   vs base" : "");
	fflush(fp);
}

void track_print_row(FILE *fp, const struct track *t, const struct track_row *r)
{
	char m[32], pct[16], seg[32], ratio[16], cum[32], rate[32], eta[32], base[32], tod[32];
	if (isnan(r->pct))
		snprintf(pct, sizeof pct, "-");
	else
		snprintf(pct, sizeof pct, "%.1f%%", r->pct);
	/* A partial segment is marked '*': its ratio is per unit (see the note under the table). */
	if (isnan(r->first_ratio))
		snprintf(ratio, sizeof ratio, "-%s", r->partial ? "*" : "");
	else
		snprintf(ratio, sizeof ratio, "x%.2f%s", r->first_ratio, r->partial ? "*" : "");
	rate_fmt(r->rate, rate, sizeof rate);
	/* the durations padded by display width ("12.3µs" is 6 columns, 7 bytes) */
	fprintf(fp, "%14s %7s ", num(r->milestone, m, sizeof m), pct);
	text_put(fp, dur(r->seg_s, 1, seg, sizeof seg), 10, 1);
	fprintf(fp, " %10.*f %8s ", r->seg_s < 10 ? 2 : r->seg_s < 100 ? 1 : 0, r->seg_s, ratio);
	text_put(fp, dur(r->cum_s, 0, cum, sizeof cum), 10, 1);
	fprintf(fp, " %12s ", rate);
	text_put(fp, dur(r->eta_s, 0, eta, sizeof eta), 9, 1);
	fprintf(fp, " %19s", time_of_day(t, r->wall, tod, sizeof tod));
	if (t->baseline) {
		fputc(' ', fp);
		text_put(fp, dur(r->base_diff_s, 1, base, sizeof base), 9, 1);
	}
	fputc('\n', fp);
	fflush(fp);
}

void track_print_end(FILE *fp, const struct track *t, double total_s, size_t lines)
{
	char d[32], a[32], b[32], rate[32];
	if (!t->started) {
		fprintf(fp, "no progress line among %zu lines\n", lines);
		return;
	}
	size_t partial = 0;
	for (size_t i = 0; i < t->nrows; i++)
		partial += t->rows[i].partial;
	if (partial)
		fprintf(fp, "* a partial segment (fewer units than --every): x first compares time per unit\n");
	double done = t->vmax - t->v0;
	fprintf(fp, "total: %s (%.1f s), progress %s → %s", dur(total_s, 0, d, sizeof d), total_s,
		num(t->v0, a, sizeof a), num(t->vmax, b, sizeof b));
	if (lines) /* a saved run (show) keeps no line counts */
		fprintf(fp, " in %zu of %zu lines", t->points, lines);
	if (total_s > 0 && done > 0)
		fprintf(fp, ", mean rate %s /s", rate_fmt(done / total_s, rate, sizeof rate));
	fputc('\n', fp);
	double base = track_base_total(t);
	if (!isnan(base))
		fprintf(fp, "baseline: %s to the same progress (%s)\n", dur(base, 0, a, sizeof a),
			dur(total_s - base, 1, b, sizeof b));
}

void track_print_until(FILE *fp, const struct track *t, size_t line, double time_s)
{
	char tod[32];
	fprintf(fp, "ended: line %zu matched --until", line);
	if (t->wall_known)
		fprintf(fp, ", at %s", time_of_day(t, time_s + t->wall_offset, tod, sizeof tod));
	fputc('\n', fp);
}

static json_t *num_or_null(double v) { return isfinite(v) ? json_real(v) : json_null(); }

json_t *track_to_json(const struct track *t, double total_s, size_t lines)
{
	json_t *o = json_object(), *rows = json_array();
	for (size_t i = 0; i < t->nrows; i++) {
		const struct track_row *r = &t->rows[i];
		json_t *j = json_object();
		json_object_set_new(j, "milestone", json_real(r->milestone));
		json_object_set_new(j, "pct", num_or_null(r->pct));
		json_object_set_new(j, "segment_s", json_real(r->seg_s));
		json_object_set_new(j, "span", json_real(r->span));
		json_object_set_new(j, "partial", json_boolean(r->partial));
		json_object_set_new(j, "x_first", num_or_null(r->first_ratio));
		json_object_set_new(j, "elapsed_s", json_real(r->cum_s));
		json_object_set_new(j, "rate", num_or_null(r->rate));
		json_object_set_new(j, "eta_s", num_or_null(r->eta_s));
		json_object_set_new(j, "vs_base_s", num_or_null(r->base_diff_s));
		char tod[32];
		const char *at = time_of_day(t, r->wall, tod, sizeof tod);
		json_object_set_new(j, "time_of_day", *at == '-' ? json_null() : json_string(at));
		json_array_append_new(rows, j);
	}
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "total_s", json_real(total_s));
	json_object_set_new(o, "start", t->started ? json_real(t->v0) : json_null());
	json_object_set_new(o, "end", t->started ? json_real(t->vmax) : json_null());
	json_object_set_new(o, "progress_lines", json_integer((json_int_t)t->points));
	json_object_set_new(o, "lines", json_integer((json_int_t)lines));
	json_object_set_new(o, "mean_rate",
			    total_s > 0 && t->vmax > t->v0 ? json_real((t->vmax - t->v0) / total_s) : json_null());
	return o;
}

/* --- saved runs of one job, milestone by milestone ------------------------------------ */

#define CELL 48

struct grid {
	size_t ncols, nrows; /* nrows counts the header row */
	char (*cell)[CELL];  /* [nrows][ncols] */
	int partial;
};

static char *at(struct grid *g, size_t r, size_t c) { return g->cell[r * g->ncols + c]; }

/* The milestones any run reached, in order, each once. */
static double *milestones(const struct track_cmp *c, size_t *n)
{
	size_t total = 0, k = 0;
	for (size_t i = 0; i < c->n; i++)
		total += c->runs[i].nrows;
	double *m = malloc((total + 1) * sizeof *m);
	if (!m)
		abort();
	for (size_t i = 0; i < c->n; i++)
		for (size_t r = 0; r < c->runs[i].nrows; r++)
			m[k++] = c->runs[i].rows[r].milestone;
	stats_sort(m, k);
	*n = 0;
	for (size_t i = 0; i < k; i++)
		if (*n == 0 || m[i] - m[*n - 1] > 1e-9 * fmax(1, fabs(m[i])))
			m[(*n)++] = m[i];
	return m;
}

static const struct track_row *row_at(const struct track *t, double m)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (fabs(t->rows[r].milestone - m) <= 1e-9 * fmax(1, fabs(m)))
			return &t->rows[r];
	return NULL;
}

/* A duration as the live table shows it ("36m22s", "+1.25s"), or plain seconds for CSV. */
static void dur_cell(char *out, double s, int sign, enum track_style st)
{
	char buf[32];
	if (st == TRACK_CSV)
		snprintf(out, CELL, isnan(s) ? "" : "%.6g", s);
	else
		snprintf(out, CELL, "%s", dur(s, sign, buf, sizeof buf));
}

static void grid_build(const struct track_cmp *c, enum track_style st, struct grid *g)
{
	size_t nm;
	double *m = milestones(c, &nm);
	g->ncols = 1 + 3 * c->n - 1;
	g->nrows = 1 + nm + 1;
	g->partial = 0;
	g->cell = calloc(g->ncols * g->nrows, CELL);
	if (!g->cell)
		abort();
	snprintf(at(g, 0, 0), CELL, "milestone");
	for (size_t i = 0, col = 1; i < c->n; i++) {
		snprintf(at(g, 0, col++), CELL, "%.*s%s", CELL - 12, c->names[i], st == TRACK_CSV ? " segment_s" : "");
		snprintf(at(g, 0, col++), CELL, st == TRACK_CSV ? "x_first" : "x first");
		if (i)
			snprintf(at(g, 0, col++), CELL, st == TRACK_CSV ? "vs_base_s" : "vs base");
	}
	for (size_t k = 0; k < nm; k++) {
		num(m[k], at(g, k + 1, 0), CELL);
		for (size_t i = 0, col = 1; i < c->n; i++) {
			const struct track_row *r = row_at(&c->runs[i], m[k]);
			dur_cell(at(g, k + 1, col++), r ? r->seg_s : NAN, 0, st);
			char *x = at(g, k + 1, col++);
			if (!r || isnan(r->first_ratio))
				snprintf(x, CELL, st == TRACK_CSV ? "" : "-");
			else
				snprintf(x, CELL, st == TRACK_CSV ? "%.6g" : "x%.2f%s", r->first_ratio,
					 r->partial && st != TRACK_CSV ? "*" : "");
			g->partial |= r && r->partial;
			if (i)
				dur_cell(at(g, k + 1, col++), r ? r->base_diff_s : NAN, 1, st);
		}
	}
	size_t last = g->nrows - 1;
	snprintf(at(g, last, 0), CELL, "total");
	for (size_t i = 0, col = 1; i < c->n; i++) {
		dur_cell(at(g, last, col++), c->total_s[i], 0, st);
		snprintf(at(g, last, col++), CELL, st == TRACK_CSV ? "" : "-");
		if (i)
			dur_cell(at(g, last, col++), c->total_s[i] - track_base_total(&c->runs[i]), 1, st);
	}
	free(m);
}

void track_cmp_write(FILE *fp, const struct track_cmp *c, enum track_style st)
{
	struct grid g;
	grid_build(c, st, &g);
	size_t w[3 * 64 + 1] = { 0 };
	for (size_t col = 0; col < g.ncols && col < sizeof w / sizeof *w; col++)
		for (size_t r = 0; r < g.nrows; r++)
			w[col] = text_width(at(&g, r, col)) > w[col] ? text_width(at(&g, r, col)) : w[col];
	const char *why = "vs base: each segment's time minus the same segment's in";
	if (st == TRACK_TEXT)
		fprintf(fp, "%s: milestone by milestone (%s %s)\n", c->job, why, c->names[0]);
	else if (st == TRACK_MARKDOWN) {
		md_put(fp, c->job);
		fprintf(fp, ": milestone by milestone (%s ", why);
		md_put(fp, c->names[0]);
		fputs(")\n\n", fp);
	}
	else if (st == TRACK_HTML) {
		fputs("<table class=\"milestones\">\n<caption>", fp);
		esc_html(fp, c->job);
		fprintf(fp, ": milestone by milestone (%s ", why);
		esc_html(fp, c->names[0]);
		fputs(")</caption>\n", fp);
	}
	for (size_t r = 0; r < g.nrows; r++) {
		if (st == TRACK_HTML)
			fputs("<tr>", fp);
		for (size_t col = 0; col < g.ncols; col++) {
			const char *s = at(&g, r, col);
			size_t width = col < sizeof w / sizeof *w ? w[col] : 0;
			if (st == TRACK_TEXT)
				fprintf(fp, "%s%*s%s", col ? "  " : "", text_fill(s, width), "", s);
			else if (st == TRACK_MARKDOWN) {
				fputs("| ", fp);
				md_put(fp, s);
				fputc(' ', fp);
			}
			else if (st == TRACK_CSV) {
				if (col)
					fputc(',', fp);
				esc_csv(fp, s);
			} else {
				fputs(r ? "<td>" : "<th>", fp);
				esc_html(fp, s);
				fputs(r ? "</td>" : "</th>", fp);
			}
		}
		if (st == TRACK_MARKDOWN)
			fputs("|", fp);
		fputs(st == TRACK_HTML ? "</tr>\n" : "\n", fp);
		if (st == TRACK_MARKDOWN && r == 0) {
			fputs("|", fp);
			for (size_t col = 0; col < g.ncols; col++)
				fputs(col ? "---:|" : ":---|", fp);
			fputc('\n', fp);
		}
	}
	if (st == TRACK_HTML)
		fputs("</table>\n", fp);
	if (g.partial && st != TRACK_CSV)
		fprintf(fp, "%s* a partial segment (fewer units than --every): x first compares time per unit%s\n",
			st == TRACK_HTML ? "<p>" : st == TRACK_MARKDOWN ? "\n" : "", st == TRACK_HTML ? "</p>" : "");
	free(g.cell);
}

json_t *track_cmp_to_json(const struct track_cmp *c)
{
	json_t *o = json_object(), *names = json_array(), *rows = json_array(), *total = json_array();
	size_t nm;
	double *m = milestones(c, &nm);
	for (size_t i = 0; i < c->n; i++) {
		json_array_append_new(names, json_string(c->names[i]));
		json_t *t = json_object();
		json_object_set_new(t, "total_s", json_real(c->total_s[i]));
		json_object_set_new(t, "vs_base_s",
				    i ? num_or_null(c->total_s[i] - track_base_total(&c->runs[i])) : json_null());
		json_array_append_new(total, t);
	}
	for (size_t k = 0; k < nm; k++) {
		json_t *row = json_object(), *runs = json_array();
		json_object_set_new(row, "milestone", json_real(m[k]));
		for (size_t i = 0; i < c->n; i++) {
			const struct track_row *r = row_at(&c->runs[i], m[k]);
			json_t *j = json_object();
			json_object_set_new(j, "segment_s", r ? json_real(r->seg_s) : json_null());
			json_object_set_new(j, "x_first", r ? num_or_null(r->first_ratio) : json_null());
			json_object_set_new(j, "partial", r ? json_boolean(r->partial) : json_null());
			json_object_set_new(j, "vs_base_s", r && i ? num_or_null(r->base_diff_s) : json_null());
			json_array_append_new(runs, j);
		}
		json_object_set_new(row, "runs", runs);
		json_array_append_new(rows, row);
	}
	free(m);
	json_object_set_new(o, "job", json_string(c->job));
	json_object_set_new(o, "runs", names);
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "total", total);
	return o;
}
