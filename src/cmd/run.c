/* nodemark run: the whole-machine baseline in one command (the suite is in suite/). */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "inventory/inventory.h"
#include "results/history.h"
#include "results/record_json.h"
#include "results/store.h"
#include "stats/paired.h"
#include "stats/summary.h"
#include "cli/baseline.h"
#include "cli/output.h"
#include "export/calls_fmt.h"
#include "export/compare_out.h"
#include "export/report_html.h"
#include "export/texttab.h"
#include "suite/suite.h"
#include "util/atomicfile.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/units.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct run_cmd {
	struct suite_opts suite;
	struct run_opts ro;
	const char *dir, *baseline;
	const char *compare_with; /* a second directory: disk and pieces in turns on both */
	const char *json;       /* --json: "-" for stdout, or the file */
	int no_report, quick, full;
	char absdir[PATH_MAX], absdir2[PATH_MAX];
};

/* --phases LIST: each a phase of the suite. */
static void check_phases(const struct opt_iter *it, void *only)
{
	if (!*it->arg)
		opt_bad_value(it, "empty value: expected a list like memory,hash");
	char *copy = strdup(it->arg), *save = NULL;
	const char *const *names = suite_phase_names();
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int found = 0;
		for (size_t i = 0; names[i]; i++)
			found |= strcmp(names[i], w) == 0;
		if (!found) {
			char bad[64];
			snprintf(bad, sizeof bad, "%s", w);
			free(copy);
			nm_usage_fail("%s: \"%s\": expected some of inventory, memory, hash, disk, pieces", it->name, bad);
		}
	}
	free(copy);
	*(const char **)only = it->arg;
}

/* --json alone: stdout; --json=FILE: that file, its directory checked now. */
static void json_to(const struct opt_iter *it, void *json)
{
	*(const char **)json = it->arg ? opt_output_file(it) : "-";
}

static struct run_cmd opts;

static const struct cli_option options[] = {
	CLI_FLAG("quick", &opts.quick, CLI_HELP(NULL, "about 40 seconds on an idle machine (make run, CI)")),
	CLI_FLAG("full", &opts.full, CLI_HELP(NULL, "CrystalDiskMark's full sizes and durations (1 GiB, 5 x 5 s passes)\n"
						   "(default: about 2 minutes)")),
	CLI_CALL("phases", check_phases, &opts.suite.only,
		 CLI_HELP("LIST", "only these phases: inventory,memory,hash,disk,pieces")),
	CLI_STRING("baseline", &opts.baseline, .bad = "empty value: expected a run id, label or \"last\"",
		   CLI_HELP("RUN", "compare with this saved run (id, id prefix, label or \"last\")")),
	CLI_STRING("compare-with", &opts.compare_with, .bad = "empty value: expected a directory",
		   CLI_HELP("DIR2", "measure the disk and pieces phases on DIR and DIR2 in turns (a\n"
				    "pass or store of each per round, the order rotated) and compare\n"
				    "DIR2 with DIR from the per-round pairs; no baseline, no report")),
	CLI_FLAG("no-report", &opts.no_report, CLI_HELP(NULL, "do not write nodemark-report.html")),
	CLI_CALL("json", json_to, &opts.json, .optional_value = 1,
		 CLI_HELP("[=FILE]", "the run as JSON on stdout (the tables go to stderr) or into FILE:\n"
				     "the saved record (as show --json), the baseline and the calls")),
	CLI_RUN_OPTIONS(&opts.ro),
	CLI_END,
};

const struct cli_help cmd_run_help = {
	.usage = "usage: nodemark run [DIR] [options]\n"
		 "\n"
		 "Benchmark the machine and the filesystem holding DIR (default: the current directory) in\n"
		 "one suite: the inventory, memory and page-cache bandwidth, BLAKE3 and SHA-256 hashing, the\n"
		 "CrystalDiskMark set suited to the device (the NVMe set on NVMe, the default set otherwise)\n"
		 "and the piece store (BLAKE3 and SHA-256, with and without fsync). Each phase is watched for\n"
		 "noise (CPU steal, other processes' load, dirty page cache): a busy machine is named, and the\n"
		 "figures are saved with the run. Sizes shrink to fit the free space, and you are told.\n"
		 "\n"
		 "At the end: the machine in one line, a table per phase, the run id, and the comparison with\n"
		 "the previous run of this host and directory (or --baseline), benchstat-style, then the calls:\n"
		 "a change is called only when neither run was busy, both have 6 or more samples, p <= 0.05,\n"
		 "and it is larger than the figure's noise floor on this machine (from earlier runs); other\n"
		 "rows say \"not compared\" and why (a busy phase's hash figures are judged on their bytes\n"
		 "per CPU-second instead, and say so). A call is first checked: the figures with one are\n"
		 "measured again (3 rounds, in turns) and the call confirmed or withdrawn from the new samples.\n"
		 "Writes nodemark-report.html unless --no-report.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Exit status: 0 the suite ran, 1 a phase failed (the others ran and were saved),\n"
		"2 bad usage, 130 interrupted (the finished phases are saved, temporary files removed).\n"
		"\n"
		"With --compare-with DIR2 the run answers \"is DIR2 slower than DIR?\" in one go: the\n"
		"inventory, then the disk and pieces phases on both directories in turns, and one table\n"
		"of DIR2 against DIR per test, each with its ratio and a paired verdict.\n"
		"\n"
		"Examples:\n"
		"  nodemark run --quick\n"
		"  nodemark run /mnt/old --compare-with /mnt/new --quick\n"
		"  nodemark run /mnt/data --label new-nvme --tag fs=xfs\n",
};

static void take_dir(const char *word, void *cmd)
{
	struct run_cmd *o = cmd;
	if (o->dir)
		nm_usage_fail("unexpected argument \"%s\": one directory at most", word);
	o->dir = word;
}

/* --compare-with DIR2: a directory that is not DIR; only the phases that measure a directory. */
static void check_compare_with(struct run_cmd *o)
{
	struct stat st, st1;
	if (stat(o->compare_with, &st) < 0)
		nm_usage_fail("--compare-with: %s: %s", o->compare_with, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		nm_usage_fail("--compare-with: %s: not a directory", o->compare_with);
	if (stat(o->absdir, &st1) == 0 && st1.st_dev == st.st_dev && st1.st_ino == st.st_ino)
		nm_usage_fail("--compare-with: %s is %s itself: name another directory", o->compare_with, o->dir);
	if (!realpath(o->compare_with, o->absdir2))
		nm_usage_fail("--compare-with: %s: %s", o->compare_with, strerror(errno));
	if (o->suite.only && (strstr(o->suite.only, "memory") || strstr(o->suite.only, "hash")))
		nm_usage_fail("--compare-with measures directories: --phases takes inventory, disk and pieces with it");
	if (!o->suite.only)
		o->suite.only = "inventory,disk,pieces";
	if (o->baseline)
		nm_usage_fail("--compare-with compares the two directories: not with --baseline");
	o->suite.dir2 = o->absdir2;
	o->no_report = 1;
}

static void parse_args(struct run_cmd *o, int argc, char **argv)
{
	cli_parse("run", argc, argv, options, take_dir, o);
	struct file_roles roles = { 0 };
	roles_output(&roles, "--json", o->json);
	if (!o->no_report)
		roles_output(&roles, "the report", "nodemark-report.html");
	roles_check(&roles, o->ro.db);
	if (o->quick && o->full)
		nm_usage_fail("--quick and --full: choose one");
	o->suite.mode = o->quick ? SUITE_QUICK : o->full ? SUITE_FULL : SUITE_DEFAULT;
	if (!o->dir)
		o->dir = ".";
	struct stat st;
	if (stat(o->dir, &st) < 0)
		nm_usage_fail("%s: %s", o->dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		nm_usage_fail("%s: not a directory", o->dir);
	if (!realpath(o->dir, o->absdir))
		nm_usage_fail("%s: %s", o->dir, strerror(errno));
	o->suite.dir = o->absdir;
	if (o->compare_with)
		check_compare_with(o);
	char err[512]; /* the report goes in the current directory: refused now, not after the suite */
	if (!o->no_report && afile_check("nodemark-report.html", err, sizeof err) < 0)
		nm_usage_fail("cannot write the report: %s (--no-report skips it)", err);
}

/* A bench's figure as run's table shows it: median ± range (benchstat's), or its one sample;
 * the units it shows (the range's too) are added to units, for the header over it. */
static const char *cell_text(const struct metric *m, char *cell, size_t len, char *units, size_t ulen)
{
	struct summary s;
	char v[48], pct[16], lo[48] = "", hi[48] = "";
	cell[0] = '\0';
	if (!m || summary_median(m->samples, m->nsamples, 0.95, &s) < 0)
		return cell;
	units_shown_add(units, ulen, units_figure(s.center, m->name, m->unit, v, sizeof v));
	if (s.n < 2) {
		snprintf(cell, len, "%s", v);
		return cell;
	}
	if (summary_unstable(&s)) {
		units_shown_add(units, ulen, units_figure(s.lo, m->name, m->unit, lo, sizeof lo));
		units_shown_add(units, ulen, units_figure(s.hi, m->name, m->unit, hi, sizeof hi));
	}
	return stats_spread_text(cell, len, s.center, s.lo, s.hi, summary_range_pct(&s, pct, sizeof pct), v, lo, hi);
}

#define RUN_COLS 3 /* the figures shown of a bench: its phase's first bench's first metrics */

static int in_phase(const struct bench *b, const char *name)
{
	const char *phase = bench_phase(b);
	return phase && strcmp(phase, name) == 0;
}

/* One table, a section per phase: each bench's first figures, headed as compare heads them
 * (units_header: "mean latency (ms, µs)", the metric in words and the units its cells show),
 * a column per metric of the phase's first bench, so that a figure stands under its name. */
static void print_tables(const struct record *r)
{
	const char *const *names = suite_phase_names();
	struct texttab tt = { 0 };
	char cell[160], name[160];
	for (size_t p = 0; names[p]; p++) {
		const struct bench *first = NULL;
		char units[RUN_COLS][96] = { "" };
		size_t nc = 0;
		for (size_t i = 0; i < r->nbenches; i++) { /* the columns, and the units their cells show */
			const struct bench *b = r->benches[i];
			if (!in_phase(b, names[p]))
				continue;
			if (!first) {
				first = b;
				nc = b->nmetrics < RUN_COLS ? b->nmetrics : RUN_COLS;
			}
			for (size_t k = 0; k < nc; k++)
				cell_text(bench_find_metric(b, first->metrics[k]->name), cell, sizeof cell, units[k],
					  sizeof units[k]);
		}
		if (!first)
			continue;
		if (tt.n) /* a blank line between phases */
			tt_row(&tt), tt_row(&tt);
		tt_cell(&tt, names[p], TT_LEFT, "");
		for (size_t k = 0; k < nc; k++)
			tt_cell(&tt, units_header(first->metrics[k]->name, units[k], name, sizeof name), TT_LEFT, "   ");
		for (size_t i = 0; i < r->nbenches; i++) {
			const struct bench *b = r->benches[i];
			if (!in_phase(b, names[p]))
				continue;
			tt_row(&tt);
			snprintf(name, sizeof name, "  %s", b->name);
			tt_cell(&tt, name, TT_LEFT, "");
			for (size_t k = 0; k < nc; k++) {
				char shown[96] = "";
				tt_cell(&tt, cell_text(bench_find_metric(b, first->metrics[k]->name), cell, sizeof cell,
						       shown, sizeof shown),
					TT_LEFT, "   ");
			}
		}
	}
	if (tt.n) {
		fputc('\n', stdout);
		tt_format(&tt, stdout);
	}
	tt_free(&tt);
}

static double median_rate(const struct bench *b)
{
	const struct metric *m = bench_find_metric(b, "bytes_per_sec");
	struct summary s;
	return m && summary_median(m->samples, m->nsamples, 0.95, &s) == 0 ? s.center : 0;
}

static const char *bench_str(const struct bench *b, const char *key)
{
	return json_string_value(json_object_get(b->settings, key));
}

/* The reference's bench beside b (same phase and name, the paired reference's target). */
static const struct bench *turns_partner(const struct record *r, const struct bench *b, const char *ref)
{
	for (size_t i = 0; i < r->nbenches; i++) {
		const struct bench *a = r->benches[i];
		const char *pa = bench_phase(a), *pb = bench_phase(b), *t = bench_str(a, "target");
		if (a != b && strcmp(a->name, b->name) == 0 && pa && pb && strcmp(pa, pb) == 0 && t && strcmp(t, ref) == 0)
			return a;
	}
	return NULL;
}

/* --compare-with: one table, a row per test, DIR and DIR2 side by side with the ratio from the
 * per-round pairs and its verdict (as disk A B prints its targets), the figure headed as compare
 * heads it (units_header: "bandwidth (GB/s, MB/s)", the units its cells show, each with its own). */
static void print_turns(const struct record *r, const char *dir, const char *dir2)
{
	struct texttab tt = { 0 };
	char units[64] = "", fig[2][64], ratio[32], head[128];
	int rows = 0;
	for (int pass = 0; pass < 2; pass++) { /* the units of the cells, then the table */
		if (pass == 1) {
			tt_cell(&tt, "phase", TT_LEFT, "");
			tt_cell(&tt, units_header("bytes_per_sec", units, head, sizeof head), TT_LEFT, "  ");
			tt_cell(&tt, "A", TT_RIGHT, "  ");
			tt_cell(&tt, "B", TT_RIGHT, "  ");
			tt_cell(&tt, "B/A", TT_RIGHT, "   ");
			tt_cell(&tt, "verdict", TT_LEFT, "  ");
		}
		for (size_t i = 0; i < r->nbenches; i++) {
			const struct bench *b = r->benches[i];
			json_t *p = json_object_get(b->settings, "paired");
			const char *ref = json_string_value(json_object_get(p, "reference"));
			const struct bench *a = p && ref ? turns_partner(r, b, ref) : NULL;
			if (!a)
				continue;
			units_figure(median_rate(a), "bytes_per_sec", "B/s", fig[0], sizeof fig[0]);
			units_figure(median_rate(b), "bytes_per_sec", "B/s", fig[1], sizeof fig[1]);
			if (pass == 0) {
				units_shown_add(units, sizeof units, fig[0]);
				units_shown_add(units, sizeof units, fig[1]);
				rows++;
				continue;
			}
			json_t *rt = json_object_get(p, "ratio");
			tt_row(&tt);
			tt_cell(&tt, bench_phase(b), TT_LEFT, "");
			tt_cell(&tt, b->name, TT_LEFT, "  ");
			tt_cell(&tt, fig[0], TT_RIGHT, "  ");
			tt_cell(&tt, fig[1], TT_RIGHT, "  ");
			tt_cell(&tt, units_ratio(json_is_number(rt) ? json_number_value(rt) : NAN, ratio, sizeof ratio),
				TT_RIGHT, "   ");
			const char *verdict = json_string_value(json_object_get(p, "text"));
			tt_cell(&tt, verdict ? verdict : "", TT_LEFT, "  ");
		}
	}
	printf("\nin turns (a pass or a store of each per round, the order rotated each round):\n"
	       "  A = %s (the reference)\n  B = %s\n\n", dir, dir2);
	if (!rows) {
		tt_free(&tt);
		printf("  (no test finished on both)\n");
		return;
	}
	tt_format(&tt, stdout);
	tt_free(&tt);
	printf("\nbandwidth: the median of a directory's passes or stores, as compare prints it (MB/s = 10^6\n"
	       "bytes/s). B/A: the ratio from the per-round pairs (Hodges-Lehmann estimate), called when its\n"
	       "interval (Wilcoxon signed-rank, exact: 95%% or the next level the pairs allow, 96.9%% from 6\n"
	       "pairs) lies beyond ±%.0f%%.\n", PAIRED_FLOOR_PCT);
	for (size_t i = 0; i < r->nbenches; i++) {
		json_t *p = json_object_get(r->benches[i]->settings, "paired");
		const char *v = json_string_value(json_object_get(p, "verdict"));
		if (v && strcmp(v, "can't tell") == 0)
			printf("%s: %s\n", r->benches[i]->name, json_string_value(json_object_get(p, "why")));
	}
}

/* The noise verdict in one line per busy phase, so a noisy baseline is visible next to it. */
static void print_noise(const struct record *r)
{
	json_t *noise = json_object_get(r->extra, "noise"), *v;
	const char *phase;
	int any = 0;
	json_object_foreach(noise, phase, v) {
		if (!json_is_true(json_object_get(v, "busy")))
			continue;
		if (!any)
			printf("\nnoise\n");
		any = 1;
		printf("  %-12s busy: %s\n", phase, json_string_value(json_object_get(v, "why")));
	}
}

/* The earlier runs like this one (host, directory, mode), loaded before measuring: each figure's
 * noise floor comes from them, both for how many samples it takes and for the calls; saved with
 * the run so that compare and report make the same calls later.  Without a store: the defaults. */
static void load_history(const struct run_cmd *o, const struct record *rec, struct history *h)
{
	char err[1024];
	struct store *s = store_open(o->ro.db, err, sizeof err);
	if (s && history_load(s, rec, o->absdir, suite_mode_name(o->suite.mode), h, err, sizeof err) < 0)
		nm_warn("noise floors: %s (the defaults apply)", err);
	store_close(s);
}

static double floor_from_history(void *arg, const char *bench, const char *metric, double default_pct, int *runs)
{
	return history_floor(arg, bench, metric, default_pct, runs);
}

static int remeasure(void *arg, const struct bench *const *benches, size_t n, unsigned rounds, unsigned per_round,
		     struct record *into)
{
	return suite_remeasure(arg, benches, n, rounds, per_round, into);
}

/* The baseline: the previous run of this host and directory, or --baseline.  A missing
 * baseline is no error; a named one that is missing is. */
static struct record *find_baseline(const struct run_cmd *o, const struct record *rec, int *rc)
{
	char err[1024];
	struct record *base = NULL;
	struct store *s = store_open(o->ro.db, err, sizeof err);
	if (s) {
		base = baseline_find(s, rec, o->baseline, err, sizeof err);
		store_close(s);
	}
	if (!base && err[0]) {
		nm_error("%s%s", o->baseline ? "--baseline: " : "", err);
		if (o->baseline && *rc == 0)
			*rc = NM_EXIT_FAILED;
	}
	return base;
}

/* The comparison with the baseline (its calls confirmed or withdrawn by baseline_confirm), and
 * the report: both render m, the one model of this run and its baseline. */
static void compare_and_report(const struct run_cmd *o, const struct cmp_model *m, const struct record *rec,
			       const struct record *base, int *rc)
{
	char err[1024];
	if (base) {
		char when[40] = "?";
		time_t t = (time_t)(base->time_ms / 1000);
		struct tm tm;
		if (localtime_r(&t, &tm))
			strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
		printf("\ncompared with run %s%s%s of %s\n", base->id, base->label ? " " : "",
		       base->label ? base->label : "", when);
		cmp_write_baseline(stdout, m);
	} else if (!o->baseline) {
		/* A first run is a baseline, not a failure to compare: say so, and how the next one
		 * will be found. */
		printf("\nno earlier %s run of this host in %s", suite_mode_name(o->suite.mode), o->absdir);
		if (o->ro.no_save)
			printf(" (and this one is not saved: --no-save)\n");
		else
			printf(": this run (%s) is the baseline.\n"
			       "The next `nodemark run` here is measured against it; --baseline ID|LABEL picks\n"
			       "another, --label NAME names this one.\n",
			       rec->id);
	}
	fflush(stdout);
	if (!o->no_report) {
		char generated[96];
		report_generated(generated, sizeof generated);
		struct report_opts ro = { "nodemark run", generated };
		struct atomic_file af;
		FILE *f = afile_open(&af, "nodemark-report.html", err, sizeof err);
		if (f)
			report_write_html(f, m, &ro);
		if (!f || afile_commit(&af, err, sizeof err) < 0) {
			nm_error("report: %s", err);
			if (*rc == 0)
				*rc = NM_EXIT_FAILED;
		} else {
			fprintf(stderr, "wrote nodemark-report.html\n");
		}
	}
}

/* --json: the record as show --json prints it (docs/schema.md: import reads it back), with the
 * baseline it was compared with and the calls about it. */
static void write_json(const struct run_cmd *o, const struct cmp_model *m, const struct record *rec,
		       const struct record *base, int *rc)
{
	json_t *j = record_to_json(rec), *calls = base && m ? calls_to_json(&m->calls) : json_array();
	json_object_set_new(j, "baseline", base ? json_pack("{s:s, s:s?}", "id", base->id, "label", base->label)
						: json_null());
	json_object_set_new(j, "calls", calls);
	if (cli_output_json(o->json, j, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) < 0 && *rc == 0)
		*rc = NM_EXIT_FAILED;
	json_decref(j);
}

/* A wrong --baseline is a usage error: say so now, not after minutes of measuring. */
static void check_baseline(struct run_cmd *o)
{
	char err[512], id[24];
	struct store *s = store_open(o->ro.db, err, sizeof err);
	if (!s || store_resolve(s, o->baseline, id, err, sizeof err) < 0) {
		store_close(s);
		run_opts_free(&o->ro);
		nm_usage_fail("--baseline: %s", err);
	}
	store_close(s);
}

/* What the terminal shows once the phases are done: the inventory's summary, the tables, the
 * noise notes, and what an interrupted run saves. */
static void show_results(const struct run_cmd *o, const struct record *rec, int rc, int saving)
{
	if (rec->inventory) {
		char *sum = inventory_summary(rec->inventory);
		printf("%s\n", sum);
		free(sum);
	}
	if (o->compare_with)
		print_turns(rec, o->absdir, o->absdir2);
	else
		print_tables(rec);
	print_noise(rec);
	printf("\n");
	fflush(stdout);
	if (rc == NM_EXIT_INTERRUPTED && saving)
		nm_error("interrupted: saving what finished (%zu benchmark%s%s)", rec->nbenches,
			 rec->nbenches == 1 ? "" : "s", rec->inventory ? " and the inventory" : "");
	else if (rc == NM_EXIT_INTERRUPTED)
		nm_error("interrupted before a phase finished: nothing to save");
}

int cmd_run(int argc, char **argv)
{
	cleanup_stop_at_safe_points(); /* its loops poll cleanup_interrupted() */
	struct run_cmd *o = &opts;
	parse_args(o, argc, argv);
	if (o->baseline)
		check_baseline(o);

	/* JSON on stdout: everything else run prints (tables, the comparison, the suite's lines)
	 * goes to stderr meanwhile, as time --json does, so stdout is the JSON alone. */
	int json_fd = -1;
	if (o->json && strcmp(o->json, "-") == 0) {
		fflush(stdout);
		if ((json_fd = dup(STDOUT_FILENO)) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			nm_error("--json: standard output: %s", strerror(errno));
			run_opts_free(&o->ro);
			return NM_EXIT_FAILED;
		}
	}
	struct record *rec = record_new("run", argc, argv);
	if (o->ro.label)
		record_set_label(rec, o->ro.label);
	for (unsigned i = 0; i < o->ro.ntags; i++)
		record_set_tag(rec, o->ro.tag_keys[i], o->ro.tag_values[i]);

	struct history hist = { .n = 0 };
	if (!o->compare_with) { /* in turns, the pairs decide: no floors, no baseline */
		load_history(o, rec, &hist);
		o->suite.floor_pct = floor_from_history;
		o->suite.floor_arg = &hist;
	}
	int rc = suite_run(&o->suite, rec);
	/* A finished inventory phase is worth keeping on its own (info --diff reads it), also
	 * when a signal cut the run short before any benchmark finished. */
	int saving = rec->nbenches || rec->inventory;
	show_results(o, rec, rc, saving);
	if (rec->nbenches && !o->compare_with)
		history_set_floors(&hist, rec);
	struct record *base = rec->nbenches && !o->compare_with ? find_baseline(o, rec, &rc) : NULL;
	if (base && rc != NM_EXIT_INTERRUPTED && !cleanup_interrupted()) {
		char err[1024];
		if (baseline_confirm(remeasure, &o->suite, base, rec, err, sizeof err) < 0)
			nm_warn("%s", err);
		if (cleanup_interrupted() && rc == 0)
			rc = NM_EXIT_INTERRUPTED;
	}
	history_free(&hist);
	if (saving && run_save(&o->ro, rec) < 0 && rc == 0)
		rc = NM_EXIT_FAILED;
	if (!o->ro.no_save && saving)
		printf("run %s (%s mode, %s%s%s)\n", rec->id, suite_mode_name(o->suite.mode), o->absdir,
		       o->compare_with ? " and " : "", o->compare_with ? o->absdir2 : "");
	/* one model of this run and its baseline, after the re-measure: every output renders it */
	char names[2][128], err[1024];
	struct ct_input in[2];
	struct cmp_model m;
	int want_model = rec->nbenches && !o->compare_with; /* its table is the comparison */
	int have_model = want_model && cmp_build_pair(base, rec, names, in, &m, err, sizeof err) == 0;
	if (want_model && !have_model)
		nm_error("compare: %s", err);
	if (have_model)
		compare_and_report(o, &m, rec, base, &rc);
	if (json_fd >= 0) {
		fflush(stdout);
		dup2(json_fd, STDOUT_FILENO);
		close(json_fd);
	}
	if (o->json)
		write_json(o, have_model ? &m : NULL, rec, base, &rc);
	if (have_model)
		cmp_free(&m);
	record_free(base);
	record_free(rec);
	run_opts_free(&o->ro);
	return rc;
}
