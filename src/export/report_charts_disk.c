/* The report's CrystalDiskMark panel for disk runs (report_charts.h): a row per test
 * ("SEQ1M Q8T1", "RND4K Q1T1"), a read and a write column, in each cell a bar per run with its
 * MB/s and IOPS, the bars on one log scale (sequential and 4K random figures differ a
 * hundredfold, a linear scale would hide the latter). */
#include "export/report_charts.h"
#include "export/report_svg.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 16
#define MAX_RUNS 10

struct panel {
	char tests[MAX_TESTS][64];
	size_t ntests;
	const struct ct_input *runs[MAX_RUNS];
	size_t nruns;
	/* medians per test, direction (0 read, 1 write) and run; NAN where none */
	double bw[MAX_TESTS][2][MAX_RUNS], iops[MAX_TESTS][2][MAX_RUNS];
	double lo, hi;
};

/* A bench of a disk test: "<test> read" or "<test> write" with the job's settings and its
 * throughput.  Its test name into test, the direction returned (0, 1), or -1. */
static int disk_bench(const struct bench *b, char *test, size_t len)
{
	const char *sp = strrchr(b->name, ' ');
	if (!sp || !json_is_string(json_object_get(b->settings, "rw")) || !json_object_get(b->settings, "iodepth") ||
	    !bench_find_metric(b, "bytes_per_sec"))
		return -1;
	int dir = strcmp(sp + 1, "read") == 0 ? 0 : strcmp(sp + 1, "write") == 0 ? 1 : -1;
	if (dir >= 0)
		snprintf(test, len, "%.*s", (int)(sp - b->name), b->name);
	return dir;
}

static size_t test_index(struct panel *p, const char *test)
{
	size_t k;
	for (k = 0; k < p->ntests && strcmp(p->tests[k], test) != 0; k++)
		;
	if (k == p->ntests && p->ntests < MAX_TESTS) {
		snprintf(p->tests[k], sizeof p->tests[k], "%s", test);
		for (int d = 0; d < 2; d++)
			for (size_t r = 0; r < MAX_RUNS; r++)
				p->bw[k][d][r] = p->iops[k][d][r] = NAN;
		p->ntests++;
	}
	return k;
}

static double median_of(const struct bench *b, const char *metric)
{
	const struct metric *m = bench_find_metric(b, metric);
	return m && m->nsamples ? metric_median(m) : NAN;
}

static void panel_collect(const struct ct_input *in, size_t nin, struct panel *p)
{
	char test[64];
	memset(p, 0, sizeof *p);
	p->lo = INFINITY;
	for (size_t i = 0; i < nin && p->nruns < MAX_RUNS; i++) {
		int found = 0;
		for (size_t b = 0; b < in[i].r->nbenches; b++) {
			const struct bench *be = in[i].r->benches[b];
			int dir = disk_bench(be, test, sizeof test);
			size_t k;
			if (dir < 0 || (k = test_index(p, test)) == MAX_TESTS)
				continue;
			double v = median_of(be, "bytes_per_sec");
			p->bw[k][dir][p->nruns] = v;
			p->iops[k][dir][p->nruns] = median_of(be, "iops");
			if (v > 0) {
				p->lo = fmin(p->lo, v);
				p->hi = fmax(p->hi, v);
			}
			found = 1;
		}
		if (found)
			p->runs[p->nruns++] = &in[i];
	}
	if (p->hi > 0) { /* whole decades, two at least */
		p->lo = pow(10, floor(log10(p->lo)));
		p->hi = pow(10, ceil(log10(p->hi * 1.0001)));
		if (p->hi / p->lo < 100)
			p->lo = p->hi / 100;
	}
}

/* The test's name on CrystalDiskMark's coloured tile: "SEQ1M" over "Q8T1". */
static void test_tile(FILE *f, const char *test, int x, int y, int w, int h)
{
	const char *sp = strchr(test, ' ');
	int first = sp ? (int)(sp - test) : (int)strlen(test);
	fprintf(f, "<rect class=\"cdm-test\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\" fill=\"#4f8a4c\"/>", x,
		y, w, h);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\" style=\"fill:#fff\">%.*s</text>",
		x + w / 2, y + h / 2 - (sp ? 2 : -4), first, test);
	if (sp) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"fill:#fff\">", x + w / 2, y + h / 2 + 12);
		chart_esc(f, sp + 1);
		fputs("</text>", f);
	}
	fputc('\n', f);
}

/* One run's bar in a cell: the meter, its MB/s and IOPS, the change from the first run. */
static void cell_bar(FILE *f, const struct panel *p, const struct chart_axis *ax, size_t k, int dir, size_t r, int y,
		     int h)
{
	double v = p->bw[k][dir][r], base = p->bw[k][dir][0];
	char mb[48], io[48];
	if (!isfinite(v)) {
		fprintf(f, "<text x=\"%d\" y=\"%d\">–</text>\n", ax->from + 4, y + h - 6);
		return;
	}
	int w = (int)lround(chart_pos(ax, v)) - ax->from;
	units_figure(v, "bytes_per_sec", "B/s", mb, sizeof mb);
	units_figure(p->iops[k][dir][r], "iops", "op/s", io, sizeof io);
	fprintf(f, "<rect class=\"cdm-bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.45\">"
		   "<title>", ax->from, y, w < 1 ? 1 : w, h - 2, chart_color(r));
	chart_esc(f, p->runs[r]->name);
	fprintf(f, " · %s %s: %s, %s</title></rect>", p->tests[k], dir ? "write" : "read", mb, io);
	fprintf(f, "<text x=\"%d\" y=\"%d\"><tspan font-weight=\"bold\">%s</tspan> · %s", ax->from + 4, y + h - 6, mb, io);
	if (r > 0 && base > 0) {
		double pct = (v / base - 1) * 100;
		fprintf(f, " <tspan class=\"change\" style=\"fill:%s\">%+.1f%%</tspan>",
			fabs(pct) < 0.05 ? "#777" : pct > 0 ? "#1b7a34" : "#b3261e", pct);
	}
	fputs("</text>\n", f);
}

/* A decade of throughput, short enough for the columns: "1 MB/s", "100 MB/s", "1 GB/s". */
static const char *decade_label(double v, void *ctx, char *buf, size_t len)
{
	(void)ctx;
	if (v >= 1e9)
		snprintf(buf, len, "%g GB/s", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%g MB/s", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%g kB/s", v / 1e3);
	else
		snprintf(buf, len, "%g B/s", v);
	return buf;
}

/* How wide the widest cell's text is drawn (cell_bar's: the MB/s bold, the IOPS, the change). */
static double cell_text_w(const struct panel *p)
{
	double w = 0;
	char mb[48], io[48];
	for (size_t k = 0; k < p->ntests; k++)
		for (int d = 0; d < 2; d++)
			for (size_t r = 0; r < p->nruns; r++)
				if (isfinite(p->bw[k][d][r])) {
					units_figure(p->bw[k][d][r], "bytes_per_sec", "B/s", mb, sizeof mb);
					units_figure(p->iops[k][d][r], "iops", "op/s", io, sizeof io);
					w = fmax(w, chart_text_w(mb, CHART_FONT + 1) + chart_text_w(" · ", CHART_FONT) +
							    chart_text_w(io, CHART_FONT) + (r ? chart_text_w(" +100.0%", CHART_FONT) : 0));
				}
	return w;
}

void chart_disk_panel(FILE *f, const struct ct_input *in, size_t nin)
{
	static struct panel p;
	panel_collect(in, nin, &p);
	if (!p.ntests || !(p.hi > 0))
		return;
	/* the columns share the page, each at least as wide as its widest text; the gap between
	 * them clear of the read axis's last tick and the write axis's first */
	const int L = 92, G = 48, bar_h = 20, title_h = 50;
	int CW = (CHART_W - L - G - 10) / 2;
	CW = CW > (int)cell_text_w(&p) + 12 ? CW : (int)cell_text_w(&p) + 12;
	int W = L + 2 * CW + G + 10, top = chart_legend_runs_bottom(p.runs, p.nruns, 26, W) + (p.nruns > 1 ? 22 : 0);
	top = top > title_h ? top : title_h;
	int row_h = (int)p.nruns * bar_h + 10, axis_y = top + (int)p.ntests * row_h + 2, H = axis_y + 44;
	struct chart_axis ax[2];
	for (int d = 0; d < 2; d++)
		ax[d] = (struct chart_axis){ .horizontal = 1, .log = 1, .from = L + d * (CW + G), .to = L + d * (CW + G) + CW,
					     .at = axis_y, .grid_to = top, .lo = p.lo, .hi = p.hi,
					     .label = decade_label };
	fputs("<h2>Disk</h2>\n", f);
	chart_open(f, "cdm", W, H, "Disk, CrystalDiskMark view: MB/s and IOPS per test (median of passes)");
	chart_legend_runs(f, p.runs, p.nruns, 26, W);
	for (int d = 0; d < 2; d++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">%s</text>\n",
			(ax[d].from + ax[d].to) / 2, top - 8, d ? "Write" : "Read");
	}
	for (size_t k = 0; k < p.ntests; k++) /* the meters' tracks, under the grid */
		for (int d = 0; d < 2; d++)
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f1f3f6\"/>\n", ax[d].from,
				top + (int)k * row_h, CW, (int)p.nruns * bar_h - 2);
	for (int d = 0; d < 2; d++)
		chart_draw_axis(f, &ax[d]);
	for (size_t k = 0; k < p.ntests; k++) {
		int y = top + (int)k * row_h;
		test_tile(f, p.tests[k], 4, y, L - 10, row_h - 8);
		for (int d = 0; d < 2; d++)
			for (size_t r = 0; r < p.nruns; r++)
				cell_bar(f, &p, &ax[d], k, d, r, y + (int)r * bar_h, bar_h);
	}
	chart_axis_label(f, L + CW + G / 2, axis_y + 34, 0, "throughput (MB/s = 10^6 bytes/s, log scale)");
	chart_close(f);
}
