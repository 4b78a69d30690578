/* The report's SVG charts: every one titled, with axes, ticks and units (report_charts.h). */
#include "export/report_charts.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = { "#3b6fb6", "#e07b39", "#3a9a5b", "#c03b4a", "#8160b0",
				       "#8c6d46", "#d266a8", "#6b6b6b", "#a7a53a", "#2fa7b8" };
#define COLOR(i) palette[(i) % (sizeof palette / sizeof palette[0])]

void chart_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* The frame of every chart: scales down to the page (a phone's width), its title shown on top
 * and given to screen readers. */
static void chart_open(FILE *f, const char *cls, int W, int H, const char *title)
{
	fprintf(f, "<svg class=\"chart %s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" role=\"img\"><title>", cls, W, H, W, H);
	chart_esc(f, title);
	fprintf(f, "</title>\n<text class=\"chart-title\" x=\"%d\" y=\"16\" text-anchor=\"middle\">", W / 2);
	chart_esc(f, title);
	fputs("</text>\n", f);
}

static void axis_label(FILE *f, int x, int y, int vertical, const char *text)
{
	if (vertical)
		fprintf(f, "<text class=\"axis-label\" transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">", x,
			y);
	else
		fprintf(f, "<text class=\"axis-label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x, y);
	chart_esc(f, text);
	fputs("</text>\n", f);
}

/* A round step for about n ticks up to max: 1, 2 or 5 times a power of ten. */
static double nice_step(double max, int n)
{
	double raw = max / n, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* A step for about n ticks on an axis of seconds: past a minute, a round duration (1 min,
 * 5 min, 15 min, 1 h, ...) rather than 33m20s. */
static double time_step(double max_s, int n)
{
	static const double steps[] = { 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400 };
	double raw = max_s / n;
	if (raw < 60)
		return nice_step(max_s, n);
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] >= raw)
			return steps[i];
	return ceil(raw / 86400) * 86400;
}

/* A tick's text: the metric's own unit policy, or a plain number for Go units. */
static const char *tick_text(const struct ct_table *t, double v, char *buf, size_t len)
{
	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	if (ct_own_metric(t))
		return units_figure(v, t->metric, t->unit, buf, len);
	snprintf(buf, len, "%g", v);
	return buf;
}

static void legend(FILE *f, const char *const *names, size_t n, int y)
{
	int x = 10;
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y, COLOR(i));
		fprintf(f, "<text x=\"%d\" y=\"%d\">", x + 14, y + 9);
		chart_esc(f, names[i]);
		fputs("</text>", f);
		x += 24 + 7 * (int)strlen(names[i]);
	}
	fputc('\n', f);
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

static void bars_of_kind(FILE *f, const struct ct_result *res, const struct ct_table *t, const char *kind)
{
	const int label_w = 130, bar_w = 330, bar_h = 16, gap = 10, W = label_w + bar_w + 140, top = 44;
	size_t nc = res->ncols;
	struct ct_text *tx = ct_texts(res, t);
	double max = 0;
	size_t nrows = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		if (!row_in(res, t, r, kind))
			continue;
		nrows++;
		for (size_t c = 0; c < nc; c++) {
			const struct ct_cell *cell = t->cells[r * nc + c];
			if (cell && isfinite(cell->sum.center) && cell->sum.center > max)
				max = cell->sum.center;
		}
	}
	if (!(max > 0))
		max = 1;
	double step = strcmp(t->unit, "s") == 0 ? time_step(max, 4)
		      : strcmp(t->unit, "ns") == 0 ? time_step(max / 1e9, 4) * (max >= 240e9 ? 1e9 : 0)
						     : 0;
	if (!(step > 0))
		step = nice_step(max, 4);
	double axis_max = ceil(max / step) * step;
	int plot_h = (int)nrows * ((int)nc * bar_h + gap), H = top + plot_h + 52;
	char title[200], name[160], tick[48];
	ct_title(t, name, sizeof name);
	snprintf(title, sizeof title, "%s%s%s, %s", name, kind ? ": " : "", kind ? kind : "",
		 t->direction > 0 ? "higher is better" : t->direction < 0 ? "lower is better" : "median per run");
	chart_open(f, "bars", W, H, title);
	legend(f, (const char *const *)res->cols, nc, 24);
	/* The value axis: ticks with their units, a light grid. */
	int axis_y = top + plot_h;
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", label_w, axis_y,
		label_w + bar_w, axis_y);
	for (double v = 0; v <= axis_max * (1 + 1e-9); v += step) {
		int x = label_w + (int)lround(v / axis_max * bar_w);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>", x, top - 4, x, axis_y);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x, axis_y + 14);
		chart_esc(f, tick_text(t, v, tick, sizeof tick));
		fputs("</text>\n", f);
	}
	axis_label(f, label_w + bar_w / 2, axis_y + 34, 0, name);
	int y = top;
	for (size_t r = 0; r < t->nrows; r++) {
		if (!row_in(res, t, r, kind))
			continue;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label_w - 8, y + ((int)nc * bar_h) / 2 + 4);
		chart_esc(f, t->rows[r]);
		fputs("</text>\n", f);
		for (size_t c = 0; c < nc; c++, y += bar_h) {
			const struct ct_cell *cell = t->cells[r * nc + c];
			const struct ct_text *x = &tx[r * nc + c];
			if (!cell || !isfinite(cell->sum.center))
				continue;
			double v = cell->sum.center;
			int w = v > 0 ? (int)lround(v / axis_max * bar_w) : 0;
			if (w < 1)
				w = 1;
			fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
				label_w, y, w, bar_h - 2, COLOR(c));
			chart_esc(f, res->cols[c]);
			fputs(": ", f);
			chart_esc(f, x->center);
			fputs("</title></rect>", f);
			fprintf(f, "<text x=\"%d\" y=\"%d\">", label_w + w + 4, y + bar_h - 3);
			chart_esc(f, x->center);
			/* The change against the first column, where the test found one. */
			if (c > 0 && x->compared && x->delta[0] && strcmp(x->delta, "~") != 0 && strcmp(x->delta, "?") != 0) {
				fputs(" <tspan class=\"change\" font-weight=\"bold\">", f);
				chart_esc(f, x->delta);
				fputs("</tspan>", f);
			}
			fputs("</text>\n", f);
		}
		y += gap;
	}
	fputs("</svg>\n", f);
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

struct curve {
	const struct histogram *h;
	const char *input, *bench;
	size_t color;
};

#define NPCT 51 /* percentiles at -log10(1 - p) = 0, 0.1, ..., 5: 0% .. 99.999% */

void chart_percentiles(FILE *f, const struct ct_input *in, size_t nin)
{
	struct curve cv[64];
	size_t n = 0;
	for (size_t i = 0; i < nin; i++)
		for (size_t b = 0; b < in[i].r->nbenches; b++)
			for (size_t h = 0; h < in[i].r->benches[b]->nhists && n < 64; h++)
				cv[n++] = (struct curve){ in[i].r->benches[b]->hists[h], in[i].name,
							  in[i].r->benches[b]->name, i };
	if (!n)
		return;
	const int L = 76, W = 600, Hh = 300, T = 30, B = 40, R = 20;
	double ymin = INFINITY, ymax = 0, lat[64][NPCT];
	for (size_t k = 0; k < n; k++) {
		uint64_t total = 0;
		for (size_t i = 0; i < cv[k].h->n; i++)
			total += cv[k].h->count[i];
		for (int j = 0; j < NPCT; j++) {
			double p = 1 - pow(10, -j / 10.0);
			lat[k][j] = total ? hist_at(cv[k].h, total, p) : 0;
			if (lat[k][j] > 0 && lat[k][j] < ymin)
				ymin = lat[k][j];
			if (lat[k][j] > ymax)
				ymax = lat[k][j];
		}
	}
	if (!(ymax > 0))
		return;
	double l0 = log10(ymin), l1 = log10(ymax);
	if (l1 - l0 < 1)
		l0 = l1 - 1;
	fputs("<h2>Latency percentiles</h2>\n", f);
	chart_open(f, "percentiles", W, Hh + 40, "Latency by percentile (log scales), one curve per run and histogram");
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", L, Hh - B + T, W - R,
		Hh - B + T);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", L, T, L, Hh - B + T);
	axis_label(f, L + (W - L - R) / 2, Hh - B + T + 32, 0, "percentile (%, log scale of the tail)");
	axis_label(f, 14, T + (Hh - B) / 2, 1, "latency (ns, µs, ms; log scale)");
	static const char *const xl[] = { "0", "90", "99", "99.9", "99.99", "99.999" };
	for (int d = 0; d <= 5; d++) {
		int x = L + d * (W - L - R) / 5;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>", x, T, x, Hh - B + T);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s%%</text>\n", x, Hh - B + T + 14, xl[d]);
	}
	for (int e = (int)floor(l0); e <= (int)ceil(l1); e++) {
		if (e < l0 || e > l1)
			continue;
		int y = T + (int)lround((l1 - e) / (l1 - l0) * (Hh - B));
		static const char *const units[] = { "ns", "µs", "ms", "s" };
		int u = e / 3 > 3 ? 3 : e / 3;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>", L, y, W - R, y);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%g %s</text>\n", L - 6, y + 4,
			pow(10, e - 3 * u), units[u]);
	}
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			COLOR(cv[k].color + k));
		for (int j = 0; j < NPCT; j++) {
			double v = lat[k][j] > 0 ? log10(lat[k][j]) : l0;
			fprintf(f, "%d,%d ", L + j * (W - L - R) / (NPCT - 1),
				T + (int)lround((l1 - v) / (l1 - l0) * (Hh - B)));
		}
		fputs("\"><title>", f);
		chart_esc(f, cv[k].input);
		fputs(" ", f);
		chart_esc(f, cv[k].bench);
		fputs(" ", f);
		chart_esc(f, cv[k].h->name);
		fputs("</title></polyline>\n", f);
	}
	fputs("</svg>\n", f);
	fputs("<p class=\"meta\">", f);
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "<span style=\"color:%s\">■</span> ", COLOR(cv[k].color + k));
		chart_esc(f, cv[k].input);
		fputs(" · ", f);
		chart_esc(f, cv[k].bench);
		fputs(" · ", f);
		chart_esc(f, cv[k].h->name);
		fputs("&nbsp;&nbsp; ", f);
	}
	fputs("</p>\n", f);
}

void chart_timelines(FILE *f, const struct ct_input *in, size_t nin)
{
	/* one chart per series name, a line per (input, bench) */
	const char *names[32];
	size_t nnames = 0;
	for (size_t i = 0; i < nin; i++)
		for (size_t b = 0; b < in[i].r->nbenches; b++)
			for (size_t s = 0; s < in[i].r->benches[b]->nseries; s++) {
				const char *nm = in[i].r->benches[b]->series[s]->name;
				size_t k;
				for (k = 0; k < nnames && strcmp(names[k], nm) != 0; k++)
					;
				if (k == nnames && nnames < 32)
					names[nnames++] = nm;
			}
	if (!nnames)
		return;
	fputs("<h2>Timelines</h2>\n", f);
	const int L = 76, W = 600, Hh = 260, T = 30, B = 46, R = 30;
	for (size_t k = 0; k < nnames; k++) {
		double x0 = INFINITY, x1 = -INFINITY, y1 = 0;
		const char *xu = "", *yu = "";
		for (size_t i = 0; i < nin; i++)
			for (size_t b = 0; b < in[i].r->nbenches; b++)
				for (size_t s = 0; s < in[i].r->benches[b]->nseries; s++) {
					const struct series *sr = in[i].r->benches[b]->series[s];
					if (strcmp(sr->name, names[k]) != 0)
						continue;
					xu = sr->x_unit;
					yu = sr->y_unit;
					for (size_t p = 0; p < sr->n; p++) {
						if (!isfinite(sr->x[p]) || !isfinite(sr->y[p]))
							continue;
						x0 = fmin(x0, sr->x[p]);
						x1 = fmax(x1, sr->x[p]);
						y1 = fmax(y1, sr->y[p]);
					}
				}
		if (!(x1 > x0))
			x1 = x0 + 1;
		if (!(y1 > 0))
			y1 = 1;
		char title[200], xlab[64], ylab[96], tick[48];
		if (*yu)
			snprintf(title, sizeof title, "%s (%s) over time (%s)", names[k], yu, xu);
		else
			snprintf(title, sizeof title, "%s over time (%s)", names[k], xu);
		snprintf(xlab, sizeof xlab, "time since the start (%s)", *xu ? xu : "s");
		snprintf(ylab, sizeof ylab, "%s%s%s%s", names[k], *yu ? " (" : "", yu, *yu ? ")" : "");
		fputs("<h3>", f);
		chart_esc(f, title);
		fputs("</h3>\n", f);
		chart_open(f, "timeline", W, Hh, title);
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", L, Hh - B, W - R,
			Hh - B);
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", L, T, L, Hh - B);
		double ys = nice_step(y1, 4), xs = strcmp(xu, "s") == 0 ? time_step(x1 - x0, 5) : nice_step(x1 - x0, 5);
		y1 = ceil(y1 / ys) * ys;
		for (double v = 0; v <= y1 * (1 + 1e-9); v += ys) {
			int y = T + (int)lround((1 - v / y1) * (Hh - B - T));
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>", L, y, W - R, y);
			fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%.6g</text>\n", L - 6, y + 4, v);
		}
		for (double v = ceil(x0 / xs) * xs; v <= x1 * (1 + 1e-9); v += xs) {
			int x = L + (int)lround((v - x0) / (x1 - x0) * (W - L - R));
			if (!strcmp(xu, "s") && v >= 60)
				units_duration((uint64_t)(v * 1e9), tick, sizeof tick);
			else
				snprintf(tick, sizeof tick, "%.6g %s", v, xu);
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", x, Hh - B, x, Hh - B + 4);
			fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x, Hh - B + 16);
			chart_esc(f, tick);
			fputs("</text>\n", f);
		}
		axis_label(f, L + (W - L - R) / 2, Hh - 6, 0, xlab);
		axis_label(f, 14, T + (Hh - B - T) / 2, 1, ylab);
		size_t line = 0;
		for (size_t i = 0; i < nin; i++)
			for (size_t b = 0; b < in[i].r->nbenches; b++)
				for (size_t s = 0; s < in[i].r->benches[b]->nseries; s++) {
					const struct series *sr = in[i].r->benches[b]->series[s];
					if (strcmp(sr->name, names[k]) != 0)
						continue;
					fprintf(f, "<polyline class=\"timeline\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" "
						   "points=\"", COLOR(line++));
					for (size_t p = 0; p < sr->n; p++) {
						if (!isfinite(sr->x[p]) || !isfinite(sr->y[p]))
							continue;
						fprintf(f, "%.1f,%.1f ", L + (sr->x[p] - x0) / (x1 - x0) * (W - L - R),
							T + (1 - sr->y[p] / y1) * (Hh - B - T));
					}
					fputs("\"><title>", f);
					chart_esc(f, in[i].name);
					fputs(" · ", f);
					chart_esc(f, in[i].r->benches[b]->name);
					fputs("</title></polyline>\n", f);
				}
		fputs("</svg>\n<p class=\"meta\">", f);
		line = 0; /* the legend, in the lines' order and colours */
		for (size_t i = 0; i < nin; i++)
			for (size_t b = 0; b < in[i].r->nbenches; b++)
				for (size_t s = 0; s < in[i].r->benches[b]->nseries; s++) {
					if (strcmp(in[i].r->benches[b]->series[s]->name, names[k]) != 0)
						continue;
					fprintf(f, "<span style=\"color:%s\">■</span> ", COLOR(line++));
					chart_esc(f, in[i].name);
					fputs(" · ", f);
					chart_esc(f, in[i].r->benches[b]->name);
					fputs("&nbsp;&nbsp; ", f);
				}
		fputs("</p>\n", f);
	}
}

