/* The I/O engine: offsets, job checks, each engine on small files, results and merging. */
#include "io/engine.h"
#include "io/internal.h"
#include "test.h"

#include <dirent.h>
#include <pthread.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int perm_is_bijection(uint64_t n, uint64_t seed)
{
	struct randperm p;
	unsigned char *seen = calloc(n, 1);
	int ok = 1;
	randperm_init(&p, n, seed);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = randperm_at(&p, i);
		if (v >= n || seen[v]++)
			ok = 0;
	}
	free(seen);
	return ok;
}

TEST(randperm_visits_every_block_once)
{
	const uint64_t sizes[] = { 1, 2, 3, 5, 64, 1000, 4097, 65536, 100003 };
	for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		CHECK(perm_is_bijection(sizes[i], 42 + i));
}

TEST(randperm_order_is_not_sequential)
{
	struct randperm p;
	unsigned in_order = 0;
	randperm_init(&p, 10000, 7);
	for (uint64_t i = 0; i < 10000; i++)
		in_order += randperm_at(&p, i) == i;
	CHECK(in_order < 50);
}

TEST(prng_below_stays_in_range)
{
	uint64_t s = 1;
	unsigned hits[10] = { 0 };
	for (int i = 0; i < 100000; i++) {
		uint64_t v = prng_below(&s, 10);
		CHECK(v < 10);
		hits[v]++;
	}
	for (int i = 0; i < 10; i++)
		CHECK(hits[i] > 9000 && hits[i] < 11000);
}

static struct io_job base_job(void)
{
	struct io_job j;
	io_job_init(&j);
	j.targets[0] = test_tmpdir();
	j.ntargets = 1;
	j.size = 256 * 1024;
	return j;
}

TEST(job_check_rejects_bad_input)
{
	char err[256];
	struct io_job j = base_job();
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_OK);
	j.bs[DIR_READ] = 0;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "block size 0");
	j = base_job();
	j.iodepth = 65537;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "iodepth");
	j = base_job();
	j.direct = DIRECT_ON;
	j.bs[DIR_READ] = 1000;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "multiple of 512");
	j = base_job();
	j.ntargets = 0;
	CHECK_EQ_INT(io_job_check(&j, err, sizeof err), IO_BAD_JOB);
}

TEST(names_round_trip)
{
	for (int rw = IO_READ; rw <= IO_RANDRW; rw++) {
		enum io_rw back;
		CHECK(io_rw_parse(io_rw_name((enum io_rw)rw), &back) == 0);
		CHECK_EQ_INT(back, rw);
	}
	const struct io_engine_ops *k;
	CHECK(io_engine_parse("io_uring", &k) == 0 && k == test_engine("uring"));
	CHECK(io_engine_parse("mmap", &k) == 0 && k == test_engine("mmap"));
	CHECK(io_engine_parse("libaio", &k) == 0 && k == test_engine("libaio"));
	CHECK(io_engine_parse("posixaio", &k) < 0);
	enum io_rw rw;
	CHECK(io_rw_parse("randrd", &rw) < 0);
}

TEST(null_engine_size_based_counts_every_io)
{
	char err[256];
	struct io_job j;
	io_job_init(&j);
	j.engine = test_engine("null");
	j.size = 1 << 20;
	j.numjobs = 2;
	struct io_job_result r[2], total;
	CHECK_EQ_INT(io_run_job(&j, r, err, sizeof err), IO_OK);
	io_result_init(&total);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_U64(r[i].dir[DIR_READ].ios, 256);
		CHECK_EQ_U64(r[i].dir[DIR_READ].bytes, 1 << 20);
		CHECK_EQ_U64(r[i].dir[DIR_READ].clat.n, 256);
		CHECK_EQ_STR(r[i].engine_used, "null");
		io_result_merge(&total, &r[i]);
	}
	CHECK_EQ_U64(total.dir[DIR_READ].ios, 512);
	CHECK_EQ_U64(total.dir[DIR_READ].clat.n, 512);
	CHECK(total.runtime_ns >= r[0].runtime_ns && total.runtime_ns >= r[1].runtime_ns);
	for (int i = 0; i < 2; i++)
		io_result_free(&r[i]);
	io_result_free(&total);
}

TEST(null_engine_time_based_runs_for_the_runtime)
{
	char err[256];
	struct io_job j;
	io_job_init(&j);
	j.engine = test_engine("null");
	j.time_based = 1;
	j.runtime_ns = 300 * 1000 * 1000ull;
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK(r.runtime_ns >= 250 * 1000 * 1000ull && r.runtime_ns <= 400 * 1000 * 1000ull);
	CHECK(r.dir[DIR_READ].ios > 1000);
	CHECK_EQ_U64(r.dir[DIR_WRITE].ios, 0);
	io_result_free(&r);
}

/* The progress callback asks for a stop once 200 ms have run. */
static int stop_after_200ms(const struct io_progress *p, void *arg)
{
	unsigned *calls = arg;
	(*calls)++;
	return p->elapsed_ns >= 200 * 1000 * 1000ull;
}

TEST(progress_callback_stops_a_job_early_and_keeps_what_ran)
{
	char err[256];
	struct io_job j;
	io_job_init(&j);
	j.engine = test_engine("null");
	j.time_based = 1;
	j.runtime_ns = 60 * 1000000000ull; /* a minute, unless stopped */
	j.numjobs = 2;
	int st;
	struct io_session *s = io_session_open(&j, &st, err, sizeof err);
	CHECK(s != NULL);
	struct io_job_result r[2];
	unsigned calls = 0;
	CHECK_EQ_INT(io_session_run(s, &j, r, stop_after_200ms, &calls, err, sizeof err), IO_OK);
	CHECK(calls >= 2);
	for (int i = 0; i < 2; i++) {
		/* stopped long before the minute, with the I/Os and time of what ran */
		CHECK(r[i].runtime_ns >= 150 * 1000 * 1000ull && r[i].runtime_ns < 30 * 1000000000ull);
		CHECK(r[i].dir[DIR_READ].ios > 0);
		CHECK_EQ_U64(r[i].dir[DIR_READ].clat.n, r[i].dir[DIR_READ].ios);
		CHECK_EQ_INT(r[i].error, 0);
		io_result_free(&r[i]);
	}
	io_session_close(s);
}

struct bg_run {
	struct io_session *s;
	struct io_job job;
	struct io_job_result r[2];
	int st;
};

static void *bg_run_main(void *arg)
{
	struct bg_run *b = arg;
	char err[256];
	b->st = io_session_run(b->s, &b->job, b->r, NULL, NULL, err, sizeof err);
	return NULL;
}

TEST(snapshot_copies_the_figures_of_a_run_in_progress)
{
	char err[256];
	struct bg_run b;
	memset(&b, 0, sizeof b);
	io_job_init(&b.job);
	b.job.engine = test_engine("null");
	b.job.time_based = 1;
	b.job.runtime_ns = 800 * 1000 * 1000ull;
	b.job.numjobs = 2;
	int st;
	b.s = io_session_open(&b.job, &st, err, sizeof err);
	CHECK(b.s != NULL);
	struct io_job_result snap[2];
	CHECK_EQ_INT(io_session_snapshot(b.s, snap, 2, 100), 0); /* nothing running yet */

	pthread_t t;
	CHECK(pthread_create(&t, NULL, bg_run_main, &b) == 0);
	usleep(300 * 1000);
	CHECK_EQ_INT(io_session_snapshot(b.s, snap, 2, 1000), 2);
	for (int i = 0; i < 2; i++) {
		CHECK(snap[i].dir[DIR_READ].ios > 0);
		CHECK_EQ_U64(snap[i].dir[DIR_READ].clat.n, snap[i].dir[DIR_READ].ios);
		CHECK(snap[i].runtime_ns > 0 && snap[i].runtime_ns < 800 * 1000 * 1000ull);
		CHECK(snap[i].sec_iops == NULL && snap[i].nsec == 0);
	}
	/* a second request gets newer figures */
	struct io_job_result later[2];
	usleep(50 * 1000);
	CHECK_EQ_INT(io_session_snapshot(b.s, later, 2, 1000), 2);
	CHECK(later[0].dir[DIR_READ].ios >= snap[0].dir[DIR_READ].ios);
	CHECK(later[0].runtime_ns > snap[0].runtime_ns);
	pthread_join(t, NULL);
	CHECK_EQ_INT(b.st, IO_OK);
	CHECK_EQ_INT(io_session_snapshot(b.s, snap, 2, 100), 0); /* the run is over */
	for (int i = 0; i < 2; i++) {
		CHECK(b.r[i].dir[DIR_READ].ios >= later[i].dir[DIR_READ].ios);
		io_result_free(&b.r[i]);
	}
	io_session_close(b.s);
}

static unsigned count_entries(const char *dir)
{
	unsigned n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (e->d_name[1] && e->d_name[1] != '.' && e->d_name[1] != '\0');
	closedir(d);
	return n;
}

static void run_engine(const struct io_engine_ops *k, enum io_rw rw, unsigned depth, struct io_job_result *r, int *st)
{
	char err[256];
	struct io_job j = base_job();
	j.engine = k;
	j.rw = rw;
	j.iodepth = depth;
	*st = io_run_job(&j, r, err, sizeof err);
	if (*st)
		fprintf(stderr, "io_run_job: %s\n", err);
}

TEST(each_engine_reads_the_whole_file_once)
{
	const struct io_engine_ops *const kinds[] = { test_engine("psync"), test_engine("mmap"), test_engine("uring") };
	for (unsigned i = 0; i < 3; i++) {
		struct io_job_result r;
		int st;
		run_engine(kinds[i], IO_RANDREAD, 8, &r, &st);
		CHECK_EQ_INT(st, IO_OK);
		CHECK_EQ_U64(r.dir[DIR_READ].ios, 64);
		CHECK_EQ_U64(r.dir[DIR_READ].bytes, 256 * 1024);
		CHECK_EQ_U64(r.dir[DIR_READ].clat.n, 64);
		CHECK_EQ_U64(r.dir[DIR_READ].lat.n, 64);
		CHECK_EQ_STR(r.engine_used, io_engine_name(kinds[i]));
		CHECK(r.dir[DIR_READ].clat.min > 0);
		io_result_free(&r);
	}
	/* the private directory is gone */
	CHECK_EQ_INT(count_entries(test_tmpdir()), 0);
}

TEST(each_engine_writes)
{
	const struct io_engine_ops *const kinds[] = { test_engine("psync"), test_engine("mmap"), test_engine("uring") };
	for (unsigned i = 0; i < 3; i++) {
		struct io_job_result r;
		int st;
		run_engine(kinds[i], IO_WRITE, 4, &r, &st);
		CHECK_EQ_INT(st, IO_OK);
		CHECK_EQ_U64(r.dir[DIR_WRITE].ios, 64);
		CHECK_EQ_U64(r.dir[DIR_READ].ios, 0);
		io_result_free(&r);
	}
}

TEST(mixed_workload_follows_the_read_share)
{
	char err[256];
	struct io_job j = base_job();
	j.rw = IO_RANDRW;
	j.rwmix_read = 75;
	j.size = 4 << 20;
	j.engine = test_engine("psync");
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	uint64_t rd = r.dir[DIR_READ].ios, wr = r.dir[DIR_WRITE].ios;
	CHECK_EQ_U64(rd + wr, 1024);
	CHECK(rd > 700 && rd < 840);
	io_result_free(&r);
}

TEST(uring_direct_is_used_on_a_disk_file)
{
	char err[256];
	struct io_job j = base_job();
	j.iodepth = 4;
	int st;
	struct io_session *s = io_session_open(&j, &st, err, sizeof err);
	CHECK(s != NULL);
	/* the test directory may be tmpfs (no O_DIRECT): then auto must not pick uring */
	if (io_session_direct(s, 0))
		CHECK(io_session_engine(s, 0) == test_engine("uring"));
	else
		CHECK(io_session_notes(s)[0] != NULL);
	io_session_close(s);
}

TEST(missing_target_is_bad_input)
{
	char err[256];
	struct io_job j = base_job();
	j.targets[0] = "/nonexistent/nodemark-test";
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "/nonexistent/nodemark-test");
}

TEST(existing_file_is_read_not_written)
{
	char err[256], path[512];
	snprintf(path, sizeof path, "%s/data", test_tmpdir());
	int fd = open(path, O_CREAT | O_WRONLY, 0600);
	char buf[4096];
	memset(buf, 7, sizeof buf);
	for (int i = 0; i < 16; i++)
		CHECK(write(fd, buf, sizeof buf) == (ssize_t)sizeof buf);
	close(fd);
	struct io_job j = base_job();
	j.targets[0] = path;
	j.size = 0;
	j.engine = test_engine("psync");
	struct io_job_result r;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_OK);
	CHECK_EQ_U64(r.dir[DIR_READ].ios, 16);
	io_result_free(&r);
	j.rw = IO_WRITE;
	CHECK_EQ_INT(io_run_job(&j, &r, err, sizeof err), IO_BAD_JOB);
	CHECK_CONTAINS(err, "did not create");
	struct stat st;
	CHECK(stat(path, &st) == 0 && st.st_size == 65536);
}

TEST(session_runs_several_jobs_on_one_layout)
{
	char err[256];
	struct io_job j = base_job();
	j.files.shared_file = 1;
	j.engine = test_engine("psync");
	int st;
	struct io_session *s = io_session_open(&j, &st, err, sizeof err);
	CHECK(s != NULL);
	struct io_job j2 = j;
	j2.rw = IO_RANDWRITE;
	j2.numjobs = 3;
	j2.bs[DIR_WRITE] = 16384;
	struct io_job_result r[3];
	CHECK_EQ_INT(io_session_run(s, &j2, r, NULL, NULL, err, sizeof err), IO_OK);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_U64(r[i].dir[DIR_WRITE].ios, 16);
		io_result_free(&r[i]);
	}
	j2.size = 512 * 1024; /* a different layout */
	CHECK_EQ_INT(io_session_run(s, &j2, r, NULL, NULL, err, sizeof err), IO_BAD_JOB);
	io_session_close(s);
}
