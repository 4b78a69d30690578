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
#include "util/termsafe.h"
#include "util/units.h"

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

/* A bench's settings as aligned key/value lines: a string as it is, anything else as JSON. */
static void print_settings(FILE *out, const json_t *settings)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)settings, key, v) {
		char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		fprintf(out, "    %-22s %s\n", key, json_is_string(v) ? json_string_value(v) : text ? text : "?");
		free(text);
	}
}

static void print_metric(FILE *out, const struct metric *m)
{
	struct summary s;
	char med[48], pct[16];
	if (summary_median(m->samples, m->nsamples, 0.95, &s) < 0) {
		fprintf(out, "    %-22s (no samples) %s\n", m->name, m->unit);
		return;
	}
	/* nodemark's own figures carry their unit (docs/report.md, "Units"); Go benchmark
	 * units (the metric is its unit) keep benchstat's scaling. */
	int own = strcmp(m->name, m->unit) != 0, unstable = summary_unstable(&s);
	if (unstable) { /* a spread past 100%: the range, not "± 1404%" */
		char lo[48], hi[48], num[40], text[160];
		const double v[3] = { s.center, s.lo, s.hi };
		char *f[3] = { med, lo, hi };
		for (int k = 0; k < 3; k++)
			if (own)
				units_figure(v[k], m->name, m->unit, f[k], sizeof lo);
			else
				snprintf(f[k], sizeof lo, "%s %s", scale_one(v[k], scale_class_of(m->unit), num, sizeof num),
					 m->unit);
		fprintf(out, "    %-22s %s", m->name, stats_spread_text(text, sizeof text, s.center, s.lo, s.hi, "", med,
									 lo, hi));
	} else if (own) {
		units_figure(s.center, m->name, m->unit, med, sizeof med);
		fprintf(out, "    %-22s %19s ± %-4s", m->name, med, summary_range_pct(&s, pct, sizeof pct));
	} else {
		scale_one(s.center, scale_class_of(m->unit), med, sizeof med);
		fprintf(out, "    %-22s %10s %-8s ± %-4s", m->name, med, m->unit, summary_range_pct(&s, pct, sizeof pct));
	}
	fprintf(out, " (n=%zu%s)\n", m->nsamples,
	       m->direction > 0 ? ", higher is better" : m->direction < 0 ? ", lower is better" : "");
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
	if (r->inventory) {
		char *sum = inventory_summary(r->inventory);
		fprintf(out, "machine  %s\n", sum ? sum : "");
		free(sum);
	}
	for (size_t i = 0; i < r->nbenches; i++) {
		const struct bench *b = r->benches[i];
		fprintf(out, "\n  %s\n", b->name);
		if (b->settings)
			print_settings(out, b->settings);
		for (size_t k = 0; k < b->nmetrics; k++)
			print_metric(out, b->metrics[k]);
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
