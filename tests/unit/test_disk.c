/* src/disk/: a profile into tests, the pass loop's counts and callbacks (on the null engine). */
#include "test.h"
#include "disk/passes.h"
#include "disk/plan.h"
#include "disk/profiles.h"
#include "disk/test.h"
#include "io/engine.h"

TEST(disk_profile_plan_reads_then_writes_every_test)
{
	char err[256];
	struct disk_plan p;
	disk_plan_init(&p);
	p.profile = disk_profile_find("cdm-nvme");
	CHECK(p.profile != NULL);
	p.base.targets[0] = "/a";
	p.base.targets[1] = "/b";
	p.base.ntargets = 2;
	p.writable = 1;
	CHECK_EQ_INT(disk_plan_build(&p, err, sizeof err), 0);
	CHECK_EQ_INT(p.ntests, 8);
	CHECK_EQ_STR(p.tests[0].name, "SEQ1M Q8T1 read");
	CHECK_EQ_STR(p.tests[4].name, "SEQ1M Q8T1 write");
	CHECK_EQ_INT(p.tests[2].job.rw, IO_RANDREAD);
	CHECK_EQ_INT(p.tests[6].job.rw, IO_RANDWRITE);
	CHECK_EQ_INT(p.tests[2].job.numjobs, 32); /* RND4K Q32T16: 16 threads on each of 2 targets */
	CHECK_EQ_INT(p.tests[1].job.iodepth, 32);
	CHECK_EQ_U64(p.tests[1].job.bs[DIR_READ], 128 << 10);
	/* CrystalDiskMark's defaults: 5 passes of 5 s, 5 s apart, a preparing pass, one 1 GiB file */
	CHECK_EQ_INT(p.passes, 5);
	CHECK_EQ_INT(p.preparing, 1);
	CHECK_EQ_U64(p.interval_ns, 5000000000ull);
	CHECK_EQ_U64(p.base.filesize, 1ull << 30);
	CHECK(p.tests[0].job.files.shared_file && p.tests[0].job.time_based && p.tests[0].job.loops == 1);
	CHECK_EQ_U64(disk_plan_expected_ns(&p), 8 * (6 * 5000000000ull + 5 * 5000000000ull));
	CHECK_EQ_INT(disk_plan_layout(&p).rw, IO_RW);

	disk_plan_init(&p);
	p.profile = disk_profile_default();
	p.base.targets[0] = "/dev/x";
	p.base.ntargets = 1;
	CHECK_EQ_INT(disk_plan_build(&p, err, sizeof err), 0);
	CHECK_EQ_INT(p.ntests, 4); /* not writable: the reads only */
	CHECK_EQ_INT(disk_plan_layout(&p).rw, IO_READ);
}

TEST(disk_custom_plan_checks_what_needs_no_file_system)
{
	char err[256];
	struct disk_plan p;
	disk_plan_init(&p);
	p.base.rw = IO_RANDWRITE;
	p.base.iodepth = 4;
	p.base.targets[0] = "/dev/x";
	p.base.ntargets = 1;
	CHECK_EQ_INT(disk_plan_build(&p, err, sizeof err), -1);
	CHECK_CONTAINS(err, "--allow-write");
	disk_plan_init(&p);
	p.base.bs[DIR_READ] = p.base.bs[DIR_WRITE] = 1000;
	CHECK_EQ_INT(disk_plan_build(&p, err, sizeof err), -1);
	CHECK_CONTAINS(err, "O_DIRECT needs a multiple of 512");
	disk_plan_init(&p);
	p.base.rw = IO_RANDREAD;
	p.base.loops = 3;
	p.have_loops = 1;
	CHECK_EQ_INT(disk_plan_build(&p, err, sizeof err), 0);
	CHECK_EQ_INT(p.ntests, 1);
	CHECK_EQ_STR(p.tests[0].name, "randread 4k Q1T1");
	CHECK_EQ_INT(p.passes, 3);
	CHECK_EQ_INT(p.preparing, 0);
	CHECK_EQ_INT(p.tests[0].job.loops, 1); /* each loop a pass of its own */
}

struct counts {
	unsigned progress, passes, stop_after;
	unsigned saw_preparing;
	unsigned char seen[4][8]; /* [test][pass] had a progress call */
};

/* The distinct passes that had a progress call: the session may call again while its workers
 * wind down after the stop (every 100 ms), so the number of calls itself depends on timing. */
static unsigned passes_with_progress(const struct counts *c)
{
	unsigned n = 0;
	for (unsigned t = 0; t < 4; t++)
		for (unsigned p = 0; p < 8; p++)
			n += c->seen[t][p];
	return n;
}

static int count_progress(const struct disk_progress *p, void *arg)
{
	struct counts *c = arg;
	c->progress++;
	if (p->test_index < 4 && p->pass < 8)
		c->seen[p->test_index][p->pass] = 1;
	c->saw_preparing |= p->pass == 0;
	return 1; /* end each pass at once: the null engine keeps what ran */
}

static int count_pass(const struct disk_test *t, unsigned test_index, void *arg)
{
	struct counts *c = arg;
	c->passes++;
	return t->npasses == c->stop_after ? DISK_PASS_ENOUGH : DISK_PASS_MORE;
}

/* Two null-engine tests of up to 5 passes; the per-pass callback ends each after 2, the
 * progress callback ends every pass at its first call. */
/* The O_DIRECT checks follow each engine's capabilities in the table: --direct is refused
 * exactly for the engines that say NO_DIRECT, and the 512-byte rule skips the ones that
 * never open O_DIRECT (NO_DIRECT, DISKLESS). */
TEST(disk_plan_direct_checks_follow_the_engine_table)
{
	char err[256];
	struct disk_plan p;
	const struct io_engine_ops *e;
	unsigned n = 0;
	for (unsigned i = 0; (e = io_engine_at(i)); i++, n++) {
		disk_plan_init(&p);
		p.base.engine = e;
		p.base.direct = DIRECT_ON;
		int rc = disk_plan_build(&p, err, sizeof err);
		CHECK_EQ_INT(rc, (e->caps & IO_ENGINE_NO_DIRECT) ? -1 : 0);
		if (rc < 0) {
			CHECK_CONTAINS(err, e->name);
		}
		disk_plan_free(&p);
		disk_plan_init(&p);
		p.base.engine = e;
		p.base.bs[DIR_READ] = p.base.bs[DIR_WRITE] = 1000;
		rc = disk_plan_build(&p, err, sizeof err);
		CHECK_EQ_INT(rc, (e->caps & (IO_ENGINE_NO_DIRECT | IO_ENGINE_DISKLESS)) ? 0 : -1);
		disk_plan_free(&p);
	}
	CHECK(n >= 2);
}

TEST(disk_pass_loop_counts_passes_and_stops_when_told)
{
	char err[256];
	struct disk_plan p;
	disk_plan_init(&p);
	p.profile = disk_profile_find("peak");
	p.base.engine = test_engine("null");
	p.base.runtime_ns = 60 * 1000000000ull; /* a minute a pass, unless the progress callback ends it */
	p.have_runtime = 1;
	p.have_interval = 1;
	p.have_size = 1;
	p.base.size = 1 << 20;
	CHECK_EQ_INT(disk_plan_build(&p, err, sizeof err), 0);
	CHECK_EQ_INT(p.ntests, 2);
	struct io_job layout = disk_plan_layout(&p);
	int st;
	struct io_session *s = io_session_open(&layout, &st, err, sizeof err);
	CHECK(s != NULL);
	struct counts c = { .stop_after = 2 };
	struct disk_loop l = disk_plan_loop(&p);
	CHECK_EQ_INT(l.passes, 5);
	l.on_progress = count_progress;
	l.progress_arg = &c;
	l.on_pass = count_pass;
	l.pass_arg = &c;
	CHECK_EQ_INT(disk_run_tests(s, p.tests, p.ntests, disk_plan_ntargets(&p), &l, err, sizeof err), IO_OK);
	CHECK_EQ_INT(c.passes, 4);
	CHECK(c.saw_preparing);
	CHECK_EQ_INT(passes_with_progress(&c), 6); /* 2 tests x (preparing + 2 passes), each ended by it */
	for (unsigned i = 0; i < 2; i++) {
		CHECK_EQ_INT(p.tests[i].npasses, 2);
		CHECK(p.tests[i].complete);
		CHECK(p.tests[i].total[0].dir[DIR_READ].ios > 0);
		CHECK(p.tests[i].best < 2);
	}
	CHECK_EQ_INT(disk_tests_complete(p.tests, p.ntests), 2);
	/* without a per-pass callback: every planned pass */
	disk_plan_free(&p);
	l.on_pass = NULL;
	l.passes = 3;
	CHECK_EQ_INT(disk_run_tests(s, p.tests, 1, 1, &l, err, sizeof err), IO_OK);
	CHECK_EQ_INT(p.tests[0].npasses, 3);
	disk_plan_free(&p);
	io_session_close(s);
}

/* A pass's rate in MB/s, as io_result_bytes_per_sec reads it (1 s of that many bytes). */
static void set_rate(struct io_job_result *r, double mb_s)
{
	memset(r, 0, sizeof *r);
	r->runtime_ns = 1000000000ull;
	r->dir[DIR_READ].bytes = (uint64_t)(mb_s * 1e6);
}

TEST(disk_spread_past_100pct_is_unstable)
{
	struct io_job_result passes[3];
	struct disk_test t = { .npasses = 3, .total = passes };
	char buf[160];
	/* 1.2, 7.48, 95 MB/s: the fastest pass 12 medians from it: no "± 1170%" */
	set_rate(&passes[0], 1.2);
	set_rate(&passes[1], 7.48);
	set_rate(&passes[2], 95);
	CHECK(disk_test_unstable(&t));
	CHECK_EQ_STR(disk_test_spread_text(&t, buf, sizeof buf), "unstable: 7.48 MB/s, range 1.20 MB/s to 95.0 MB/s");
	/* 90, 100, 110: ± 10% */
	set_rate(&passes[0], 90);
	set_rate(&passes[1], 100);
	set_rate(&passes[2], 110);
	CHECK(!disk_test_unstable(&t));
	CHECK_EQ_STR(disk_test_spread_text(&t, buf, sizeof buf), "100 MB/s ± 10%");
	t.npasses = 1; /* one pass has no spread */
	CHECK(!disk_test_unstable(&t));
}
