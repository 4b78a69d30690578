/* nodemark show RUN: one saved run, as text or as its JSON record. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "compare/track_table.h"
#include "inventory/inventory.h"
#include "results/record_json.h"
#include "stats/scale.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/termsafe.h"
#include "util/textwidth.h"
#include "util/units.h"
#include "util/xalloc.h"

#include <string.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *db;
static int json;

static const struct cli_option options[] = {
	CLI_FLAG("json", &json, CLI_HELP(NULL, "print the run's JSON record (the export format, docs/schema.md)")),
	CLI_DB_OPTION(&db),
	CLI_END,
};

const struct cli_help cmd_show_help = {
	.usage = "usage: nodemark show [options] RUN\n"
		 "\n"
		 "Show one saved run: when, where and how it ran, the machine, and per benchmark its settings\n"
		 "and each metric's median with its 95% confidence interval (as benchstat computes it) and\n"
		 "the number of samples.  RUN is an id, a unique id prefix, a label (the newest run with it)\n"
		 "or a reference: \"last\" (the newest run), \"last:KIND\" (the newest run of a command,\n"
		 "e.g. last:disk), \"last~N\" (the Nth run before it), \"last:disk~1\".\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Example:\n"
		"  nodemark show last\n",
};

/* The one run to show. */
static void take_name(const char *word, void *name)
{
	const char **n = name;
	if (*n)
		nm_usage_fail("one run at a time (got \"%s\" and \"%s\")", *n, word);
	*n = word;
}

/* A bench's lines: a key (a setting, or a metric in compare's words) and its value, the values
 * aligned by display width (util/textwidth.h) so that a "µs" or "±" does not shift them. */
struct kv {
	char key[160];
	char *value; /* malloc'd */
};

struct kv_list {
	struct kv *v;
	size_t n;
};

static void kv_add(struct kv_list *l, const char *key, const char *value)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	snprintf(l->v[l->n].key, sizeof l->v[l->n].key, "%s", key);
	l->v[l->n].value = xstrdup(value);
	l->n++;
}

static void kv_print(FILE *out, struct kv_list *l)
{
	size_t w = 0;
	for (size_t i = 0; i < l->n; i++)
		if (text_width(l->v[i].key) > w)
			w = text_width(l->v[i].key);
	for (size_t i = 0; i < l->n; i++) {
		fprintf(out, "    %s%*s  %s\n", l->v[i].key, text_fill(l->v[i].key, w), "", l->v[i].value);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* A plain value as text: a string as it is, a real to 6 digits (a ratio 0.97, not
 * 0.96999999999999997), anything else as JSON writes it; malloc'd. */
static char *scalar_text(const json_t *v)
{
	char num[48];
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_real(v)) {
		snprintf(num, sizeof num, "%.6g", json_real_value(v));
		return xstrdup(num);
	}
	char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	return t ? t : xstrdup("?");
}

/* A setting as key/value lines: a plain value as scalar_text writes it, an object key by key
 * ("paired.ratio"), a list of plain values joined ("4k, 64k"), a list holding objects item by
 * item ("jobs[0].rw"): no JSON blob to read. */
static void settings_lines(struct kv_list *l, const char *key, const json_t *v)
{
	char k[160];
	size_t i;
	json_t *x;
	if ((json_is_object(v) && !json_object_size(v)) || (json_is_array(v) && !json_array_size(v))) {
		kv_add(l, key, "(none)");
		return;
	}
	if (json_is_object(v)) {
		const char *sub;
		json_object_foreach((json_t *)v, sub, x) {
			snprintf(k, sizeof k, "%s.%s", key, sub);
			settings_lines(l, k, x);
		}
		return;
	}
	if (json_is_array(v)) {
		int plain = 1;
		json_array_foreach(v, i, x) plain &= !json_is_object(x) && !json_is_array(x);
		if (!plain) {
			json_array_foreach(v, i, x) {
				snprintf(k, sizeof k, "%s[%zu]", key, i);
				settings_lines(l, k, x);
			}
			return;
		}
		struct strbuf sb;
		sb_init(&sb);
		json_array_foreach(v, i, x) {
			char *t = scalar_text(x);
			sb_printf(&sb, "%s%s", i ? ", " : "", t);
			free(t);
		}
		char *text = sb_detach(&sb);
		kv_add(l, key, text);
		free(text);
		return;
	}
	char *text = scalar_text(v);
	kv_add(l, key, text);
	free(text);
}

/* A metric's figure: its median as compare shows it ("184 µs"); "" without samples. */
static void metric_figure(const struct metric *m, double v, char *buf, size_t len)
{
	/* nodemark's own figures carry their unit (docs/report.md, "Units"); Go benchmark
	 * units (the metric is its unit) keep benchstat's scaling. */
	char num[40];
	if (strcmp(m->name, m->unit) != 0)
		units_figure(v, m->name, m->unit, buf, len);
	else
		snprintf(buf, len, "%s %s", scale_one(v, scale_class_of(m->unit), num, sizeof num), m->unit);
}

/* A bench's metrics, named in compare's words (units_metric_words: "bandwidth", "mean latency"),
 * each its median, the spread of its 95% interval and its samples, the figures right-aligned. */
static void metric_lines(struct kv_list *l, const struct bench *b)
{
	size_t figw = 0;
	char fig[64], pct[16], words[160], line[400];
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < b->nmetrics; k++) {
			const struct metric *m = b->metrics[k];
			struct summary s;
			int have = summary_median(m->samples, m->nsamples, 0.95, &s) == 0;
			if (have)
				metric_figure(m, s.center, fig, sizeof fig);
			if (pass == 0) {
				if (have && !summary_unstable(&s) && text_width(fig) > figw)
					figw = text_width(fig);
				continue;
			}
			units_metric_words(m->name, words, sizeof words);
			if (!have) {
				snprintf(line, sizeof line, "(no samples) %s", m->unit);
			} else if (summary_unstable(&s)) { /* a spread past 100%: the range, not "± 1404%" */
				char lo[64], hi[64];
				metric_figure(m, s.lo, lo, sizeof lo);
				metric_figure(m, s.hi, hi, sizeof hi);
				stats_spread_text(line, sizeof line, s.center, s.lo, s.hi, "", fig, lo, hi);
			} else {
				snprintf(line, sizeof line, "%*s%s ± %s", text_fill(fig, figw), "", fig,
					 summary_range_pct(&s, pct, sizeof pct));
			}
			size_t n = strlen(line);
			snprintf(line + n, sizeof line - n, " (n=%zu%s)", m->nsamples,
				 m->direction > 0 ? ", higher is better" : m->direction < 0 ? ", lower is better" : "");
			kv_add(l, words, line);
		}
}

/* A saved track run: its milestone table again, as track printed it. */
static void print_timeline(FILE *out, const struct bench *b)
{
	struct track t;
	double total_s = track_replay(&t, b, NULL);
	if (total_s < 0)
		return;
	fputc('\n', out);
	track_print_header(out, &t);
	for (size_t i = 0; i < t.nrows; i++)
		track_print_row(out, &t, &t.rows[i]);
	track_print_end(out, &t, total_s, 0);
	fputc('\n', out);
	track_free(&t);
}

static void print_run(FILE *out, const struct record *r)
{
	char when[40] = "";
	time_t t = (time_t)(r->time_ms / 1000);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(out, "run      %s%s%s\n", r->id, r->label ? "  label " : "", r->label ? r->label : "");
	fprintf(out, "time     %s\n", when);
	fprintf(out, "host     %s\n", r->host ? r->host : "");
	fprintf(out, "command  %s\n", r->cmdline ? r->cmdline : "");
	fprintf(out, "version  %s\n", r->version ? r->version : "");
	if (r->ntags) {
		fprintf(out, "tags    ");
		for (size_t i = 0; i < r->ntags; i++)
			fprintf(out, " %s=%s", r->tag_keys[i], r->tag_values[i]);
		fputc('\n', out);
	}
	/* a record without an inventory (an import, --no-inventory) names no machine it does not know */
	char *sum = r->inventory ? inventory_summary(r->inventory) : NULL;
	fprintf(out, "machine  %s\n", sum && *sum ? sum : "unknown (no inventory recorded)");
	free(sum);
	for (size_t i = 0; i < r->nbenches; i++) {
		const struct bench *b = r->benches[i];
		fprintf(out, "\n  %s\n", b->name);
		struct kv_list l = { 0 };
		const char *key;
		json_t *v;
		json_object_foreach(b->settings, key, v) settings_lines(&l, key, v);
		metric_lines(&l, b);
		kv_print(out, &l);
		print_timeline(out, b);
		for (size_t k = 0; k < b->nseries; k++) {
			const struct series *se = b->series[k];
			fprintf(out, "    series %s: %zu points", se->name, se->n);
			if (se->x_unit && *se->x_unit)
				fprintf(out, ", x in %s", se->x_unit);
			if (se->y_unit && *se->y_unit)
				fprintf(out, ", y in %s", se->y_unit);
			fputc('\n', out);
		}
		for (size_t k = 0; k < b->nhists; k++) {
			uint64_t total = 0;
			for (size_t j = 0; j < b->hists[k]->n; j++)
				total += b->hists[k]->count[j];
			fprintf(out, "    histogram %s: %llu values in %zu buckets\n", b->hists[k]->name,
			       (unsigned long long)total, b->hists[k]->n);
		}
	}
}

int cmd_show(int argc, char **argv)
{
	const char *name = NULL;
	cli_parse("show", argc, argv, options, take_name, &name);
	if (!name)
		nm_usage_fail("which run? expected an id, id prefix, label or \"last\"");

	struct store *s = storecmd_open(db);
	if (!s)
		return NM_EXIT_USAGE;
	struct record *r = storecmd_load(s, name);
	store_close(s);
	if (!r)
		return NM_EXIT_USAGE;
	if (json) {
		json_t *j = record_to_json(r);
		json_dumpf(j, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(j);
	} else {
		/* written whole, then put out without the control characters a stored name may
		 * hold (util/termsafe.h) */
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		if (!mem)
			abort();
		print_run(mem, r);
		if (fclose(mem) != 0)
			abort();
		term_write_clean(stdout, text, len);
		free(text);
	}
	record_free(r);
	return NM_EXIT_OK;
}
