/* Flow control between jobs (io/flow.c) and the latency target's depth search (io/lattarget.c),
 * driven by hand: fio's rules give the counts and the depths asserted here. */
#include "io/engine.h"
#include "io/flow.h"
#include "io/internal.h"
#include "io/ticks.h"
#include "test.h"

/* Two threads of weights 1 and 8 that each try an I/O in turn: the flow lets them through in
 * the ratio 1:8 (fio's flow.fio), whoever tries more often. */
TEST(flow_weights_1_8_give_a_1_to_8_ratio)
{
	struct io_flow *f = io_flow_new();
	CHECK(f != NULL);
	io_flow_weigh(f, 1 + 8);
	uint64_t a = 0, b = 0, held_a = 0;
	for (int i = 0; i < 90000; i++) {
		held_a += io_flow_ahead(f, 1, &a);
		io_flow_ahead(f, 8, &b);
	}
	CHECK(held_a > 0);
	CHECK(b > 0 && a > 0);
	double ratio = (double)b / (double)a;
	CHECK(ratio > 7.9 && ratio < 8.1);
	CHECK_EQ_U64(io_flow_count(f), 1 + a + b); /* counted from 1, as fio's */
	io_flow_leave(f, a);
	io_flow_leave(f, b);
	CHECK_EQ_U64(io_flow_count(f), 1);
	io_flow_free(f);
}

/* Alone in its flow a thread is never held; once another's weight is on (fio adds all of them
 * when it reads the job file), it waits for that one. */
TEST(flow_alone_never_held_and_waits_for_a_weight_still_to_start)
{
	struct io_flow *f = io_flow_new();
	io_flow_weigh(f, 2);
	uint64_t a = 0;
	for (int i = 0; i < 1000; i++)
		CHECK_EQ_INT(io_flow_ahead(f, 2, &a), 0);
	CHECK_EQ_U64(a, 1000);
	io_flow_leave(f, a);
	a = 0;
	io_flow_weigh(f, 2); /* a second thread of weight 2, not started */
	int held = 0;
	for (int i = 0; i < 10; i++)
		held += io_flow_ahead(f, 2, &a);
	CHECK_EQ_U64(a, 2); /* 2 of the flow's 3: over half, its share */
	CHECK_EQ_INT(held, 8);
	io_flow_weigh(f, -2); /* it will not run: the first goes on */
	CHECK_EQ_INT(io_flow_ahead(f, 2, &a), 0);
	CHECK_EQ_INT(io_flow_weight(f), 2);
	io_flow_free(f);
}

/* A device whose latency is depth x lat_us: each window has 32 completions of I/Os queued at
 * the window's depth, then the verdict. Returns the windows it took, 0 when the
 * search did not end in max_windows, -1 when the job failed. */
static int search(struct io_lat *l, unsigned iodepth, double pct, uint64_t target_us, uint64_t lat_us,
		  int max_windows)
{
	struct io_job job;
	io_job_init(&job);
	job.iodepth = iodepth;
	job.pace.lat_target_ns = target_us * 1000;
	job.pace.lat_window_ns = 1000000;
	job.pace.lat_percentile = pct;
	uint64_t now = 1;
	io_lat_init(l, &job, now);
	for (int w = 1; w <= max_windows; w++) {
		unsigned depth = l->qd; /* what completes was queued at the window's depth */
		for (int i = 0; i < 32; i++)
			if (io_lat_completed(l, depth * lat_us * 1000) < 0)
				return -1;
		now += ticks_from_ns(job.pace.lat_window_ns) + 1;
		io_lat_check(l, now);
		if (l->done)
			return w;
		if (l->quiesce)
			io_lat_quiesced(l, now);
	}
	return 0;
}

/* Every depth meets the target: 1, 2, 4, 8, then 8 again (found), one more window, done. */
TEST(lat_target_met_everywhere_ends_at_iodepth)
{
	ticks_init();
	struct io_lat l;
	CHECK_EQ_INT(search(&l, 8, 99.0, 1000000, 1, 20), 5);
	CHECK_EQ_INT(l.qd, 8);
	CHECK_EQ_INT(io_lat_unused(&l, 8), 0);
}

/* Latency 100 us per queued I/O, target 250 us: 1 and 2 meet it, 4 does not, 3 does not, 2
 * again, found at 2 (final window), done after 6 windows, as fio's steps go. */
TEST(lat_target_bisects_to_the_deepest_depth_under_it)
{
	ticks_init();
	struct io_lat l;
	CHECK_EQ_INT(search(&l, 16, 99.0, 250, 100, 40), 6);
	CHECK_EQ_INT(l.qd, 2);
	CHECK_EQ_INT(io_lat_unused(&l, 16), 14);
}

/* Never met, below percentile 100: depth 1 for good, and the job goes on. */
TEST(lat_target_never_met_stays_at_depth_1)
{
	ticks_init();
	struct io_lat l;
	CHECK_EQ_INT(search(&l, 32, 90.0, 10, 100, 12), 0);
	CHECK_EQ_INT(l.qd, 1);
	CHECK(l.on);
}

/* Percentile 100: one I/O over the target lowers the depth at once, and the next, still in
 * flight from depth 2, fails the job at depth 1 (fio's "max latency exceeded"). */
TEST(lat_target_percentile_100_fails_at_depth_1)
{
	ticks_init();
	struct io_lat l;
	CHECK_EQ_INT(search(&l, 8, 100.0, 150, 100, 12), -1);
	CHECK_EQ_INT(l.qd, 1);
	struct io_job job;
	io_job_init(&job);
	CHECK(job.pace.lat_percentile == 100.0);
	io_lat_init(&l, &job, 1);
	CHECK(!l.on); /* no target: the job's own depth, no search */
	CHECK_EQ_INT(l.qd, 1);
}
