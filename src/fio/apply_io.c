/* fio options that tune how the engine runs a job rather than what it runs: the buffers'
 * place in memory, the access hint, submission batches and the bw/iops sample intervals. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <limits.h>
#include <string.h>

#define APPLY(name) int fio_apply_##name(struct fio_job *j, const char *v, char *err, size_t errlen)

/* fio's iomem_align is an offset, despite its name: the first buffer starts this many bytes
 * past a page boundary (so 4k and 0 both give page-aligned buffers). */
APPLY(iomem_align)
{
	uint64_t n;
	if (fio_size(j, v, &n, err, errlen) < 0)
		return -1;
	if (n > 1u << 20)
		return nm_errf(err, errlen, "%llu: at most 1 MiB", (unsigned long long)n);
	j->io.buf.buf_offset = (unsigned)n;
	return 0;
}

APPLY(fadvise_hint)
{
	static const struct { const char *name; enum io_fadvise hint; } hints[] = {
		{ "1", FADVISE_PATTERN }, { "0", FADVISE_NONE },
		{ "random", FADVISE_RANDOM }, { "sequential", FADVISE_SEQUENTIAL },
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
		if (strcmp(v, hints[i].name) == 0) {
			j->io.files.fadvise = hints[i].hint;
			return 0;
		}
	return nm_errf(err, errlen, "\"%s\": 0, 1, random or sequential", fio_q(v, qb, sizeof qb));
}

/* 0 is fio's "iodepth": every free slot is filled before the one submitting call. */
APPLY(iodepth_batch)
{
	uint64_t n;
	if (fio_count(v, 0, UINT_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.queue.iodepth_batch_submit = n ? (unsigned)n : UINT_MAX;
	return 0;
}

/* fio's default 1: each wait (the queue full) waits for one completion; 0 waits for one too. */
APPLY(iodepth_batch_complete_min)
{
	uint64_t n;
	if (fio_count(v, 0, UINT_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.queue.iodepth_batch_complete_min = (unsigned)n;
	return 0;
}

/* fio's default is the min's: one completion taken per wait, its slot refilled. */
APPLY(iodepth_batch_complete_max)
{
	uint64_t n;
	if (fio_count(v, 0, UINT_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.queue.iodepth_batch_complete_max = (unsigned)n;
	return 0;
}

static int avg_time(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	uint64_t ms;
	if (fio_count(v, 1, 24ull * 3600 * 1000, &ms, err, errlen) < 0)
		return -1;
	*ns = ms * 1000000ull;
	return 0;
}

/* Milliseconds, as fio's; the engine samples bandwidth and IOPS on their own intervals.
 * The engine's iops interval follows the bw one unless set: fio's stays at its 500 ms. */
APPLY(bwavgtime)
{
	if (avg_time(v, &j->io.report.sample_ns, err, errlen) < 0)
		return -1;
	if (!j->io.report.iops_sample_ns)
		j->io.report.iops_sample_ns = 500000000ull;
	return 0;
}

APPLY(iopsavgtime) { return avg_time(v, &j->io.report.iops_sample_ns, err, errlen); }
