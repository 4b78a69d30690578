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

/* n draws of an LFSR sequence: each value of [0, n) once, the register back where it started
 * (so the next n draws are the same order), and the order not 0, 1, 2, ... */
static int lfsr_one_period(uint64_t n, uint64_t seed, uint64_t *in_order)
{
	struct lfsr_seq l;
	unsigned char *seen = calloc(n, 1);
	int ok = seen != NULL;
	lfsr_seq_init(&l, n, seed);
	uint64_t first = 0;
	*in_order = 0;
	for (uint64_t i = 0; ok && i < n; i++) {
		uint64_t v = lfsr_seq_next(&l);
		if (i == 0)
			first = v;
		*in_order += v == i;
		if (v >= n || seen[v]++)
			ok = 0;
	}
	ok = ok && l.state == l.start && lfsr_seq_next(&l) == first;
	free(seen);
	return ok;
}

TEST(lfsr_gives_every_value_once_per_period)
{
	const uint64_t sizes[] = { 1, 2, 3, 4, 7, 8, 250, 255, 256, 257, 1000, 4097, 65535, 65536, 1000003 };
	for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (uint64_t seed = 0; seed < 3; seed++) {
			uint64_t in_order;
			if (!lfsr_one_period(sizes[i], seed * 0x9e3779b97f4a7c15ull + i, &in_order)) {
				fprintf(stderr, "    n=%llu seed %llu\n", (unsigned long long)sizes[i], (unsigned long long)seed);
				CHECK(0);
			}
			if (sizes[i] >= 1000)
				CHECK(in_order < sizes[i] / 100);
		}
	}
}

/* Every width's feedback is maximal: with n = 2^w - 1 nothing is stepped over, and the
 * register comes back to its start after exactly 2^w - 1 steps (the widths up to 22 here;
 * the table's wider ones are the same published table). */
TEST(lfsr_feedback_has_maximal_period)
{
	for (unsigned w = 1; w <= 22; w++) {
		uint64_t full = (1ull << w) - 1, steps = 0;
		struct lfsr_seq l;
		lfsr_seq_init(&l, full, w);
		CHECK_EQ_U64(lfsr_seq_width(full), w);
		CHECK_EQ_U64(lfsr_seq_width(full + 1), w + 1);
		do
			lfsr_seq_next(&l), steps++;
		while (l.state != l.start && steps <= full);
		if (steps != full)
			fprintf(stderr, "    width %u: period %llu, expected %llu\n", w, (unsigned long long)steps,
				(unsigned long long)full);
		CHECK_EQ_U64(steps, full);
	}
	/* the widest registers start and step inside their range */
	const uint64_t big[] = { (1ull << 40) + 3, UINT64_MAX / 3, UINT64_MAX };
	for (unsigned i = 0; i < 3; i++) {
		struct lfsr_seq l;
		lfsr_seq_init(&l, big[i], 77);
		CHECK(l.start >= 1 && l.feedback != 0);
		for (int k = 0; k < 1000; k++)
			CHECK(lfsr_seq_next(&l) < big[i]);
	}
	CHECK_EQ_U64(lfsr_seq_width(UINT64_MAX), 64);
}

TEST(lfsr_seed_picks_the_start)
{
	struct lfsr_seq a, b, c;
	lfsr_seq_init(&a, 100000, 1);
	lfsr_seq_init(&b, 100000, 1);
	lfsr_seq_init(&c, 100000, 2);
	unsigned same_ab = 0, same_ac = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t va = lfsr_seq_next(&a), vb = lfsr_seq_next(&b), vc = lfsr_seq_next(&c);
		same_ab += va == vb;
		same_ac += va == vc;
	}
	CHECK_EQ_U64(same_ab, 1000);
	CHECK(same_ac < 10);
	lfsr_seq_restart(&a); /* a new pass: the same order again */
	lfsr_seq_init(&b, 100000, 1);
	for (int i = 0; i < 100; i++)
		CHECK_EQ_U64(lfsr_seq_next(&a), lfsr_seq_next(&b));
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

/* The progress callback asks for a stop from its second call on, once I/Os have been done.  It
 * counts calls and looks at the live I/O count, not at the clock: on a loaded machine a worker
 * may start late and run less than any wall-clock bound the test could name. */
static int stop_at_second_call(const struct io_progress *p, void *arg)
{
	unsigned *calls = arg;
	(*calls)++;
	return *calls >= 2 && p->ios > 0;
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
	CHECK_EQ_INT(io_session_run(s, &j, r, stop_at_second_call, &calls, err, sizeof err), IO_OK);
	CHECK(calls >= 2);
	for (int i = 0; i < 2; i++) {
		/* stopped long before the minute, with the I/Os and time of what ran */
		CHECK(r[i].runtime_ns > 0 && r[i].runtime_ns < 30 * 1000000000ull);
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
