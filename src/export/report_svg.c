/* The shared pieces of the report's charts (report_svg.h). */
#include "export/report_svg.h"
#include "compare/table.h"
#include "util/units.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = { "#3b6fb6", "#e07b39", "#3a9a5b", "#c03b4a", "#8160b0",
				       "#8c6d46", "#d266a8", "#6b6b6b", "#a7a53a", "#2fa7b8" };

const char *chart_color(size_t i)
{
	return palette[i % (sizeof palette / sizeof palette[0])];
}

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

void chart_open(FILE *f, const char *cls, int W, int H, const char *title)
{
	fprintf(f, "<svg class=\"chart %s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" role=\"img\"><title>", cls, W, H, W, H);
	chart_esc(f, title);
	fprintf(f, "</title>\n<text class=\"chart-title\" x=\"%d\" y=\"16\" text-anchor=\"middle\">", W / 2);
	chart_esc(f, title);
	fputs("</text>\n", f);
}

void chart_axis_label(FILE *f, int x, int y, int vertical, const char *text)
{
	if (vertical)
		fprintf(f, "<text class=\"axis-label\" transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">", x,
			y);
	else
		fprintf(f, "<text class=\"axis-label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x, y);
	chart_esc(f, text);
	fputs("</text>\n", f);
}

void chart_legend(FILE *f, const char *const *names, size_t n, int y)
{
	int x = 10;
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y, chart_color(i));
		fprintf(f, "<text x=\"%d\" y=\"%d\">", x + 14, y + 9);
		chart_esc(f, names[i]);
		fputs("</text>", f);
		x += 24 + 7 * (int)strlen(names[i]);
	}
	fputc('\n', f);
}

void chart_legend_runs(FILE *f, const struct ct_input *const *runs, size_t n, int y)
{
	if (n < 2)
		return;
	const char **names = calloc(n, sizeof *names);
	if (!names)
		abort();
	for (size_t r = 0; r < n; r++)
		names[r] = runs[r]->name;
	chart_legend(f, names, n, y);
	free(names);
}

double chart_nice_step(double max, int n)
{
	if (!(max > 0))
		return 1;
	double raw = max / n, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

double chart_time_step(double max_s, int n)
{
	static const double steps[] = { 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400 };
	double raw = max_s / n;
	if (raw < 60)
		return chart_nice_step(max_s, n);
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] >= raw)
			return steps[i];
	return ceil(raw / 86400) * 86400;
}

double chart_pos(const struct chart_axis *a, double v)
{
	double t;
	if (a->log)
		t = v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
	else
		t = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0;
	return a->from + t * (a->to - a->from);
}

static void draw_tick(FILE *f, const struct chart_axis *a, double v)
{
	char buf[48];
	int p = (int)lround(chart_pos(a, v));
	const char *text = a->label ? a->label(v, a->ctx, buf, sizeof buf) : (snprintf(buf, sizeof buf, "%g", v), buf);
	if (a->horizontal) {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>", p, a->grid_to, p, a->at);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", p, a->at + 14);
	} else {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>", a->at, p, a->grid_to, p);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", a->at - 6, p + 4);
	}
	chart_esc(f, text);
	fputs("</text>\n", f);
}

void chart_draw_axis(FILE *f, const struct chart_axis *a)
{
	if (a->horizontal)
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", a->from,
			a->at, a->to, a->at);
	else
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", a->at,
			a->from, a->at, a->to);
	if (a->log) {
		for (int e = (int)ceil(log10(a->lo) - 1e-9); e <= (int)floor(log10(a->hi) + 1e-9); e++)
			draw_tick(f, a, pow(10, e));
		return;
	}
	if (!(a->step > 0) || !(a->hi > a->lo))
		return;
	for (double v = ceil(a->lo / a->step - 1e-9) * a->step; v <= a->hi * (1 + 1e-9) + 1e-12; v += a->step)
		draw_tick(f, a, fabs(v) < a->step * 1e-9 ? 0 : v);
}

const char *chart_figure_label(double v, void *ctx, char *buf, size_t len)
{
	const char *const *mu = ctx;
	if (v == 0)
		return snprintf(buf, len, "0"), buf;
	return units_figure(v, mu[0], mu[1], buf, len);
}

const char *chart_seconds_label(double v, void *ctx, char *buf, size_t len)
{
	(void)ctx;
	if (v == 0)
		snprintf(buf, len, "0 s");
	else if (v >= 60)
		units_duration((uint64_t)(v * 1e9 + 0.5), buf, len);
	else
		units_figure(v, "", "s", buf, len);
	return buf;
}
