/* The shared pieces of the report's charts (report_svg.h). */
#include "export/report_svg.h"
#include "util/escape.h"
#include "compare/table.h"
#include "util/units.h"

#include <ctype.h>
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

void chart_esc(FILE *f, const char *s) { esc_html(f, s); }

/* Em widths of system-ui at the report's sizes, rounded up: narrow, wide and capital letters,
 * digits; any other code point (µ, ·, …) as a wide letter. */
double chart_text_w(const char *s, double px)
{
	double em = 0;
	for (const unsigned char *c = (const unsigned char *)s; c && *c; c++) {
		if ((*c & 0xc0) == 0x80)
			continue; /* a UTF-8 continuation byte: counted with its lead */
		if (*c >= 0x80)
			em += 0.7;
		else if (strchr(" .,:;'|!il()[]/fjtI", *c))
			em += 0.33;
		else if (strchr("mwMW%@", *c))
			em += 0.9;
		else if (isupper(*c))
			em += 0.7;
		else
			em += 0.58;
	}
	return em * px;
}

const char *chart_fit(const char *s, double px, double max_w, char *buf, size_t len)
{
	if (chart_text_w(s, px) <= max_w)
		return s;
	size_t n = strlen(s);
	while (n > 0) {
		do /* back to the start of a code point */
			n--;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80);
		snprintf(buf, len, "%.*s…", (int)n, s);
		if (chart_text_w(buf, px) <= max_w)
			break;
	}
	return buf;
}

void chart_label(FILE *f, double x, double y, const char *anchor, const char *s, double max_w)
{
	char cut[256];
	const char *shown = chart_fit(s, CHART_FONT, max_w, cut, sizeof cut);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	if (shown != s) {
		fputs("<title>", f);
		chart_esc(f, s);
		fputs("</title>", f);
	}
	chart_esc(f, shown);
	fputs("</text>\n", f);
}

void chart_open(FILE *f, const char *cls, int W, int H, const char *title)
{
	/* Full width of the page; never scaled below 11 px text (a phone scrolls the box instead). */
	fprintf(f, "<div class=\"chart-box\"><svg class=\"chart %s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" style=\"min-width:%dpx\" role=\"img\"><title>",
		cls, W, H, W, H, (int)ceil(W * 11.0 / CHART_FONT));
	chart_esc(f, title);
	fprintf(f, "</title>\n<text class=\"chart-title\" x=\"%d\" y=\"16\" text-anchor=\"middle\">", W / 2);
	char cut[256];
	chart_esc(f, chart_fit(title, 15, W - 10, cut, sizeof cut)); /* bold 14 px */
	fputs("</text>\n", f);
}

void chart_close(FILE *f)
{
	fputs("</svg></div>\n", f);
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

/* Entries laid out in rows across W (a name too long for a row cut with an ellipsis); drawn
 * when f, the y below the last row returned. */
static int legend_layout(FILE *f, const char *const *names, size_t n, int y, int W)
{
	double x = 10, room = W - 20 - 14;
	for (size_t i = 0; i < n; i++) {
		char cut[256];
		const char *s = chart_fit(names[i], CHART_FONT, room, cut, sizeof cut);
		double w = 14 + chart_text_w(s, CHART_FONT) + 12;
		if (x > 10 && x + w > W - 10) {
			x = 10;
			y += 16;
		}
		if (f) {
			fprintf(f, "<rect x=\"%.0f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y, chart_color(i));
			chart_label(f, x + 14, y + 9, "start", names[i], room);
		}
		x += w;
	}
	return y + 16;
}

int chart_legend_bottom(const char *const *names, size_t n, int y, int W)
{
	return n ? legend_layout(NULL, names, n, y, W) : y;
}

void chart_legend(FILE *f, const char *const *names, size_t n, int y, int W)
{
	legend_layout(f, names, n, y, W);
}

/* The runs' names (free it). */
static const char **run_names(const struct ct_input *const *runs, size_t n)
{
	const char **names = calloc(n, sizeof *names);
	if (!names)
		abort();
	for (size_t r = 0; r < n; r++)
		names[r] = runs[r]->name;
	return names;
}

int chart_legend_runs_bottom(const struct ct_input *const *runs, size_t n, int y, int W)
{
	if (n < 2)
		return y;
	const char **names = run_names(runs, n);
	y = chart_legend_bottom(names, n, y, W);
	free(names);
	return y;
}

void chart_legend_runs(FILE *f, const struct ct_input *const *runs, size_t n, int y, int W)
{
	if (n < 2)
		return;
	const char **names = run_names(runs, n);
	chart_legend(f, names, n, y, W);
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

/* A tick, its grid line and label; the label left out where it would overlap the last one
 * drawn (*last: where that one ends, along the axis). */
static void draw_tick(FILE *f, const struct chart_axis *a, double v, double *last)
{
	char buf[48];
	int p = (int)lround(chart_pos(a, v));
	const char *text = a->label ? a->label(v, a->ctx, buf, sizeof buf) : (snprintf(buf, sizeof buf, "%g", v), buf);
	double w = chart_text_w(text, CHART_FONT);
	if (a->horizontal) {
		/* the end ticks' labels kept inside the axis, clear of a neighbouring panel's */
		int start = abs(p - a->from) < 2, end = abs(p - a->to) < 2;
		double left = start ? p : end ? p - w : p - w / 2;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>", p, a->grid_to, p, a->at);
		if (left < *last + 6) {
			fputc('\n', f);
			return;
		}
		*last = left + w;
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"%s\">", p, a->at + 14,
			start ? "start" : end ? "end" : "middle");
	} else {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>", a->at, p, a->grid_to, p);
		if (-p < *last + 2) { /* upwards: pixels fall as values rise */
			fputc('\n', f);
			return;
		}
		*last = -p + 14;
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", a->at - 6, p + 4);
	}
	chart_esc(f, text);
	fputs("</text>\n", f);
}

void chart_draw_axis(FILE *f, const struct chart_axis *a)
{
	double last = -INFINITY;
	if (a->horizontal)
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", a->from,
			a->at, a->to, a->at);
	else
		fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", a->at,
			a->from, a->at, a->to);
	if (a->log) {
		for (int e = (int)ceil(log10(a->lo) - 1e-9); e <= (int)floor(log10(a->hi) + 1e-9); e++)
			draw_tick(f, a, pow(10, e), &last);
		return;
	}
	if (!(a->step > 0) || !(a->hi > a->lo))
		return;
	for (double v = ceil(a->lo / a->step - 1e-9) * a->step; v <= a->hi * (1 + 1e-9) + 1e-12; v += a->step)
		draw_tick(f, a, fabs(v) < a->step * 1e-9 ? 0 : v, &last);
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
