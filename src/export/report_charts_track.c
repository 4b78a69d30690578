/* The report's timelines (one chart per series name, a line per run: per-second IOPS, track's
 * progress) and track's per-segment ratio bars against a baseline (report_charts.h). */
#include "export/report_charts.h"
#include "export/report_svg.h"
#include "compare/track.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Calls fn for each series of that name, in input and bench order. */
static void each_series(const struct ct_input *in, size_t nin, const char *name,
			void (*fn)(const struct ct_input *in, const struct bench *b, const struct series *s, void *ctx),
			void *ctx)
{
	for (size_t i = 0; i < nin; i++)
		for (size_t b = 0; b < in[i].r->nbenches; b++)
			for (size_t s = 0; s < in[i].r->benches[b]->nseries; s++)
				if (strcmp(in[i].r->benches[b]->series[s]->name, name) == 0)
					fn(&in[i], in[i].r->benches[b], in[i].r->benches[b]->series[s], ctx);
}

struct extent {
	double x0, x1, y1;
	const char *xu, *yu;
};

static void grow_extent(const struct ct_input *in, const struct bench *b, const struct series *sr, void *ctx)
{
	struct extent *e = ctx;
	(void)in, (void)b;
	e->xu = sr->x_unit;
	e->yu = sr->y_unit;
	for (size_t p = 0; p < sr->n; p++) {
		if (!isfinite(sr->x[p]) || !isfinite(sr->y[p]))
			continue;
		e->x0 = fmin(e->x0, sr->x[p]);
		e->x1 = fmax(e->x1, sr->x[p]);
		e->y1 = fmax(e->y1, sr->y[p]);
	}
}

struct lines {
	FILE *f;
	const struct chart_axis *x, *y;
	size_t n;
	int legend;
};

static void draw_line(const struct ct_input *in, const struct bench *b, const struct series *sr, void *ctx)
{
	struct lines *l = ctx;
	FILE *f = l->f;
	if (l->legend) {
		fprintf(f, "<span style=\"color:%s\">■</span> ", chart_color(l->n++));
	} else {
		fprintf(f, "<polyline class=\"timeline\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" points=\"",
			chart_color(l->n++));
		for (size_t p = 0; p < sr->n; p++)
			if (isfinite(sr->x[p]) && isfinite(sr->y[p]))
				fprintf(f, "%.1f,%.1f ", chart_pos(l->x, sr->x[p]), chart_pos(l->y, sr->y[p]));
		fputs("\"><title>", f);
	}
	chart_esc(f, in->name);
	fputs(" · ", f);
	chart_esc(f, b->name);
	fputs(l->legend ? "&nbsp;&nbsp; " : "</title></polyline>\n", f);
}

/* A y tick: the series' unit by the unit policy ("45210 IOPS"), a bare count ("50.0M") without one. */
static const char *y_label(double v, void *ctx, char *buf, size_t len)
{
	const char *const *nu = ctx;
	if (v == 0)
		return snprintf(buf, len, "0"), buf;
	if (!*nu[1])
		return units_count(v, buf, len);
	return units_figure(v, nu[0], nu[1], buf, len);
}

static void one_timeline(FILE *f, const struct ct_input *in, size_t nin, const char *name)
{
	const int L = 76, W = CHART_W, Hh = 260, T = 30, B = 46, R = 30;
	struct extent e = { INFINITY, -INFINITY, 0, "", "" };
	each_series(in, nin, name, grow_extent, &e);
	if (!(e.x1 > e.x0))
		e.x1 = e.x0 + 1;
	if (!(e.y1 > 0))
		e.y1 = 1;
	int secs = strcmp(e.xu, "s") == 0;
	const char *nu[2] = { name, e.yu };
	double ys = chart_nice_step(e.y1, 4), xs = secs ? chart_time_step(e.x1 - e.x0, 5) : chart_nice_step(e.x1 - e.x0, 5);
	struct chart_axis x = { .horizontal = 1, .from = L, .to = W - R, .at = Hh - B, .grid_to = T, .lo = e.x0,
				.hi = e.x1, .step = xs, .label = secs ? chart_seconds_label : NULL },
			  y = { .from = Hh - B, .to = T, .at = L, .grid_to = W - R, .lo = 0, .hi = ceil(e.y1 / ys) * ys,
				.step = ys, .label = y_label, .ctx = (void *)nu };
	char title[200], xlab[64], ylab[96];
	if (*e.yu)
		snprintf(title, sizeof title, "%s (%s) over time (%s)", name, e.yu, e.xu);
	else
		snprintf(title, sizeof title, "%s over time (%s)", name, e.xu);
	snprintf(xlab, sizeof xlab, "time since the start (%s)", *e.xu ? e.xu : "s");
	snprintf(ylab, sizeof ylab, "%s%s%s%s", name, *e.yu ? " (" : "", e.yu, *e.yu ? ")" : "");
	fputs("<h3>", f);
	chart_esc(f, title);
	fputs("</h3>\n", f);
	chart_open(f, "timeline", W, Hh, title);
	chart_draw_axis(f, &x);
	chart_draw_axis(f, &y);
	chart_axis_label(f, L + (W - L - R) / 2, Hh - 6, 0, xlab);
	chart_axis_label(f, 14, T + (Hh - B - T) / 2, 1, ylab);
	struct lines l = { f, &x, &y, 0, 0 };
	each_series(in, nin, name, draw_line, &l);
	chart_close(f);
	fputs("<p class=\"meta\">", f);
	l = (struct lines){ f, &x, &y, 0, 1 }; /* the legend, in the lines' order and colours */
	each_series(in, nin, name, draw_line, &l);
	fputs("</p>\n", f);
}

void chart_timelines(FILE *f, const struct ct_input *in, size_t nin)
{
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
	for (size_t k = 0; k < nnames; k++)
		one_timeline(f, in, nin, names[k]);
}

/* --- track's segments against the baseline ---------------------------------------------- */

#define MAX_SEGS 400

/* The segments of a progress series: from each point to the next, their time and span. */
struct segs {
	double start[MAX_SEGS], end[MAX_SEGS], dt[MAX_SEGS];
	int partial[MAX_SEGS];
	size_t n;
};

static void segs_of(const struct bench *b, const struct series *sr, struct segs *g)
{
	double every = json_number_value(json_object_get(b->settings, "every"));
	g->n = 0;
	for (size_t p = 1; p < sr->n && g->n < MAX_SEGS; p++) {
		double span = sr->y[p] - sr->y[p - 1], dt = sr->x[p] - sr->x[p - 1];
		if (!(span > 0) || !(dt >= 0) || !isfinite(span) || !isfinite(dt))
			continue;
		g->start[g->n] = sr->y[p - 1];
		g->end[g->n] = sr->y[p];
		g->dt[g->n] = dt;
		g->partial[g->n++] = span < every * (1 - 1e-9);
	}
}

/* The ratio of time per unit of segment k of g to the baseline's segment that covers it
 * (the same one for a full segment; for a partial one, the full segment it falls in). */
static double seg_ratio(const struct segs *g, size_t k, const struct segs *base)
{
	double eps = (g->end[k] - g->start[k]) * 1e-9;
	for (size_t j = 0; j < base->n; j++)
		if (base->start[j] <= g->start[k] + eps && base->end[j] >= g->end[k] - eps && base->dt[j] > 0)
			return (g->dt[k] / (g->end[k] - g->start[k])) / (base->dt[j] / (base->end[j] - base->start[j]));
	return NAN;
}

static const char *ratio_label(double v, void *ctx, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "x%g", v);
	return buf;
}

struct seg_chart {
	const char *job;
	const struct ct_input *base;
	struct segs bsegs;
	const struct ct_input *runs[8];
	struct segs segs[8];
	double ratio[8][MAX_SEGS], max;
	size_t nruns, nsegs;
};

/* The runs of job after the baseline (in[ib]) and their ratios; 0 when none. */
static size_t seg_collect(const struct ct_input *in, size_t nin, size_t ib, const struct bench *bb,
			  struct seg_chart *c)
{
	c->job = bb->name;
	c->base = &in[ib];
	c->nruns = c->nsegs = 0;
	c->max = 1;
	segs_of(bb, track_saved_progress(bb), &c->bsegs);
	for (size_t i = ib + 1; i < nin && c->nruns < 8; i++) {
		const struct bench *b = record_find_bench(in[i].r, bb->name);
		const struct series *sr = b ? track_saved_progress(b) : NULL;
		if (!sr)
			continue;
		struct segs *g = &c->segs[c->nruns];
		segs_of(b, sr, g);
		for (size_t k = 0; k < g->n; k++) {
			c->ratio[c->nruns][k] = seg_ratio(g, k, &c->bsegs);
			if (isfinite(c->ratio[c->nruns][k]))
				c->max = fmax(c->max, c->ratio[c->nruns][k]);
		}
		c->nsegs = g->n > c->nsegs ? g->n : c->nsegs;
		c->runs[c->nruns++] = &in[i];
	}
	return c->nruns;
}

/* A bar per run in segment k's slot, partial ones pale and dashed. */
static void seg_bars(FILE *f, const struct seg_chart *c, const struct chart_axis *y, size_t k, double x0, double slot)
{
	double w = slot * 0.8 / (double)c->nruns;
	char a[32], b[32];
	for (size_t r = 0; r < c->nruns; r++) {
		double v = c->ratio[r][k];
		if (k >= c->segs[r].n || !isfinite(v))
			continue;
		int partial = c->segs[r].partial[k];
		double x = x0 + slot * 0.1 + w * (double)r, top = chart_pos(y, v), h = chart_pos(y, 0) - top;
		fprintf(f, "<rect class=\"ratio%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s><title>",
			partial ? " partial" : "", x, top, fmax(w - 1, 1), h, chart_color(r + 1),
			partial ? " fill-opacity=\"0.4\" stroke=\"#333\" stroke-dasharray=\"3 2\"" : "");
		chart_esc(f, c->runs[r]->name);
		fprintf(f, ", %s to %s: x%.2f%s</title></rect>", units_count(c->segs[r].start[k], a, sizeof a),
			units_count(c->segs[r].end[k], b, sizeof b), v,
			partial ? " (partial: per unit)" : "");
		if (w >= 28)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">x%.2f%s</text>", x + w / 2, top - 3, v,
				partial ? "*" : "");
		fputc('\n', f);
	}
}

static void seg_chart_draw(FILE *f, struct seg_chart *c)
{
	const int L = 70, W = CHART_W, R = 20, B = 50;
	char title[300], lab[32];
	snprintf(title, sizeof title, "%s: each segment's time per unit against %s", c->job, c->base->name);
	const char *names[9] = { c->base->name };
	for (size_t r = 0; r < c->nruns; r++)
		names[r + 1] = c->runs[r]->name;
	int T = chart_legend_bottom(names, c->nruns + 1, 24, W) + 12, H = T + 238;
	double step = chart_nice_step(c->max, 4);
	struct chart_axis y = { .from = H - B, .to = T, .at = L, .grid_to = W - R, .lo = 0,
				.hi = ceil(c->max * 1.1 / step) * step, .step = step, .label = ratio_label };
	chart_open(f, "segments", W, H, title);
	chart_legend(f, names, c->nruns + 1, 24, W);
	chart_draw_axis(f, &y);
	double slot = (double)(W - R - L) / (double)c->nsegs;
	size_t every = (size_t)ceil(c->nsegs / 10.0); /* about ten slot labels */
	for (size_t k = 0; k < c->nsegs; k++) {
		seg_bars(f, c, &y, k, L + slot * (double)k, slot);
		if (k % every)
			continue;
		const struct segs *g = c->segs[0].n > k ? &c->segs[0] : &c->bsegs;
		int partial = 0;
		for (size_t r = 0; r < c->nruns; r++)
			partial |= k < c->segs[r].n && c->segs[r].partial[k];
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%s</text>\n",
			L + slot * ((double)k + 0.5), H - B + 14, k < g->n ? units_count(g->end[k], lab, sizeof lab) : "?",
			partial ? "*" : "");
	}
	int y1 = (int)lround(chart_pos(&y, 1));
	fprintf(f, "<line class=\"baseline\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\" "
		   "stroke-dasharray=\"5 3\"/>\n", L, y1, W - R, y1, chart_color(0));
	chart_axis_label(f, L + (W - L - R) / 2, H - 12, 0, "segment, by the progress it ends at (* partial; above x1: slower)");
	chart_axis_label(f, 14, T + (H - B - T) / 2, 1, "time per unit (x baseline)");
	chart_close(f);
}

void chart_track_segments(FILE *f, const struct ct_input *in, size_t nin)
{
	static struct seg_chart c;
	int header = 0;
	for (size_t i = 0; i < nin; i++)
		for (size_t b = 0; b < in[i].r->nbenches; b++) {
			const struct bench *bb = in[i].r->benches[b];
			size_t k;
			if (!track_saved_progress(bb))
				continue;
			for (k = 0; k < i && !record_find_bench(in[k].r, bb->name); k++)
				; /* the baseline is the first input with this job */
			if (k < i || !seg_collect(in, nin, i, bb, &c) || !c.nsegs)
				continue;
			if (!header)
				fputs("<h2>Segments against the baseline</h2>\n", f);
			header = 1;
			seg_chart_draw(f, &c);
		}
}
