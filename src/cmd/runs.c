/* nodemark runs: list the saved runs, newest first. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "util/error.h"
#include "util/termsafe.h"
#include "util/opt.h"
#include "util/parse.h"
#include "util/textwidth.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* --tag KEY or KEY=VALUE: the filter keeps the copy (freed by cmd_runs). */
static void add_tag(const struct opt_iter *it, void *value)
{
	struct store_filter *f = value;
	if (f->ntags == sizeof f->tag_keys / sizeof f->tag_keys[0])
		nm_usage_fail("--tag: at most %zu tags", sizeof f->tag_keys / sizeof f->tag_keys[0]);
	char *k = strdup(it->arg), *eq = strchr(k, '=');
	if (!*k || eq == k) {
		free(k);
		opt_bad_value(it, "expected KEY or KEY=VALUE");
	}
	if (eq)
		*eq = '\0';
	f->tag_keys[f->ntags] = k;
	f->tag_values[f->ntags++] = eq ? eq + 1 : NULL;
}

static struct store_filter filter;
static const char *db;
static uint64_t limit;
static int json;

static const struct cli_option options[] = {
	CLI_STRING("host", &filter.host, CLI_HELP("NAME", "only runs from this host")),
	CLI_STRING("label", &filter.label, CLI_HELP("TEXT", "only runs with this label")),
	CLI_CALL("tag", add_tag, &filter,
		 CLI_HELP("KEY[=VALUE]", "only runs with this tag (and value); repeatable, all must match")),
	CLI_STRING("command", &filter.command,
		   CLI_HELP("NAME", "only runs of this command (disk, fio, hash, pieces, time, track, run)")),
	CLI_COUNT("limit", &limit, 1, 1000000000, CLI_HELP("N", "at most N runs")),
	CLI_FLAG("json", &json, CLI_HELP(NULL, "print a JSON array of {id, time_ms, host, command, label, tags,\n"
					      "cmdline, benches}")),
	CLI_DB_OPTION(&db),
	CLI_END,
};

const struct cli_help cmd_runs_help = {
	.usage = "usage: nodemark runs [options]\n"
		 "\n"
		 "List the runs in the results store, newest first: id, start time (UTC), host, command,\n"
		 "label, tags and the number of benchmarks.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Example:\n"
		"  nodemark runs --host node1 --tag fs=xfs --limit 10\n",
};

static void print_table(const struct run_summary *v, size_t n)
{
	/* written whole, then put out without the control characters a stored name may hold */
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		abort();
	fprintf(out, "%-16s  %-19s  %-12s  %-7s  %-12s  %-20s  %s\n", "ID", "TIME (UTC)", "HOST", "COMMAND", "LABEL",
	       "TAGS", "BENCHES");
	for (size_t i = 0; i < n; i++) {
		char when[32] = "";
		time_t t = (time_t)(v[i].time_ms / 1000);
		struct tm tm;
		if (gmtime_r(&t, &tm))
			strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
		/* a host, label or tag may hold "é" or "日本": padded by display width, not bytes */
		const char *cells[] = { v[i].id, when, v[i].host ? v[i].host : "", v[i].command ? v[i].command : "",
					v[i].label ? v[i].label : "-", *v[i].tags ? v[i].tags : "-" };
		static const size_t widths[] = { 16, 19, 12, 7, 12, 20 };
		for (size_t k = 0; k < sizeof cells / sizeof *cells; k++) {
			/* cleaned first: an escape or a tab in a label is padded as the '?' it shows */
			char *cell = term_clean_dup(cells[k]);
			text_put(out, cell, widths[k], 0);
			free(cell);
			fputs("  ", out);
		}
		fprintf(out, "%zu\n", v[i].nbenches);
	}
	if (fclose(out) != 0)
		abort();
	term_write_clean(stdout, text, len);
	free(text);
}

static void print_json(const struct run_summary *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object(), *tags = json_object();
		char *t = strdup(v[i].tags), *save = NULL;
		for (char *kv = strtok_r(t, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(kv, '=');
			if (eq) {
				*eq = '\0';
				json_object_set_new(tags, kv, json_string(eq + 1));
			}
		}
		free(t);
		json_object_set_new(o, "id", json_string(v[i].id));
		json_object_set_new(o, "time_ms", json_integer(v[i].time_ms));
		json_object_set_new(o, "host", json_string(v[i].host ? v[i].host : ""));
		json_object_set_new(o, "command", json_string(v[i].command ? v[i].command : ""));
		json_object_set_new(o, "label", v[i].label ? json_string(v[i].label) : json_null());
		json_object_set_new(o, "tags", tags);
		json_object_set_new(o, "cmdline", json_string(v[i].cmdline ? v[i].cmdline : ""));
		json_object_set_new(o, "benches", json_integer((json_int_t)v[i].nbenches));
		json_array_append_new(a, o);
	}
	json_dumpf(a, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(a);
}

int cmd_runs(int argc, char **argv)
{
	struct store_filter *f = &filter;
	char err[256];
	int rc = NM_EXIT_OK;
	cli_parse("runs", argc, argv, options, NULL, NULL);
	f->limit = (size_t)limit;

	struct store *s = storecmd_open(db);
	struct run_summary *v = NULL;
	size_t n = 0;
	if (!s) {
		rc = NM_EXIT_USAGE;
	} else if (store_list(s, f, &v, &n, err, sizeof err) < 0) {
		nm_error("%s", err);
		rc = NM_EXIT_USAGE;
	} else if (json) {
		print_json(v, n);
	} else {
		print_table(v, n);
	}
	run_summaries_free(v, n);
	store_close(s);
	for (size_t i = 0; i < f->ntags; i++)
		free((char *)f->tag_keys[i]);
	return rc;
}
