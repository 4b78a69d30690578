/* nodemark import FILE...: JSON records from other machines (or an earlier export) into the store. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "results/record_json.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>

static const char *db;

static const struct cli_option options[] = { CLI_DB_OPTION(&db), CLI_END };

const struct cli_help cmd_import_help = {
	.usage = "usage: nodemark import [options] FILE...\n"
		 "\n"
		 "Add the runs in JSON record files (as `nodemark export` writes them: one record after\n"
		 "another, an array of records, or one record; docs/schema.md) to the results store.  Every\n"
		 "record of every file is checked before anything is written; a bad one names the file and\n"
		 "the field, exits 2 and imports nothing.  Runs already stored (same id) are skipped.\n"
		 "FILE \"-\" reads standard input.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Example:\n"
		"  nodemark import node1.json node2.json && nodemark runs --command disk\n",
};

int cmd_import(int argc, char **argv)
{
	struct cli_words words;
	cli_words_init(&words, argc);
	cli_parse("import", argc, argv, options, cli_collect_word, &words);
	const char **files = words.v;
	size_t nfiles = words.n, nrecs = 0, added = 0, skipped = 0;
	struct record **recs = NULL;
	int rc = NM_EXIT_USAGE;
	char err[512];

	if (!nfiles) {
		cli_words_free(&words);
		nm_usage_fail("which files? expected JSON record files (from nodemark export)");
	}

	for (size_t i = 0; i < nfiles; i++) {
		size_t len;
		char *text = storecmd_read_file(files[i], &len);
		struct record **v;
		if (!text)
			goto out;
		long n = records_parse(text, len, &v, err, sizeof err);
		free(text);
		if (n < 0) {
			nm_error("%s: %s", files[i], err);
			goto out;
		}
		if (n == 0) {
			nm_error("%s: no records in the file", files[i]);
			goto out;
		}
		recs = realloc(recs, (nrecs + (size_t)n) * sizeof *recs);
		for (long k = 0; k < n; k++)
			recs[nrecs++] = v[k];
		free(v);
	}

	struct store *s = storecmd_open(db);
	if (!s)
		goto out;
	for (size_t i = 0; i < nrecs; i++) {
		int has = store_has(s, recs[i]->id, err, sizeof err);
		if (has == 0)
			has = store_save(s, recs[i], err, sizeof err) < 0 ? -1 : 0;
		if (has < 0) {
			nm_error("%s (%zu of %zu runs imported before this one)", err, added, nrecs);
			store_close(s);
			goto out;
		}
		if (has)
			skipped++;
		else
			added++;
	}
	store_close(s);
	printf("imported %zu run%s", added, added == 1 ? "" : "s");
	if (skipped)
		printf(" (%zu already stored)", skipped);
	putchar('\n');
	rc = NM_EXIT_OK;
out:
	records_free(recs, nrecs);
	cli_words_free(&words);
	return rc;
}
