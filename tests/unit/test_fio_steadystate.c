/* fio's steady state detection (fio/steadystate.c, fio/apply_end.c), fed synthetic totals. */
#include "test.h"

#include <stdlib.h>

#include "fio/options.h"
#include "fio/steadystate.h"

#define SEC 1000000000ull

static struct fio_ss_opts opts(int iops, int slope, int pct, double limit, unsigned dur_s)
{
	struct fio_ss_opts o;
	fio_job_ss_defaults(&o);
	o.iops = iops;
	o.slope = slope;
	o.pct = pct;
	o.limit = limit;
	o.dur_us = dur_s * 1000000ull;
	return o;
}

/* Calls every 100 ms for up to secs seconds at iops_at(second) I/Os of 4 KiB per second;
 * returns the second (x10) the detector said stop, or 0. */
static unsigned feed(struct fio_ss *ss, unsigned secs, uint64_t (*iops_at)(unsigned))
{
	uint64_t ios = 0;
	for (unsigned tenth = 1; tenth <= secs * 10; tenth++) {
		ios += iops_at((tenth - 1) / 10) / 10;
		if (fio_ss_update(ss, tenth * (SEC / 10), ios * 4096, ios))
			return tenth;
	}
	return 0;
}

static uint64_t steady(unsigned s) { (void)s; return 1000; }
static uint64_t alternating(unsigned s) { return s % 2 ? 1000 : 2000; }
static uint64_t rising(unsigned s) { return 1000 + 1000 * s; }

TEST(fio_ss_steady_iops_meet_a_deviation_limit_once_the_window_is_full)
{
	struct fio_ss_opts o = opts(1, 0, 1, 20.0, 3);
	struct fio_ss ss;
	fio_ss_init(&ss, &o);
	CHECK_EQ_INT(ss.n, 3);
	unsigned at = feed(&ss, 30, steady);
	/* the first call is the base; samples at 1 s, 2 s, 3 s: judged at 3 s */
	CHECK_EQ_INT(at, 30);
	CHECK(ss.attained);
	uint64_t bw[3], iops[3];
	fio_ss_window(&ss, bw, iops);
	CHECK_EQ_U64(iops[2], 1000);
	CHECK_EQ_U64(bw[2], 1000 * 4096);
	CHECK_EQ_U64(fio_ss_iops_mean(&ss), (iops[0] + iops[1] + iops[2]) / 3);
	CHECK(ss.criterion < 20.0);
	fio_ss_free(&ss);
}

TEST(fio_ss_a_limit_that_cannot_be_met_never_stops)
{
	struct fio_ss_opts o = opts(1, 0, 1, 20.0, 4);
	struct fio_ss ss;
	fio_ss_init(&ss, &o);
	CHECK_EQ_INT(feed(&ss, 20, alternating), 0);
	CHECK(!ss.attained);
	/* the last window, oldest first: 2000, 1000, 2000, 1000 (seconds 16 to 19) */
	uint64_t bw[4], iops[4];
	fio_ss_window(&ss, bw, iops);
	CHECK_EQ_U64(iops[0], 2000);
	CHECK_EQ_U64(iops[1], 1000);
	CHECK_EQ_U64(iops[3], 1000);
	/* mean 1500, largest deviation 500: 33.3 % */
	CHECK(fabs(ss.deviation - 500.0) < 1e-9);
	CHECK(fabs(ss.criterion - 100.0 / 3) < 1e-6);
	fio_ss_free(&ss);
}

TEST(fio_ss_slope_is_least_squares_over_the_window)
{
	struct fio_ss_opts o = opts(1, 1, 1, 1.0, 3);
	struct fio_ss ss;
	fio_ss_init(&ss, &o);
	CHECK_EQ_INT(feed(&ss, 3, rising), 0);
	/* 1000, 2000, 3000 I/Os per s: slope 1000 per sample, 50 % of the mean */
	CHECK(fabs(ss.slope - 1000.0) < 1e-6);
	CHECK(fabs(ss.criterion - 50.0) < 1e-6);
	fio_ss_free(&ss);
}

TEST(fio_ss_ramp_and_interval)
{
	struct fio_ss_opts o = opts(1, 0, 0, 5.0, 4);
	o.ramp_us = 2000000;
	o.interval_us = 2000000;
	struct fio_ss ss;
	fio_ss_init(&ss, &o);
	CHECK_EQ_INT(ss.n, 2);
	/* samples every 2 s; kept from ramp + interval = 4 s: at 4 s and 6 s, judged at 6 s */
	CHECK_EQ_INT(feed(&ss, 30, steady), 60);
	CHECK(ss.attained);
	fio_ss_free(&ss);
}

TEST(fio_ss_options_and_the_group_rule)
{
	struct fio_plan p;
	char err[512] = "";
	const char *ok = "[a]\nss=bw:1m\nss_dur=10s\nss_ramp=5\n[b]\nnew_group\nss=iops_slope:0.5%\n";
	fio_plan_init(&p);
	CHECK(fio_parse_jobfile_text(&p, ok, strlen(ok), "t.fio", err, sizeof err) == 0);
	CHECK(fio_plan_finish(&p, err, sizeof err) == 0);
	CHECK(!p.jobs[0].ss.iops && !p.jobs[0].ss.slope && !p.jobs[0].ss.pct);
	CHECK(p.jobs[0].ss.limit == 1048576.0);
	CHECK_EQ_U64(p.jobs[0].ss.dur_us, 10000000);
	CHECK_EQ_U64(p.jobs[0].ss.ramp_us, 5000000);
	CHECK(fio_ss_wanted(&p.jobs[0].ss));
	CHECK(p.jobs[1].ss.iops && p.jobs[1].ss.slope && p.jobs[1].ss.pct && p.jobs[1].ss.limit == 0.5);
	CHECK(!fio_ss_wanted(&p.jobs[1].ss)); /* no duration: off */
	fio_plan_free(&p);

	const char *mixed = "[a]\nss_dur=3\n[b]\nsize=1m\n";
	fio_plan_init(&p);
	CHECK(fio_parse_jobfile_text(&p, mixed, strlen(mixed), "t.fio", err, sizeof err) == 0);
	CHECK(fio_plan_finish(&p, err, sizeof err) < 0);
	CHECK(strstr(err, "reporting group") != NULL);
	fio_plan_free(&p);

	const char *bad[] = { "[a]\nss=lat:5%\n", "[a]\nss=iops\n", "[a]\nss=iops:x%\n", "[a]\nss_interval=500ms\n" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fio_plan_init(&p);
		int rc = fio_parse_jobfile_text(&p, bad[i], strlen(bad[i]), "t.fio", err, sizeof err);
		if (rc == 0)
			rc = fio_plan_finish(&p, err, sizeof err);
		CHECK(rc < 0);
		fio_plan_free(&p);
	}
}
