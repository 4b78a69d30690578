/* nodemark export RUN...: saved runs as JSON records, to bring them to another machine. */
#include "cmd/cmd.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "results/record_json.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_export_usage[] =
	"usage: nodemark export [options] RUN...\n"
	"\n"
	"Write saved runs as JSON records (docs/schema.md), one object per run, one after another;\n"
	"`nodemark import` reads them back, here or on another machine.  RUN is an id, a unique id\n"
	"prefix, a label (the newest run with it) or \"last\".\n"
	"\n"
	"Options:\n"
	"  --all               every run in the store (oldest first)\n"
	"  --format json       the format (json, the only one)\n"
	"  -o, --output FILE   write to FILE (atomically) instead of stdout\n"
	DB_OPT_USAGE
	"\n"
	"Example:\n"
	"  nodemark export last base -o node1.json     # then on another machine: nodemark import node1.json\n";

enum { O_ALL = 1, O_FORMAT, O_OUTPUT, O_DB };

static const struct opt_spec specs[] = {
	{ "all", OPT_NOARG, O_ALL }, { "format", OPT_ARG, O_FORMAT }, { "o", OPT_ARG, O_OUTPUT },
	{ "output", OPT_ARG, O_OUTPUT }, { "db", OPT_ARG, O_DB },    { 0 },
};

int cmd_export(int argc, char **argv)
{
	const char *db = NULL, *output = "-";
	const char **names = calloc((size_t)argc + 1, sizeof *names);
	size_t nnames = 0;
	int all = 0, rc = NM_EXIT_USAGE;
	struct opt_iter it;
	char err[512];

	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		switch (id) {
		case O_ALL:
			all = 1;
			break;
		case O_FORMAT:
			if (strcmp(it.arg, "json") != 0)
				opt_bad_value(&it, "expected json");
			break;
		case O_OUTPUT:
			output = opt_output_file(&it);
			break;
		case O_DB:
			db = it.arg;
			break;
		case OPT_POSITIONAL:
			names[nnames++] = it.arg;
			break;
		}
	}
	if (!nnames && !all) {
		free(names);
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

	struct atomic_file af;
	FILE *fp = afile_open(&af, output, err, sizeof err);
	if (!fp) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
		goto out;
	}
	for (size_t i = 0; i < nrecs; i++) {
		json_t *j = record_to_json(recs[i]);
		json_dumpf(j, fp, JSON_INDENT(2));
		fputc('\n', fp);
		json_decref(j);
	}
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
		goto out;
	}
	rc = NM_EXIT_OK;
out:
	for (size_t i = 0; i < nrecs; i++)
		record_free(recs[i]);
	free(recs);
	run_summaries_free(list, nlist);
	store_close(s);
	free(names);
	return rc;
}
