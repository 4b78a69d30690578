/* The report's box plots of `time` runs (report_charts.h): a row per command, a box per run
 * (quartiles, the median, whiskers to the farthest sample within 1.5 IQR, as hyperfine's
 * whisker plot) with every sample drawn as a dot, on a log axis when the commands' times
 * differ more than 30-fold, else linear. */
#include "export/report_charts.h"
#include "export/report_svg.h"
#include "stats/summary.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 24
#define MAX_RUNS 10

struct boxes {
	const char *rows[MAX_ROWS];
	size_t nrows;
	const struct ct_input *runs[MAX_RUNS];
	size_t nruns;
	const struct metric *m[MAX_ROWS][MAX_RUNS]; /* wall_s; NULL where that run lacks the command */
	double lo, hi;
};

/* A bench of `time`: a command and its wall-clock samples. */
static const struct metric *time_wall(const struct bench *b)
{
	const struct metric *m = bench_find_metric(b, "wall_s");
	return m && m->nsamples && json_is_string(json_object_get(b->settings, "command")) ? m : NULL;
}

static void boxes_collect(const struct ct_input *in, size_t nin, struct boxes *x)
{
	memset(x, 0, sizeof *x);
	x->lo = INFINITY;
	for (size_t i = 0; i < nin && x->nruns < MAX_RUNS; i++) {
		int found = 0;
		for (size_t b = 0; b < in[i].r->nbenches; b++) {
			const struct bench *be = in[i].r->benches[b];
			const struct metric *m = time_wall(be);
			size_t k;
			if (!m)
				continue;
			for (k = 0; k < x->nrows && strcmp(x->rows[k], be->name) != 0; k++)
				;
			if (k == MAX_ROWS)
				continue;
			if (k == x->nrows)
				x->rows[x->nrows++] = be->name;
			x->m[k][x->nruns] = m;
			for (size_t s = 0; s < m->nsamples; s++)
				if (isfinite(m->samples[s]) && m->samples[s] > 0) {
					x->lo = fmin(x->lo, m->samples[s]);
					x->hi = fmax(x->hi, m->samples[s]);
				}
			found = 1;
		}
		if (found)
			x->runs[x->nruns++] = &in[i];
	}
}

/* The axis that fits: log past a 30-fold range, else linear from 0, or zoomed in when every
 * sample is past half the largest (the spread would be a sliver otherwise). */
static void time_axis(const struct boxes *x, struct chart_axis *a)
{
	a->label = chart_seconds_label;
	if (x->hi / x->lo > 30) {
		a->log = 1;
		a->lo = pow(10, floor(log10(x->lo)));
		a->hi = pow(10, ceil(log10(x->hi)));
		return;
	}
	double lo = x->lo > x->hi / 2 ? x->lo : 0, span = x->hi - lo > 0 ? x->hi - lo : x->hi;
	a->step = x->hi >= 300 ? chart_time_step(span, 5) : chart_nice_step(span, 5);
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(x->hi / a->step) * a->step;
	if (!(a->hi > a->lo))
		a->hi = a->lo + a->step;
}

/* The q-quantile of n sorted values, interpolated. */
static double quantile(const double *v, size_t n, double q)
{
	double at = q * (double)(n - 1);
	size_t i = (size_t)at;
	return i + 1 < n ? v[i] + (at - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* One box: whiskers, the quartile box, the median, the samples as dots (spread over the box's
 * height by a fixed sequence, so the picture is the same every time). */
static void one_box(FILE *f, const struct chart_axis *a, const struct metric *m, size_t color, const char *who, int y,
		    int h)
{
	double *v = malloc(m->nsamples * sizeof *v);
	size_t n = 0;
	for (size_t s = 0; v && s < m->nsamples; s++)
		if (isfinite(m->samples[s]) && m->samples[s] > 0)
			v[n++] = m->samples[s];
	if (!n) {
		free(v);
		return;
	}
	stats_sort(v, n);
	double q1 = quantile(v, n, 0.25), med = quantile(v, n, 0.5), q3 = quantile(v, n, 0.75), iqr = q3 - q1;
	double wlo = v[0], whi = v[n - 1];
	for (size_t s = 0; s < n && v[s] < q1 - 1.5 * iqr; s++)
		wlo = v[s + 1];
	for (size_t s = n; s > 0 && v[s - 1] > q3 + 1.5 * iqr; s--)
		whi = v[s - 2];
	double x1 = chart_pos(a, q1), x3 = chart_pos(a, q3), xm = chart_pos(a, med), mid = y + h / 2.0;
	char t[48];
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>", chart_pos(a, wlo), mid,
		chart_pos(a, whi), mid);
	fprintf(f, "<rect class=\"box\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.25\" "
		   "stroke=\"%s\"><title>", x1, y + 2, fmax(x3 - x1, 1), h - 4, chart_color(color), chart_color(color));
	chart_esc(f, who);
	fprintf(f, ": median %s, ", chart_seconds_label(med, NULL, t, sizeof t));
	fprintf(f, "quartiles %s", chart_seconds_label(q1, NULL, t, sizeof t));
	fprintf(f, " to %s, %zu samples</title></rect>", chart_seconds_label(q3, NULL, t, sizeof t), n);
	fprintf(f, "<line class=\"median\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#222\" stroke-width=\"2\"/>\n",
		xm, y + 2, xm, y + h - 2);
	for (size_t s = 0; s < m->nsamples; s++) {
		double sv = m->samples[s], jitter = fmod((double)s * 0.6180339887, 1.0) - 0.5;
		if (isfinite(sv) && sv > 0)
			fprintf(f, "<circle class=\"sample\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\" fill=\"%s\" fill-opacity=\"0.7\"/>",
				chart_pos(a, sv), mid + jitter * (h - 8), chart_color(color));
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", fmax(x3, chart_pos(a, whi)) + 6, mid + 4,
		chart_seconds_label(med, NULL, t, sizeof t));
	free(v);
}

void chart_time_boxes(FILE *f, const struct ct_input *in, size_t nin)
{
	static struct boxes x;
	boxes_collect(in, nin, &x);
	if (!x.nrows || !(x.hi > 0))
		return;
	double row_w = 40;
	for (size_t k = 0; k < x.nrows; k++)
		row_w = fmax(row_w, chart_text_w(x.rows[k], CHART_FONT));
	/* the commands' column as wide as the longest (a third of the chart at most, cut beyond);
	 * room on the right for the median written after the largest box */
	const int W = CHART_W, L = (int)fmin(row_w, W / 3) + 16, R = 80, box_h = 22, gap = 10;
	int top = chart_legend_runs_bottom(x.runs, x.nruns, 24, W) + (x.nruns > 1 ? 4 : 0);
	top = top > 30 ? top : 30;
	int row_h = (int)x.nruns * box_h + gap, axis_y = top + (int)x.nrows * row_h, H = axis_y + 44;
	struct chart_axis a = { .horizontal = 1, .from = L, .to = W - R, .at = axis_y, .grid_to = top - 4 };
	time_axis(&x, &a);
	fputs("<h2>Commands timed</h2>\n", f);
	chart_open(f, "time-boxes", W, H, "Wall time per command: a box per run (quartiles, median), samples as dots");
	chart_legend_runs(f, x.runs, x.nruns, 24, W);
	chart_draw_axis(f, &a);
	for (size_t k = 0; k < x.nrows; k++) {
		int y = top + (int)k * row_h;
		chart_label(f, L - 8, y + ((int)x.nruns * box_h) / 2 + 4, "end", x.rows[k], L - 12);
		for (size_t r = 0; r < x.nruns; r++)
			if (x.m[k][r])
				one_box(f, &a, x.m[k][r], r, x.runs[r]->name, y + (int)r * box_h, box_h);
	}
	chart_axis_label(f, L + (W - L - R) / 2, axis_y + 34, 0, a.log ? "wall time (s, log scale)" : "wall time (s)");
	chart_close(f);
}
