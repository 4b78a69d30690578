/* nodemark import FILE...: JSON records from other machines (or an earlier export) into the store. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "cli/store_open.h"
#include "results/nftrace.h"
#include "results/record_json.h"
#include "results/smkbench.h"
#include "util/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct run_opts ro;
static const char *trace, *snakemake;

static const struct cli_option options[] = {
	CLI_STRING("trace", &trace,
		   CLI_HELP("FILE", "a nextflow trace.txt: a run with a row per process (the step key)\n"
				    "and a total, machine from --tag")),
	CLI_STRING("snakemake", &snakemake,
		   CLI_HELP("DIR", "snakemake's benchmark files (one per rule: the step is the file's name\n"
				   "up to its first dot): a run with a row per step and a total")),
	CLI_CALL("tag", run_opts_add_tag, &ro, CLI_HELP("KEY=VALUE", "with --trace: " RUN_OPT_TAG_HELP)),
	CLI_STRING("label", &ro.label, .bad = "empty value: expected a name for the run",
		   CLI_HELP("TEXT", "with --trace: " RUN_OPT_LABEL_HELP)),
	CLI_DB_OPTION(&ro.db),
	CLI_END,
};

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Snakemake's benchmark files in the directory (regular files only, no link followed), in
 * name order, each into its step's bench; then a total per repeat. Exits naming the file on
 * bad input (2) or a read failure (1). */
static void read_snakemake(struct record *r)
{
	char err[512], path[4096];
	DIR *d = opendir(snakemake);
	if (!d) {
		nm_error("--snakemake %s: %s", snakemake, strerror(errno));
		exit(NM_EXIT_FAILED);
	}
	char *names[1024];
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d)) && n < 1024;) {
		struct stat st;
		if (e->d_name[0] != '.' && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	size_t rounds = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t len;
		snprintf(path, sizeof path, "%s/%s", snakemake, names[i]);
		char *text = storecmd_read_file(path, &len);
		if (!text)
			exit(NM_EXIT_FAILED);
		names[i][strcspn(names[i], ".")] = 0;
		struct bench *b = record_find_bench(r, names[i]);
		if (!b) {
			b = record_add_bench(r, names[i]);
			bench_set(b, "step", json_string(names[i]));
			bench_set(b, "source", json_string("snakemake benchmark"));
		}
		long k = smkbench_read(text, len, b, err, sizeof err);
		free(text);
		free(names[i]);
		if (k < 0)
			nm_usage_fail("%s: %s", path, err);
		if ((size_t)k < rounds)
			rounds = (size_t)k;
	}
	if (!r->nbenches || !rounds || rounds == SIZE_MAX)
		nm_usage_fail("--snakemake %s: no benchmark file with a repeat in it", snakemake);
	struct bench *t = record_add_bench(r, "total");
	bench_set(t, "step", json_string("total"));
	struct metric *tw = bench_metric(t, "wall_s", "s", LOWER_IS_BETTER);
	for (size_t k = 0; k < rounds; k++) {
		double sum = 0;
		for (size_t i = 0; i + 1 < r->nbenches; i++)
			sum += bench_find_metric(r->benches[i], "wall_s")->samples[k];
		metric_add(tw, sum);
	}
}

/* A pipeline that already ran: its nextflow trace or snakemake's benchmark files as a run (no
 * inventory: it ran elsewhere). */
static int import_trace(int argc, char **argv)
{
	char err[512];
	struct record *r = record_new("time", argc, argv);
	/* the trace's tasks ran elsewhere: the importing process's CPUs are not theirs */
	json_object_del(r->extra, "cpus_allowed");
	if (snakemake) {
		read_snakemake(r);
		json_object_set_new(r->extra, "source", json_sprintf("snakemake benchmarks %s", snakemake));
	} else {
		size_t len;
		char *text = storecmd_read_file(trace, &len);
		if (!text)
			return NM_EXIT_USAGE;
		long n = nftrace_read(text, len, r, err, sizeof err);
		free(text);
		if (n < 0) {
			record_free(r);
			nm_usage_fail("%s: %s", trace, err);
		}
		json_object_set_new(r->extra, "source", json_sprintf("nextflow trace %s", trace));
	}
	if (ro.label)
		record_set_label(r, ro.label);
	for (unsigned i = 0; i < ro.ntags; i++)
		record_set_tag(r, ro.tag_keys[i], ro.tag_values[i]);
	int rc = run_save(&ro, r) < 0 ? NM_EXIT_FAILED : NM_EXIT_OK;
	record_free(r);
	run_opts_free(&ro);
	return rc;
}

const struct cli_help cmd_import_help = {
	.usage = "usage: nodemark import [options] FILE...\n"
		 "       nodemark import --trace trace.txt [--tag machine=NAME] [--label TEXT]\n"
		 "       nodemark import --snakemake DIR [--tag machine=NAME] [--label TEXT]\n"
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
	if (trace && snakemake)
		nm_usage_fail("give either --trace FILE or --snakemake DIR");
	if (trace || snakemake) {
		if (words.n) {
			cli_words_free(&words);
			nm_usage_fail("--trace FILE imports one trace; give JSON record files in another call");
		}
		cli_words_free(&words);
		return import_trace(argc, argv);
	}
	if (ro.ntags || ro.label) {
		cli_words_free(&words);
		nm_usage_fail("--tag and --label go with --trace (a JSON record keeps its own)");
	}
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

	struct store *s = storecmd_open(ro.db);
	if (!s)
		goto out;
	for (size_t i = 0; i < nrecs; i++) {
		int has = store_has(s, recs[i]->id, err, sizeof err);
		if (has == 0)
			has = store_save(s, recs[i], err, sizeof err) < 0 ? -1 : 0;
		if (has < 0) {
			nm_error("%s (%zu of %zu runs imported before this one)", err, added, nrecs);
			store_close(s);
			rc = NM_EXIT_FAILED; /* the store could not be written (a full disk): no bad input */
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
