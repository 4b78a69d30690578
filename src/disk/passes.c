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
	io_progress_fn progress = l->on_progress ? relay_progress : NULL;
	int st = IO_OK;
	for (unsigned p = l->preparing ? 0 : 1; p <= l->passes; p++) {
		relay->dp.pass = p;
		st = io_session_run(s, &t->job, res, progress, relay, err, errlen);
		if (st != IO_OK) {
			if (p > 0 && st != IO_BAD_JOB)
				disk_test_add_pass(t, ntargets, res); /* keep what ran */
			else
				free_results(res, t->job.numjobs);
			break;
		}
		if (p == 0) {
			free_results(res, t->job.numjobs);
			continue;
		}
		disk_test_add_pass(t, ntargets, res);
		int done = p == l->passes ||
			   (l->on_pass && l->on_pass(t, relay->dp.test_index, l->pass_arg) == DISK_PASS_ENOUGH);
		if (done)
			t->complete = 1;
		if (!(last && done) && l->interval_ns && pause_interruptibly(l->interval_ns) < 0) {
			nm_errf(err, errlen, "interrupted");
			st = IO_INTERRUPTED;
			break;
		}
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

unsigned disk_tests_complete(const struct disk_test *tests, unsigned ntests)
{
	unsigned n = 0;
	for (unsigned i = 0; i < ntests; i++)
		n += tests[i].complete != 0;
	return n;
}
