/* nodemark runs: list the saved runs, newest first. */
#include "cmd/cmd.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "util/error.h"
#include "util/opt.h"
#include "util/parse.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char cmd_runs_usage[] =
	"usage: nodemark runs [options]\n"
	"\n"
	"List the runs in the results store, newest first: id, start time (UTC), host, command,\n"
	"label, tags and the number of benchmarks.\n"
	"\n"
	"Options:\n"
	"  --host NAME         only runs from this host\n"
	"  --label TEXT        only runs with this label\n"
	"  --tag KEY[=VALUE]   only runs with this tag (and value); repeatable, all must match\n"
	"  --command NAME      only runs of this command (disk, fio, hash, pieces, time, track, run)\n"
	"  --limit N           at most N runs\n"
	"  --json              print a JSON array of {id, time_ms, host, command, label, tags,\n"
	"                      cmdline, benches}\n"
	DB_OPT_USAGE
	"\n"
	"Example:\n"
	"  nodemark runs --host node1 --tag fs=xfs --limit 10\n";

enum { O_HOST = 1, O_LABEL, O_TAG, O_COMMAND, O_LIMIT, O_JSON, O_DB };

static const struct opt_spec specs[] = {
	{ "host", OPT_ARG, O_HOST },   { "label", OPT_ARG, O_LABEL }, { "tag", OPT_ARG, O_TAG },
	{ "command", OPT_ARG, O_COMMAND }, { "limit", OPT_ARG, O_LIMIT }, { "json", OPT_NOARG, O_JSON },
	{ "db", OPT_ARG, O_DB },       { 0 },
};

static void print_table(const struct run_summary *v, size_t n)
{
	printf("%-16s  %-19s  %-12s  %-7s  %-12s  %-20s  %s\n", "ID", "TIME (UTC)", "HOST", "COMMAND", "LABEL",
	       "TAGS", "BENCHES");
	for (size_t i = 0; i < n; i++) {
		char when[32] = "";
		time_t t = (time_t)(v[i].time_ms / 1000);
		struct tm tm;
		if (gmtime_r(&t, &tm))
			strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
		printf("%-16s  %-19s  %-12s  %-7s  %-12s  %-20s  %zu\n", v[i].id, when, v[i].host ? v[i].host : "",
		       v[i].command ? v[i].command : "", v[i].label ? v[i].label : "-", *v[i].tags ? v[i].tags : "-",
		       v[i].nbenches);
	}
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
	struct store_filter f = { 0 };
	char *tags[16] = { 0 }, err[256];
	const char *db = NULL;
	int json = 0, rc = NM_EXIT_OK;
	struct opt_iter it;

	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		switch (id) {
		case O_HOST:
			f.host = it.arg;
			break;
		case O_LABEL:
			f.label = it.arg;
			break;
		case O_COMMAND:
			f.command = it.arg;
			break;
		case O_TAG: {
			if (f.ntags == 16)
				nm_usage_fail("--tag: at most 16 tags");
			char *k = strdup(it.arg), *eq = strchr(k, '=');
			if (!*k || eq == k)
				opt_bad_value(&it, "expected KEY or KEY=VALUE");
			if (eq)
				*eq = '\0';
			tags[f.ntags] = k;
			f.tag_keys[f.ntags] = k;
			f.tag_values[f.ntags++] = eq ? eq + 1 : NULL;
			break;
		}
		case O_LIMIT: {
			uint64_t n;
			n = opt_count(&it, 1, 1000000000);
			f.limit = (size_t)n;
			break;
		}
		case O_JSON:
			json = 1;
			break;
		case O_DB:
			db = it.arg;
			break;
		case OPT_POSITIONAL:
			nm_usage_fail("unexpected argument \"%s\" (runs takes only options)", it.arg);
		}
	}

	struct store *s = storecmd_open(db);
	struct run_summary *v = NULL;
	size_t n = 0;
	if (!s) {
		rc = NM_EXIT_USAGE;
	} else if (store_list(s, &f, &v, &n, err, sizeof err) < 0) {
		nm_error("%s", err);
		rc = NM_EXIT_USAGE;
	} else if (json) {
		print_json(v, n);
	} else {
		print_table(v, n);
	}
	run_summaries_free(v, n);
	store_close(s);
	for (size_t i = 0; i < f.ntags; i++)
		free(tags[i]);
	return rc;
}
