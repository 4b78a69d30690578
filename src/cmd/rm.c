/* nodemark rm RUN...: delete saved runs. */
#include "cmd/cmd.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_rm_usage[] =
	"usage: nodemark rm [options] RUN...\n"
	"\n"
	"Delete saved runs, each with everything recorded under it.  Every RUN (an id, a unique id\n"
	"prefix, a label: the newest run with it, or \"last\") must name a stored run, or nothing\n"
	"is deleted.\n"
	"\n"
	"Options:\n"
	DB_OPT_USAGE
	"\n"
	"Example:\n"
	"  nodemark rm 65f1a2b3 trial-3\n";

enum { O_DB = 1 };

static const struct opt_spec specs[] = { { "db", OPT_ARG, O_DB }, { 0 } };

int cmd_rm(int argc, char **argv)
{
	const char *db = NULL;
	const char **names = calloc((size_t)argc + 1, sizeof *names);
	char (*ids)[24] = calloc((size_t)argc + 1, sizeof *ids);
	size_t n = 0;
	int rc = NM_EXIT_USAGE;
	struct opt_iter it;
	char err[512];

	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		if (id == O_DB)
			db = it.arg;
		else if (id == OPT_POSITIONAL)
			names[n++] = it.arg;
	}
	if (!n) {
		free(names);
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
			goto out;
		}
		printf("deleted run %s\n", ids[i]);
	}
	rc = NM_EXIT_OK;
out:
	store_close(s);
	free(names);
	free(ids);
	return rc;
}
