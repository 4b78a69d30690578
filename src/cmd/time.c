/* nodemark time: time commands repeatedly, as hyperfine does, with the kernel's accounting. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/run_opts.h"
#include "cmd/time_args.h"
#include "export/hyperfine.h"
#include "proc/spawner.h"
#include "util/cleanup.h"
#include "util/color.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct cli_help cmd_time_help = {
	.usage = "usage: nodemark time [options] 'CMD ARGS' ['CMD2 ARGS' ...]\n"
		 "       nodemark time [options] -- CMD [ARGS...]\n"
		 "\n"
		 "Runs each command repeatedly and reports its wall time (mean ± σ, median, min … max), user and\n"
		 "system time, peak memory, page faults, context switches, storage I/O and, where readable, CPU\n"
		 "energy; several commands are compared (relative speed, Mann-Whitney U significance).\n"
		 "hyperfine's command lines work unchanged.  Quoted commands run with sh -c (or --shell), and\n"
		 "the shell's own start-up cost is measured and subtracted; with -N, or after --, the command\n"
		 "runs directly, without a shell.\n"
		 "\n",
	.options = time_options,
	.rest = "\n"
		"The report goes to stdout (to stderr when an export goes to stdout).  On a terminal a progress\n"
		"line (run, elapsed, ETA) is drawn on stderr; NODEMARK_NO_PROGRESS=1 turns it off.\n"
		"\n"
		"Examples:\n"
		"  nodemark time -- make -j8\n"
		"  nodemark time --warmup 1 'gzip -k -f big.tar' 'zstd -k -f big.tar'\n"
		"  nodemark time -N 'sleep 0.1' 'sleep 0.2'\n"
		"  nodemark time --prepare 'make clean' -P threads 1 8 'make -j {threads}'\n"
		"  nodemark time --suite gatk --name bwa -- bwa mem ref.fa reads.fq\n",
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

struct report {
	FILE *out;
	struct record *r;
	int header_first; /* --show-output: the header before the runs' output, as hyperfine */
};

static void on_start(const struct time_plan *p, size_t index, void *arg)
{
	struct report *rep = arg;
	if (!p->show_output)
		return;
	time_print_header(rep->out, p->cmds[index].name, index + 1);
	fflush(rep->out);
	rep->header_first = 1;
}

static void on_done(const struct time_plan *p, size_t index, void *arg)
{
	struct report *rep = arg;
	if (!rep->header_first)
		time_print_header(rep->out, p->cmds[index].name, index + 1);
	rep->header_first = 0;
	time_print_bench(rep->out, rep->r, p->cmds[index].bench);
}

struct export_out {
	int (*fn)(FILE *, const struct record *);
	const struct record *r;
};

static int write_export_to(FILE *fp, void *ctx)
{
	const struct export_out *e = ctx;
	return e->fn(fp, e->r) < 0 || ferror(fp) ? -1 : 0;
}

static int write_export(const char *path, int (*fn)(FILE *, const struct record *), const struct record *r)
{
	struct export_out e = { fn, r };
	return cli_output(path, write_export_to, &e);
}

static int to_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

int cmd_time(int argc, char **argv)
{
	cleanup_stop_at_safe_points(); /* its loops poll cleanup_interrupted() */
	struct time_args *a;
	char err[1024], cwd[4096];
	spawner_start(); /* now, while nodemark is small: the commands start from its copy */
	int rc = time_args_parse(&a, argc, argv);
	struct record *r = NULL;
	FILE *devnull = NULL;
	if (rc)
		goto out;
	if (a->json)
		a->export_json = "-";
	r = record_new("time", argc, argv);
	if (a->plan.suite)
		record_set_tag(r, "suite", a->plan.suite);
	if (getcwd(cwd, sizeof cwd)) /* where it ran: relative paths in the commands mean this */
		json_object_set_new(r->extra, "cwd", json_string(cwd));
	int export_to_stdout = to_stdout(a->export_json) || to_stdout(a->export_csv) || to_stdout(a->export_md) ||
			       to_stdout(a->export_adoc) || to_stdout(a->export_org);
	struct report rep = { export_to_stdout ? stderr : stdout, r, 0 };
	if (a->style == TIME_STYLE_NONE && (devnull = fopen("/dev/null", "w")))
		rep.out = devnull;
	if (a->style == TIME_STYLE_COLOR || a->style == TIME_STYLE_PLAIN) /* over --color, as hyperfine */
		color_set_when(a->style == TIME_STYLE_COLOR ? COLOR_ALWAYS : COLOR_NEVER);
	rc = time_plan_run(&a->plan, r, on_start, on_done, &rep, err, sizeof err);
	if (rc == NM_EXIT_INTERRUPTED && finished_runs(r) && !a->ro.no_save) {
		/* Ctrl-C: keep what was measured, as every benchmarking command does. */
		nm_error("interrupted: saving the %zu runs that finished", finished_runs(r));
		run_opts_apply(&a->ro, r, NULL);
		run_save(&a->ro, r);
		goto out;
	}
	if (rc) {
		nm_error("%s", err);
		goto out;
	}
	if (a->nsteps) { /* a pipeline: its total, after the steps */
		time_plan_add_total(&a->plan, r);
		const struct bench *total = record_find_bench(r, "total");
		if (total) {
			time_print_header(rep.out, "total", a->plan.ncmds + 1);
			time_print_bench(rep.out, r, total);
		}
	} else {
		time_print_summary(rep.out, r);
	}
	if ((a->export_json && write_export(a->export_json, export_hyperfine_json, r) < 0) ||
	    (a->export_csv && write_export(a->export_csv, export_hyperfine_csv, r) < 0) ||
	    (a->export_md && write_export(a->export_md, export_hyperfine_markdown, r) < 0) ||
	    (a->export_adoc && write_export(a->export_adoc, export_hyperfine_asciidoc, r) < 0) ||
	    (a->export_org && write_export(a->export_org, export_hyperfine_orgmode, r) < 0)) {
		rc = NM_EXIT_FAILED;
		goto out;
	}
	if (!a->ro.no_save) { /* the inventory is only for the saved record */
		run_opts_apply(&a->ro, r, NULL);
		if (run_save(&a->ro, r) < 0)
			rc = NM_EXIT_FAILED;
	}
out:
	if (devnull)
		fclose(devnull);
	record_free(r);
	time_args_free(a);
	return rc;
}
