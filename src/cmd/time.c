/* nodemark time: time commands repeatedly, as hyperfine does, with the kernel's accounting. */
#include "cmd/cmd.h"
#include "cli/run_opts.h"
#include "export/hyperfine.h"
#include "proc/params.h"
#include "proc/timing.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"
#include "util/parse.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_time_usage[] =
	"usage: nodemark time [options] 'CMD ARGS' ['CMD2 ARGS' ...]\n"
	"       nodemark time [options] -- CMD [ARGS...]\n"
	"\n"
	"Runs each command repeatedly and reports its wall time (mean ± σ, median, min … max), user and\n"
	"system time, peak memory, page faults, context switches, storage I/O and, where readable, CPU\n"
	"energy; several commands are compared (relative speed, Mann-Whitney U significance).\n"
	"Quoted commands run with sh -c, and the shell's own start-up cost is measured and subtracted;\n"
	"after -- the command runs directly, without a shell.\n"
	"\n"
	"Runs:\n"
	"  -r, --runs N          exactly N runs of each command\n"
	"  -m, --min-runs N      at least N runs (default 10); the count is automatic: about 3 s of runs\n"
	"  -M, --max-runs N      at most N runs (default: no limit)\n"
	"  -w, --warmup N        N unmeasured runs of each command first (default 0)\n"
	"      --interleave      run the commands in turn (A B A B ...) so slow drift hits all alike\n"
	"      --timeout DUR     kill a run after DUR (e.g. 30s, 5m); a killed run is a failed run\n"
	"  -i, --ignore-failure  keep timing commands that exit non-zero (or time out)\n"
	"      --show-output     show the commands' output (default: sent to /dev/null)\n"
	"Hooks (shell commands, not timed; a failing hook stops everything):\n"
	"  -s, --setup CMD       once before the runs of each command\n"
	"  -p, --prepare CMD     before every run (warmups included), e.g. to drop caches\n"
	"      --conclude CMD    after every run\n"
	"  -c, --cleanup CMD     once after the runs of each command\n"
	"Parameters (substituted for {NAME} in commands, names and hooks; several give every combination):\n"
	"  -L, --param NAME=a,b,c        each listed value\n"
	"  -P, --scan NAME=lo:hi[:step]  each number from lo to hi (step 1 by default)\n"
	"Naming and output:\n"
	"  -n, --name NAME       name the next command (repeatable, in order; may use {NAME})\n"
	"      --suite NAME      group this run with the other steps of a pipeline (tag suite=NAME)\n"
	"      --export-json FILE      hyperfine's JSON (plus memory, faults, I/O); - for stdout\n"
	"      --export-csv FILE       hyperfine's CSV\n"
	"      --export-markdown FILE  hyperfine's Markdown table\n"
	RUN_OPT_USAGE
	"\n"
	"The report goes to stdout (to stderr when an export goes to stdout).\n"
	"\n"
	"Examples:\n"
	"  nodemark time -- make -j8\n"
	"  nodemark time --warmup 1 'gzip -k -f big.tar' 'zstd -k -f big.tar'\n"
	"  nodemark time --prepare 'sync; echo 3 > /proc/sys/vm/drop_caches' -P threads=1:8 'restore -j {threads}'\n"
	"  nodemark time --suite gatk --name bwa -- bwa mem ref.fa reads.fq\n";

enum {
	OPT_RUNS = 1,
	OPT_MIN_RUNS,
	OPT_MAX_RUNS,
	OPT_WARMUP,
	OPT_INTERLEAVE,
	OPT_TIMEOUT,
	OPT_IGNORE_FAILURE,
	OPT_SHOW_OUTPUT,
	OPT_SETUP,
	OPT_PREPARE,
	OPT_CONCLUDE,
	OPT_CLEANUP,
	OPT_PARAM,
	OPT_SCAN,
	OPT_NAME,
	OPT_SUITE,
	OPT_EXPORT_JSON,
	OPT_EXPORT_CSV,
	OPT_EXPORT_MD,
};

static const struct opt_spec specs[] = {
	{ "runs", OPT_ARG, OPT_RUNS }, { "r", OPT_ARG, OPT_RUNS },
	{ "min-runs", OPT_ARG, OPT_MIN_RUNS }, { "m", OPT_ARG, OPT_MIN_RUNS },
	{ "max-runs", OPT_ARG, OPT_MAX_RUNS }, { "M", OPT_ARG, OPT_MAX_RUNS },
	{ "warmup", OPT_ARG, OPT_WARMUP }, { "w", OPT_ARG, OPT_WARMUP },
	{ "interleave", OPT_NOARG, OPT_INTERLEAVE },
	{ "timeout", OPT_ARG, OPT_TIMEOUT },
	{ "ignore-failure", OPT_NOARG, OPT_IGNORE_FAILURE }, { "i", OPT_NOARG, OPT_IGNORE_FAILURE },
	{ "show-output", OPT_NOARG, OPT_SHOW_OUTPUT },
	{ "setup", OPT_ARG, OPT_SETUP }, { "s", OPT_ARG, OPT_SETUP },
	{ "prepare", OPT_ARG, OPT_PREPARE }, { "p", OPT_ARG, OPT_PREPARE },
	{ "conclude", OPT_ARG, OPT_CONCLUDE },
	{ "cleanup", OPT_ARG, OPT_CLEANUP }, { "c", OPT_ARG, OPT_CLEANUP },
	{ "param", OPT_ARG, OPT_PARAM }, { "L", OPT_ARG, OPT_PARAM },
	{ "scan", OPT_ARG, OPT_SCAN }, { "P", OPT_ARG, OPT_SCAN },
	{ "name", OPT_ARG, OPT_NAME }, { "n", OPT_ARG, OPT_NAME },
	{ "suite", OPT_ARG, OPT_SUITE },
	{ "export-json", OPT_ARG, OPT_EXPORT_JSON },
	{ "export-csv", OPT_ARG, OPT_EXPORT_CSV },
	{ "export-markdown", OPT_ARG, OPT_EXPORT_MD },
	RUN_OPT_SPECS,
	{ 0 },
};

struct time_args {
	struct time_plan plan;
	struct params params;
	struct run_opts ro;
	const char *shell_cmds[256];
	size_t nshell;
	char **direct;          /* argv after --, or NULL */
	const char *names[256];
	size_t nnames;
	const char *setup, *prepare, *conclude, *cleanup;
	const char *export_json, *export_csv, *export_md;
};

/* Measured runs in the record (warmups are not samples). */
static size_t finished_runs(const struct record *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nbenches; i++) {
		const struct metric *m = bench_find_metric(r->benches[i], "wall_s");
		n += m ? m->nsamples : 0;
	}
	return n;
}

static void parse_args(struct time_args *a, int argc, char **argv)
{
	struct opt_iter it;
	char err[256];
	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		if (run_opts_handle(&a->ro, id, &it))
			continue;
		switch (id) {
		case OPT_RUNS: a->plan.runs = opt_count(&it, 1, 1000000000ull); break;
		case OPT_MIN_RUNS: a->plan.min_runs = opt_count(&it, 1, 1000000000ull); break;
		case OPT_MAX_RUNS: a->plan.max_runs = opt_count(&it, 1, 1000000000ull); break;
		case OPT_WARMUP: a->plan.warmup = opt_count(&it, 0, 1000000000ull); break;
		case OPT_INTERLEAVE: a->plan.interleave = 1; break;
		case OPT_IGNORE_FAILURE: a->plan.ignore_failure = 1; break;
		case OPT_SHOW_OUTPUT: a->plan.show_output = 1; break;
		case OPT_TIMEOUT:
			if (parse_duration(it.arg, 1000000000ull, &a->plan.timeout_ns, err, sizeof err) < 0)
				opt_bad_value(&it, err);
			if (a->plan.timeout_ns == 0)
				opt_bad_value(&it, "expected a duration above 0, like 30s or 5m");
			break;
		case OPT_SETUP: a->setup = it.arg; break;
		case OPT_PREPARE: a->prepare = it.arg; break;
		case OPT_CONCLUDE: a->conclude = it.arg; break;
		case OPT_CLEANUP: a->cleanup = it.arg; break;
		case OPT_PARAM:
			if (params_add_list(&a->params, it.arg, err, sizeof err) < 0)
				opt_bad_value(&it, err);
			break;
		case OPT_SCAN:
			if (params_add_scan(&a->params, it.arg, err, sizeof err) < 0)
				opt_bad_value(&it, err);
			break;
		case OPT_NAME:
			if (a->nnames == sizeof a->names / sizeof a->names[0])
				nm_usage_fail("--name: at most 256 names");
			a->names[a->nnames++] = it.arg;
			break;
		case OPT_SUITE:
			if (!*it.arg)
				opt_bad_value(&it, "empty value: expected a suite name");
			a->plan.suite = it.arg;
			break;
		case OPT_EXPORT_JSON: a->export_json = opt_output_file(&it); break;
		case OPT_EXPORT_CSV: a->export_csv = opt_output_file(&it); break;
		case OPT_EXPORT_MD: a->export_md = opt_output_file(&it); break;
		case OPT_POSITIONAL:
			if (!*it.arg)
				nm_usage_fail("an empty command");
			if (a->nshell == sizeof a->shell_cmds / sizeof a->shell_cmds[0])
				nm_usage_fail("at most 256 commands");
			a->shell_cmds[a->nshell++] = it.arg;
			break;
		case OPT_DASHDASH:
			if (it.i >= argc)
				nm_usage_fail("--: expected a command after it");
			a->direct = it.argv + it.i;
			it.i = argc;
			break;
		}
	}
	if (a->direct && a->nshell)
		nm_usage_fail("give either quoted shell commands or one command after --, not both");
	if (!a->direct && !a->nshell)
		nm_usage_fail("no command to time (e.g. nodemark time -- sleep 1, or nodemark time 'cmd one' 'cmd two')");
	size_t ncmds = a->direct ? 1 : a->nshell;
	if (a->nnames > ncmds)
		nm_usage_fail("--name: %zu names for %zu command%s", a->nnames, ncmds, ncmds == 1 ? "" : "s");
	if (a->plan.min_runs && a->plan.max_runs && a->plan.min_runs > a->plan.max_runs)
		nm_usage_fail("--min-runs %llu is above --max-runs %llu", (unsigned long long)a->plan.min_runs,
			      (unsigned long long)a->plan.max_runs);
	if (!a->plan.min_runs)
		a->plan.min_runs = a->plan.max_runs && a->plan.max_runs < 10 ? a->plan.max_runs : 10;
	int to_stdout = 0;
	const char *exports[] = { a->export_json, a->export_csv, a->export_md };
	for (int i = 0; i < 3; i++)
		to_stdout += exports[i] && strcmp(exports[i], "-") == 0;
	if (to_stdout > 1)
		nm_usage_fail("only one export can go to stdout (-)");
	a->plan.auto_seconds = 3.0;
}

/* A word as a shell would need it typed. */
static void quote_word(struct strbuf *sb, const char *w)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == strlen(w)) {
		sb_puts(sb, w);
		return;
	}
	sb_add(sb, "'", 1);
	for (; *w; w++) {
		if (*w == '\'')
			sb_puts(sb, "'\\''");
		else
			sb_add(sb, w, 1);
	}
	sb_add(sb, "'", 1);
}

/* Every command with every parameter combination, into the plan. */
static int build_plan(struct time_args *a)
{
	char err[512];
	size_t ncombo = params_combinations(&a->params);
	size_t ntemplates = a->direct ? 1 : a->nshell;
	for (size_t t = 0; t < ntemplates; t++)
		for (size_t c = 0; c < ncombo; c++) {
			json_t *pj = json_object();
			for (size_t k = 0; k < a->params.naxes; k++)
				json_object_set_new(pj, a->params.axes[k].name, json_string(params_value(&a->params, c, k)));
			char *name = t < a->nnames ? params_substitute(&a->params, c, a->names[t]) : NULL;
			char *text, **argv;
			size_t argc = 0;
			struct strbuf sb;
			if (a->direct) {
				while (a->direct[argc])
					argc++;
				argv = calloc(argc + 1, sizeof *argv);
				if (!argv)
					abort();
				sb_init(&sb);
				for (size_t i = 0; i < argc; i++) {
					argv[i] = params_substitute(&a->params, c, a->direct[i]);
					if (i)
						sb_add(&sb, " ", 1);
					quote_word(&sb, argv[i]);
				}
				text = sb_detach(&sb);
			} else {
				text = params_substitute(&a->params, c, a->shell_cmds[t]);
				argc = 3;
				argv = calloc(4, sizeof *argv);
				if (!argv)
					abort();
				argv[0] = strdup("/bin/sh");
				argv[1] = strdup("-c");
				argv[2] = strdup(text);
			}
			int rc = time_plan_add(&a->plan, name, text, argv, !a->direct, pj, err, sizeof err);
			for (size_t i = 0; i < argc; i++)
				free(argv[i]);
			free(argv);
			free(name);
			free(text);
			json_decref(pj);
			if (rc < 0) {
				nm_error("%s", err);
				return NM_EXIT_USAGE;
			}
			struct time_command *tc = &a->plan.cmds[a->plan.ncmds - 1];
			tc->setup = a->setup ? params_substitute(&a->params, c, a->setup) : NULL;
			tc->prepare = a->prepare ? params_substitute(&a->params, c, a->prepare) : NULL;
			tc->conclude = a->conclude ? params_substitute(&a->params, c, a->conclude) : NULL;
			tc->cleanup = a->cleanup ? params_substitute(&a->params, c, a->cleanup) : NULL;
		}
	return 0;
}

struct report {
	FILE *out;
	struct record *r;
};

static void on_done(const struct time_plan *p, size_t index, void *arg)
{
	struct report *rep = arg;
	time_print_bench(rep->out, rep->r, p->cmds[index].bench, index + 1);
}

static int write_export(const char *path, int (*fn)(FILE *, const struct record *), const struct record *r)
{
	struct atomic_file af;
	char err[512];
	FILE *fp = afile_open(&af, path, err, sizeof err);
	if (!fp) {
		nm_error("%s", err);
		return -1;
	}
	if (fn(fp, r) < 0 || ferror(fp)) {
		nm_error("%s: write failed", path);
		afile_abort(&af);
		return -1;
	}
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		return -1;
	}
	return 0;
}

int cmd_time(int argc, char **argv)
{
	struct time_args a;
	char err[1024];
	memset(&a, 0, sizeof a);
	parse_args(&a, argc, argv);
	int rc = build_plan(&a);
	struct record *r = NULL;
	if (rc)
		goto out;
	r = record_new("time", argc, argv);
	if (a.plan.suite)
		record_set_tag(r, "suite", a.plan.suite);
	int export_to_stdout = (a.export_json && !strcmp(a.export_json, "-")) ||
			       (a.export_csv && !strcmp(a.export_csv, "-")) ||
			       (a.export_md && !strcmp(a.export_md, "-"));
	struct report rep = { export_to_stdout ? stderr : stdout, r };
	rc = time_plan_run(&a.plan, r, on_done, &rep, err, sizeof err);
	if (rc == NM_EXIT_INTERRUPTED && finished_runs(r) && !a.ro.no_save) {
		/* Ctrl-C: keep what was measured, as every benchmarking command does. */
		nm_error("interrupted: saving the %zu runs that finished", finished_runs(r));
		run_opts_apply(&a.ro, r, NULL);
		run_save(&a.ro, r);
		goto out;
	}
	if (rc) {
		nm_error("%s", err);
		goto out;
	}
	time_print_summary(rep.out, r);
	if ((a.export_json && write_export(a.export_json, export_hyperfine_json, r) < 0) ||
	    (a.export_csv && write_export(a.export_csv, export_hyperfine_csv, r) < 0) ||
	    (a.export_md && write_export(a.export_md, export_hyperfine_markdown, r) < 0)) {
		rc = NM_EXIT_FAILED;
		goto out;
	}
	if (!a.ro.no_save) { /* the inventory is only for the saved record */
		run_opts_apply(&a.ro, r, NULL);
		if (run_save(&a.ro, r) < 0)
			rc = NM_EXIT_FAILED;
	}
out:
	record_free(r);
	time_plan_free(&a.plan);
	params_free(&a.params);
	run_opts_free(&a.ro);
	return rc;
}
