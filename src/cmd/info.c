/* nodemark info: the machine as facts, down to the disk stack under a directory. */
#include "cmd/cmd.h"
#include "cli/store_open.h"
#include "inventory/inventory.h"
#include "export/changes.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char cmd_info_usage[] =
	"usage: nodemark info [--json] [--path DIR] [--serials] [--sysroot DIR] [--output FILE]\n"
	"       nodemark info --diff RUN_A RUN_B [--json] [--db FILE] [--output FILE]\n"
	"\n"
	"Describe the machine: CPU, memory, OS and virtualization, every block device, and the\n"
	"storage stack under a directory (mount, dm-crypt/LVM, md RAID, partitions, disks).\n"
	"Everything is read from /proc, /sys and /etc without root; a fact that needs root says so.\n"
	"The first line is a one-line summary for benchmark posts.\n"
	"\n"
	"Options:\n"
	"  --json              print the facts as one JSON object (what is stored with every run)\n"
	"  --path DIR          describe the storage stack under DIR (default: the current directory)\n"
	"  --serials           include serial numbers and UUIDs (left out by default)\n"
	"  --sysroot DIR       read a fake machine: DIR/proc, DIR/sys, DIR/etc, DIR/run (for tests;\n"
	"                      also $NODEMARK_SYSROOT). --path then names a place on that machine,\n"
	"                      found through DIR/proc/self/mountinfo\n"
	"  --diff RUN_A RUN_B  what changed between two saved runs: kernel, OS, firmware, CPU\n"
	"                      governor and mitigations, memory speed, mount options, file system\n"
	"                      and ZFS properties, the benchmarks' own settings\n"
	"  --db FILE           the results store for --diff (default $NODEMARK_DB or\n"
	"                      $XDG_DATA_HOME/nodemark/results.db)\n"
	"  --output FILE       write to FILE (atomically) instead of standard output\n"
	"  -h, --help          this text\n"
	"\n"
	"Examples:\n"
	"  nodemark info\n"
	"  nodemark info --path /var/lib/node --json --output inventory.json\n"
	"  nodemark info --diff before after\n"
	"\n"
	"Exit codes: 0 ok, 1 the output could not be written, 2 bad usage.\n";

enum { OPT_JSON = 1, OPT_PATH, OPT_SERIALS, OPT_SYSROOT, OPT_OUTPUT, OPT_DIFF, OPT_DB };

/* --diff: the changes between two saved runs as JSON or text into *out (malloc'd). */
static int diff_text(const char *name_a, const char *name_b, const char *db, int json, char **out)
{
	struct store *s = storecmd_open(db);
	if (!s)
		return NM_EXIT_USAGE;
	struct record *a = storecmd_load(s, name_a), *b = a ? storecmd_load(s, name_b) : NULL;
	store_close(s);
	if (!a || !b) {
		record_free(a);
		record_free(b);
		return NM_EXIT_USAGE;
	}
	json_t *changes = record_changes(a, b);
	if (json) {
		json_t *o = json_pack("{s:s,s:s,s:O}", "a", a->id, "b", b->id, "changes", changes);
		*out = json_dumps(o, JSON_INDENT(2));
		json_decref(o);
	} else {
		char *body = changes_text(changes);
		size_t n = strlen(body) + strlen(a->id) + strlen(b->id) + 256;
		*out = malloc(n);
		if (*out)
			snprintf(*out, n, "What changed from %s to %s%s\n%s", a->id, b->id,
				 a->inventory && b->inventory ? "" : " (a run without an inventory: only settings compared)",
				 body);
		free(body);
	}
	json_decref(changes);
	record_free(a);
	record_free(b);
	return NM_EXIT_OK;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int cmd_info(int argc, char **argv)
{
	static const struct opt_spec specs[] = {
		{ "json", OPT_NOARG, OPT_JSON },       { "path", OPT_ARG, OPT_PATH },
		{ "serials", OPT_NOARG, OPT_SERIALS }, { "sysroot", OPT_ARG, OPT_SYSROOT },
		{ "output", OPT_ARG, OPT_OUTPUT },     { "diff", OPT_NOARG, OPT_DIFF },
		{ "db", OPT_ARG, OPT_DB },             { 0 },
	};
	const char *runs[2] = { NULL, NULL }, *db = NULL;
	int diff = 0, nruns = 0;
	struct inventory_opts o = { .path = "." };
	const char *output = NULL;
	int json = 0;
	struct opt_iter it;
	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		switch (id) {
		case OPT_JSON: json = 1; break;
		case OPT_SERIALS: o.serials = 1; break;
		case OPT_PATH:
			if (!*it.arg)
				opt_bad_value(&it, "empty value: expected a directory");
			o.path = it.arg;
			break;
		case OPT_SYSROOT:
			if (!*it.arg)
				opt_bad_value(&it, "empty value: expected a directory");
			o.sysroot = it.arg;
			break;
		case OPT_OUTPUT:
			if (!*it.arg)
				opt_bad_value(&it, "empty value: expected a file name");
			output = opt_output_file(&it);
			break;
		case OPT_DIFF: diff = 1; break;
		case OPT_DB: db = it.arg; break;
		case OPT_POSITIONAL:
			if (diff && nruns < 2) {
				runs[nruns++] = it.arg;
				break;
			}
			nm_usage_fail("unexpected argument '%s' (%s)", it.arg,
				      diff ? "--diff takes two runs" : "the directory goes with --path");
		default:
			nm_usage_fail("unexpected option '%s' (see --help)", it.name ? it.name : "?");
		}
	}
	if (!o.sysroot && getenv("NODEMARK_SYSROOT") && *getenv("NODEMARK_SYSROOT"))
		o.sysroot = getenv("NODEMARK_SYSROOT");
	if (o.sysroot && !is_dir(o.sysroot))
		nm_usage_fail("--sysroot: \"%s\": not a directory", o.sysroot);
	/* Under a sysroot the path names a place on the fake machine, not here. */
	if (!diff && !o.sysroot && !is_dir(o.path))
		nm_usage_fail("--path: \"%s\": not a directory", o.path);

	if (diff && nruns != 2)
		nm_usage_fail("--diff: expected two saved runs (RUN_A RUN_B), got %d", nruns);
	if (!diff && db)
		nm_usage_fail("--db: only with --diff");
	char *text = NULL;
	if (diff) {
		int rc = diff_text(runs[0], runs[1], db, json, &text);
		if (rc != NM_EXIT_OK)
			return rc;
	} else {
		json_t *inv = inventory_collect(&o);
		text = json ? json_dumps(inv, JSON_INDENT(2)) : inventory_text(inv);
		json_decref(inv);
	}
	if (!text) {
		nm_error("out of memory");
		return NM_EXIT_FAILED;
	}
	size_t len = strlen(text);
	if (json)
		text[len] = '\0';
	int rc = NM_EXIT_OK;
	char err[512];
	if (output && strcmp(output, "-") != 0) {
		if (json) {
			/* A JSON file ends with a newline like every text file. */
			char *t = realloc(text, len + 2);
			if (t) {
				text = t;
				text[len++] = '\n';
				text[len] = '\0';
			}
		}
		if (afile_write_all(output, text, len, err, sizeof err) < 0) {
			nm_error("%s", err);
			rc = NM_EXIT_FAILED;
		}
	} else {
		fputs(text, stdout);
		if (json)
			fputc('\n', stdout);
		if (fflush(stdout) != 0) {
			nm_error("standard output: write failed");
			rc = NM_EXIT_FAILED;
		}
	}
	free(text);
	return rc;
}
