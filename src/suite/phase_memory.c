/* The memory phase: DRAM copy bandwidth on every CPU, and reading a hot file through the page
 * cache of the measured filesystem: the ceiling of every buffered I/O figure that follows. */
#include "suite/phase.h"
#include "mem/membw.h"
#include "util/units.h"

#include <stdio.h>
#include <unistd.h>

static double pass_seconds(const struct suite_ctx *c)
{
	return c->opts->mode == SUITE_QUICK ? 0.2 : c->opts->mode == SUITE_FULL ? 1.0 : 0.5;
}

static uint64_t mem_available(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	return pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 1ull << 30;
}

/* Seconds one figure may take, beyond which it stops with the samples it has. */
static double budget_seconds(const struct suite_ctx *c)
{
	return c->opts->mode == SUITE_QUICK ? 3 : c->opts->mode == SUITE_FULL ? 40 : 8;
}

struct mem_job {
	struct membw_file *file; /* page-cache read of this file, else memcpy */
	size_t per_thread;
	unsigned threads;
	uint64_t pass_ns;
};

/* Batches of passes until the sampler is satisfied.  Each batch has one more pass than it
 * keeps: the first pays for first-touch faults (and, in a VM, for the host backing the pages),
 * as CrystalDiskMark's preparing pass.  The page-cache file is the same one in every batch. */
static int mem_sample(struct suite_ctx *c, struct bench *b, struct metric *m, const struct mem_job *j, char *err,
		      size_t errlen)
{
	struct suite_sampler smp;
	struct membw_result r[16];
	suite_sampler_start(c, &smp, b->name, budget_seconds(c));
	while (suite_sampler_more(&smp, m)) {
		unsigned want = m->nsamples < smp.min ? smp.min - (unsigned)m->nsamples : 2;
		if (want > smp.max - m->nsamples)
			want = smp.max - (unsigned)m->nsamples;
		int st = j->file ? membw_file_read(j->file, j->pass_ns, want + 1, r, err, errlen)
				   : membw_copy(j->per_thread, j->threads, j->pass_ns, want + 1, r, err, errlen);
		if (st)
			return st < 0 ? 1 : 130;
		for (unsigned i = 1; i <= want; i++)
			metric_add(m, r[i].bytes_per_sec);
	}
	suite_sampler_save(c, b, &smp, m);
	return 0;
}

/* The file's pages as the reads start (cachestat(2)): all cached, none dirty or under writeback,
 * else the figure is not a hot-cache read and the run says so. */
static void record_cache_state(struct suite_ctx *c, struct bench *b, const struct membw_file *f)
{
	struct membw_cache_state cs;
	if (membw_file_cachestat(f, &cs) < 0)
		return;
	long psize = sysconf(_SC_PAGESIZE);
	uint64_t page = psize > 0 ? (uint64_t)psize : 4096, pages = (f->size + page - 1) / page;
	bench_set(b, "pages_cached", json_integer((json_int_t)cs.cached));
	bench_set(b, "pages_dirty", json_integer((json_int_t)(cs.dirty + cs.writeback)));
	if (cs.cached < pages || cs.dirty + cs.writeback)
		suite_note(c, "memory/pagecache-read: %llu of the file's %llu pages were in the page cache and %llu "
			   "dirty as the reads started",
			   (unsigned long long)cs.cached, (unsigned long long)pages,
			   (unsigned long long)(cs.dirty + cs.writeback));
}

static int memory_run(struct suite_ctx *c, char *err, size_t errlen)
{
	unsigned threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t pass_ns = (uint64_t)(pass_seconds(c) * 1e9), avail = mem_available();
	char name[64], a[32];

	if (threads < 1)
		threads = 1;
	/* two buffers per thread, all of them within an eighth of the free memory */
	size_t per_thread = membw_copy_size(avail / 8 / (2 * threads));
	if (c->opts->mode == SUITE_QUICK && per_thread > (64u << 20))
		per_thread = 64u << 20;
	snprintf(name, sizeof name, "memory/memcpy/%ut", threads);
	struct bench *b;
	struct metric *m;
	struct mem_job job;
	if (suite_wants_bench(c, name)) {
		b = suite_bench(c, name);
		bench_set(b, "buffer", json_integer((json_int_t)per_thread));
		bench_set(b, "threads", json_integer(threads));
		m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
		suite_progress(c, 0, "memcpy %s x %u threads", units_bytes_iec(per_thread, a, sizeof a), threads);
		job = (struct mem_job){ NULL, per_thread, threads, pass_ns };
		int st = mem_sample(c, b, m, &job, err, errlen);
		if (st)
			return st;
	}
	if (!suite_wants_bench(c, "memory/pagecache-read"))
		return 0;

	uint64_t file = c->opts->mode == SUITE_QUICK ? 64ull << 20 : c->opts->mode == SUITE_FULL ? 1ull << 30 : 256ull << 20;
	uint64_t room = suite_free_bytes(c->workdir);
	if (file > avail / 8)
		file = avail / 8;
	if (file > room / 2) {
		file = room / 2;
		suite_note(c, "the page-cache file shrank to %s to fit the free space",
			   units_bytes_iec(file, a, sizeof a));
	}
	if (file < (1 << 20))
		return snprintf(err, errlen, "%s: no room for a page-cache test file", c->opts->dir), 1;
	struct membw_file f;
	if (membw_file_open(&f, c->workdir, file, err, errlen) < 0)
		return 1;
	b = suite_bench(c, "memory/pagecache-read");
	bench_set(b, "file", json_integer((json_int_t)file));
	bench_set(b, "block", json_integer(1 << 20));
	record_cache_state(c, b, &f);
	m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	suite_progress(c, 0.5, "page-cache read of a %s file", units_bytes_iec(file, a, sizeof a));
	job = (struct mem_job){ &f, 0, 0, pass_ns };
	int st = mem_sample(c, b, m, &job, err, errlen);
	membw_file_close(&f);
	return st;
}

const struct suite_phase suite_phase_memory = {
	"memory", "memory copy and page-cache read bandwidth", { 2, 6, 25 }, memory_run,
};
