/* The report's bar and latency-percentile charts (report_charts.h); the shared axes and frame
 * are in report_svg.c, the disk panel, time boxes and track charts in report_charts_*.c. */
#include "export/report_charts.h"
#include "export/report_svg.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A tick's text: the metric's own unit policy, or a plain number for Go units. */
static const char *tick_text(double v, void *ctx, char *buf, size_t len)
{
	const struct ct_table *t = ctx;
	const char *mu[2] = { t->metric, t->unit };
	if (ct_own_metric(t))
		return chart_figure_label(v, (void *)mu, buf, len);
	snprintf(buf, len, "%g", v);
	return buf;
}

/* A row's kind: its first cell's. */
static const char *row_kind(const struct ct_result *res, const struct ct_table *t, size_t r)
{
	for (size_t c = 0; c < res->ncols; c++)
		if (t->cells[r * res->ncols + c] && t->cells[r * res->ncols + c]->kind)
			return t->cells[r * res->ncols + c]->kind;
	return "";
}

static int row_in(const struct ct_result *res, const struct ct_table *t, size_t r, const char *kind)
{
	return !kind || strcmp(row_kind(res, t, r), kind) == 0;
}

static void bars_of_kind(FILE *f, const struct ct_result *res, const struct ct_table *t, const char *kind);

void chart_bars(FILE *f, const struct ct_result *res, const struct ct_table *t)
{
	if (!t->mixed_kinds) {
		bars_of_kind(f, res, t, NULL);
		return;
	}
	/* One chart per kind (memory, hash, disk...): their figures share no scale. */
	for (size_t r = 0; r < t->nrows; r++) {
		size_t k;
		for (k = 0; k < r && strcmp(row_kind(res, t, k), row_kind(res, t, r)) != 0; k++)
			;
		if (k == r)
			bars_of_kind(f, res, t, row_kind(res, t, r));
	}
}

/* A step of round durations for seconds (and nanoseconds past 4 minutes), else 1-2-5. */
static double bar_step(const struct ct_table *t, double max)
{
	double step = strcmp(t->unit, "s") == 0	   ? chart_time_step(max, 4)
		      : strcmp(t->unit, "ns") == 0 ? chart_time_step(max / 1e9, 4) * (max >= 240e9 ? 1e9 : 0)
						   : 0;
	return step > 0 ? step : chart_nice_step(max, 4);
}

/* One bar: its tooltip, its figure after it, and the change against the first column where the
 * test found one. */
static void one_bar(FILE *f, const struct ct_result *res, size_t c, const struct ct_text *x, int x0, int y, int w,
		    int h)
{
	fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>", x0, y, w,
		h - 2, chart_color(c));
	chart_esc(f, res->cols[c]);
	fputs(": ", f);
	chart_esc(f, x->center);
	fputs("</title></rect>", f);
	fprintf(f, "<text x=\"%d\" y=\"%d\">", x0 + w + 4, y + h - 3);
	chart_esc(f, x->center);
	if (c > 0 && x->compared && x->delta[0] && strcmp(x->delta, "~") != 0 && strcmp(x->delta, "?") != 0) {
		fputs(" <tspan class=\"change\" font-weight=\"bold\">", f);
		chart_esc(f, x->delta);
		fputs("</tspan>", f);
	}
	fputs("</text>\n", f);
}

/* How wide a bar's figure and change are drawn (one_bar's text, partly bold). */
static double bar_text_w(const struct ct_text *x)
{
	return chart_text_w(x->center, CHART_FONT) + 6 + (x->delta[0] ? chart_text_w(x->delta, CHART_FONT + 1) : 0);
}

static void bars_of_kind(FILE *f, const struct ct_result *res, const struct ct_table *t, const char *kind)
{
	const int bar_h = 16, gap = 10;
	size_t nc = res->ncols, nrows = 0;
	double max = 0, row_w = 40, text_w = 40;
	struct ct_text *tx = ct_texts(res, t);
	for (size_t r = 0; r < t->nrows; r++) {
		if (!row_in(res, t, r, kind))
			continue;
		nrows++;
		row_w = fmax(row_w, chart_text_w(t->rows[r], CHART_FONT));
		for (size_t c = 0; c < nc; c++) {
			const struct ct_cell *cell = t->cells[r * nc + c];
			if (cell && isfinite(cell->sum.center) && cell->sum.center > max)
				max = cell->sum.center;
			if (cell)
				text_w = fmax(text_w, bar_text_w(&tx[r * nc + c]));
		}
	}
	if (!(max > 0))
		max = 1;
	/* the row labels' column as wide as the longest (a third of the chart at most, cut beyond),
	 * room after the bars for the longest figure */
	int label_w = (int)fmin(row_w, CHART_W / 3) + 16, right = (int)text_w + 12;
	int W = CHART_W > label_w + 200 + right ? CHART_W : label_w + 200 + right, bar_w = W - label_w - right;
	int top = chart_legend_bottom((const char *const *)res->cols, nc, 24, W) + 8;
	double step = bar_step(t, max);
	int plot_h = (int)nrows * ((int)nc * bar_h + gap), H = top + plot_h + 52, axis_y = top + plot_h;
	struct chart_axis ax = { .horizontal = 1, .from = label_w, .to = label_w + bar_w, .at = axis_y,
				 .grid_to = top - 4, .lo = 0, .hi = ceil(max / step) * step, .step = step,
				 .label = tick_text, .ctx = (void *)t };
	/* headed as the tables head the metric, with the units of this chart's figures */
	char title[200], name[160], units[96] = "", fig[48];
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < nc && row_in(res, t, r, kind); c++)
			if (t->cells[r * nc + c])
				units_shown_add(units, sizeof units, units_figure(t->cells[r * nc + c]->sum.center, t->metric,
									 t->unit, fig, sizeof fig));
	if (ct_own_metric(t)) {
		units_header(t->metric, units, name, sizeof name);
		/* an axis names a unit: the record's where the figures carry none apart (1h07m13s)
		 * or it is the metric's word (IOPS), so the head came out without one */
		if (!strchr(name, '('))
			units_header(t->metric, t->unit, name, sizeof name);
	} else {
		ct_title(t, name, sizeof name);
	}
	snprintf(title, sizeof title, "%s%s%s, %s", name, kind ? ": " : "", kind ? kind : "",
		 t->direction > 0 ? "higher is better" : t->direction < 0 ? "lower is better" : "median per run");
	chart_open(f, "bars", W, H, title);
	chart_legend(f, (const char *const *)res->cols, nc, 24, W);
	chart_draw_axis(f, &ax);
	chart_axis_label(f, label_w + bar_w / 2, axis_y + 34, 0, name);
	int y = top;
	for (size_t r = 0; r < t->nrows; r++) {
		if (!row_in(res, t, r, kind))
			continue;
		chart_label(f, label_w - 8, y + ((int)nc * bar_h) / 2 + 4, "end", t->rows[r], label_w - 12);
		for (size_t c = 0; c < nc; c++, y += bar_h) {
			const struct ct_cell *cell = t->cells[r * nc + c];
			if (!cell || !isfinite(cell->sum.center))
				continue;
			int w = (int)lround(chart_pos(&ax, cell->sum.center)) - label_w;
			one_bar(f, res, c, &tx[r * nc + c], label_w, y, w < 1 ? 1 : w, bar_h);
		}
		y += gap;
	}
	chart_close(f);
	free(tx);
}

/* Latency at percentile p (0..1) of a sparse histogram: the first bucket where the running
 * count reaches p * total, as fio reports percentiles. */
static double hist_at(const struct histogram *h, uint64_t total, double p)
{
	uint64_t run = 0;
	double want = p * (double)total;
	for (size_t i = 0; i < h->n; i++) {
		run += h->count[i];
		if ((double)run >= want && run > 0)
			return (double)h->value_ns[i];
	}
	return h->n ? (double)h->value_ns[h->n - 1] : 0;
}

#define NCURVES 64
#define NPCT 51 /* percentiles at -log10(1 - p) = 0, 0.1, ..., 5: 0% .. 99.999% */

struct curves {
	const struct histogram *h[NCURVES];
	const char *input[NCURVES], *bench[NCURVES];
	size_t n;
	double lat[NCURVES][NPCT], ymin, ymax;
};

/* Every histogram of every input, and its latency at each of the NPCT percentiles. */
static void curves_collect(const struct ct_input *in, size_t nin, struct curves *cv)
{
	cv->n = 0;
	cv->ymin = INFINITY;
	cv->ymax = 0;
	for (size_t i = 0; i < nin; i++)
		for (size_t b = 0; b < in[i].r->nbenches; b++)
			for (size_t h = 0; h < in[i].r->benches[b]->nhists && cv->n < NCURVES; h++, cv->n++) {
				size_t k = cv->n;
				cv->h[k] = in[i].r->benches[b]->hists[h];
				cv->input[k] = in[i].name;
				cv->bench[k] = in[i].r->benches[b]->name;
				uint64_t total = 0;
				for (size_t j = 0; j < cv->h[k]->n; j++)
					total += cv->h[k]->count[j];
				for (int j = 0; j < NPCT; j++) {
					double v = total ? hist_at(cv->h[k], total, 1 - pow(10, -j / 10.0)) : 0;
					cv->lat[k][j] = v;
					if (v > 0 && v < cv->ymin)
						cv->ymin = v;
					cv->ymax = fmax(cv->ymax, v);
				}
			}
}

static const char *pct_label(double v, void *ctx, char *buf, size_t len)
{
	static const char *const xl[] = { "0", "90", "99", "99.9", "99.99", "99.999" };
	(void)ctx;
	int d = (int)lround(v);
	snprintf(buf, len, "%s%%", d >= 0 && d <= 5 ? xl[d] : "?");
	return buf;
}

static const char *ns_label(double v, void *ctx, char *buf, size_t len)
{
	const char *mu[2] = { "lat_ns", "ns" };
	return chart_figure_label(v, (void *)mu, buf, len);
}

#define CURVES_PER_CHART 8 /* more are a tangle of repeated colours: small multiples instead */

/* Curves k0..k1 of cv in one chart, their legend below it. */
static void percentile_chart(FILE *f, const struct curves *cv, size_t k0, size_t k1, const char *title)
{
	const int L = 76, W = CHART_W, Hh = 300, T = 30, B = 40, R = 20;
	double lo = pow(10, floor(log10(cv->ymin))), hi = pow(10, ceil(log10(cv->ymax)));
	if (hi / lo < 10)
		lo = hi / 10;
	struct chart_axis x = { .horizontal = 1, .from = L, .to = W - R, .at = Hh - B + T, .grid_to = T, .lo = 0,
				.hi = 5, .step = 1, .label = pct_label },
			  y = { .log = 1, .from = Hh - B + T, .to = T, .at = L, .grid_to = W - R, .lo = lo, .hi = hi,
				.label = ns_label };
	chart_open(f, "percentiles", W, Hh + 40, title);
	chart_draw_axis(f, &x);
	chart_draw_axis(f, &y);
	chart_axis_label(f, L + (W - L - R) / 2, Hh - B + T + 32, 0, "percentile (%, log scale of the tail)");
	chart_axis_label(f, 14, T + (Hh - B) / 2, 1, "latency (ns, µs, ms; log scale)");
	for (size_t k = k0; k < k1; k++) {
		fprintf(f, "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			chart_color(k - k0));
		for (int j = 0; j < NPCT; j++)
			fprintf(f, "%.1f,%.1f ", chart_pos(&x, j / 10.0), chart_pos(&y, cv->lat[k][j] > 0 ? cv->lat[k][j] : lo));
		fputs("\"><title>", f);
		chart_esc(f, cv->input[k]);
		fputs(" ", f);
		chart_esc(f, cv->bench[k]);
		fputs(" ", f);
		chart_esc(f, cv->h[k]->name);
		fputs("</title></polyline>\n", f);
	}
	chart_close(f);
	fputs("<p class=\"meta\">", f);
	for (size_t k = k0; k < k1; k++) {
		fprintf(f, "<span style=\"color:%s\">■</span> ", chart_color(k - k0));
		chart_esc(f, cv->input[k]);
		fputs(" · ", f);
		chart_esc(f, cv->bench[k]);
		fputs(" · ", f);
		chart_esc(f, cv->h[k]->name);
		fputs("&nbsp;&nbsp; ", f);
	}
	fputs("</p>\n", f);
}

void chart_percentiles(FILE *f, const struct ct_input *in, size_t nin)
{
	static struct curves cv;
	curves_collect(in, nin, &cv);
	if (!cv.n || !(cv.ymax > 0))
		return;
	fputs("<h2>Latency percentiles</h2>\n", f);
	/* as many charts as needed, the curves shared out evenly, on one latency scale */
	size_t ncharts = (cv.n + CURVES_PER_CHART - 1) / CURVES_PER_CHART, per = (cv.n + ncharts - 1) / ncharts;
	for (size_t c = 0, k0 = 0; k0 < cv.n; c++, k0 += per) {
		char title[160];
		if (ncharts > 1)
			snprintf(title, sizeof title, "Latency by percentile (log scales), chart %zu of %zu", c + 1, ncharts);
		else
			snprintf(title, sizeof title, "Latency by percentile (log scales), one curve per run and histogram");
		percentile_chart(f, &cv, k0, k0 + per < cv.n ? k0 + per : cv.n, title);
	}
}
