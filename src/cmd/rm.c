/* nodemark rm RUN...: delete saved runs. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *db;

static const struct cli_option options[] = { CLI_DB_OPTION(&db), CLI_END };

const struct cli_help cmd_rm_help = {
	.usage = "usage: nodemark rm [options] RUN...\n"
		 "\n"
		 "Delete saved runs, each with everything recorded under it.  Every RUN (an id, a unique id\n"
		 "prefix, a label: the newest run with it, or \"last\") must name a stored run, or nothing\n"
		 "is deleted.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Example:\n"
		"  nodemark rm 65f1a2b3 trial-3\n",
};

int cmd_rm(int argc, char **argv)
{
	struct cli_words words;
	cli_words_init(&words, argc);
	cli_parse("rm", argc, argv, options, cli_collect_word, &words);
	const char **names = words.v;
	size_t n = words.n;
	char (*ids)[24] = calloc((size_t)argc + 1, sizeof *ids);
	int rc = NM_EXIT_USAGE;
	char err[512];

	if (!n) {
		cli_words_free(&words);
		free(ids);
		nm_usage_fail("which runs? expected ids, id prefixes, labels or \"last\"");
	}
	struct store *s = storecmd_open(db);
	if (!s)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (store_resolve(s, names[i], ids[i], err, sizeof err) < 0) {
			nm_error("%s (nothing deleted)", err);
			goto out;
		}
	for (size_t i = 0; i < n; i++) {
		int dup = 0;
		for (size_t k = 0; k < i; k++)
			dup |= strcmp(ids[k], ids[i]) == 0;
		if (dup)
			continue;
		if (store_delete(s, ids[i], err, sizeof err) < 0) {
			nm_error("%s", err);
			rc = NM_EXIT_FAILED; /* the store could not be written (a full disk): no bad input */
			goto out;
		}
		printf("deleted run %s\n", ids[i]);
	}
	rc = NM_EXIT_OK;
out:
	store_close(s);
	cli_words_free(&words);
	free(ids);
	return rc;
}
