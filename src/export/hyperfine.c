#include "export/hyperfine.h"
#include "stats/mannwhitney.h"
#include "stats/summary.h"
#include "util/color.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


#define OUTLIER_THRESHOLD 14.826 /* hyperfine's: 10 sigma, as MADs (1.4826 MAD = 1 sigma) */
#define MAX_BENCHES 4096

void time_stats_of(const double *x, size_t n, struct time_stats *st)
{
	memset(st, 0, sizeof *st);
	st->n = n;
	if (n == 0)
		return;
	double *s = malloc(n * sizeof *s);
	if (!s)
		abort();
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	st->mean = sum / (double)n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - st->mean) * (x[i] - st->mean);
	st->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	memcpy(s, x, n * sizeof *s);
	stats_sort(s, n);
	st->min = s[0];
	st->max = s[n - 1];
	st->median = stats_quantile(s, n, 0.5);
	for (size_t i = 0; i < n; i++)
		s[i] = fabs(x[i] - st->median);
	stats_sort(s, n);
	st->mad = stats_quantile(s, n, 0.5);
	free(s);
}

int time_outliers(const double *x, size_t n)
{
	struct time_stats st;
	if (n < 2)
		return 0;
	time_stats_of(x, n, &st);
	double mad = st.mad > 0 ? st.mad : 2.220446049250313e-16;
	if ((x[0] - st.median) / mad > OUTLIER_THRESHOLD)
		return 1;
	for (size_t i = 1; i < n; i++)
		if (fabs(x[i] - st.median) / mad > OUTLIER_THRESHOLD)
			return 2;
	return 0;
}

void time_ratio(const struct time_stats *a, const struct time_stats *b, double *ratio, double *err)
{
	*ratio = a->mean > 0 ? b->mean / a->mean : NAN;
	double ra = a->mean > 0 ? a->stddev / a->mean : 0, rb = b->mean > 0 ? b->stddev / b->mean : 0;
	*err = *ratio * sqrt(ra * ra + rb * rb);
}

size_t time_benches(const struct record *r, const struct bench **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nbenches && n < max; i++)
		if (bench_find_metric(r->benches[i], "wall_s"))
			out[n++] = r->benches[i];
	return n;
}

static void metric_stats(const struct bench *b, const char *name, struct time_stats *st)
{
	const struct metric *m = bench_find_metric(b, name);
	time_stats_of(m ? m->samples : NULL, m ? m->nsamples : 0, st);
}

static enum hf_unit style_unit;
static enum hf_sort style_sort;
static int style_reference;

void hyperfine_set_style(enum hf_unit unit, enum hf_sort sort, int reference)
{
	style_unit = unit;
	style_sort = sort;
	style_reference = reference;
}

/* Times in the unit hyperfine would pick for the mean (µs, ms or s), or --time-unit's;
 * hyperfine writes seconds with 3 decimals, ms and µs with 1. */
struct tunit {
	const char *name;
	double scale;
	int prec;
};

static struct tunit unit_for(double seconds)
{
	if (style_unit == HF_UNIT_MICRO || (style_unit == HF_UNIT_AUTO && seconds < 1e-3))
		return (struct tunit){ "µs", 1e6, 1 };
	if (style_unit == HF_UNIT_MILLI || (style_unit == HF_UNIT_AUTO && seconds < 1))
		return (struct tunit){ "ms", 1e3, 1 };
	return (struct tunit){ "s", 1, 3 };
}

/* "  Label:" padded so values line up (labels hold multi-byte characters). */
static void label(FILE *fp, const char *text)
{
	fprintf(fp, "  %s%*s", text, text_fill(text, 21), "");
}

static const char *tfmt(double seconds, struct tunit u, char *buf)
{
	snprintf(buf, 32, "%.*f %s", u.prec, seconds * u.scale, u.name);
	return buf;
}

/* tfmt right-aligned in 8 columns (µs is one column, two bytes), as hyperfine's report. */
static const char *tfmt8(double seconds, struct tunit u, char *buf)
{
	char t[32];
	tfmt(seconds, u, t);
	int fill = text_fill(t, 8);
	snprintf(buf, 32, "%.*s%.23s", fill, "        ", t);
	return buf;
}

static const char *bytes_fmt(double v, char *buf)
{
	if (v < 1000)
		snprintf(buf, 32, "%.0f B", v);
	else
		units_bytes_si(v, buf, 32);
	return buf;
}

static const char *command_text(const struct bench *b)
{
	json_t *c = json_object_get(b->settings, "command");
	return json_is_string(c) ? json_string_value(c) : b->name;
}

void time_print_header(FILE *fp, const char *name, size_t index)
{
	fprintf(fp, "Benchmark %zu: %s\n", index, name);
}

void time_print_bench(FILE *fp, const struct record *r, const struct bench *b)
{
	struct time_stats wall, user, sys, rss, majf, minf, vcs, ics;
	const struct metric *wm = bench_find_metric(b, "wall_s");
	char b1[32], b2[32], b3[32], b4[32];

	metric_stats(b, "wall_s", &wall);
	metric_stats(b, "user_s", &user);
	metric_stats(b, "sys_s", &sys);
	metric_stats(b, "max_rss", &rss);
	metric_stats(b, "major_faults", &majf);
	metric_stats(b, "minor_faults", &minf);
	metric_stats(b, "vol_ctx_switches", &vcs);
	metric_stats(b, "invol_ctx_switches", &ics);
	struct tunit u = unit_for(wall.mean), uu = u; /* user and system in the mean's unit, as hyperfine */

	/* the figures right-aligned, as hyperfine prints them ("    1.234 s ±  0.001 s") */
	label(fp, "Time (mean ± σ):");
	fprintf(fp, "%s ± %s    [User: %s, System: %s]\n", tfmt8(wall.mean, u, b1), tfmt8(wall.stddev, u, b2),
		tfmt(user.mean, uu, b3), tfmt(sys.mean, uu, b4));
	label(fp, "Range (min … max):");
	fprintf(fp, "%s … %s    %zu run%s\n", tfmt8(wall.min, u, b1), tfmt8(wall.max, u, b2), wall.n,
		wall.n == 1 ? "" : "s");
	label(fp, "Median:");
	fprintf(fp, "%s\n", tfmt(wall.median, u, b1));
	label(fp, "Peak memory (RSS):");
	fprintf(fp, "%s    Faults: %.0f major, %.0f minor (mean)\n", units_bytes_iec((uint64_t)rss.max, b1, sizeof b1),
		majf.mean, minf.mean);
	label(fp, "Context switches:");
	fprintf(fp, "%.0f voluntary, %.0f involuntary (mean)\n", vcs.mean, ics.mean);
	label(fp, "Storage I/O:");
	if (bench_find_metric(b, "read_bytes")) {
		struct time_stats rb, wb;
		metric_stats(b, "read_bytes", &rb);
		metric_stats(b, "write_bytes", &wb);
		fprintf(fp, "%s read, %s written (mean)\n", bytes_fmt(rb.mean, b1), bytes_fmt(wb.mean, b2));
	} else {
		fprintf(fp, "not readable (/proc/PID/io)\n");
	}
	label(fp, "Energy:");
	if (bench_find_metric(b, "energy_j")) {
		struct time_stats e;
		metric_stats(b, "energy_j", &e);
		fprintf(fp, "%.3f J ± %.3f J (CPU packages, RAPL)\n", e.mean, e.stddev);
	} else {
		json_t *why = json_object_get(r->extra, "energy");
		fprintf(fp, "%s\n", json_is_string(why) ? json_string_value(why) : "not measured");
	}
	const struct metric *ec = bench_find_metric(b, "exit_code");
	size_t failed = 0;
	for (size_t i = 0; ec && i < ec->nsamples; i++)
		failed += ec->samples[i] != 0;
	fputc('\n', fp);
	fflush(fp);
	if (failed)
		nm_warn("%s: %zu of %zu runs exited with a non-zero code", b->name, failed, ec->nsamples);
	if (wall.n && wall.min < 5e-3 && json_is_true(json_object_get(b->settings, "shell")))
		nm_warn("%s: took less than 5 ms; the shell's start-up cost subtracted from it is only an estimate "
			"(time it without a shell: nodemark time -- CMD ARGS)", b->name);
	int out = wm ? time_outliers(wm->samples, wm->nsamples) : 0;
	if (out == 1)
		nm_warn("%s: the first run was much slower than the rest (%s): caches filling? try --warmup or --prepare",
			b->name, units_duration((uint64_t)(wm->samples[0] * 1e9), b1, sizeof b1));
	else if (out == 2)
		nm_warn("%s: statistical outliers (more than 10 sigma from the median): other programs disturbing "
			"the runs? try a quieter machine, --warmup or --interleave", b->name);
}

/* hyperfine's relative speed of x against the reference: >= 1, "slower" or "faster". */
struct relspeed {
	double ratio, err;
	int has_err, cmp; /* cmp: mean of x against the reference's, -1 0 1 */
};

static struct relspeed relative(const struct time_stats *ref, const struct time_stats *x)
{
	struct relspeed s = { 1, 0, 0, 0 };
	s.cmp = x->mean < ref->mean ? -1 : x->mean > ref->mean;
	if (x->mean == 0) {
		s.ratio = x == ref ? 1 : INFINITY;
		return s;
	}
	s.ratio = s.cmp < 0 ? ref->mean / x->mean : s.cmp > 0 ? x->mean / ref->mean : 1;
	if (x->n > 1 && ref->n > 1) {
		s.has_err = 1;
		s.err = s.ratio * sqrt(pow(x->stddev / x->mean, 2) + pow(ref->stddev / ref->mean, 2));
	}
	return s;
}

/* Indices 0..n-1, by mean when asked (stable, so equal means keep the command order). */
static void order_by(const struct time_stats *st, size_t n, int by_mean, size_t *idx)
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = 1; by_mean && i < n; i++)
		for (size_t k = i; k > 0 && st[idx[k]].mean < st[idx[k - 1]].mean; k--) {
			size_t t = idx[k];
			idx[k] = idx[k - 1];
			idx[k - 1] = t;
		}
}

static size_t fastest(const struct time_stats *st, size_t n)
{
	size_t best = 0;
	if (style_reference)
		return 0;
	for (size_t i = 1; i < n; i++)
		if (st[i].mean < st[best].mean)
			best = i;
	return best;
}

static void significance(FILE *fp, const struct bench *a, const struct bench *b)
{
	const struct metric *wa = bench_find_metric(a, "wall_s"), *wb = bench_find_metric(b, "wall_s");
	double pv = mwu_pvalue(wa->samples, wa->nsamples, wb->samples, wb->nsamples);
	fprintf(fp, "  (Mann-Whitney U p=%.3f: %s)\n", pv, pv < 0.05 ? "significant" : "not significant, may be noise");
}

void time_print_summary(FILE *fp, const struct record *r)
{
	static const struct bench *bs[MAX_BENCHES];
	static struct time_stats st[MAX_BENCHES];
	static size_t idx[MAX_BENCHES];
	size_t n = time_benches(r, bs, MAX_BENCHES);
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		metric_stats(bs[i], "wall_s", &st[i]);
	size_t best = fastest(st, n);
	if (st[best].mean == 0)
		return; /* hyperfine: no comparison against a command that took no time */
	int by_command = style_sort == HF_SORT_COMMAND;
	order_by(st, n, !by_command, idx);
	if (by_command) {
		fputs("Relative speed comparison\n", fp);
		for (size_t k = 0; k < n; k++) {
			size_t i = idx[k];
			struct relspeed s = relative(&st[best], &st[i]);
			fprintf(fp, "  %10.2f", s.ratio);
			if (i != best && s.has_err)
				fprintf(fp, " ± %5.2f", s.err);
			else
				fputs("        ", fp);
			fprintf(fp, "  %s", bs[i]->name);
			if (i != best)
				significance(fp, bs[best], bs[i]);
			else
				fputc('\n', fp);
		}
		fputc('\n', fp);
		return;
	}
	fprintf(fp, "Summary\n  %s ran\n", bs[best]->name);
	for (size_t k = 0; k < n; k++) {
		size_t i = idx[k];
		if (i == best)
			continue;
		struct relspeed s = relative(&st[best], &st[i]);
		char err[32] = "";
		if (s.has_err)
			snprintf(err, sizeof err, " ± %.2f", s.err);
		/* a significant difference in colour: green where the first ran faster, red where
		 * it ran slower (only a --reference can be slower) */
		const struct metric *wa = bench_find_metric(bs[best], "wall_s"), *wb = bench_find_metric(bs[i], "wall_s");
		int called = s.cmp != 0 && mwu_pvalue(wa->samples, wa->nsamples, wb->samples, wb->nsamples) < 0.05;
		const char *on = called ? color_on(fp, s.cmp > 0 ? COLOR_GOOD : COLOR_BAD) : "";
		const char *off = called ? color_off(fp) : "";
		if (s.cmp == 0)
			fprintf(fp, "    As fast (%.2f%s) as %s", s.ratio, err, bs[i]->name);
		else
			fprintf(fp, "%s%8.2f%s times %s%s than %s", on, s.ratio, err, s.cmp > 0 ? "faster" : "slower", off,
				bs[i]->name);
		significance(fp, bs[best], bs[i]);
	}
	fputc('\n', fp);
}

/* --- JSON ------------------------------------------------------------------------------ */

static json_t *samples_json(const struct bench *b, const char *name, int as_int)
{
	const struct metric *m = bench_find_metric(b, name);
	json_t *a = json_array();
	for (size_t i = 0; m && i < m->nsamples; i++)
		json_array_append_new(a, as_int ? json_integer((json_int_t)m->samples[i]) : json_real(m->samples[i]));
	return a;
}

int export_hyperfine_json(FILE *fp, const struct record *r)
{
	const struct bench *bs[MAX_BENCHES];
	size_t n = time_benches(r, bs, MAX_BENCHES);
	json_t *results = json_array();
	static const struct {
		const char *field, *metric;
		int as_int;
	} extra[] = {
		{ "memory_usage_byte", "max_rss", 1 },
		{ "user_times", "user_s", 0 },
		{ "system_times", "sys_s", 0 },
		{ "major_faults", "major_faults", 1 },
		{ "minor_faults", "minor_faults", 1 },
		{ "voluntary_context_switches", "vol_ctx_switches", 1 },
		{ "involuntary_context_switches", "invol_ctx_switches", 1 },
		{ "read_bytes", "read_bytes", 1 },
		{ "write_bytes", "write_bytes", 1 },
		{ "energy_j", "energy_j", 0 },
	};
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = bs[i];
		struct time_stats wall, user, sys;
		metric_stats(b, "wall_s", &wall);
		metric_stats(b, "user_s", &user);
		metric_stats(b, "sys_s", &sys);
		json_t *o = json_object();
		json_t *params = json_object_get(b->settings, "parameters");
		json_object_set_new(o, "command", json_string(b->name));
		json_object_set_new(o, "mean", json_real(wall.mean));
		/* one run has no standard deviation: null, as hyperfine writes it */
		json_object_set_new(o, "stddev", wall.n > 1 ? json_real(wall.stddev) : json_null());
		json_object_set_new(o, "median", json_real(wall.median));
		json_object_set_new(o, "user", json_real(user.mean));
		json_object_set_new(o, "system", json_real(sys.mean));
		json_object_set_new(o, "min", json_real(wall.min));
		json_object_set_new(o, "max", json_real(wall.max));
		json_object_set_new(o, "times", samples_json(b, "wall_s", 0));
		json_object_set_new(o, "exit_codes", samples_json(b, "exit_code", 1));
		if (json_is_object(params) && json_object_size(params)) /* hyperfine leaves an empty one out */
			json_object_set_new(o, "parameters", json_deep_copy(params));
		/* Our additions; hyperfine's readers ignore fields they do not know. */
		json_object_set_new(o, "command_line", json_string(command_text(b)));
		for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++)
			if (bench_find_metric(b, extra[k].metric))
				json_object_set_new(o, extra[k].field, samples_json(b, extra[k].metric, extra[k].as_int));
		json_array_append_new(results, o);
	}
	json_t *root = json_pack("{s:o}", "results", results);
	int rc = json_dumpf(root, fp, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	fputc('\n', fp);
	json_decref(root);
	return rc;
}

/* --- CSV and Markdown ------------------------------------------------------------------ */

int export_hyperfine_csv(FILE *fp, const struct record *r)
{
	const struct bench *bs[MAX_BENCHES];
	size_t n = time_benches(r, bs, MAX_BENCHES);
	json_t *first = n ? json_object_get(bs[0]->settings, "parameters") : NULL;
	const char *key;
	json_t *v;

	fputs("command,mean,stddev,median,user,system,min,max", fp);
	json_object_foreach(first, key, v) {
		fputs(",", fp);
		esc_csv(fp, "parameter_");
		esc_csv(fp, key);
	}
	fputc('\n', fp);
	for (size_t i = 0; i < n; i++) {
		struct time_stats wall, user, sys;
		metric_stats(bs[i], "wall_s", &wall);
		metric_stats(bs[i], "user_s", &user);
		metric_stats(bs[i], "sys_s", &sys);
		esc_csv(fp, bs[i]->name);
		fprintf(fp, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", wall.mean, wall.stddev, wall.median, user.mean,
			sys.mean, wall.min, wall.max);
		json_t *params = json_object_get(bs[i]->settings, "parameters");
		json_object_foreach(first, key, v) {
			json_t *pv = json_object_get(params, key);
			fputc(',', fp);
			esc_csv(fp, json_is_string(pv) ? json_string_value(pv) : "");
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}

enum markup { MARKDOWN, ASCIIDOC, ORGMODE };

static void markup_row(FILE *fp, enum markup m, const char *const *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (m == MARKDOWN)
			fprintf(fp, "%s%s", i ? " | " : "| ", cells[i]);
		else if (m == ASCIIDOC)
			fprintf(fp, "%s%s", i ? " \n| " : "\n| ", cells[i]);
		else
			fprintf(fp, "%s%s", i == 0 ? "| " : i == 1 ? "  |  " : " |  ", cells[i]);
	}
	fputs(m == MARKDOWN || m == ORGMODE ? " |\n" : " \n", fp);
}

/* The command as a table cell: code, with '|' escaped so the row stays one row. */
static void markup_command(char *buf, size_t len, enum markup m, const char *s)
{
	size_t k = 0;
	char q = m == ORGMODE ? '=' : '`';
	if (k + 1 < len)
		buf[k++] = q;
	for (; *s && k + 3 < len; s++) {
		if (*s == '|')
			buf[k++] = '\\';
		buf[k++] = *s == '\n' ? ' ' : *s;
	}
	buf[k++] = q;
	buf[k] = '\0';
}

static int export_markup(FILE *fp, const struct record *r, enum markup m)
{
	static const struct bench *bs[MAX_BENCHES];
	static struct time_stats st[MAX_BENCHES];
	static size_t idx[MAX_BENCHES];
	size_t n = time_benches(r, bs, MAX_BENCHES);
	for (size_t i = 0; i < n; i++)
		metric_stats(bs[i], "wall_s", &st[i]);
	size_t best = n ? fastest(st, n) : 0;
	struct tunit u = unit_for(n ? st[0].mean : 1);
	char mean[40], minh[40], maxh[40];
	snprintf(mean, sizeof mean, "Mean [%s]", u.name);
	snprintf(minh, sizeof minh, "Min [%s]", u.name);
	snprintf(maxh, sizeof maxh, "Max [%s]", u.name);
	const char *head[] = { "Command", mean, minh, maxh, "Relative" };
	if (m == ASCIIDOC)
		fputs("[cols=\"<,>,>,>,>\"]\n|===", fp);
	markup_row(fp, m, head, 5);
	if (m == MARKDOWN)
		fputs("|:---|---:|---:|---:|---:|\n", fp);
	else if (m == ORGMODE)
		fputs("|--+--+--+--+--|\n", fp);
	order_by(st, n, style_sort == HF_SORT_MEAN, idx);
	for (size_t k = 0; k < n; k++) {
		size_t i = idx[k];
		char cmd[1024], c1[64], c2[32], c3[32], c4[48];
		struct relspeed s = relative(&st[best], &st[i]);
		markup_command(cmd, sizeof cmd, m, bs[i]->name);
		int l = snprintf(c1, sizeof c1, "%.*f", u.prec, st[i].mean * u.scale);
		if (st[i].n > 1)
			snprintf(c1 + l, sizeof c1 - (size_t)l, " ± %.*f", u.prec, st[i].stddev * u.scale);
		snprintf(c2, sizeof c2, "%.*f", u.prec, st[i].min * u.scale);
		snprintf(c3, sizeof c3, "%.*f", u.prec, st[i].max * u.scale);
		l = snprintf(c4, sizeof c4, "%.2f", s.ratio);
		if (i != best && s.has_err)
			snprintf(c4 + l, sizeof c4 - (size_t)l, " ± %.2f", s.err);
		const char *row[] = { cmd, c1, c2, c3, c4 };
		markup_row(fp, m, row, 5);
	}
	if (m == ASCIIDOC)
		fputs("|===\n", fp);
	return ferror(fp) ? -1 : 0;
}

int export_hyperfine_markdown(FILE *fp, const struct record *r)
{
	return export_markup(fp, r, MARKDOWN);
}

int export_hyperfine_asciidoc(FILE *fp, const struct record *r)
{
	return export_markup(fp, r, ASCIIDOC);
}

int export_hyperfine_orgmode(FILE *fp, const struct record *r)
{
	return export_markup(fp, r, ORGMODE);
}
