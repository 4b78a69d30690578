/* nodemark track: follow a long job's progress from its output or its log. */
#include "cmd/cmd.h"
#include "cli/run_opts.h"
#include "export/track.h"
#include "results/store.h"
#include "proc/linereader.h"
#include "proc/progress_re.h"
#include "proc/spawn.h"
#include "proc/track.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/opt.h"
#include "util/progress.h"
#include "util/strbuf.h"
#include "util/units.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char cmd_track_usage[] =
	"usage: nodemark track --pattern REGEX [options] -- CMD [ARGS...]\n"
	"       nodemark track --pattern REGEX [options] --log FILE [--follow]\n"
	"\n"
	"Follows a long job (a replay, a restore, a sync) from its output: runs CMD and reads its\n"
	"stdout and stderr line by line, or reads a log file. The pattern's first group (or its\n"
	"named group) is the progress number. At every milestone a row shows the milestone, % of the\n"
	"total, the segment's time (+36m22s) and seconds, its multiple of the first segment's (x6.31),\n"
	"the elapsed time, the rate, the ETA and, with --baseline, the difference against the same\n"
	"segment of an earlier run. The timeline is saved as a run, to serve as a later baseline.\n"
	"With a command, track exits with the command's exit status and passes signals on to it.\n"
	"\n"
	"Options:\n"
	"  --pattern REGEX       where the progress number is: a PCRE2 (Perl) regex whose first\n"
	"                        group, or first named group (?P<name>...), is the number,\n"
	"                        e.g. 'Imported block (\\d+)'\n"
	"  --total N             the value at which the job is done (gives % and ETA)\n"
	"  --every N | P%        a milestone every N units, or every P% of --total (default 10%)\n"
	"  --tee                 pass the command's output through (to stderr; the table is on stdout)\n"
	"  --log FILE            read a log file instead of running a command\n"
	"  --follow              keep reading the log as it grows (until --total or Ctrl-C)\n"
	"  --time-pattern REGEX  take each line's time from the line itself (its first or named group),\n"
	"                        so an old log can be analysed; default: the time the line is read\n"
	"  --time-format FMT     strptime format of that time (default %Y-%m-%dT%H:%M:%S; %s for\n"
	"                        seconds since the epoch); a fraction (.250) after it is kept\n"
	"  --baseline RUN        compare each segment with the same segment of a saved run\n"
	"                        (id, id prefix, label or \"last\")\n"
	"  --json                print the rows and totals as JSON instead of the table\n"
	"  --name NAME           the job's name, which lines its runs up in compare and report\n"
	"                        (default: the command, or the log's base name without a date)\n"
	RUN_OPT_USAGE
	"\n"
	"Examples:\n"
	"  nodemark track --pattern 'block (\\d+)' --total 80000000 --every 1% -- ./replay --to 80000000\n"
	"  nodemark track --log node.log --pattern 'height=(\\d+)' --every 1000000 \\\n"
	"      --time-pattern '^(\\S+)' --time-format '%Y-%m-%dT%H:%M:%S' --baseline last\n";

enum {
	OPT_PATTERN = 1,
	OPT_TOTAL,
	OPT_EVERY,
	OPT_TEE,
	OPT_LOG,
	OPT_FOLLOW,
	OPT_TIME_PATTERN,
	OPT_TIME_FORMAT,
	OPT_BASELINE,
	OPT_NAME,
	OPT_JSON,
};

static const struct opt_spec specs[] = {
	{ "pattern", OPT_ARG, OPT_PATTERN },
	{ "total", OPT_ARG, OPT_TOTAL },
	{ "every", OPT_ARG, OPT_EVERY },
	{ "tee", OPT_NOARG, OPT_TEE },
	{ "log", OPT_ARG, OPT_LOG },
	{ "follow", OPT_NOARG, OPT_FOLLOW },
	{ "time-pattern", OPT_ARG, OPT_TIME_PATTERN },
	{ "time-format", OPT_ARG, OPT_TIME_FORMAT },
	{ "baseline", OPT_ARG, OPT_BASELINE },
	{ "name", OPT_ARG, OPT_NAME },
	{ "json", OPT_NOARG, OPT_JSON },
	RUN_OPT_SPECS,
	{ 0 },
};

struct track_args {
	struct run_opts ro;
	const char *pattern, *time_pattern, *time_format, *log, *baseline, *name;
	double total, every, every_pct;
	int tee, follow, json;
	char **cmd;
};

static double positive_arg(const struct opt_iter *it, int allow_pct, int *is_pct)
{
	char *end;
	double v = strtod(it->arg, &end);
	if (allow_pct)
		*is_pct = *end == '%';
	if (end == it->arg || (allow_pct && *is_pct ? end[1] : *end) || !isfinite(v) || v <= 0)
		opt_bad_value(it, allow_pct ? "expected a number above 0, or a percentage like 10%"
					    : "expected a number above 0");
	if (allow_pct && *is_pct && v > 100)
		opt_bad_value(it, "expected a percentage up to 100%");
	return v;
}

static void parse_args(struct track_args *a, int argc, char **argv)
{
	struct opt_iter it;
	int pct = 0;
	opt_init(&it, argc, argv);
	for (int id; (id = opt_next(&it, specs)) != OPT_END;) {
		if (run_opts_handle(&a->ro, id, &it))
			continue;
		switch (id) {
		case OPT_PATTERN: a->pattern = it.arg; break;
		case OPT_TOTAL: a->total = positive_arg(&it, 0, NULL); break;
		case OPT_EVERY:
			a->every = positive_arg(&it, 1, &pct);
			a->every_pct = pct ? a->every : 0;
			break;
		case OPT_TEE: a->tee = 1; break;
		case OPT_LOG: a->log = it.arg; break;
		case OPT_FOLLOW: a->follow = 1; break;
		case OPT_TIME_PATTERN: a->time_pattern = it.arg; break;
		case OPT_TIME_FORMAT: a->time_format = it.arg; break;
		case OPT_BASELINE: a->baseline = it.arg; break;
		case OPT_NAME: a->name = it.arg; break;
		case OPT_JSON: a->json = 1; break;
		case OPT_POSITIONAL:
			nm_usage_fail("unexpected '%s' (a command goes after --)", it.arg);
		case OPT_DASHDASH:
			if (it.i >= argc)
				nm_usage_fail("--: expected a command after it");
			a->cmd = it.argv + it.i;
			it.i = argc;
			break;
		}
	}
	if (!a->pattern)
		nm_usage_fail("--pattern is required (e.g. --pattern 'block (\\d+)')");
	if (!a->cmd == !a->log)
		nm_usage_fail(a->cmd ? "give either a command after -- or --log FILE, not both"
				     : "nothing to track: give a command after -- or --log FILE");
	if (a->follow && !a->log)
		nm_usage_fail("--follow goes with --log FILE");
	if (a->tee && !a->cmd)
		nm_usage_fail("--tee goes with a command");
	if (a->time_format && !a->time_pattern)
		nm_usage_fail("--time-format goes with --time-pattern");
	if (!a->time_format)
		a->time_format = "%Y-%m-%dT%H:%M:%S";
	if (!a->every) {
		if (!a->total)
			nm_usage_fail("give --every N, or --total N for a milestone every 10%%");
		a->every_pct = 10;
	}
	if (a->every_pct) {
		if (!a->total)
			nm_usage_fail("--every %g%%: a percentage needs --total", a->every_pct);
		a->every = a->total * a->every_pct / 100;
	}
}

/* The progress timeline of the baseline run (kept in *rec until the end). */
static const struct series *load_baseline(const struct track_args *a, struct record **rec)
{
	char err[512];
	struct store *s = store_open(a->ro.db, err, sizeof err);
	if (!s) {
		nm_error("--baseline: %s", err);
		exit(NM_EXIT_FAILED);
	}
	*rec = store_load(s, a->baseline, err, sizeof err);
	store_close(s);
	if (!*rec)
		nm_usage_fail("--baseline: %s", err);
	for (size_t i = 0; i < (*rec)->nbenches; i++)
		for (size_t k = 0; k < (*rec)->benches[i]->nseries; k++)
			if (strcmp((*rec)->benches[i]->series[k]->name, "progress") == 0)
				return (*rec)->benches[i]->series[k];
	nm_usage_fail("--baseline: run %s has no progress timeline (is it a track run?)", (*rec)->id);
}

struct source {
	struct line_reader lr;
	int fd;
	pid_t pid;
	uint64_t t0_ns;
	int forwarded;
};

/* Time of a line from its own text; 0 or -1. */
static int line_time(const struct progress_re *tre, const char *fmt, const char *line, size_t len, double *t)
{
	const char *cap;
	size_t n;
	if (!progress_re_capture(tre, line, len, &cap, &n))
		return -1;
	return track_parse_time(cap, n, fmt, t);
}

static double clock_s(void) { return (double)clock_now_ns() / 1e9; }

/* The live line on a terminal (nothing otherwise): a log's reading, with how much of the file
 * is read and when that ends; a job's progress, with its own ETA from --total. */
static void show_progress(const struct track_args *a, const struct track *t, int fd, size_t lines,
			  double started)
{
	char el[32], eta[32] = "-", v[32];
	double now = clock_s(), elapsed = now - started;
	units_duration((uint64_t)(elapsed * 1e9), el, sizeof el);
	snprintf(v, sizeof v, "%.0f", t->vmax);
	if (a->log && !a->follow) {
		struct stat st;
		off_t pos = lseek(fd, 0, SEEK_CUR);
		double done = fstat(fd, &st) == 0 && st.st_size > 0 && pos > 0 ? (double)pos / (double)st.st_size : 0;
		if (done > 0 && done < 1)
			units_duration((uint64_t)(elapsed / done * (1 - done) * 1e9), eta, sizeof eta);
		progress_update("track: reading %s, %.0f%%, %zu lines, at %s, elapsed %s, ETA %s", a->log, done * 100,
				lines, v, el, eta);
		return;
	}
	double span = t->tlast - t->t0, done = t->vmax - t->v0;
	if (a->total > 0 && span > 0 && done > 0 && t->vmax < a->total)
		units_duration((uint64_t)((a->total - t->vmax) / (done / span) * 1e9), eta, sizeof eta);
	if (a->total > 0)
		progress_update("track: running, at %s of %.0f (%.1f%%), elapsed %s, ETA %s", v, a->total,
				t->vmax / a->total * 100, el, eta);
	else
		progress_update("track: running, at %s, %zu lines, elapsed %s", v, lines, el);
}

static void save_timeline(const struct track_args *a, const struct track *t, double total_s, int exit_code,
			  int argc, char **argv, int *rc)
{
	struct record *r = record_new("track", argc, argv);
	struct strbuf name;
	char job[256];
	sb_init(&name);
	if (a->name) {
		sb_puts(&name, a->name);
	} else if (a->log) { /* the job, so the logs of one job on different days line up */
		sb_puts(&name, track_job_name(a->log, job, sizeof job));
	} else {
		for (char **w = a->cmd; *w; w++) {
			if (w != a->cmd)
				sb_add(&name, " ", 1);
			sb_puts(&name, *w);
		}
	}
	struct bench *b = record_add_bench(r, name.buf);
	bench_set(b, "source", json_string(a->log ? "log" : "command"));
	bench_set(b, a->log ? "log" : "command", json_string(a->log ? a->log : name.buf));
	bench_set(b, "pattern", json_string(a->pattern));
	if (a->time_pattern) {
		bench_set(b, "time_pattern", json_string(a->time_pattern));
		bench_set(b, "time_format", json_string(a->time_format));
	}
	if (a->total)
		bench_set(b, "total", json_real(a->total));
	bench_set(b, "every", json_real(a->every));
	struct series *s = bench_series(b, "progress", "s", "");
	series_add(s, 0, t->v0);
	for (size_t i = 0; i < t->nrows; i++)
		series_add(s, t->rows[i].cum_s, t->rows[i].milestone);
	if (t->vmax > t->prev_m)
		series_add(s, total_s, t->vmax);
	metric_add(bench_metric(b, "total_s", "s", LOWER_IS_BETTER), total_s);
	if (total_s > 0)
		metric_add(bench_metric(b, "mean_rate", "/s", HIGHER_IS_BETTER), (t->vmax - t->v0) / total_s);
	struct metric *seg = bench_metric(b, "segment_s", "s", LOWER_IS_BETTER);
	for (size_t i = 0; i < t->nrows; i++) /* full segments only: a partial one is not their like */
		if (!t->rows[i].partial)
			metric_add(seg, t->rows[i].seg_s);
	if (a->cmd)
		json_object_set_new(r->extra, "exit_code", json_integer(exit_code));
	if (!a->ro.no_save) { /* the inventory is only for the saved record */
		run_opts_apply(&a->ro, r, NULL);
		if (run_save(&a->ro, r) < 0 && *rc == 0)
			*rc = NM_EXIT_FAILED;
	}
	sb_free(&name);
	record_free(r);
}

int cmd_track(int argc, char **argv)
{
	struct track_args a;
	struct progress_re *re = NULL, *tre = NULL;
	struct record *base_rec = NULL;
	const struct series *baseline = NULL;
	struct source src = { .fd = -1, .pid = -1 };
	struct track t;
	char err[512];
	int rc = 0, exit_code = 0;

	memset(&a, 0, sizeof a);
	parse_args(&a, argc, argv);
	if (!(re = progress_re_compile(a.pattern, err, sizeof err)))
		nm_usage_fail("--pattern: %s", err);
	if (a.time_pattern && !(tre = progress_re_compile(a.time_pattern, err, sizeof err))) {
		progress_re_free(re);
		nm_usage_fail("--time-pattern: %s", err);
	}
	if (a.baseline)
		baseline = load_baseline(&a, &base_rec);
	track_init(&t, a.total, a.every, baseline);

	if (a.cmd) {
		int p[2];
		char *path = run_resolve(a.cmd[0], err, sizeof err);
		if (!path)
			nm_usage_fail("%s", err);
		char *saved = a.cmd[0];
		a.cmd[0] = path;
		struct run_spec spec = { .argv = a.cmd, .in = RUN_IO_INHERIT, .out = RUN_IO_INHERIT, .out_fd = -1 };
		if (pipe2(p, O_CLOEXEC) < 0) {
			nm_error("pipe: %s", strerror(errno));
			return NM_EXIT_FAILED;
		}
		spec.out_fd = p[1];
		src.pid = run_start(&spec, &src.t0_ns, err, sizeof err);
		a.cmd[0] = saved;
		free(path);
		close(p[1]);
		if (src.pid < 0) {
			nm_error("%s", err);
			close(p[0]);
			return NM_EXIT_FAILED;
		}
		src.fd = p[0];
		if (!tre)
			track_start(&t, (double)src.t0_ns / 1e9);
	} else {
		src.fd = open(a.log, O_RDONLY | O_CLOEXEC);
		if (src.fd < 0) {
			nm_error("%s: %s", a.log, strerror(errno));
			progress_re_free(re);
			progress_re_free(tre);
			record_free(base_rec);
			return NM_EXIT_FAILED;
		}
		if (!tre)
			track_start(&t, clock_s());
	}
	lr_init(&src.lr, src.fd, a.tee ? STDERR_FILENO : -1);
	src.lr.follow = a.follow;
	if (!a.json)
		track_print_header(stdout, &t);

	/* The last progress line, for its time stamp at the end. */
	struct strbuf last;
	sb_init(&last);
	size_t lines = 0, untimed = 0;
	int have_origin = !tre;
	int live = progress_enabled() && !a.tee;
	double started = clock_s();
	for (;;) {
		const char *line;
		size_t len;
		double v, when;
		int n = lr_next(&src.lr, &line, &len);
		if (n == 1) {
			/* A log is read fast: a look at the clock every 64 Ki lines is enough. */
			if ((++lines & 0xffff) == 0 || a.cmd)
				if (live)
					show_progress(&a, &t, src.fd, lines, started);
			if (!have_origin && line_time(tre, a.time_format, line, len, &when) == 0) {
				track_start(&t, when);
				have_origin = 1;
			}
			if (!progress_re_number(re, line, len, &v))
				continue;
			if (tre) {
				sb_reset(&last);
				sb_add(&last, line, len);
			}
			if (!track_crosses(&t, v)) {
				track_seen(&t, v);
				continue;
			}
			if (tre ? line_time(tre, a.time_format, line, len, &when) < 0 : (when = clock_s(), 0)) {
				untimed++;
				continue;
			}
			size_t before = t.nrows;
			if (track_point(&t, when, v) && !a.json) {
				progress_clear();
				for (size_t i = before; i < t.nrows; i++)
					track_print_row(stdout, &t, &t.rows[i]);
			}
			continue;
		}
		if (n < 0 && errno != EINTR) {
			nm_error("reading %s: %s", a.log ? a.log : "the command's output", strerror(errno));
			rc = NM_EXIT_FAILED;
			break;
		}
		if (cleanup_interrupted()) {
			if (src.pid > 0 && !src.forwarded) {
				kill(src.pid, cleanup_interrupted());
				src.forwarded = 1;
			}
			if (src.pid < 0)
				break;
			if (n == 0)
				break;
			continue;
		}
		if (live)
			show_progress(&a, &t, src.fd, lines, started);
		if (n == 0 && a.follow && !(a.total && t.vmax >= a.total)) {
			struct timespec ts = { 0, 200000000 };
			nanosleep(&ts, NULL);
			continue;
		}
		if (n == 0)
			break;
	}
	double end = clock_s();
	if (tre) {
		double lt;
		end = last.len && line_time(tre, a.time_format, last.buf, last.len, &lt) == 0 ? lt : t.tlast;
	}
	if (src.pid > 0) {
		struct run_sample s;
		if (run_finish(src.pid, src.t0_ns, 0, &s, err, sizeof err) < 0) {
			nm_error("%s", err);
			rc = NM_EXIT_FAILED;
		} else {
			exit_code = s.exit_code;
		}
	}
	progress_clear();
	double total_s = t.started ? end - t.t0 : 0;
	if (track_finish(&t, end) && !a.json)
		track_print_row(stdout, &t, &t.rows[t.nrows - 1]);
	if (a.json) {
		json_t *j = track_to_json(&t, total_s, lines);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		json_decref(j);
	} else {
		track_print_end(stdout, &t, total_s, lines);
	}
	if (untimed)
		nm_warn("%zu progress lines had no time stamp that --time-pattern/--time-format could read", untimed);
	if (!t.started) {
		nm_warn("no line matched --pattern '%s'", a.pattern);
		if (!a.cmd && rc == 0)
			rc = NM_EXIT_FAILED;
	} else {
		save_timeline(&a, &t, total_s, exit_code, argc, argv, &rc);
	}
	if (a.cmd && rc == 0)
		rc = exit_code;
	if (rc == 0 && cleanup_interrupted())
		rc = NM_EXIT_INTERRUPTED;
	sb_free(&last);
	lr_free(&src.lr);
	close(src.fd);
	track_free(&t);
	progress_re_free(re);
	progress_re_free(tre);
	record_free(base_rec);
	run_opts_free(&a.ro);
	return rc;
}
