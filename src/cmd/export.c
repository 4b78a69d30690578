/* nodemark export RUN...: saved runs as JSON records, to bring them to another machine. */
#include "cmd/cmd.h"
#include "cli/output.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "results/record_json.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --format: JSON is the one format export writes (import reads it back). */
static void check_format(const struct opt_iter *it, void *unused)
{
	if (strcmp(it->arg, "json") != 0)
		opt_bad_value(it, "expected json");
}

static const char *db, *output = "-";
static int all;

static const struct cli_option options[] = {
	CLI_FLAG("all", &all, CLI_HELP(NULL, "every run in the store (oldest first)")),
	CLI_CALL("format", check_format, NULL, CLI_HELP("json", "the format (json, the only one)")),
	CLI_OUTPUT("output", &output, .alias = "o", CLI_HELP("FILE", "write to FILE (atomically) instead of stdout")),
	CLI_DB_OPTION(&db),
	CLI_END,
};

const struct cli_help cmd_export_help = {
	.usage = "usage: nodemark export [options] RUN...\n"
		 "\n"
		 "Write saved runs as JSON records (docs/schema.md), one object per run, one after another;\n"
		 "`nodemark import` reads them back, here or on another machine.  RUN is an id, a unique id\n"
		 "prefix, a label (the newest run with it), \"last\", \"last:KIND\" (the newest run of a\n"
		 "command, e.g. last:disk), \"last~N\" (the Nth before it) or \"last:KIND~N\".\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Example:\n"
		"  nodemark export last base -o node1.json\n"
		"  nodemark import node1.json       # on another machine\n",
};

/* Each record as JSON, one after another (nodemark import reads them back). */
struct records_out {
	struct record **v;
	size_t n;
};

static int write_records(FILE *fp, void *ctx)
{
	const struct records_out *ro = ctx;
	for (size_t i = 0; i < ro->n; i++) {
		json_t *j = record_to_json(ro->v[i]);
		json_dumpf(j, fp, JSON_INDENT(2));
		fputc('\n', fp);
		json_decref(j);
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct cli_words words;
	int rc = NM_EXIT_USAGE;
	char err[512];
	cli_words_init(&words, argc);
	cli_parse("export", argc, argv, options, cli_collect_word, &words);
	cli_outputs_check(options, NULL, 0, db);
	const char **names = words.v;
	size_t nnames = words.n;
	if (!nnames && !all) {
		cli_words_free(&words);
		nm_usage_fail("which runs? expected ids, id prefixes, labels, \"last\" or --all");
	}

	struct store *s = storecmd_open(db);
	struct run_summary *list = NULL;
	size_t nlist = 0;
	struct record **recs = NULL;
	size_t nrecs = 0;
	if (!s)
		goto out;
	if (all) {
		if (store_list(s, NULL, &list, &nlist, err, sizeof err) < 0) {
			nm_error("%s", err);
			goto out;
		}
	}
	/* Load everything first: a bad name writes nothing. */
	recs = calloc(nnames + nlist + 1, sizeof *recs);
	for (size_t i = nlist; i-- > 0;)
		if (!(recs[nrecs++] = storecmd_load(s, list[i].id)))
			goto out;
	for (size_t i = 0; i < nnames; i++)
		if (!(recs[nrecs++] = storecmd_load(s, names[i])))
			goto out;

	struct records_out ro = { recs, nrecs };
	rc = cli_output(output, write_records, &ro) < 0 ? NM_EXIT_FAILED : NM_EXIT_OK;
out:
	for (size_t i = 0; i < nrecs; i++)
		record_free(recs[i]);
	free(recs);
	run_summaries_free(list, nlist);
	store_close(s);
	cli_words_free(&words);
	return rc;
}
