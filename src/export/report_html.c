#include "export/report_html.h"
#include "stats/summary.h"
#include "export/changes.h"
#include "export/report_charts.h"
#include "export/report_svg.h"
#include "export/texttab.h"
#include "compare/track_table.h"
#include "inventory/inventory.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


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
	".better{color:#1b7a34}.worse{color:#b3261e}.changed{color:#8a5a00}.same{color:#777}"
	".call-regression{color:#b3261e}.call-improvement{color:#1b7a34}.call-changed{color:#8a5a00}"
	"td.call-unchanged,td.call-not-compared{color:#555;white-space:normal;text-align:left}"
	"pre{background:#f6f6f6;padding:.6em;overflow:auto;font-size:.8em;max-height:30em}"
	".meta{color:#666;font-size:.9em}.chart-box{overflow-x:auto;margin:.5em 0 1.5em}"
	"svg.chart{display:block;width:100%;height:auto}"
	"svg text{font-family:system-ui,sans-serif;font-size:12px;fill:#333}"
	"svg text.chart-title{font-size:14px;font-weight:600}svg text.axis-label{font-size:13px;fill:#555}"
	"table{display:block;overflow-x:auto;max-width:100%}"
	"@media print{.chart-box{break-inside:avoid}}";

/* --- machines and runs -------------------------------------------------------- */

/* Input i's machine is one an earlier input ran on: it is listed once, under the first. */
static int host_listed_before(const struct ct_input *in, size_t i)
{
	const char *host = in[i].r->host ? in[i].r->host : "";
	for (size_t k = 0; k < i; k++)
		if (strcmp(in[k].r->host ? in[k].r->host : "", host) == 0)
			return 1;
	return 0;
}

/* The machine's name as listed: its host name, or the input's name where none was recorded. */
static const char *machine_name(const struct ct_input *in)
{
	return in->r->host && *in->r->host ? in->r->host : in->name;
}

/* The input's inventory, or NULL where it recorded none: an imported record's empty object
 * would otherwise print a block of zeros ("0 GiB", "0 cores") as if they were measured. */
static const json_t *recorded_inventory(const struct ct_input *in)
{
	const json_t *inv = in->r->inventory;
	return json_is_object(inv) && json_object_size(inv) > 0 ? inv : NULL;
}

static void machines(FILE *f, const struct ct_input *in, size_t nin)
{
	fputs("<h2>Machines</h2>\n", f);
	for (size_t i = 0; i < nin; i++) {
		if (host_listed_before(in, i))
			continue;
		char *sum = recorded_inventory(&in[i]) ? inventory_summary(recorded_inventory(&in[i])) : NULL;
		fputs("<p><b>", f);
		chart_esc(f, machine_name(&in[i]));
		fputs("</b>: ", f);
		chart_esc(f, sum ? sum : "no inventory recorded");
		fputs("</p>\n", f);
		free(sum);
		if (recorded_inventory(&in[i])) {
			/* hw.sh's block, as people paste it, then every fact */
			char *hw = inventory_overview(in[i].r->inventory);
			fputs("<pre class=\"inventory\">", f);
			chart_esc(f, hw ? hw : "");
			fputs("</pre>\n", f);
			free(hw);
			char *inv = json_dumps(in[i].r->inventory, JSON_INDENT(2));
			fputs("<details><summary>inventory</summary><pre>", f);
			chart_esc(f, inv);
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
		chart_esc(f, in[i].name);
		fputs("</td><td>", f);
		chart_esc(f, r->id);
		fputs("</td><td>", f);
		chart_esc(f, r->host);
		fputs("</td><td>", f);
		chart_esc(f, r->time_ms ? when(r->time_ms, t, sizeof t) : "");
		fputs("</td><td>", f);
		chart_esc(f, r->cmdline && *r->cmdline ? r->cmdline : r->command);
		fputs("</td><td>", f);
		for (size_t k = 0; k < r->ntags; k++) {
			chart_esc(f, r->tag_keys[k]);
			fputc('=', f);
			chart_esc(f, r->tag_values[k]);
			fputc(' ', f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* --- compare tables ----------------------------------------------------------- */

/* A cell's colour comes from its verdict, never from its p-value. */
static const char *mark_class(const struct ct_cell *c)
{
	static const char *const name[] = { [CMP_MARK_NONE] = "same", [CMP_MARK_BETTER] = "better",
					    [CMP_MARK_WORSE] = "worse", [CMP_MARK_CHANGED] = "changed" };
	return name[cmp_cell_mark(c)];
}

/* The verdict beside a compared cell: its kind as the class, its reason as the text. */
static void verdict_cell(FILE *f, const struct ct_result *res, const struct ct_table *t, size_t r, size_t c)
{
	const struct ct_cell *cell = r < t->nrows ? ct_cell_at(res, t, r, c) : NULL;
	const struct call *k = cell ? cell->call : NULL;
	if (!k) {
		fputs("<td></td>", f);
		return;
	}
	fprintf(f, "<td class=\"call-%s\" data-metric=\"", k->v.kind == VERDICT_NOT_COMPARED ? "not-compared"
											    : verdict_kind_name(k->v.kind));
	chart_esc(f, t->metric);
	fputs("\" data-row=\"", f);
	chart_esc(f, t->rows[r]);
	fputs("\" data-col=\"", f);
	chart_esc(f, res->cols[c]);
	/* the cell keeps to the verdict's headline; the why, cause and what would decide it are
	 * its title (a table of paragraphs pushed the charts off the page) */
	fprintf(f, "\" data-verdict=\"%s\" title=\"", verdict_category_name(k->v.cat));
	chart_esc(f, k->v.why);
	if (k->v.cat == VERDICT_CAT_CANT_TELL) {
		fputs("; ", f);
		chart_esc(f, k->v.cause);
		fputs("; would decide: ", f);
		chart_esc(f, k->v.decide);
	}
	fputs("\">", f);
	char nz[40];
	if (k->v.cat == VERDICT_CAT_CANT_TELL)
		fprintf(f, "can&#39;t tell: %s here", stats_noise_text(k->v.noise_pct, nz, sizeof nz));
	else
		chart_esc(f, k->v.text);
	fputs("</td>", f);
}

static void html_table(FILE *f, const struct cmp_model *m, const struct ct_table *t)
{
	const struct ct_result *res = &m->tab;
	int verdicts = m->calls.n > 0;
	size_t nc = res->ncols, nr = t->nrows;
	struct ct_text *tx = ct_texts(res, t);
	char title[160];
	fputs("<table><tr><th>", f);
	chart_esc(f, ct_title_shown(res, t, title, sizeof title));
	fputs("</th>", f);
	for (size_t c = 0; c < nc; c++) {
		fputs("<th>", f);
		chart_esc(f, res->cols[c]);
		fputs("</th>", f);
		if (c)
			fputs(verdicts ? "<th>vs base</th><th>verdict</th>" : "<th>vs base</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t r = 0; r <= nr; r++) {
		int gm = r == nr;
		if (gm && nr < 2)
			break;
		fputs(gm ? "<tr class=\"gm\"><td>geomean" : "<tr><td>", f);
		if (!gm)
			chart_esc(f, t->rows[r]);
		fputs("</td>", f);
		for (size_t c = 0; c < nc; c++) {
			const struct ct_text *x = &tx[r * nc + c];
			fputs("<td>", f);
			if (x->present) {
				chart_esc(f, x->center);
				if (!gm && *x->pct) {
					fputs(" ± ", f);
					chart_esc(f, x->pct);
				}
			}
			fputs("</td>", f);
			if (c) {
				fprintf(f, "<td class=\"%s\">", gm ? "same" : mark_class(ct_cell_at(res, t, r, c)));
				chart_esc(f, x->delta);
				if (*x->pn) {
					fputs(" (", f);
					chart_esc(f, x->pn);
					fputc(')', f);
				}
				fputs("</td>", f);
				if (verdicts)
					verdict_cell(f, res, t, r, c);
			}
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	free(tx);
}

/* Two runs: the inventory and settings differences beside the comparison (export/changes.h). */
static void what_changed_html(FILE *f, const struct ct_input *a, const struct ct_input *b, const json_t *changes)
{
	if (!changes)
		return;
	json_t *c;
	size_t i;
	fputs("<h2>What changed</h2>\n<p class=\"meta\">From ", f);
	chart_esc(f, a->name);
	fputs(" to ", f);
	chart_esc(f, b->name);
	fputs(": the machine, its storage stack and the benchmarks' settings.</p>\n", f);
	if (!json_array_size(changes))
		fputs("<p>Nothing: the same machine and settings.</p>\n", f);
	else
		fputs("<table><tr><th>what</th><th>before</th><th>after</th></tr>\n", f);
	json_array_foreach(changes, i, c) {
		char what[1024], *va, *vb;
		changes_entry_text(c, what, sizeof what, &va, &vb);
		fputs("<tr><td>", f);
		chart_esc(f, what);
		fputs("</td><td>", f);
		chart_esc(f, va);
		fputs("</td><td>", f);
		chart_esc(f, vb);
		fputs("</td></tr>\n", f);
		free(va);
		free(vb);
	}
	if (json_array_size(changes))
		fputs("</table>\n", f);
}

void report_generated(char *buf, size_t len)
{
	char when[40] = "";
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	snprintf(buf, len, "%s, nodemark %s", when, NODEMARK_VERSION);
}

/* --- charts ------------------------------------------------------------------- */

void report_write_html(FILE *f, const struct cmp_model *m, const struct report_opts *o)
{
	const struct ct_input *in = m->in;
	size_t nin = m->nin;
	const struct ct_result *res = &m->tab;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	chart_esc(f, o->title);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>", css);
	chart_esc(f, o->title);
	fputs("</h1>\n<p class=\"meta\">", f);
	chart_esc(f, o->generated);
	fputs("</p>\n", f);
	machines(f, in, nin);
	runs_table(f, in, nin);
	chart_disk_panel(f, in, nin);
	chart_time_boxes(f, in, nin);
	fputs("<h2>Results</h2>\n<p class=\"meta\">Median ± 95% confidence interval; each column after the "
	      "first against the first by a two-sided Mann-Whitney U test (α = 0.05): a change when p ≤ α, "
	      "~ when not (benchstat's method).</p>\n", f);
	for (size_t t = 0; t < res->ntables; t++) {
		char title[160];
		fputs("<h3>", f);
		chart_esc(f, ct_title_shown(res, res->tables[t], title, sizeof title));
		fputs("</h3>\n", f);
		html_table(f, m, res->tables[t]);
		chart_bars(f, res, res->tables[t]);
	}
	if (res->nwarn_pool) {
		fputs("<h3>Notes</h3>\n<ul>\n", f);
		for (size_t i = 0; i < res->nwarn_pool; i++) {
			fputs("<li>", f);
			chart_esc(f, res->warn_pool[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (m->calls.n)
		fprintf(f, "<p class=\"meta\">Verdicts: a change is called when neither run was busy, both have %d "
			   "or more samples, p ≤ %.2f, and the median moved more than the noise floor (the spread of "
			   "earlier runs on this machine, or a default until there are %d; a busy run's hash figures "
			   "are judged on their bytes per CPU-second, and say so); only a called change is "
			   "coloured.</p>\n",
			VERDICT_MIN_SAMPLES, res->alpha, VERDICT_HISTORY_MIN);
	if (nin == 2)
		what_changed_html(f, &in[0], &in[1], m->changes);
	chart_percentiles(f, in, nin);
	chart_timelines(f, in, nin);
	if (m->tl.n)
		track_cmp_write(f, &m->tl, TRACK_HTML);
	chart_track_segments(f, in, nin);
	fputs("</body></html>\n", f);
}

void report_write_markdown(FILE *f, const struct cmp_model *m, const struct report_opts *o)
{
	const struct ct_input *in = m->in;
	size_t nin = m->nin;
	char t[40];
	fputs("# ", f);
	md_put(f, o->title);
	fprintf(f, "\n\n_%s_\n\n## Machines\n\n", o->generated);
	for (size_t i = 0; i < nin; i++) {
		if (host_listed_before(in, i))
			continue;
		char *sum = recorded_inventory(&in[i]) ? inventory_summary(recorded_inventory(&in[i])) : NULL;
		fputs("- **", f);
		md_put(f, machine_name(&in[i]));
		fputs("**: ", f);
		md_put(f, sum ? sum : "no inventory recorded");
		fputc('\n', f);
		free(sum);
		/* hw.sh's block in a code block: its lines start with a label or a device name,
		 * never with the fence */
		char *hw = recorded_inventory(&in[i]) ? inventory_overview(recorded_inventory(&in[i])) : NULL;
		if (hw)
			fprintf(f, "\n  ````\n%s  ````\n", hw);
		free(hw);
	}
	fputs("\n## Runs\n\n| input | run | host | started | command | tags |\n|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < nin; i++) {
		const struct record *r = in[i].r;
		const char *cells[] = { in[i].name, r->id, r->host ? r->host : "",
					r->time_ms ? when(r->time_ms, t, sizeof t) : "",
					r->cmdline && *r->cmdline ? r->cmdline : r->command };
		fputs("|", f);
		for (size_t k = 0; k < sizeof cells / sizeof *cells; k++) {
			fputc(' ', f);
			md_put(f, cells[k]);
			fputs(" |", f);
		}
		fputc(' ', f);
		for (size_t k = 0; k < r->ntags; k++) {
			md_put(f, r->tag_keys[k]);
			fputc('=', f);
			md_put(f, r->tag_values[k]);
			fputc(' ', f);
		}
		fputs("|\n", f);
	}
	fputs("\n## Results\n\nMedian ± 95% confidence interval; each column after the first against the first "
	      "by a two-sided Mann-Whitney U test (α = 0.05), as benchstat.\n\n", f);
	ct_write_markdown(f, m);
	if (m->tl.n) {
		fputs("\n## Timeline\n\n", f);
		track_cmp_write(f, &m->tl, TRACK_MARKDOWN);
	}
	if (nin == 2)
		changes_write_markdown(f, m->changes, in[0].name, in[1].name);
}
