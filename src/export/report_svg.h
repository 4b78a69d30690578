/* The drawing pieces every chart of the report shares (export/report_charts.h lists the
 * charts): the frame with its title, the colours, legends, axis titles, and value axes (linear
 * or log, with ticks whose labels carry units), so each chart draws its axes the same way. */
#ifndef NM_EXPORT_REPORT_SVG_H
#define NM_EXPORT_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/* The colour of run or series i (ten, then repeating). */
const char *chart_color(size_t i);
/* Text escaped for HTML and SVG. */
void chart_esc(FILE *f, const char *s);
/* The font size of chart text (px in the SVG's units); the standard width of a chart. */
#define CHART_FONT 12
#define CHART_W 760
/* About how wide s is drawn at px (a per-character width table, on the wide side). */
double chart_text_w(const char *s, double px);
/* s, or s cut to fit max_w with an ellipsis into buf. */
const char *chart_fit(const char *s, double px, double max_w, char *buf, size_t len);
/* A text at (x, y) fitted to max_w; when cut, the whole text is its tooltip (<title>). */
void chart_label(FILE *f, double x, double y, const char *anchor, const char *s, double max_w);
/* The frame of every chart: scales down to the page (a phone's width), its title shown on top
 * and given to screen readers.  Close it with chart_close. */
void chart_open(FILE *f, const char *cls, int W, int H, const char *title);
void chart_close(FILE *f);
/* An axis title (text.axis-label), rotated when vertical. */
void chart_axis_label(FILE *f, int x, int y, int vertical, const char *text);
/* A colour square and name per entry, in rows across a chart W wide from (10, y); the
 * _bottom form says where the legend ends without drawing it (to place what follows). */
void chart_legend(FILE *f, const char *const *names, size_t n, int y, int W);
int chart_legend_bottom(const char *const *names, size_t n, int y, int W);
/* The legend of a chart that compares runs: each run's name in its colour, from (10, y);
 * nothing for one run (there is nothing to tell apart). */
struct ct_input;
void chart_legend_runs(FILE *f, const struct ct_input *const *runs, size_t n, int y, int W);
int chart_legend_runs_bottom(const struct ct_input *const *runs, size_t n, int y, int W);

/* A round step for about n ticks up to max: 1, 2 or 5 times a power of ten. */
double chart_nice_step(double max, int n);
/* A step for about n ticks on an axis of seconds: past a minute a round duration (1 min,
 * 5 min, 15 min, 1 h, ...) rather than 33m20s. */
double chart_time_step(double max_s, int n);

/* A value axis: values lo..hi drawn from pixel `from` to pixel `to` (x when horizontal, y
 * otherwise: from is the bottom then), its line at `at` (y when horizontal, x otherwise), grid
 * lines across to `grid_to`.  Log: lo and hi are the values (> 0), ticks at powers of ten. */
struct chart_axis {
	int horizontal, log;
	int from, to, at, grid_to;
	double lo, hi, step;            /* step: linear ticks every step from the first multiple */
	/* A tick's text into buf (returns it); NULL: %g. */
	const char *(*label)(double v, void *ctx, char *buf, size_t len);
	void *ctx;
};
/* The pixel of value v (clamped to the axis for a log axis's v <= 0). */
double chart_pos(const struct chart_axis *a, double v);
/* The axis line, its ticks, their labels (text.tick) and a light grid. */
void chart_draw_axis(FILE *f, const struct chart_axis *a);
/* A tick's text for a figure of nodemark's own unit policy (ctx: const char *[2] = metric, unit). */
const char *chart_figure_label(double v, void *ctx, char *buf, size_t len);
/* A tick's text for seconds: "0", "1.5 s", past a minute "15m00s". */
const char *chart_seconds_label(double v, void *ctx, char *buf, size_t len);

#endif
