/* nodemark show RUN: one saved run, as text or as its JSON record. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "inventory/inventory.h"
#include "results/record_json.h"
#include "stats/scale.h"
#include "stats/summary.h"
#include "util/error.h"
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
		 "or \"last\".\n"
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

static void print_metric(const struct metric *m)
{
	struct summary s;
	char med[48], pct[16];
	if (summary_median(m->samples, m->nsamples, 0.95, &s) < 0) {
		printf("    %-22s (no samples) %s\n", m->name, m->unit);
		return;
	}
	/* nodemark's own figures carry their unit (docs/report.md, "Units"); Go benchmark
	 * units (the metric is its unit) keep benchstat's scaling. */
	if (strcmp(m->name, m->unit) != 0) {
		units_figure(s.center, m->name, m->unit, med, sizeof med);
		printf("    %-22s %19s", m->name, med);
	} else {
		scale_one(s.center, scale_class_of(m->unit), med, sizeof med);
		printf("    %-22s %10s %-8s", m->name, med, m->unit);
	}
	printf(" ± %-4s (n=%zu%s)\n", summary_range_pct(&s, pct, sizeof pct), m->nsamples,
	       m->direction > 0 ? ", higher is better" : m->direction < 0 ? ", lower is better" : "");
}

static void print_run(const struct record *r)
{
	char when[40] = "";
	time_t t = (time_t)(r->time_ms / 1000);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("run      %s%s%s\n", r->id, r->label ? "  label " : "", r->label ? r->label : "");
	printf("time     %s\n", when);
	printf("host     %s\n", r->host ? r->host : "");
	printf("command  %s\n", r->cmdline ? r->cmdline : "");
	printf("version  %s\n", r->version ? r->version : "");
	if (r->ntags) {
		printf("tags    ");
		for (size_t i = 0; i < r->ntags; i++)
			printf(" %s=%s", r->tag_keys[i], r->tag_values[i]);
		putchar('\n');
	}
	if (r->inventory) {
		char *sum = inventory_summary(r->inventory);
		printf("machine  %s\n", sum ? sum : "");
		free(sum);
	}
	for (size_t i = 0; i < r->nbenches; i++) {
		const struct bench *b = r->benches[i];
		char *settings = json_dumps(b->settings, JSON_COMPACT);
		printf("\n  %s", b->name);
		if (settings && json_object_size(b->settings))
			printf("  %s", settings);
		putchar('\n');
		free(settings);
		for (size_t k = 0; k < b->nmetrics; k++)
			print_metric(b->metrics[k]);
		for (size_t k = 0; k < b->nseries; k++)
			printf("    series %s: %zu points (%s, %s)\n", b->series[k]->name, b->series[k]->n,
			       b->series[k]->x_unit, b->series[k]->y_unit);
		for (size_t k = 0; k < b->nhists; k++) {
			uint64_t total = 0;
			for (size_t j = 0; j < b->hists[k]->n; j++)
				total += b->hists[k]->count[j];
			printf("    histogram %s: %llu values in %zu buckets\n", b->hists[k]->name,
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
		print_run(r);
	}
	record_free(r);
	return NM_EXIT_OK;
}
