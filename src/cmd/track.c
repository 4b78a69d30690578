/* nodemark track: follow a long job's progress from its output or its log. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/run_opts.h"
#include "results/store.h"
#include "proc/linereader.h"
#include "proc/progress_re.h"
#include "proc/spawn.h"
#include "compare/track.h"
#include "compare/track_table.h"
#include "proc/track_time.h"
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

struct track_args {
	struct run_opts ro;
	const char *pattern, *time_pattern, *time_format, *log, *baseline, *name, *until;
	double total, every, every_pct;
	int tee, follow, json, until_exit;
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

static void parse_total(const struct opt_iter *it, void *args)
{
	((struct track_args *)args)->total = positive_arg(it, 0, NULL);
}

/* --every N or P%: a P% is turned into units once --total is known. */
static void parse_every(const struct opt_iter *it, void *args)
{
	struct track_args *a = args;
	int pct = 0;
	a->every = positive_arg(it, 1, &pct);
	a->every_pct = pct ? a->every : 0;
}

static void no_word(const char *word, void *ctx)
{
	nm_usage_fail("unexpected '%s' (a command goes after --)", word);
}

static struct track_args args;

static const struct cli_option options[] = {
	CLI_STRING("pattern", &args.pattern,
		   CLI_HELP("REGEX", "where the progress number is: a PCRE2 (Perl) regex whose first\n"
				     "group, or first named group (?P<name>...), is the number,\n"
				     "e.g. 'Imported block (\\d+)'")),
	CLI_CALL("total", parse_total, &args,
		 CLI_HELP("N", "the value at which the job is done (gives % and ETA)")),
	CLI_CALL("every", parse_every, &args,
		 CLI_HELP("N | P%", "a milestone every N units, or every P% of --total (default 10%)")),
	CLI_FLAG("tee", &args.tee,
		 CLI_HELP(NULL, "pass the command's output through (to stderr; the table is on stdout)")),
	CLI_STRING("log", &args.log, CLI_HELP("FILE", "read a log file instead of running a command")),
	CLI_FLAG("follow", &args.follow,
		 CLI_HELP(NULL, "keep reading the log as it grows (until --total, --until or Ctrl-C)")),
	CLI_STRING("until", &args.until,
		   CLI_HELP("REGEX", "the job ends at the first line that matches (e.g. 'entering live mode'):\n"
				     "that line's time closes the last segment; a command is then stopped\n"
				     "(SIGTERM) and track exits 0")),
	CLI_FLAG("until-exit", &args.until_exit,
		 CLI_HELP(NULL, "the job ends when the command exits (the default with a command)")),
	CLI_STRING("time-pattern", &args.time_pattern,
		   CLI_HELP("REGEX", "take each line's time from the line itself (its first or named group),\n"
				     "so an old log can be analysed; default: the time the line is read")),
	CLI_STRING("time-format", &args.time_format,
		   CLI_HELP("FMT", "strptime format of that time (default %Y-%m-%dT%H:%M:%S; %s for\n"
				   "seconds since the epoch); a fraction (.250) after it is kept")),
	CLI_STRING("baseline", &args.baseline,
		   CLI_HELP("RUN", "compare each segment with the same segment of a saved run\n"
				   "(id, id prefix, label or \"last\")")),
	CLI_FLAG("json", &args.json, CLI_HELP(NULL, "print the rows and totals as JSON instead of the table")),
	CLI_STRING("name", &args.name,
		   CLI_HELP("NAME", "the job's name, which lines its runs up in compare and report\n"
				    "(default: the command, else --pattern; a log's path is a setting)")),
	CLI_RUN_OPTIONS(&args.ro),
	CLI_REST(&args.cmd),
	CLI_END,
};

const struct cli_help cmd_track_help = {
	.usage = "usage: nodemark track --pattern REGEX [options] -- CMD [ARGS...]\n"
		 "       nodemark track --pattern REGEX [options] --log FILE [--follow]\n"
		 "\n"
		 "Follows a long job (a replay, a restore, a sync) from its output: runs CMD and reads its\n"
		 "stdout and stderr line by line, or reads a log file. The pattern's first group (or its\n"
		 "named group) is the progress number. At every milestone a row shows the milestone, % of the\n"
		 "total, the segment's time (+36m22s) and seconds, its multiple of the first segment's (x6.31),\n"
		 "the elapsed time, the rate, the ETA and, with --baseline, the difference against the same\n"
		 "segment of an earlier run. The timeline is saved as a run, to serve as a later baseline.\n"
		 "With a command, track exits with the command's exit status and passes signals on to it.\n"
		 "A job without a fixed end (a sync that goes live) ends at a line: --until REGEX.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Examples:\n"
		"  nodemark track --pattern 'block (\\d+)' --total 80000000 --every 1% \\\n"
		"      -- ./replay --to 80000000\n"
		"  nodemark track --log node.log --pattern 'height=(\\d+)' --every 1000000 \\\n"
		"      --time-pattern '^(\\S+)' --time-format '%Y-%m-%dT%H:%M:%S' --baseline last\n",
};

static void parse_args(struct track_args *a, int argc, char **argv)
{
	cli_parse("track", argc, argv, options, no_word, NULL);
	if (!a->pattern)
		nm_usage_fail("--pattern is required (e.g. --pattern 'block (\\d+)')");
	if (!a->cmd == !a->log)
		nm_usage_fail(a->cmd ? "give either a command after -- or --log FILE, not both"
				     : "nothing to track: give a command after -- or --log FILE");
	if (a->follow && !a->log)
		nm_usage_fail("--follow goes with --log FILE");
	if (a->tee && !a->cmd)
		nm_usage_fail("--tee goes with a command");
	if (a->until_exit && !a->cmd)
		nm_usage_fail("--until-exit goes with a command (a log ends at its end, or at --until)");
	if (a->until_exit && a->until)
		nm_usage_fail("give either --until REGEX or --until-exit, not both");
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
	struct strbuf command;
	sb_init(&command);
	for (char **w = a->cmd; w && *w; w++) {
		if (w != a->cmd)
			sb_add(&command, " ", 1);
		sb_puts(&command, *w);
	}
	/* The job's name, never the log's: one job's logs (hived-2204.log, hived-2310.log) line
	 * up in compare; the log and the command are settings. */
	struct bench *b = record_add_bench(r, a->name ? a->name : a->cmd ? command.buf : a->pattern);
	bench_set(b, "source", json_string(a->log ? "log" : "command"));
	bench_set(b, a->log ? "log" : "command", json_string(a->log ? a->log : command.buf));
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
	if (a->until)
		bench_set(b, "until", json_string(a->until));
	if (a->cmd && !a->until)
		json_object_set_new(r->extra, "exit_code", json_integer(exit_code));
	if (!a->ro.no_save) { /* the inventory is only for the saved record */
		run_opts_apply(&a->ro, r, NULL);
		if (run_save(&a->ro, r) < 0 && *rc == 0)
			*rc = NM_EXIT_FAILED;
	}
	sb_free(&command);
	record_free(r);
}

/* What a run of track holds while it reads: the patterns, the timeline, the source. */
struct tracking {
	const struct track_args *a;
	struct progress_re *re, *tre; /* the progress number; the time stamp (NULL: the clock) */
	struct progress_re *until;    /* the line that ends the job (NULL: the end of the input) */
	int until_hit;                /* that line was read: at line until_line, time until_s */
	size_t until_line;
	double until_s;
	struct track t;
	struct source src;
	struct strbuf last; /* the last progress line, for its time stamp at the end */
	size_t lines, untimed;
	int have_origin, live;
	double started;
};

/* A log's own times are read as UTC (track_parse_time), so shown as UTC they are the log's
 * text; the monotonic clock is mapped to the time of day once. */
static void set_wall(struct tracking *k)
{
	if (k->tre)
		track_set_wall(&k->t, 0, 1);
	else
		track_set_wall(&k->t, (double)clock_wall_ms() / 1e3 - clock_s(), 0);
}

/* Starts the command, its output into a pipe, or opens the log; an exit code. */
static int open_source(struct tracking *k)
{
	const struct track_args *a = k->a;
	char err[512];
	if (!a->cmd) {
		k->src.fd = open(a->log, O_RDONLY | O_CLOEXEC);
		if (k->src.fd < 0) {
			nm_error("%s: %s", a->log, strerror(errno));
			return NM_EXIT_FAILED;
		}
		if (!k->tre)
			track_start(&k->t, clock_s());
		set_wall(k);
		return NM_EXIT_OK;
	}
	int p[2];
	char *path = spawn_resolve(a->cmd[0], err, sizeof err);
	if (!path)
		nm_usage_fail("%s", err);
	char *saved = a->cmd[0];
	a->cmd[0] = path;
	struct spawn_spec spec = { .argv = a->cmd, .in = SPAWN_IO_INHERIT, .out = SPAWN_IO_INHERIT, .out_fd = -1 };
	if (pipe2(p, O_CLOEXEC) < 0) {
		nm_error("pipe: %s", strerror(errno));
		return NM_EXIT_FAILED;
	}
	spec.out_fd = p[1];
	k->src.pid = spawn_start(&spec, &k->src.t0_ns, err, sizeof err);
	a->cmd[0] = saved;
	free(path);
	close(p[1]);
	if (k->src.pid < 0) {
		nm_error("%s", err);
		close(p[0]);
		return NM_EXIT_FAILED;
	}
	k->src.fd = p[0];
	if (!k->tre)
		track_start(&k->t, (double)k->src.t0_ns / 1e9);
	set_wall(k);
	return NM_EXIT_OK;
}

/* A progress line: a milestone row when its number crosses one. */
static void take_progress(struct tracking *k, const char *line, size_t len)
{
	const struct track_args *a = k->a;
	double v, when;
	/* A log is read fast: a look at the clock every 64 Ki lines is enough. */
	if ((++k->lines & 0xffff) == 0 || a->cmd)
		if (k->live)
			show_progress(a, &k->t, k->src.fd, k->lines, k->started);
	if (!k->have_origin && track_line_time(k->tre, a->time_format, line, len, &when) == 0) {
		track_start(&k->t, when);
		k->have_origin = 1;
	}
	if (!progress_re_number(k->re, line, len, &v))
		return;
	if (k->tre) {
		sb_reset(&k->last);
		sb_add(&k->last, line, len);
	}
	if (!track_crosses(&k->t, v)) {
		track_seen(&k->t, v);
		return;
	}
	if (k->tre ? track_line_time(k->tre, a->time_format, line, len, &when) < 0 : (when = clock_s(), 0)) {
		k->untimed++;
		return;
	}
	size_t before = k->t.nrows;
	if (track_point(&k->t, when, v) && !a->json) {
		progress_clear();
		for (size_t i = before; i < k->t.nrows; i++)
			track_print_row(stdout, &k->t, &k->t.rows[i]);
	}
}

/* One line of the job's output: its progress, then whether it ends the job (--until); the end's
 * time is the line's own (or, without one, the last progress line's), else the clock's. */
static void take_line(struct tracking *k, const char *line, size_t len)
{
	take_progress(k, line, len);
	if (!k->until || !progress_re_matches(k->until, line, len))
		return;
	k->until_hit = 1;
	k->until_line = k->lines;
	if (!k->tre)
		k->until_s = clock_s();
	else if (track_line_time(k->tre, k->a->time_format, line, len, &k->until_s) < 0)
		k->until_s = k->t.tlast;
}

/* Every line until the end of the output (or of --total under --follow, or the --until line), or Ctrl-C; an exit
 * code.  A signal goes on to the command, whose output is then read to its end. */
static int read_lines(struct tracking *k)
{
	const struct track_args *a = k->a;
	for (;;) {
		const char *line;
		size_t len;
		int n = lr_next(&k->src.lr, &line, &len);
		if (n == 1) {
			take_line(k, line, len);
			if (k->until_hit)
				return 0;
			continue;
		}
		if (n < 0 && errno != EINTR) {
			nm_error("reading %s: %s", a->log ? a->log : "the command's output", strerror(errno));
			return NM_EXIT_FAILED;
		}
		if (cleanup_interrupted()) {
			if (k->src.pid > 0 && !k->src.forwarded) {
				kill(k->src.pid, cleanup_interrupted());
				k->src.forwarded = 1;
			}
			if (k->src.pid < 0 || n == 0)
				return 0;
			continue;
		}
		if (k->live)
			show_progress(a, &k->t, k->src.fd, k->lines, k->started);
		/* Under --until, the total gives percentages only: the line ends the job. */
		if (n == 0 && a->follow && !(a->total && !a->until && k->t.vmax >= a->total)) {
			struct timespec ts = { 0, 200000000 };
			nanosleep(&ts, NULL);
			continue;
		}
		if (n == 0)
			return 0;
	}
}

/* The last row, the table's end (or the JSON), the warnings, and the saved timeline. */
static void finish(struct tracking *k, double end, int exit_code, int argc, char **argv, int *rc)
{
	const struct track_args *a = k->a;
	struct track *t = &k->t;
	progress_clear();
	double total_s = t->started ? end - t->t0 : 0;
	if (track_finish(t, end) && !a->json)
		track_print_row(stdout, t, &t->rows[t->nrows - 1]);
	if (a->json) {
		json_t *j = track_to_json(t, total_s, k->lines);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		json_decref(j);
	} else {
		track_print_end(stdout, t, total_s, k->lines);
		if (k->until_hit)
			track_print_until(stdout, t, k->until_line, k->until_s);
	}
	if (a->until && !k->until_hit && !cleanup_interrupted()) {
		nm_warn("no line matched --until '%s': the job's end was not seen", a->until);
		if (*rc == 0)
			*rc = NM_EXIT_FAILED;
	}
	if (k->untimed)
		nm_warn("%zu progress lines had no time stamp that --time-pattern/--time-format could read",
			k->untimed);
	if (!t->started) {
		nm_warn("no line matched --pattern '%s'", a->pattern);
		if (!a->cmd && *rc == 0)
			*rc = NM_EXIT_FAILED;
	} else {
		save_timeline(a, t, total_s, exit_code, argc, argv, rc);
	}
}

int cmd_track(int argc, char **argv)
{
	cleanup_stop_at_safe_points(); /* its loops poll cleanup_interrupted() */
	struct tracking k = { .a = &args, .src = { .fd = -1, .pid = -1 } };
	struct record *base_rec = NULL;
	const struct series *baseline = NULL;
	char err[512];
	int rc = 0, exit_code = 0;

	memset(&args, 0, sizeof args);
	parse_args(&args, argc, argv);
	if (!(k.re = progress_re_compile(args.pattern, err, sizeof err)))
		nm_usage_fail("--pattern: %s", err);
	if (args.time_pattern && !(k.tre = progress_re_compile(args.time_pattern, err, sizeof err))) {
		progress_re_free(k.re);
		nm_usage_fail("--time-pattern: %s", err);
	}
	if (args.until && !(k.until = progress_re_compile_any(args.until, err, sizeof err))) {
		progress_re_free(k.re);
		progress_re_free(k.tre);
		nm_usage_fail("--until: %s", err);
	}
	if (args.baseline)
		baseline = load_baseline(&args, &base_rec);
	track_init(&k.t, args.total, args.every, baseline);
	if (open_source(&k) != NM_EXIT_OK) {
		progress_re_free(k.re);
		progress_re_free(k.tre);
		progress_re_free(k.until);
		record_free(base_rec);
		return NM_EXIT_FAILED;
	}
	lr_init(&k.src.lr, k.src.fd, args.tee ? STDERR_FILENO : -1);
	k.src.lr.follow = args.follow;
	if (!args.json)
		track_print_header(stdout, &k.t);
	sb_init(&k.last);
	k.have_origin = !k.tre;
	k.live = progress_live() && !args.tee;
	k.started = clock_s();
	rc = read_lines(&k);

	double end = clock_s();
	if (k.until_hit) {
		end = k.until_s;
	} else if (k.tre) {
		double lt;
		end = k.last.len && track_line_time(k.tre, args.time_format, k.last.buf, k.last.len, &lt) == 0 ? lt : k.t.tlast;
	}
	if (k.src.pid > 0 && k.until_hit)
		kill(k.src.pid, SIGTERM); /* the job is done; what it does after is not tracked */
	if (k.src.pid > 0) {
		struct spawn_sample s;
		if (spawn_finish(k.src.pid, k.src.t0_ns, 0, &s, err, sizeof err) < 0) {
			nm_error("%s", err);
			rc = NM_EXIT_FAILED;
		} else {
			exit_code = s.exit_code;
		}
	}
	finish(&k, end, exit_code, argc, argv, &rc);
	if (args.cmd && rc == 0 && !k.until_hit)
		rc = exit_code;
	if (rc == 0 && cleanup_interrupted())
		rc = NM_EXIT_INTERRUPTED;
	sb_free(&k.last);
	lr_free(&k.src.lr);
	close(k.src.fd);
	track_free(&k.t);
	progress_re_free(k.re);
	progress_re_free(k.tre);
	progress_re_free(k.until);
	record_free(base_rec);
	run_opts_free(&args.ro);
	return rc;
}
