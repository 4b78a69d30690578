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

static int memory_run(struct suite_ctx *c, char *err, size_t errlen)
{
	unsigned n = suite_samples(c), threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t pass_ns = (uint64_t)(pass_seconds(c) * 1e9), avail = mem_available();
	char name[64], a[32];
	struct membw_result r[16];
	int st;

	if (threads < 1)
		threads = 1;
	/* two buffers per thread, all of them within an eighth of the free memory */
	size_t per_thread = membw_copy_size(avail / 8 / (2 * threads));
	if (c->opts->mode == SUITE_QUICK && per_thread > (64u << 20))
		per_thread = 64u << 20;
	snprintf(name, sizeof name, "memory/memcpy/%ut", threads);
	struct bench *b = suite_bench(c, name);
	bench_set(b, "buffer", json_integer((json_int_t)per_thread));
	bench_set(b, "threads", json_integer(threads));
	struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	suite_progress(c, 0, "memcpy %s x %u threads", units_bytes_iec(per_thread, a, sizeof a), threads);
	/* one more pass than measured: the first one pays for first-touch faults (and, in a VM,
	 * for the host backing the pages), as CrystalDiskMark's preparing pass */
	if ((st = membw_copy(per_thread, threads, pass_ns, n + 1, r, err, errlen)) != 0)
		return st < 0 ? 1 : 130;
	for (unsigned i = 1; i <= n; i++)
		metric_add(m, r[i].bytes_per_sec);

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
	b = suite_bench(c, "memory/pagecache-read");
	bench_set(b, "file", json_integer((json_int_t)file));
	bench_set(b, "block", json_integer(1 << 20));
	m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	suite_progress(c, 0.5, "page-cache read of a %s file", units_bytes_iec(file, a, sizeof a));
	if ((st = membw_cached_read(c->workdir, file, pass_ns, n + 1, r, err, errlen)) != 0)
		return st < 0 ? 1 : 130;
	for (unsigned i = 1; i <= n; i++)
		metric_add(m, r[i].bytes_per_sec);
	return 0;
}

const struct suite_phase suite_phase_memory = {
	"memory", "memory copy and page-cache read bandwidth", { 2, 6, 25 }, memory_run,
};
