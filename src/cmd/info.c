/* nodemark info: the machine as facts, down to the disk stack under a directory. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/store_open.h"
#include "inventory/inventory.h"
#include "compare/changes.h"
#include "export/changes.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct info_args {
	struct inventory_opts inv;
	const char *output, *db;
	const char *runs[2];
	int json, diff, nruns, verbose;
};

static struct info_args args;

static const struct cli_option options[] = {
	CLI_FLAG("json", &args.json,
		 CLI_HELP(NULL, "print the facts as one JSON object (what is stored with every run)")),
	CLI_FLAG("verbose", &args.verbose, .alias = "v",
		 CLI_HELP(NULL, "print the kernel's whole command line too (--json always has it)")),
	CLI_STRING("path", &args.inv.path, .bad = "empty value: expected a directory",
		   CLI_HELP("DIR", "describe the storage stack under DIR (default: the current directory)")),
	CLI_FLAG("serials", &args.inv.serials,
		 CLI_HELP(NULL, "include serial numbers and UUIDs (left out by default)")),
	CLI_STRING("sysroot", &args.inv.sysroot, .bad = "empty value: expected a directory",
		   CLI_HELP("DIR", "read a fake machine: DIR/proc, DIR/sys, DIR/etc, DIR/run (for tests;\n"
				   "also $NODEMARK_SYSROOT). --path then names a place on that machine,\n"
				   "found through DIR/proc/self/mountinfo")),
	CLI_FLAG("diff", &args.diff,
		 CLI_HELP("RUN_A RUN_B", "what changed between two saved runs: kernel, OS, firmware, CPU\n"
					 "governor and mitigations, memory speed, mount options, file system\n"
					 "and ZFS properties, the benchmarks' own settings")),
	CLI_STRING("db", &args.db, .bad = "empty value: expected a file name",
		   CLI_HELP("FILE", "the results store for --diff (default $NODEMARK_DB or\n"
				    "$XDG_DATA_HOME/nodemark/results.db)")),
	CLI_OUTPUT("output", &args.output, .alias = "o", .bad = "empty value: expected a file name",
		   CLI_HELP("FILE", "write to FILE (atomically) instead of standard output")),
	CLI_NOTE("-h, --help", "this text"),
	CLI_END,
};

const struct cli_help cmd_info_help = {
	.usage = "usage: nodemark info [--json] [--verbose] [--path DIR] [--serials]\n"
		 "                     [--sysroot DIR] [--output FILE]\n"
		 "       nodemark info --diff RUN_A RUN_B [--json] [--db FILE] [--output FILE]\n"
		 "\n"
		 "Describe the machine: CPU, memory, OS and virtualization, every block device, and the\n"
		 "storage stack under a directory (mount, dm-crypt/LVM, md RAID, partitions, disks).\n"
		 "Everything is read from /proc, /sys and /etc without root; a fact that needs root says so.\n"
		 "The first line is a one-line summary for benchmark posts.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Examples:\n"
		"  nodemark info\n"
		"  nodemark info --path /var/lib/node --json --output inventory.json\n"
		"  nodemark info --diff before after\n"
		"\n"
		"Exit codes: 0 ok, 1 the output could not be written, 2 bad usage.\n",
};

/* A word is one of --diff's two runs; the directory goes with --path. */
static void run_word(const char *word, void *ctx)
{
	if (args.diff && args.nruns < 2) {
		args.runs[args.nruns++] = word;
		return;
	}
	nm_usage_fail("unexpected argument '%s' (%s)", word,
		      args.diff ? "--diff takes two runs" : "the directory goes with --path");
}

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

/* The command line, and what it says checked against the machine. */
static void parse_args(int argc, char **argv)
{
	args = (struct info_args){ .inv = { .path = "." } };
	cli_parse("info", argc, argv, options, run_word, NULL);
	cli_outputs_check(options, (const char *const *)args.runs, (size_t)args.nruns, args.db);
	struct inventory_opts *o = &args.inv;
	if (!o->sysroot && getenv("NODEMARK_SYSROOT") && *getenv("NODEMARK_SYSROOT"))
		o->sysroot = getenv("NODEMARK_SYSROOT");
	if (o->sysroot && !is_dir(o->sysroot))
		nm_usage_fail("--sysroot: \"%s\": not a directory", o->sysroot);
	/* Under a sysroot the path names a place on the fake machine, not here. */
	if (!args.diff && !o->sysroot && !is_dir(o->path))
		nm_usage_fail("--path: \"%s\": not a directory", o->path);
	if (args.diff && args.nruns != 2)
		nm_usage_fail("--diff: expected two saved runs (RUN_A RUN_B), got %d", args.nruns);
	if (!args.diff && args.db)
		nm_usage_fail("--db: only with --diff");
}

/* The text (or JSON, which gets its final newline here) to --output or standard output. */
static int write_text(char *text, int json)
{
	size_t len = strlen(text);
	char err[512];
	if (args.output && strcmp(args.output, "-") != 0) {
		if (json) {
			/* A JSON file ends with a newline like every text file. */
			char *t = realloc(text, len + 2);
			if (t) {
				text = t;
				text[len++] = '\n';
				text[len] = '\0';
			}
		}
		int rc = NM_EXIT_OK;
		if (afile_write_all(args.output, text, len, err, sizeof err) < 0) {
			nm_error("%s", err);
			rc = NM_EXIT_FAILED;
		}
		free(text);
		return rc;
	}
	fputs(text, stdout);
	free(text);
	if (json)
		fputc('\n', stdout);
	if (fflush(stdout) != 0) {
		nm_error("standard output: write failed");
		return NM_EXIT_FAILED;
	}
	return NM_EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	parse_args(argc, argv);
	char *text = NULL;
	if (args.diff) {
		int rc = diff_text(args.runs[0], args.runs[1], args.db, args.json, &text);
		if (rc != NM_EXIT_OK)
			return rc;
	} else {
		json_t *inv = inventory_collect(&args.inv);
		text = args.json ? json_dumps(inv, JSON_INDENT(2)) : inventory_text(inv, args.verbose);
		json_decref(inv);
	}
	if (!text) {
		nm_error("out of memory");
		return NM_EXIT_FAILED;
	}
	return write_text(text, args.json);
}
