/* The engine does what fio does where the figures depend on it: the page cache dropped at
 * every pass, the queue kept iodepth deep, bw/iops sampled every 500 ms. Mechanisms, not
 * timings: counts the engine keeps, checked against what the job implies. */
#include "fio/report_figures.h"
#include "io/engine.h"
#include "test.h"

#include <string.h>

static struct io_job file_job(const struct io_engine_ops *k, enum io_rw rw, unsigned depth)
{
	struct io_job j;
	io_job_init(&j);
	j.targets[0] = test_tmpdir();
	j.ntargets = 1;
	j.size = 1 << 20;
	j.engine = k;
	j.rw = rw;
	j.iodepth = depth;
	return j;
}

TEST(the_ring_holds_iodepth_ios_in_flight)
{
	const enum io_direct modes[] = { DIRECT_AUTO, DIRECT_OFF };
	for (unsigned m = 0; m < 2; m++) {
		char err[256];
		struct io_job j = file_job(test_engine("uring"), IO_RANDREAD, 32);
		j.direct = modes[m];
		j.size = 2 << 20; /* 512 I/Os: all but the last few submissions refill to 32 */
		struct io_job_result r;
		CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
		CHECK_EQ_U64(r.dir[DIR_READ].ios, 512);
		CHECK_EQ_INT((int)r.depth_max, 32);
		/* each completion's slot is refilled before the next wait: 32 in flight at every wait
		 * but those of the final drain */
		CHECK(r.depth_mean >= 31.0);
		/* each I/O is submitted alone (batch 1) at the depth it makes, 1 to 7 only while the
		 * queue first fills (fio's columns 1, 2 and 4: 7 I/Os) */
		CHECK(r.iodepth_level[0] + r.iodepth_level[1] + r.iodepth_level[2] <= 16);
		CHECK(r.iodepth_level[3] + r.iodepth_level[4] + r.iodepth_level[5] >= 496);
		io_result_free(&r);
	}
}

TEST(each_wait_waits_for_iodepth_batch_complete_min)
{
	char err[256];
	struct io_job j = file_job(test_engine("uring"), IO_RANDREAD, 32);
	j.size = 2 << 20; /* 512 I/Os */
	struct io_job_result r;
	/* fio's default (1): a wait per completion, the slot refilled before the next */
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK(r.depth_samples >= 512 - 32);
	io_result_free(&r);
	/* 8 (and so at most 8 taken): one wait per 8 completions, 8 refilled, 32 in flight again */
	j.queue.iodepth_batch_complete_min = 8;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK_EQ_U64(r.dir[DIR_READ].ios, 512);
	CHECK(r.depth_samples <= 512 / 8 + 1);
	CHECK(r.depth_mean >= 31.0);
	CHECK_EQ_INT((int)r.depth_max, 32);
	/* refilled 8 at a time: submitted at depths 25 to 32, so most in fio's 16-31 column */
	CHECK(r.iodepth_level[4] > r.iodepth_level[5]);
	io_result_free(&r);
}

TEST(what_is_in_flight_at_the_deadline_is_counted)
{
	/* fio drains its queue when the runtime is up and counts what completes: every I/O
	 * submitted is counted, none of the last iodepth left out */
	char err[256];
	struct io_job j = file_job(test_engine("uring"), IO_RANDREAD, 8);
	j.time_based = 1;
	j.runtime_ns = 200 * 1000 * 1000ull;
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	uint64_t submitted = 0;
	for (int i = 0; i < 7; i++)
		submitted += r.iodepth_level[i];
	CHECK(submitted > 8);
	CHECK_EQ_U64(r.dir[DIR_READ].ios, submitted);
	io_result_free(&r);
}

TEST(a_sync_engine_has_one_io_in_flight)
{
	char err[256];
	struct io_job j = file_job(test_engine("psync"), IO_RANDREAD, 32);
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK_EQ_INT((int)r.depth_max, 1);
	CHECK(r.depth_mean == 1.0);
	io_result_free(&r);
}

TEST(every_loop_drops_the_page_cache_unless_kept)
{
	char err[256];
	struct io_job j = file_job(test_engine("psync"), IO_READ, 1);
	j.loops = 3;
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK_EQ_U64(r.dir[DIR_READ].ios, 3 * 256);
	/* tmpfs has no cache to drop: then none is counted */
	int on_tmpfs = r.cache_drops == 0;
	if (!on_tmpfs)
		CHECK_EQ_U64(r.cache_drops, 3); /* the open, then loops 2 and 3 */
	io_result_free(&r);
	j.files.keep_cache = 1;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK_EQ_U64(r.cache_drops, 0);
	io_result_free(&r);
}

/* One drop per pass started, whatever the number of I/Os: the count is asserted on every run.
 * That the runs wrap at all (more than a pass of I/Os) is up to the scheduler, which can keep a
 * thread off the CPU for the whole 100 ms on a loaded machine: a run that did not wrap is run
 * again (up to 20 times), rather than failing on what load decides. */
TEST(every_time_based_wrap_drops_the_page_cache)
{
	char err[256];
	struct io_job j = file_job(test_engine("psync"), IO_RANDREAD, 1);
	j.size = 8 * 1024; /* 2 I/Os a pass */
	j.time_based = 1;
	j.runtime_ns = 100 * 1000 * 1000ull;
	struct io_job_result r;
	for (int direct = 0; direct < 2; direct++) {
		j.direct = direct ? DIRECT_AUTO : DIRECT_OFF;
		uint64_t ios = 0;
		for (int tries = 0; tries < 20 && ios <= 2; tries++) {
			CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
			ios = r.dir[DIR_READ].ios;
			CHECK(ios >= 1);
			if (!direct && r.cache_drops) /* one drop at the first I/O, one at each wrap */
				CHECK_EQ_U64(r.cache_drops, 1 + (ios - 1) / 2);
			/* O_DIRECT: fio drops at the open but not at a wrap (loop_cache_invalidate) */
			if (direct && r.direct_used)
				CHECK_EQ_U64(r.cache_drops, 1);
			io_result_free(&r);
		}
		CHECK(ios > 2);
	}
}

TEST(bw_and_iops_are_sampled_every_500ms)
{
	char err[256];
	struct io_job j;
	io_job_init(&j);
	j.engine = test_engine("null");
	j.time_based = 1;
	j.runtime_ns = 1000 * 1000 * 1000ull;
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	/* at 0.5 s and 1.0 s (the one due at the deadline counts); none for writes */
	CHECK_EQ_U64(r.dir[DIR_READ].iops_samples, 2);
	CHECK_EQ_U64(r.dir[DIR_READ].bw_samples, 2);
	CHECK_EQ_U64(r.dir[DIR_WRITE].iops_samples, 0);
	CHECK(r.dir[DIR_READ].iops_min <= r.dir[DIR_READ].iops_max);
	CHECK(r.dir[DIR_READ].bw_max == r.dir[DIR_READ].iops_max * 4096 ||
	      r.dir[DIR_READ].bw_max / 4096 - r.dir[DIR_READ].iops_max <= 1);
	io_result_free(&r);
	j.report.sample_ns = 250 * 1000 * 1000ull;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK_EQ_U64(r.dir[DIR_READ].iops_samples, 4);
	io_result_free(&r);
}

TEST(each_direction_of_a_mix_has_its_own_samples)
{
	char err[256];
	struct io_job j;
	io_job_init(&j);
	j.engine = test_engine("null");
	j.rw = IO_RANDRW;
	j.rwmix_read = 70;
	j.time_based = 1;
	j.runtime_ns = 500 * 1000 * 1000ull;
	j.report.sample_ns = 250 * 1000 * 1000ull;
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK_EQ_U64(r.dir[DIR_READ].iops_samples, 2);
	CHECK_EQ_U64(r.dir[DIR_WRITE].iops_samples, 2);
	CHECK(r.dir[DIR_READ].iops_mean > r.dir[DIR_WRITE].iops_mean);
	io_result_free(&r);
}

TEST(fio_lat_buckets_count_completion_latency)
{
	/* slat 200 us, clat 30 us: fio's "lat (usec)" line says 50=100%, not 250 */
	struct io_job_result r;
	io_result_init(&r);
	for (int i = 0; i < 10; i++) {
		hist_add(&r.dir[DIR_READ].slat, 200000);
		hist_add(&r.dir[DIR_READ].clat, 30000);
		hist_add(&r.dir[DIR_READ].lat, 230000);
	}
	double ns[10], us[10], ms[12];
	fio_latency_levels(&r, ns, us, ms);
	CHECK(us[4] > 99.9); /* the 20-49 us column, named "50" */
	CHECK(us[6] == 0.0); /* 100-249 */
}
