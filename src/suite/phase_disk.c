/* The disk phase: the CrystalDiskMark set suited to the device under the directory (the NVMe
 * set on NVMe, the default set otherwise), sized to the mode and to the free space.
 *
 * It builds the plan `nodemark disk DIR --profile P --size S --runtime R --loops L --interval I`
 * would build and runs it through the same layer (disk/), in this process: the tests, passes
 * and figures are exactly disk's. */
#include "suite/phase.h"
#include "disk/passes.h"
#include "disk/plan.h"
#include "disk/profiles.h"
#include "disk/record.h"
#include "disk/turns.h"
#include "inventory/inventory.h"
#include "stats/verdict.h"
#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct disk_sizes {
	uint64_t size;
	unsigned runtime_ms, interval_ms, loops;
};

static void sizes_for(enum suite_mode m, struct disk_sizes *p)
{
	/* loops: the most passes; the sampler stops a test sooner once its interval is narrow */
	if (m == SUITE_QUICK)
		*p = (struct disk_sizes){ 64ull << 20, 200, 0, 10 };
	else if (m == SUITE_FULL) /* CrystalDiskMark's sizes: 1 GiB, passes of 5 s, 5 s apart */
		*p = (struct disk_sizes){ 1ull << 30, 5000, 5000, 10 };
	else
		*p = (struct disk_sizes){ 256ull << 20, 1500, 500, 12 };
}

/* The plan of `nodemark disk DIR --profile NAME` with the mode's sizes, not built yet: a
 * directory target is writable, so every test is read and then written. */
static void init_plan(struct disk_plan *dp, const char *dir, const char *profile, const struct disk_sizes *z)
{
	disk_plan_init(dp);
	dp->profile = disk_profile_find(profile);
	dp->base.targets[0] = dir;
	dp->base.ntargets = 1;
	dp->base.size = z->size;
	dp->base.runtime_ns = (uint64_t)z->runtime_ms * 1000000ull;
	dp->base.loops = z->loops;
	dp->interval_ns = (uint64_t)z->interval_ms * 1000000ull;
	dp->have_size = dp->have_runtime = dp->have_loops = dp->have_interval = 1;
	dp->writable = 1;
}

struct progress_arg {
	struct suite_ctx *c;
	const char *what;
};

static int show_progress(const struct disk_progress *p, void *arg)
{
	struct progress_arg *a = arg;
	double fraction = p->planned_ns ? (double)p->elapsed_ns / (double)p->planned_ns : 0;
	if (p->pass == 0)
		suite_progress(a->c, fraction, "%s: %s preparing", a->what, p->test->name);
	else
		suite_progress(a->c, fraction, "%s: %s pass %u/%u", a->what, p->test->name, p->pass, p->passes);
	return 0;
}

/* Adaptive passes: each test runs until its bandwidth's interval is narrow enough (suite/phase.h),
 * at least VERDICT_MIN_SAMPLES passes, at most the plan's loops, within a budget per test. */
struct pass_arg {
	struct suite_ctx *c;
	struct suite_sampler *smp;      /* one per test */
	unsigned loops;
};

static double budget_seconds(const struct suite_ctx *c)
{
	return c->opts->mode == SUITE_QUICK ? 3 : c->opts->mode == SUITE_FULL ? 120 : 25;
}

static int enough_passes(const struct disk_test *t, unsigned test_index, void *arg)
{
	struct pass_arg *a = arg;
	struct suite_sampler *smp = &a->smp[test_index];
	if (t->npasses == 1) { /* the clock starts with the test's first measured pass */
		suite_sampler_start(a->c, smp, t->name, budget_seconds(a->c));
		smp->min = a->c->round_samples ? a->c->round_samples : VERDICT_MIN_SAMPLES;
		smp->max = a->c->round_samples ? a->c->round_samples : a->loops;
	}
	double bw[64];
	struct metric m = { .samples = bw, .nsamples = 0 };
	for (unsigned p = 0; p < t->npasses && p < 64; p++)
		bw[m.nsamples++] = io_result_bytes_per_sec(&t->total[p]);
	return suite_sampler_more(smp, &m) ? DISK_PASS_MORE : DISK_PASS_ENOUGH;
}

/* The session, the passes and the benches of a built plan. */
static int run_plan(struct suite_ctx *c, struct disk_plan *dp, const char *what, char *err, size_t errlen)
{
	struct io_job layout = disk_plan_layout(dp);
	int st;
	struct io_session *s = io_session_open(&layout, &st, err, errlen);
	if (!s)
		return st == IO_INTERRUPTED ? 130 : 1;
	/* What the session decided for the target (e.g. buffered I/O where O_DIRECT is refused)
	 * belongs with the figures, as `nodemark disk` shows it. */
	for (const char *const *n = io_session_notes(s); *n; n++)
		suite_note(c, "%s", *n);
	struct progress_arg pa = { c, what };
	struct disk_loop loop = disk_plan_loop(dp);
	loop.on_progress = show_progress;
	loop.progress_arg = &pa;
	struct pass_arg passes = { c, calloc(dp->ntests, sizeof *passes.smp), loop.passes };
	if (!passes.smp) {
		io_session_close(s);
		return snprintf(err, errlen, "out of memory"), 1;
	}
	loop.on_pass = enough_passes;
	loop.pass_arg = &passes;
	st = disk_run_tests(s, dp->tests, dp->ntests, disk_plan_ntargets(dp), &loop, err, errlen);
	io_session_close(s);
	if (st != IO_OK && st != IO_INTERRUPTED) {
		free(passes.smp);
		return 1;
	}
	/* On a signal the tests that finished all their passes are kept, as `nodemark disk` keeps
	 * them: the run saves what finished. */
	for (unsigned i = 0; i < dp->ntests; i++) {
		if (st == IO_INTERRUPTED && !dp->tests[i].complete)
			continue;
		struct bench *b = suite_bench(c, dp->tests[i].name);
		disk_test_to_bench(&dp->tests[i], disk_plan_targets(dp), disk_plan_ntargets(dp), b);
		if (!passes.smp[i].stopped) /* the plan's last pass came first */
			passes.smp[i].stopped = "max";
		suite_sampler_save(c, b, &passes.smp[i], bench_find_metric(b, "bytes_per_sec"));
	}
	free(passes.smp);
	return st == IO_INTERRUPTED ? 130 : 0;
}

/* run --compare-with: the plan on both directories in turns, a pass of each per round, the
 * order rotated (disk A B's machinery: disk/turns.h), then each test of DIR2 paired with
 * DIR's.  No adaptive passes: the pairs need the same rounds on both. */
static int run_turns(struct suite_ctx *c, struct disk_plan *req, const char *what, char *err, size_t errlen)
{
	struct disk_turns t;
	req->base.targets[1] = c->workdir2;
	req->base.ntargets = 2;
	if (c->opts->mode != SUITE_FULL)
		req->base.loops = PAIRED_MIN_PAIRS;
	if (disk_turns_init(&t, req, 0, err, errlen) < 0)
		return 1;
	int st = IO_OK;
	for (unsigned a = 0; a < t.narms && st == IO_OK; a++) {
		struct io_job layout = disk_plan_layout(&t.plans[a]);
		if (!(t.arms[a].session = io_session_open(&layout, &st, err, errlen)))
			break;
		for (const char *const *n = io_session_notes(t.arms[a].session); *n; n++)
			suite_note(c, "%s", *n);
	}
	if (st == IO_OK) {
		struct progress_arg pa = { c, what };
		struct disk_loop loop = disk_plan_loop(&t.plans[0]);
		loop.planned_ns *= t.narms;
		loop.on_progress = show_progress;
		loop.progress_arg = &pa;
		c->phase_expect_s = (double)loop.planned_ns / 1e9 + 4;
		st = disk_run_turns(t.arms, t.narms, t.ntests, &loop, err, errlen);
	}
	for (unsigned a = 0; a < t.narms; a++)
		io_session_close(t.arms[a].session);
	if (st == IO_OK || st == IO_INTERRUPTED) { /* interrupted: the tests that finished */
		size_t from = c->rec->nbenches;
		disk_turns_pair(&t);
		disk_turns_to_record(&t, c->rec);
		suite_turns_benches(c, from);
	}
	disk_turns_free(&t);
	return st == IO_OK ? 0 : st == IO_INTERRUPTED ? 130 : 1;
}

static int disk_run(struct suite_ctx *c, char *err, size_t errlen)
{
	struct disk_sizes z;
	struct path_device pd;
	char a[32], b[32];

	sizes_for(c->opts->mode, &z);
	int nvme = inventory_path_device(NULL, c->opts->dir, &pd) == 0 && strcmp(pd.transport, "nvme") == 0;
	const char *profile = nvme ? "cdm-nvme" : "cdm";
	uint64_t room = suite_free_bytes(c->workdir);
	if (c->workdir2 && suite_free_bytes(c->workdir2) < room)
		room = suite_free_bytes(c->workdir2); /* the same file size on both */
	if (z.size > room / 2) {
		uint64_t want = z.size;
		while (z.size > room / 2 && z.size > (8u << 20))
			z.size /= 2;
		if (z.size > room / 2)
			return snprintf(err, errlen, "%s: too little free space for a test file (%s free)", c->opts->dir,
					units_bytes_iec(room, a, sizeof a)), 1;
		suite_note(c, "the test file shrank from %s to %s to fit the free space",
			   units_bytes_iec(want, a, sizeof a), units_bytes_iec(z.size, b, sizeof b));
	}
	if (pd.memory_backed)
		suite_note(c, "%s is memory-backed (%s): the figures are memory's, not a disk's", c->opts->dir,
			   pd.fstype);
	json_object_set_new(json_object_get(c->rec->extra, "run"), "disk",
			    json_pack("{s:s, s:s, s:I, s:f, s:i, s:f}", "profile", profile, "transport", pd.transport,
				      "size", (json_int_t)z.size, "runtime_s", z.runtime_ms / 1e3, "loops", (int)z.loops,
				      "interval_s", z.interval_ms / 1e3));

	char what[64];
	snprintf(what, sizeof what, "CrystalDiskMark %s set, %s", nvme ? "NVMe" : "default",
		 units_bytes_iec(z.size, a, sizeof a));
	struct disk_plan dp;
	init_plan(&dp, c->workdir, profile, &z);
	if (c->workdir2)
		return run_turns(c, &dp, what, err, errlen);
	if (disk_plan_build(&dp, err, errlen) < 0)
		return 1;
	unsigned kept = 0; /* a re-measure runs only its tests */
	for (unsigned i = 0; i < dp.ntests; i++) {
		if (suite_wants_bench(c, dp.tests[i].name))
			dp.tests[kept++] = dp.tests[i];
		else
			disk_test_free(&dp.tests[i], disk_plan_ntargets(&dp));
	}
	dp.ntests = kept;
	c->phase_expect_s = (double)disk_plan_expected_ns(&dp) / 1e9 + 2; /* + laying out the file */
	int rc = run_plan(c, &dp, what, err, errlen);
	disk_plan_free(&dp);
	return rc;
}

const struct suite_phase suite_phase_disk = {
	"disk", "the CrystalDiskMark set", { 10, 80, 420 }, disk_run,
};
