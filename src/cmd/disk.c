/* nodemark disk: CrystalDiskMark's profiles and fio-like custom jobs on directories, files and
 * block devices.  Parses options into a plan (disk/plan.h), runs its passes on one io session
 * (disk/passes.h: files laid out once), and hands the results to disk/report.h (the table and
 * the JSON) and disk/record.h (the record for the store).  On Ctrl-C the tests that finished
 * are saved. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/run_opts.h"
#include "cli/sweep.h"
#include "disk/passes.h"
#include "disk/plan.h"
#include "disk/profiles.h"
#include "disk/record.h"
#include "disk/report.h"
#include "disk/turns.h"
#include "disk/turns_report.h"
#include "inventory/inventory.h"
#include "io/engine.h"
#include "proc/params.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/opt.h"
#include "util/parse.h"
#include "util/progress.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct disk_opts {
	struct disk_plan plan;
	int custom;                 /* --rw given */
	int have_bs, have_jobs;
	const char *allow_write[IO_MAX_TARGETS];
	unsigned nallow;
	int json;
	const char *output;
	struct run_opts run;
	int together;               /* several targets at once (threads spread, summed), not in turns */
	const char *reference;      /* the target the others are compared with (default: the first) */
	int sqpoll, hipri;          /* engines' flags (io_job_set_flag), set once the engine is known */
};

static struct disk_opts opts;

/* The options a sweep may vary: those that shape a test, each taking a value. */
static const char *const sweepable[] = { "size", "runtime", "ramp", "rw", "bs", "iodepth", "jobs", "rwmix",
					 "engine", "fsync", "fdatasync", "cpus", NULL };

/* A sweep (-L, -P): the settings, kept apart from opts, which each setting's parse refills. */
static struct cli_sweep sweep = { .names = sweepable };

#define JOB (&opts.plan.base) /* the job the options fill (a profile builds its tests from it) */

static void parse_profile(const struct opt_iter *it, void *profile)
{
	if (!(*(const struct disk_profile **)profile = disk_profile_find(it->arg)))
		opt_bad_value(it, "expected cdm, cdm-nvme, peak or realworld");
}

static void parse_rw(const struct opt_iter *it, void *rw)
{
	if (io_rw_parse(it->arg, rw) < 0)
		opt_bad_value(it, "expected read, write, randread, randwrite, rw or randrw");
}

/* --bs: one block size for reads and writes. */
static void parse_bs(const struct opt_iter *it, void *job)
{
	struct io_job *j = job;
	uint64_t bs = opt_size(it);
	if (bs == 0)
		opt_bad_value(it, "0: a block size must be at least 1 byte");
	if (bs > (256u << 20))
		opt_bad_value(it, "at most 256MiB");
	j->bs[DIR_READ] = j->bs[DIR_WRITE] = bs;
}

static void parse_engine(const struct opt_iter *it, void *engine)
{
	if (io_engine_parse(it->arg, engine) < 0)
		opt_bad_value(it, io_engine_expected());
}

/* --engine's help: what auto picks comes from the engine layer, with the one list of auto's
 * engines that its choice reads. */
static const char *engine_help(const char *name)
{
	static char help[512];
	snprintf(help, sizeof help,
		 "auto (default), uring, libaio (Linux AIO), psync, sync (lseek, read/write), pvsync2 (preadv2, "
		 "with --hipri), mmap, "
		 "null. auto %s. fio's filecreate, filestat, filedelete, ftruncate, falloc; cpuio, exec, net "
		 "(their options are fio's: see "
		 "nodemark fio)", io_engine_auto_text());
	return help;
}

static void add_target(const char *word, void *ctx)
{
	if (JOB->ntargets == IO_MAX_TARGETS)
		nm_usage_fail("at most %d targets", IO_MAX_TARGETS);
	JOB->targets[JOB->ntargets++] = word;
}

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct cli_option options[] = {
	CLI_CALL("profile", parse_profile, &opts.plan.profile, CLI_HELP("NAME", "run a profile (see above)")),
	CLI_SIZE("size", &JOB->size, .min = 1, .bad = "0: expected a size like 64m, 1GiB",
		 .seen = &opts.plan.have_size,
		 CLI_HELP("SIZE", "test file size, or region of a file or device (default 1GiB)")),
	CLI_DURATION("runtime", &JOB->runtime_ns, .min = 1, .bad = "0: expected a duration like 500ms, 5s",
		     .seen = &opts.plan.have_runtime,
		     CLI_HELP("D", "length of a pass (profiles: 5s; custom jobs: time-based run of D;\n"
				   "without it a custom job does one size-based pass over --size)")),
	CLI_UINT("loops", &JOB->loops, 1, 1000, .seen = &opts.plan.have_loops,
		 CLI_HELP("N", "passes (profiles: 5; custom jobs: 1)")),
	CLI_DURATION("interval", &opts.plan.interval_ns, .seen = &opts.plan.have_interval,
		     CLI_HELP("D", "pause between passes (profiles: 5s; custom jobs: 0)")),
	CLI_DURATION("ramp", &JOB->ramp_ns, CLI_HELP("D", "run but do not measure the first D of each pass")),
	CLI_CALL("rw", parse_rw, &JOB->rw, .seen = &opts.custom,
		 CLI_HELP("RW", "a custom job: read, write, randread, randwrite, rw, randrw")),
	CLI_CALL("bs", parse_bs, JOB, .seen = &opts.have_bs, CLI_HELP("SIZE", "block size (default 4k)")),
	/* 32768: io_uring's largest ring (IORING_MAX_ENTRIES); a deeper one fails at setup */
	CLI_UINT("iodepth", &JOB->iodepth, 1, 32768, CLI_HELP("N", "I/Os in flight per thread, 1-32768 (default 1)")),
	CLI_UINT("jobs", &JOB->numjobs, 1, 4096, .seen = &opts.have_jobs,
		 CLI_HELP("N", "threads, spread over the targets (default 1)")),
	CLI_UINT("rwmix", &JOB->rwmix_read, 0, 100, CLI_HELP("PCT", "share of reads in rw/randrw (default 50)")),
	CLI_CALL("engine", parse_engine, &JOB->engine, .arg = "NAME", .help_of = engine_help),
	CLI_SET("direct", &JOB->direct, DIRECT_ON,
		CLI_HELP(NULL, "require O_DIRECT (default: O_DIRECT where the filesystem allows it,\n"
			       "else buffered with a note)")),
	CLI_SET("buffered", &JOB->direct, DIRECT_OFF, CLI_HELP(NULL, "never use O_DIRECT")),
	CLI_SET("zero-buffers", &JOB->buf.fill, FILL_ZERO, CLI_HELP(NULL, "write zeros (default: random data)")),
	CLI_UINT("fsync", &JOB->sync.fsync_every, 1, UINT32_MAX,
		 CLI_HELP("N", "fsync after every N writes (and --end-fsync: once at the end)")),
	CLI_UINT("fdatasync", &JOB->sync.fdatasync_every, 1, UINT32_MAX,
		 CLI_HELP("N", "fdatasync after every N writes")),
	CLI_FLAG("end-fsync", &JOB->sync.end_fsync, CLI_HELP(NULL, "fsync each file when the writes are done")),
	CLI_FLAG("norandommap", &JOB->pattern.norandommap,
		 CLI_HELP(NULL, "random offsets may repeat within a pass (default: every block once)")),
	CLI_STRING("cpus", &JOB->place.cpus, CLI_HELP("LIST", "pin thread i to the i-th CPU of LIST, e.g. 0-3,8")),
	CLI_FLAG("sqpoll", &opts.sqpoll, .help_of = io_engine_flag_help),
	CLI_FLAG("hipri", &opts.hipri, .help_of = io_engine_flag_help),
	CLI_FLAG("together", &opts.together,
		 CLI_HELP(NULL, "several targets at once: threads spread over them and summed (default:\n"
				"in turns, one pass of each per round, compared with the first)")),
	CLI_STRING("reference", &opts.reference,
		   CLI_HELP("TARGET", "in turns, compare the others with this target, or with this setting\n"
				      "of a sweep, NAME=VALUE[,NAME=VALUE] (default: the first)")),
	CLI_SECTION("Sweeps (settings measured in turns like targets; several lists give every\n"
		    "combination, the first varying fastest; NAME is one of size, runtime, ramp,\n"
		    "rw, bs, iodepth, jobs, rwmix, engine, fsync, fdatasync, cpus):"),
	CLI_SWEEP_OPTIONS(&sweep),
	CLI_SECTION("Output and the run:"),
	CLI_LIST("allow-write", opts.allow_write, &opts.nallow, IO_MAX_TARGETS,
		 .bad = "at most " STR(IO_MAX_TARGETS) " paths",
		 CLI_HELP("PATH", "allow writing to this block device or existing file (repeatable)")),
	CLI_FLAG("json", &opts.json,
		 CLI_HELP(NULL, "JSON on stdout: per test an object per job, per target and a total\n"
				"(iops, bytes_per_sec, io_bytes, runtime_ns, lat_ns{min,mean,max,p50,\n"
				"p90,p99,p99.9,p99.99}, usr_cpu_ns, sys_cpu_ns, engine, direct)")),
	CLI_OUTPUT("output", &opts.output, .alias = "o",
		   CLI_HELP("FILE", "write the report (or JSON) to FILE instead of stdout")),
	CLI_RUN_OPTIONS(&opts.run),
	CLI_END,
};

const struct cli_help cmd_disk_help = {
	.usage = "usage: nodemark disk TARGET... [--profile cdm|cdm-nvme|peak|realworld] [options]\n"
		 "       nodemark disk TARGET... --rw RW [--bs SIZE --iodepth N --jobs N\n"
		 "                     --runtime D ...]\n"
		 "\n"
		 "Measure a directory, file or block device the way CrystalDiskMark and fio do.\n"
		 "A directory gets a private .nodemark-* subdirectory with the test files, removed at the end\n"
		 "(also on Ctrl-C). A file or block device is only read, unless it is named again in the\n"
		 "option --allow-write; a mounted device is never written. Ctrl-C (or SIGTERM) stops the run,\n"
		 "removes the test files and saves the tests that finished all their passes.\n"
		 "\n"
		 "Several targets are measured in turns: each test runs one pass on every target per round\n"
		 "(the order rotated each round, the same preparation for each; 6 passes unless --loops\n"
		 "says otherwise), and each target is compared with the first (or with --reference) from\n"
		 "the per-round pairs: the ratio, its 95% interval and a verdict. With --together they are\n"
		 "measured at once instead: the threads spread over them, results per target and in total.\n"
		 "\n"
		 "Profiles (CrystalDiskMark 8; the default when --rw is not given is cdm):\n"
		 "  cdm        SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1\n"
		 "  cdm-nvme   SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1\n"
		 "  peak       SEQ1M Q8T1, RND4K Q32T16\n"
		 "  realworld  SEQ1M Q1T1, RND4K Q1T1\n"
		 "  Every test is read, then (after all reads) written. Each test starts with a discarded\n"
		 "  preparing pass, then --loops passes; the table shows the median of the passes\n"
		 "  (MB/s = 10^6 B/s, IOPS, mean and p99 latency: what show and compare print),\n"
		 "  the best pass's bandwidth (best) and the spread. With --together, the T\n"
		 "  threads of a test run on each target.\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Examples:\n"
		"  nodemark disk /mnt/data\n"
		"  nodemark disk /mnt/data --profile cdm-nvme --size 256m --runtime 2s --loops 3\n"
		"  nodemark disk /mnt/data --rw randread --bs 4k --iodepth 32 --jobs 4\n"
		"  nodemark disk /dev/nvme0n1 --rw randread --iodepth 32 --runtime 10s --json\n"
		"  nodemark disk /mnt/old /mnt/new --profile realworld --size 256m --runtime 2s\n"
		"  nodemark disk /mnt/data --rw randread -L bs 4k,64k -L iodepth 1,32\n"
		"  nodemark disk /d1 /d2 /d3 --together --rw write --bs 1m --jobs 3 --size 4g\n",
};

/* --FLAG: forwarded to the engine layer, which knows which engine option it sets (the
 * engine's own flags table); bad input where the job's engine has none. */
static void engine_flag(const char *flag)
{
	char err[256];
	if (io_job_set_flag(JOB, flag, err, sizeof err) < 0)
		nm_usage_fail("%s", err);
}

static void parse_args(int argc, char **argv)
{
	memset(&opts, 0, sizeof opts);
	disk_plan_init(&opts.plan);
	cli_parse("disk", argc, argv, options, add_target, NULL);
	if (opts.sqpoll)
		engine_flag("sqpoll");
	if (opts.hipri)
		engine_flag("hipri");
	if (sweep.reparsing)
		return;
	cli_outputs_check(options, NULL, 0, opts.run.db);
	cli_sweep_finish(&sweep);
}

/* --- checks that need the file system ------------------------------------------------------ */

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode))
		return sa.st_rdev == sb.st_rdev;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Missing targets are bad input; returns whether writes are allowed on all of them. */
static int check_targets(struct disk_opts *o)
{
	const struct io_job *j = &o->plan.base;
	int writable = 1;
	if (!j->ntargets && !(io_engine_caps(j->engine) & IO_ENGINE_DISKLESS))
		nm_usage_fail("missing target: name a directory, file or block device (see --help)");
	for (unsigned i = 0; i < j->ntargets; i++) {
		struct stat st;
		if (stat(j->targets[i], &st) < 0)
			nm_usage_fail("%s: %s", j->targets[i], strerror(errno));
		if (S_ISDIR(st.st_mode))
			continue;
		if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
			nm_usage_fail("%s: not a directory, regular file or block device", j->targets[i]);
		int allowed = 0;
		for (unsigned k = 0; k < o->nallow; k++)
			allowed |= same_file(j->targets[i], o->allow_write[k]);
		writable &= allowed;
	}
	for (unsigned k = 0; k < o->nallow; k++) {
		int named = 0;
		for (unsigned i = 0; i < j->ntargets; i++)
			named |= same_file(j->targets[i], o->allow_write[k]);
		if (!named)
			nm_usage_fail("--allow-write: %s is not one of the targets", o->allow_write[k]);
	}
	return writable;
}

/* --- running ----------------------------------------------------------------------------- */

static int show_progress(const struct disk_progress *p, void *arg)
{
	char rate[32], eta[32];
	const struct io_progress *io = p->io;
	double secs = (double)io->elapsed_ns / 1e9;
	units_rate_si(secs > 0 ? (double)io->bytes / secs : 0, rate, sizeof rate);
	uint64_t left = p->planned_ns > p->elapsed_ns ? p->planned_ns - p->elapsed_ns : 0;
	if (!p->planned_ns && io->expected_ns > io->elapsed_ns)
		left = io->expected_ns - io->elapsed_ns;
	char on[32] = "";
	if (p->narms)
		snprintf(on, sizeof on, " on target %u/%u", p->arm + 1, p->narms);
	if (p->pass == 0)
		progress_update("%s%s: preparing, %s, ETA %s", p->test->name, on, rate,
				units_duration(left, eta, sizeof eta));
	else
		progress_update("%s%s: pass %u/%u, %s%s, ETA %s", p->test->name, on, p->pass, p->passes, rate,
				io->ramping ? " (ramp)" : "", units_duration(left, eta, sizeof eta));
	(void)arg;
	return 0;
}

struct disk_out {
	const struct disk_opts *o;
	const struct disk_report *rep;
	const char *const *notes;
};

static int write_report(FILE *out, void *ctx)
{
	const struct disk_opts *o = ((const struct disk_out *)ctx)->o;
	const struct disk_report *rep = ((const struct disk_out *)ctx)->rep;
	const char *const *notes = ((const struct disk_out *)ctx)->notes;
	if (o->json) {
		json_t *j = disk_json(rep);
		json_t *n = json_array();
		for (unsigned i = 0; notes[i]; i++)
			json_array_append_new(n, json_string(notes[i]));
		json_object_set_new(j, "notes", n);
		json_dumpf(j, out, JSON_INDENT(2));
		fputc('\n', out);
		json_decref(j);
	} else {
		for (unsigned i = 0; notes[i]; i++)
			fprintf(out, "note: %s\n", notes[i]);
		if (rep->profile)
			disk_print_table(out, rep);
		else
			disk_print_full(out, rep);
	}
	return 0;
}

/* The directory the run measured (for the inventory's file system facts), or NULL. */
static const char *measured_dir(const struct io_job *b)
{
	for (unsigned i = 0; i < b->ntargets; i++) {
		struct stat st;
		if (stat(b->targets[i], &st) == 0 && S_ISDIR(st.st_mode))
			return b->targets[i];
	}
	return NULL;
}

/* Saves rec (with the run options and the measured directory's inventory) and frees it. */
static int save_run_record(const struct disk_opts *o, struct record *rec)
{
	run_opts_apply(&o->run, rec, measured_dir(&o->plan.base));
	int rc = run_save(&o->run, rec);
	record_free(rec);
	return rc;
}

struct single_run {
	const struct disk_opts *o;
	const struct disk_report *rep;
	const char *const *notes;
	int argc;
	char **argv;
};

static int single_report(void *ctx)
{
	const struct single_run *r = ctx;
	struct disk_out d = { r->o, r->rep, r->notes };
	return cli_output(r->o->output, write_report, &d);
}

static int single_save(void *ctx)
{
	const struct single_run *r = ctx;
	struct record *rec = record_new("disk", r->argc, r->argv);
	disk_to_record(&r->o->plan, rec);
	return save_run_record(r->o, rec);
}

static int exit_code(int io_status)
{
	return io_status == IO_INTERRUPTED ? NM_EXIT_INTERRUPTED
	       : io_status == IO_BAD_JOB   ? NM_EXIT_USAGE
					   : NM_EXIT_FAILED;
}

/* How a run ends, with one session or several: on IO_OK the report and the saved run; on a
 * signal (the caller has removed the test files) the `done` tests that finished are saved;
 * otherwise the error.  Returns the exit code. */
struct run_end {
	int (*report)(void *ctx); /* 0, or -1 */
	int (*save)(void *ctx);   /* 0, or -1 */
	void *ctx;
};

static int end_run(const struct disk_opts *o, int st, const char *err, unsigned done, const struct run_end *e)
{
	if (st == IO_OK) {
		int rc = NM_EXIT_OK;
		if (e->report(e->ctx) < 0)
			rc = NM_EXIT_FAILED;
		if (e->save(e->ctx) < 0)
			rc = NM_EXIT_FAILED;
		return rc;
	}
	if (st == IO_INTERRUPTED) {
		/* the finished tests are shown as they are saved, so Ctrl-C does not hide them */
		if (done)
			e->report(e->ctx);
		if (done && !o->run.no_save) {
			nm_error("interrupted: saving the %u test%s that finished", done, done == 1 ? "" : "s");
			e->save(e->ctx);
		} else {
			nm_error("interrupted%s", done ? "" : " before a test finished: nothing to save");
		}
		return NM_EXIT_INTERRUPTED;
	}
	nm_error("%s", err);
	return exit_code(st);
}

/* --- several targets in turns ------------------------------------------------------------ */

static unsigned reference_index(const struct disk_opts *o)
{
	const struct io_job *j = &o->plan.base;
	if (!o->reference)
		return 0;
	for (unsigned i = 0; i < j->ntargets; i++)
		if (strcmp(j->targets[i], o->reference) == 0)
			return i;
	for (unsigned i = 0; i < j->ntargets; i++)
		if (same_file(j->targets[i], o->reference))
			return i;
	nm_usage_fail("--reference: %s is not one of the targets", o->reference);
}

struct turns_run {
	const struct disk_opts *o;
	const struct disk_turns *t;
	int argc;
	char **argv;
};

static int write_turns(FILE *out, void *ctx)
{
	const struct turns_run *d = ctx;
	for (unsigned a = 0; a < d->t->narms; a++) /* interrupted, the sessions are closed already */
		for (const char *const *n = d->t->arms[a].session ? io_session_notes(d->t->arms[a].session) : NULL; n && *n;
		     n++)
			if (!d->o->json)
				fprintf(out, "note: %s\n", *n); /* a note names its target */
	if (d->o->json) {
		json_t *j = disk_turns_json(d->t);
		json_dumpf(j, out, JSON_INDENT(2));
		fputc('\n', out);
		json_decref(j);
	} else {
		disk_turns_print(out, d->t);
	}
	return 0;
}

static int turns_report(void *ctx)
{
	return cli_output(((struct turns_run *)ctx)->o->output, write_turns, ctx);
}

static int turns_save(void *ctx)
{
	struct turns_run *d = ctx;
	struct record *rec = record_new("disk", d->argc, d->argv);
	disk_turns_to_record(d->t, rec);
	return save_run_record(d->o, rec);
}

static void close_sessions(struct disk_turns *t)
{
	for (unsigned a = 0; a < t->narms; a++) {
		io_session_close(t->arms[a].session);
		t->arms[a].session = NULL;
	}
}

/* Every arm its own session (its files laid out alike), the tests in turns, the pairs; t is
 * initialized and freed here. */
static int run_arms(struct disk_opts *o, struct disk_turns *t, int argc, char **argv)
{
	char err[512];
	int st = IO_OK;
	for (unsigned a = 0; a < t->narms && st == IO_OK; a++) {
		struct io_job layout = disk_plan_layout(&t->plans[a]);
		if (!(t->arms[a].session = io_session_open(&layout, &st, err, sizeof err)))
			break;
		if (progress_enabled())
			for (const char *const *n = io_session_notes(t->arms[a].session); *n; n++)
				nm_warn("%s", *n);
	}
	if (st == IO_OK) {
		struct disk_loop loop = disk_plan_loop(&t->plans[0]);
		loop.planned_ns *= t->narms;
		loop.on_progress = show_progress;
		st = disk_run_turns(t->arms, t->narms, t->ntests, &loop, err, sizeof err);
		progress_clear();
	}
	disk_turns_pair(t);
	if (st == IO_INTERRUPTED)
		close_sessions(t); /* the test files go first, as a single target's run does */
	struct turns_run tr = { o, t, argc, argv };
	int rc = end_run(o, st, err, t->narms ? disk_tests_complete(t->arms[0].tests, t->ntests) : 0,
			 &(struct run_end){ turns_report, turns_save, &tr });
	close_sessions(t);
	disk_turns_free(t);
	run_opts_free(&o->run);
	return rc;
}

/* One pass each cannot be paired: the fewest that give an interval, unless --loops says. */
static void paired_loops(struct disk_plan *plan)
{
	if (!plan->have_loops) {
		plan->base.loops = PAIRED_MIN_PAIRS;
		plan->have_loops = 1;
	}
}

static int run_turns(struct disk_opts *o, int argc, char **argv)
{
	struct disk_turns t;
	char err[512];
	paired_loops(&o->plan);
	if (disk_turns_init(&t, &o->plan, reference_index(o), err, sizeof err) < 0)
		nm_usage_fail("%s", err);
	return run_arms(o, &t, argc, argv);
}

/* --- sweeps: -L/-P settings in turns ------------------------------------------------------ */

static void check_request(struct disk_opts *o);

/* A sweep's arms, filled setting by setting: a target's settings side by side. */
struct sweep_arms {
	struct disk_opts *o;
	size_t ncomb;
	unsigned ntargets;
	struct disk_plan *plans;
	json_t **settings;
};

static void sweep_setting(void *ctx, size_t c, int argc, char **argv, json_t *set)
{
	struct sweep_arms *sa = ctx;
	parse_args(argc, argv);
	check_request(sa->o);
	paired_loops(&sa->o->plan);
	for (unsigned k = 0; k < sa->ntargets; k++) {
		unsigned a = k * (unsigned)sa->ncomb + (unsigned)c;
		sa->plans[a] = sa->o->plan;
		sa->plans[a].base.targets[0] = sa->o->plan.base.targets[k];
		sa->plans[a].base.ntargets = 1;
		sa->settings[a] = json_incref(set);
	}
}

/* Every combination of the settings on every target: the command line parsed again per
 * combination with --NAME=VALUE added, so a setting is checked as the option itself is. */
static int run_sweep(struct disk_opts *o, int argc, char **argv)
{
	size_t ncomb = params_combinations(&sweep.params);
	unsigned ntargets = o->plan.base.ntargets;
	const char *reference = o->reference;
	if (o->together)
		nm_usage_fail("-L/-P measure the settings in turns: not with --together");
	if (!ntargets)
		nm_usage_fail("missing target: name a directory, file or block device (see --help)");
	if (ncomb * ntargets > IO_MAX_TARGETS)
		nm_usage_fail("%zu settings on %u targets: at most %d in one run", ncomb, ntargets, IO_MAX_TARGETS);
	unsigned narms = (unsigned)ncomb * ntargets;
	struct sweep_arms sa = { o, ncomb, ntargets, calloc(narms, sizeof *sa.plans), calloc(narms, sizeof *sa.settings) };
	if (!sa.plans || !sa.settings)
		nm_usage_fail("out of memory");
	cli_sweep_settings(&sweep, argc, argv, sweep_setting, &sa);
	unsigned ref = 0;
	if (reference && strchr(reference, '='))
		ref = cli_sweep_reference(reference, sa.settings, narms, " or a target");
	else if (reference)
		ref = reference_index(o) * (unsigned)ncomb;
	struct disk_turns t;
	char err[512];
	if (disk_turns_init_plans(&t, sa.plans, narms, ref, err, sizeof err) < 0)
		nm_usage_fail("%s", err);
	for (unsigned a = 0; a < narms; a++)
		t.settings[a] = sa.settings[a];
	free(sa.settings);
	free(sa.plans);
	int rc = run_arms(o, &t, argc, argv);
	cli_sweep_free(&sweep); /* the plans pointed into its words */
	return rc;
}

/* The checks of the request every command line gets (a sweep's, per setting). */
static void check_request(struct disk_opts *o)
{
	struct disk_plan *plan = &o->plan;
	if (o->custom && plan->profile)
		nm_usage_fail("--rw and --profile: choose a profile or a custom job");
	if (!o->custom && !plan->profile)
		plan->profile = disk_profile_default();
	if (plan->profile && (o->have_bs || o->have_jobs))
		nm_usage_fail("--bs/--jobs belong to custom jobs (--rw); a profile sets its own");
	plan->writable = check_targets(o);
}

int cmd_disk(int argc, char **argv)
{
	cleanup_stop_at_safe_points(); /* its loops poll cleanup_interrupted() */
	struct disk_opts *o = &opts;
	struct disk_plan *plan = &o->plan;
	char err[512];
	parse_args(argc, argv);
	if (sweep.params.naxes)
		return run_sweep(o, argc, argv);
	check_request(o);
	if (o->reference && (o->together || plan->base.ntargets < 2))
		nm_usage_fail("--reference compares targets measured in turns: name two or more, without --together");
	char shared[1024]; /* in turns, one disk under two targets is a fair comparison (A/A) */
	if ((o->together || plan->base.ntargets < 2) && inventory_shared_disks(NULL, plan->base.targets, plan->base.ntargets, shared, sizeof shared) > 0)
		nm_warn("%s: one disk measured from several targets, not independent disks", shared);
	if (plan->base.ntargets > 1 && !o->together)
		return run_turns(o, argc, argv);
	if (disk_plan_build(plan, err, sizeof err) < 0)
		nm_usage_fail("%s", err);

	struct io_job layout = disk_plan_layout(plan);
	int st;
	struct io_session *s = io_session_open(&layout, &st, err, sizeof err);
	if (!s) {
		if (st != IO_INTERRUPTED)
			nm_error("%s", err);
		return exit_code(st);
	}
	struct disk_loop loop = disk_plan_loop(plan);
	loop.on_progress = show_progress;
	st = disk_run_tests(s, plan->tests, plan->ntests, disk_plan_ntargets(plan), &loop, err, sizeof err);
	progress_clear();

	struct disk_report rep;
	disk_report_init(&rep, plan);
	static const char *const no_notes[] = { NULL };
	if (st == IO_INTERRUPTED) { /* a second signal must find no test files left to remove */
		io_session_close(s);
		s = NULL;
		rep.finished_only = 1;
	}
	struct single_run sr = { o, &rep, s ? io_session_notes(s) : no_notes, argc, argv };
	int rc = end_run(o, st, err, disk_tests_complete(plan->tests, plan->ntests),
			 &(struct run_end){ single_report, single_save, &sr });
	disk_plan_free(plan);
	io_session_close(s);
	run_opts_free(&o->run);
	return rc;
}
