#include "disk/passes.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"

#include <stdlib.h>
#include <time.h>

struct disk_loop disk_plan_loop(const struct disk_plan *p)
{
	return (struct disk_loop){
		.passes = p->passes,
		.preparing = p->preparing,
		.interval_ns = p->interval_ns,
		.planned_ns = disk_plan_expected_ns(p),
	};
}

/* Forwards the engine's progress with the loop's position around it. */
struct progress_relay {
	const struct disk_loop *loop;
	struct disk_progress dp;
	uint64_t start_ns;
};

static int relay_progress(const struct io_progress *io, void *arg)
{
	struct progress_relay *r = arg;
	r->dp.io = io;
	r->dp.elapsed_ns = clock_now_ns() - r->start_ns;
	return r->loop->on_progress(&r->dp, r->loop->progress_arg);
}

/* Sleep ns in short steps, so that Ctrl-C ends the pause at once. -1 when interrupted. */
static int pause_interruptibly(uint64_t ns)
{
	uint64_t end = clock_now_ns() + ns;
	while (!cleanup_interrupted()) {
		uint64_t now = clock_now_ns();
		if (now >= end)
			return 0;
		uint64_t step = end - now < 100000000ull ? end - now : 100000000ull;
		struct timespec ts = { (time_t)(step / 1000000000ull), (long)(step % 1000000000ull) };
		nanosleep(&ts, NULL);
	}
	return -1;
}

static void free_results(struct io_job_result *res, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		io_result_free(&res[k]);
}

/* Pass p of t on s (0: the preparing pass, its results discarded): IO_OK with the pass added,
 * or the failure (a measured pass that failed keeps what ran). */
static int run_pass(struct io_session *s, struct disk_test *t, unsigned p, unsigned ntargets,
		    struct io_job_result *res, struct progress_relay *relay, char *err, size_t errlen)
{
	const struct disk_loop *l = relay->loop;
	io_progress_fn progress = l->on_progress ? relay_progress : NULL;
	relay->dp.pass = p;
	int st = io_session_run(s, &t->job, res, progress, relay, err, errlen);
	if (st == IO_OK && p > 0)
		disk_test_add_pass(t, ntargets, res);
	else if (st != IO_OK && p > 0 && st != IO_BAD_JOB)
		disk_test_add_pass(t, ntargets, res); /* keep what ran */
	else
		free_results(res, t->job.numjobs);
	return st;
}

/* After a measured pass: does t stop here (its last pass, or the caller has enough)? */
static int test_done(struct disk_test *t, unsigned p, struct progress_relay *relay)
{
	const struct disk_loop *l = relay->loop;
	return p == l->passes || (l->on_pass && l->on_pass(t, relay->dp.test_index, l->pass_arg) == DISK_PASS_ENOUGH);
}

static int pause_between(const struct disk_loop *l, char *err, size_t errlen)
{
	if (l->interval_ns && pause_interruptibly(l->interval_ns) < 0)
		return nm_errf(err, errlen, "interrupted"), IO_INTERRUPTED;
	return IO_OK;
}

/* One test: the preparing pass, then the measured ones. last: this is the run's last test. */
static int run_test(struct io_session *s, struct disk_test *t, int last, unsigned ntargets,
		    struct progress_relay *relay, char *err, size_t errlen)
{
	const struct disk_loop *l = relay->loop;
	struct io_job_result *res = calloc(t->job.numjobs, sizeof *res);
	if (!res || disk_test_alloc(t, l->passes, ntargets) < 0) {
		free(res);
		return nm_errf(err, errlen, "out of memory"), IO_FAILED;
	}
	int st = IO_OK;
	for (unsigned p = l->preparing ? 0 : 1; p <= l->passes; p++) {
		if ((st = run_pass(s, t, p, ntargets, res, relay, err, errlen)) != IO_OK)
			break;
		if (p == 0)
			continue;
		int done = test_done(t, p, relay);
		if (done)
			t->complete = 1;
		if (!(last && done) && (st = pause_between(l, err, errlen)) != IO_OK)
			break;
		if (done)
			break;
	}
	free(res);
	return st;
}
int disk_run_tests(struct io_session *s, struct disk_test *tests, unsigned ntests, unsigned ntargets,
		   const struct disk_loop *l, char *err, size_t errlen)
{
	struct progress_relay relay = {
		.loop = l,
		.dp = { .ntests = ntests, .passes = l->passes, .planned_ns = l->planned_ns },
		.start_ns = clock_now_ns(),
	};
	for (unsigned i = 0; i < ntests; i++) {
		relay.dp.test = &tests[i];
		relay.dp.test_index = i;
		int st = run_test(s, &tests[i], i + 1 == ntests, ntargets, &relay, err, errlen);
		if (st != IO_OK)
			return st;
	}
	return IO_OK;
}

unsigned disk_turn_arm(unsigned round, unsigned k, unsigned narms)
{
	return (round + k) % narms;
}

/* One test of every arm in turns. last: the run's last test. */
static int run_test_in_turns(struct disk_arm *arms, unsigned narms, unsigned i, int last,
			     struct progress_relay *relay, char *err, size_t errlen)
{
	const struct disk_loop *l = relay->loop;
	struct io_job_result *res[IO_MAX_TARGETS] = { 0 };
	int st = IO_OK;
	for (unsigned a = 0; a < narms && st == IO_OK; a++) {
		struct disk_test *t = &arms[a].tests[i];
		res[a] = calloc(t->job.numjobs, sizeof *res[a]);
		if (!res[a] || disk_test_alloc(t, l->passes, arms[a].ntargets) < 0)
			st = (nm_errf(err, errlen, "out of memory"), IO_FAILED);
	}
	/* round 0 prepares (when the loop has a preparing pass); rounds 1..passes measure */
	for (unsigned p = l->preparing ? 0 : 1; st == IO_OK && p <= l->passes; p++) {
		unsigned enough = 0;
		for (unsigned k = 0; k < narms && st == IO_OK; k++) {
			unsigned a = disk_turn_arm(p ? p - 1 : 0, k, narms);
			struct disk_test *t = &arms[a].tests[i];
			relay->dp.arm = a;
			if ((st = run_pass(arms[a].session, t, p, arms[a].ntargets, res[a], relay, err, errlen)) != IO_OK)
				break;
			if (p == 0)
				continue; /* a preparing pass: no pause, as before a test's first pass */
			enough += test_done(t, p, relay);
			int run_ends = last && k + 1 == narms && (p == l->passes || enough == narms);
			if (!run_ends)
				st = pause_between(l, err, errlen);
		}
		if (st == IO_OK && p > 0 && (p == l->passes || enough == narms)) {
			for (unsigned a = 0; a < narms; a++)
				arms[a].tests[i].complete = 1;
			break;
		}
	}
	for (unsigned a = 0; a < narms; a++)
		free(res[a]);
	return st;
}

int disk_run_turns(struct disk_arm *arms, unsigned narms, unsigned ntests, const struct disk_loop *l, char *err,
		   size_t errlen)
{
	if (narms == 0 || narms > IO_MAX_TARGETS)
		return nm_errf(err, errlen, "%u arms: 1 to %d can take turns", narms, IO_MAX_TARGETS), IO_BAD_JOB;
	struct progress_relay relay = {
		.loop = l,
		.dp = { .ntests = ntests, .passes = l->passes, .planned_ns = l->planned_ns, .narms = narms },
		.start_ns = clock_now_ns(),
	};
	for (unsigned i = 0; i < ntests; i++) {
		relay.dp.test = &arms[0].tests[i];
		relay.dp.test_index = i;
		int st = run_test_in_turns(arms, narms, i, i + 1 == ntests, &relay, err, errlen);
		if (st != IO_OK)
			return st;
	}
	return IO_OK;
}

unsigned disk_tests_complete(const struct disk_test *tests, unsigned ntests)
{
	unsigned n = 0;
	for (unsigned i = 0; i < ntests; i++)
		n += tests[i].complete != 0;
	return n;
}
