#include "export/report.h"
#include "inventory/inventory.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const palette[] = { "#3b6fb6", "#e07b39", "#3a9a5b", "#c03b4a", "#8160b0",
				       "#8c6d46", "#d266a8", "#6b6b6b", "#a7a53a", "#2fa7b8" };
#define COLOR(i) palette[(i) % (sizeof palette / sizeof palette[0])]

static void esc(FILE *f, const char *s)
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

static const char *when(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	buf[0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
	return buf;
}

static const char css[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:2em auto;max-width:1000px;"
	"color:#222;padding:0 1em}"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}"
	"table{border-collapse:collapse;margin:.8em 0;font-size:.9em}"
	"td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right;white-space:nowrap}"
	"td:first-child,th:first-child{text-align:left}"
	"tr.gm td{font-weight:600;background:#f6f6f6}"
	".better{color:#1b7a34}.worse{color:#b3261e}.same{color:#777}"
	"pre{background:#f6f6f6;padding:.6em;overflow:auto;font-size:.8em;max-height:30em}"
	".meta{color:#666;font-size:.9em}svg{display:block;margin:.5em 0 1.5em}"
	"svg text{font-family:system-ui,sans-serif;font-size:11px;fill:#333}";

/* --- machines and runs -------------------------------------------------------- */

static void machines(FILE *f, const struct ct_input *in, size_t nin)
{
	fputs("<h2>Machines</h2>\n", f);
	for (size_t i = 0; i < nin; i++) {
		int seen = 0;
		for (size_t k = 0; k < i; k++)
			seen |= strcmp(in[k].r->host ? in[k].r->host : "", in[i].r->host ? in[i].r->host : "") == 0;
		if (seen)
			continue;
		char *sum = in[i].r->inventory ? inventory_summary(in[i].r->inventory) : NULL;
		fputs("<p><b>", f);
		esc(f, in[i].r->host && *in[i].r->host ? in[i].r->host : in[i].name);
		fputs("</b>: ", f);
		esc(f, sum ? sum : "no inventory recorded");
		fputs("</p>\n", f);
		free(sum);
		if (in[i].r->inventory) {
			char *inv = json_dumps(in[i].r->inventory, JSON_INDENT(2));
			fputs("<details><summary>inventory</summary><pre>", f);
			esc(f, inv);
			fputs("</pre></details>\n", f);
			free(inv);
		}
	}
}

static void runs_table(FILE *f, const struct ct_input *in, size_t nin)
{
	char t[40];
	fputs("<h2>Runs</h2>\n<table><tr><th>input</th><th>run</th><th>host</th><th>started</th><th>command"
	      "</th><th>tags</th></tr>\n", f);
	for (size_t i = 0; i < nin; i++) {
		const struct record *r = in[i].r;
		fputs("<tr><td>", f);
		esc(f, in[i].name);
		fputs("</td><td>", f);
		esc(f, r->id);
		fputs("</td><td>", f);
		esc(f, r->host);
		fputs("</td><td>", f);
		esc(f, r->time_ms ? when(r->time_ms, t, sizeof t) : "");
		fputs("</td><td>", f);
		esc(f, r->cmdline && *r->cmdline ? r->cmdline : r->command);
		fputs("</td><td>", f);
		for (size_t k = 0; k < r->ntags; k++) {
			esc(f, r->tag_keys[k]);
			fputc('=', f);
			esc(f, r->tag_values[k]);
			fputc(' ', f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* --- compare tables ----------------------------------------------------------- */

static const char *delta_class(const struct ct_table *t, const char *delta)
{
	if (*delta != '+' && *delta != '-')
		return "same";
	int up = *delta == '+';
	if (t->direction == 0)
		return "same";
	return up == (t->direction > 0) ? "better" : "worse";
}

static void html_table(FILE *f, const struct ct_result *res, const struct ct_table *t)
{
	size_t nc = res->ncols, nr = t->nrows;
	struct ct_text *tx = ct_texts(res, t);
	char title[160];
	fputs("<table><tr><th>", f);
	esc(f, ct_title(t, title, sizeof title));
	fputs("</th>", f);
	for (size_t c = 0; c < nc; c++) {
		fputs("<th>", f);
		esc(f, res->cols[c]);
		fputs("</th>", f);
		if (c)
			fputs("<th>vs base</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t r = 0; r <= nr; r++) {
		int gm = r == nr;
		if (gm && nr < 2)
			break;
		fputs(gm ? "<tr class=\"gm\"><td>geomean" : "<tr><td>", f);
		if (!gm)
			esc(f, t->rows[r]);
		fputs("</td>", f);
		for (size_t c = 0; c < nc; c++) {
			const struct ct_text *x = &tx[r * nc + c];
			fputs("<td>", f);
			if (x->present) {
				esc(f, x->center);
				if (!gm && *x->pct) {
					fputs(" ± ", f);
					esc(f, x->pct);
				}
			}
			fputs("</td>", f);
			if (c) {
				fprintf(f, "<td class=\"%s\">", delta_class(t, x->delta));
				esc(f, x->delta);
				if (*x->pn) {
					fputs(" (", f);
					esc(f, x->pn);
					fputc(')', f);
				}
				fputs("</td>", f);
			}
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(tx);
}

/* --- charts ------------------------------------------------------------------- */

size_t report_bar_count(const struct ct_result *res)
{
	size_t n = 0;
	for (size_t ti = 0; ti < res->ntables; ti++)
		for (size_t i = 0; i < res->tables[ti]->nrows * res->ncols; i++) {
			const struct ct_cell *c = res->tables[ti]->cells[i];
			n += c && isfinite(c->sum.center);
		}
	return n;
}

static void legend(FILE *f, const char *const *names, size_t n, int y)
{
	int x = 10;
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y, COLOR(i));
		fprintf(f, "<text x=\"%d\" y=\"%d\">", x + 14, y + 9);
		esc(f, names[i]);
		fputs("</text>", f);
		x += 24 + 7 * (int)strlen(names[i]);
	}
	fputc('\n', f);
}

static void bar_chart(FILE *f, const struct ct_result *res, const struct ct_table *t)
{
	const int label_w = 230, bar_w = 560, bar_h = 12, gap = 8, W = label_w + bar_w + 90;
	size_t nc = res->ncols;
	struct ct_text *tx = ct_texts(res, t);
	double max = 0;
	for (size_t i = 0; i < t->nrows * nc; i++)
		if (t->cells[i] && isfinite(t->cells[i]->sum.center) && t->cells[i]->sum.center > max)
			max = t->cells[i]->sum.center;
	int H = 30 + (int)t->nrows * ((int)nc * bar_h + gap) + 10;
	char title[160];
	fprintf(f, "<svg class=\"chart bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" role=\"img\"><title>", W, H, W, H);
	esc(f, ct_title(t, title, sizeof title));
	fputs("</title>\n", f);
	legend(f, (const char *const *)res->cols, nc, 4);
	int y = 30;
	for (size_t r = 0; r < t->nrows; r++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label_w - 8,
			y + ((int)nc * bar_h) / 2 + 4);
		esc(f, t->rows[r]);
		fputs("</text>\n", f);
		for (size_t c = 0; c < nc; c++, y += bar_h) {
			const struct ct_cell *cell = t->cells[r * nc + c];
			if (!cell || !isfinite(cell->sum.center))
				continue;
			double v = cell->sum.center;
			int w = max > 0 && v > 0 ? (int)lround(v / max * bar_w) : 0;
			if (w < 1)
				w = 1;
			fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
				label_w, y, w, bar_h - 2, COLOR(c));
			esc(f, res->cols[c]);
			fputs(": ", f);
			esc(f, tx[r * nc + c].center);
			fputs("</title></rect>", f);
			fprintf(f, "<text x=\"%d\" y=\"%d\">", label_w + w + 4, y + bar_h - 3);
			esc(f, tx[r * nc + c].center);
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

static void percentile_chart(FILE *f, const struct ct_input *in, size_t nin)
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
	const int L = 70, W = 820, Hh = 300, T = 20, B = 40, R = 20;
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
	fprintf(f, "<svg class=\"chart percentiles\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" role=\"img\"><title>latency by percentile</title>\n", W, Hh + 40, W, Hh + 40);
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
		esc(f, cv[k].input);
		fputs(" ", f);
		esc(f, cv[k].bench);
		fputs(" ", f);
		esc(f, cv[k].h->name);
		fputs("</title></polyline>\n", f);
	}
	fputs("</svg>\n", f);
	fputs("<p class=\"meta\">", f);
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "<span style=\"color:%s\">■</span> ", COLOR(cv[k].color + k));
		esc(f, cv[k].input);
		fputs(" · ", f);
		esc(f, cv[k].bench);
		fputs(" · ", f);
		esc(f, cv[k].h->name);
		fputs("&nbsp;&nbsp; ", f);
	}
	fputs("</p>\n", f);
}

static void timeline_chart(FILE *f, const struct ct_input *in, size_t nin)
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
	const int L = 70, W = 820, Hh = 220, T = 15, B = 30, R = 20;
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
		fprintf(f, "<h3>");
		esc(f, names[k]);
		/* track's progress has no unit of its own (blocks, rows...): "over time" says it. */
		if (*yu)
			fprintf(f, " (%s) over time (%s)</h3>\n", yu, xu);
		else
			fprintf(f, " over time (%s)</h3>\n", xu);
		fprintf(f, "<svg class=\"chart timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			   "viewBox=\"0 0 %d %d\" role=\"img\"><title>", W, Hh, W, Hh);
		esc(f, names[k]);
		fputs("</title>\n", f);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>", L, Hh - B, W - R, Hh - B);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", L, T, L, Hh - B);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.4g</text>", L - 6, T + 4, y1);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>", L - 6, Hh - B + 4);
		fprintf(f, "<text x=\"%d\" y=\"%d\">%.4g %s</text>", L, Hh - B + 16, x0, xu);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.4g %s</text>\n", W - R, Hh - B + 16, x1, xu);
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
					esc(f, in[i].name);
					fputs(" · ", f);
					esc(f, in[i].r->benches[b]->name);
					fputs("</title></polyline>\n", f);
				}
		fputs("</svg>\n", f);
	}
}

void report_write_html(FILE *f, const struct ct_input *in, size_t nin, const struct ct_result *res,
		       const struct report_opts *o)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	esc(f, o->title);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>", css);
	esc(f, o->title);
	fputs("</h1>\n<p class=\"meta\">", f);
	esc(f, o->generated);
	fputs("</p>\n", f);
	machines(f, in, nin);
	runs_table(f, in, nin);
	fputs("<h2>Results</h2>\n<p class=\"meta\">Median ± 95% confidence interval; each column after the "
	      "first against the first by a two-sided Mann-Whitney U test (α = 0.05): a change when p ≤ α, "
	      "~ when not (benchstat's method).</p>\n", f);
	for (size_t t = 0; t < res->ntables; t++) {
		char title[160];
		fputs("<h3>", f);
		esc(f, ct_title(res->tables[t], title, sizeof title));
		fputs("</h3>\n", f);
		html_table(f, res, res->tables[t]);
		bar_chart(f, res, res->tables[t]);
	}
	if (res->nwarn_pool) {
		fputs("<h3>Notes</h3>\n<ul>\n", f);
		for (size_t i = 0; i < res->nwarn_pool; i++) {
			fputs("<li>", f);
			esc(f, res->warn_pool[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	percentile_chart(f, in, nin);
	timeline_chart(f, in, nin);
	fputs("</body></html>\n", f);
}

void report_write_markdown(FILE *f, const struct ct_input *in, size_t nin, const struct ct_result *res,
			   const struct report_opts *o)
{
	char t[40];
	fprintf(f, "# %s\n\n_%s_\n\n## Machines\n\n", o->title, o->generated);
	for (size_t i = 0; i < nin; i++) {
		int seen = 0;
		for (size_t k = 0; k < i; k++)
			seen |= strcmp(in[k].r->host ? in[k].r->host : "", in[i].r->host ? in[i].r->host : "") == 0;
		if (seen)
			continue;
		char *sum = in[i].r->inventory ? inventory_summary(in[i].r->inventory) : NULL;
		fprintf(f, "- **%s**: %s\n", in[i].r->host && *in[i].r->host ? in[i].r->host : in[i].name,
			sum ? sum : "no inventory recorded");
		free(sum);
	}
	fputs("\n## Runs\n\n| input | run | host | started | command | tags |\n|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < nin; i++) {
		const struct record *r = in[i].r;
		fprintf(f, "| %s | %s | %s | %s | `%s` | ", in[i].name, r->id, r->host ? r->host : "",
			r->time_ms ? when(r->time_ms, t, sizeof t) : "", r->cmdline && *r->cmdline ? r->cmdline : r->command);
		for (size_t k = 0; k < r->ntags; k++)
			fprintf(f, "%s=%s ", r->tag_keys[k], r->tag_values[k]);
		fputs("|\n", f);
	}
	fputs("\n## Results\n\nMedian ± 95% confidence interval; each column after the first against the first "
	      "by a two-sided Mann-Whitney U test (α = 0.05), as benchstat.\n\n", f);
	ct_write_markdown(f, res);
}
