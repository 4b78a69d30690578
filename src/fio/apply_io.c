/* fio options that tune how the engine runs a job rather than what it runs: the buffers (their
 * place in memory and their contents), how a thread goes over its files, the access hint,
 * submission batches and the bw/iops sample intervals. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* fio options that tune how the engine runs a job rather than what it runs: the buffers'
 * place in memory, the access hint, submission batches and the bw/iops sample intervals. */

/* fio's iomem_align is an offset, despite its name: the first buffer starts this many bytes
 * past a page boundary (so 4k and 0 both give page-aligned buffers). */
FIO_APPLY(iomem_align)
{
	uint64_t n;
	if (fio_size(j, v, &n, err, errlen) < 0)
		return -1;
	if (n > 1u << 20)
		return nm_errf(err, errlen, "%llu: at most 1 MiB", (unsigned long long)n);
	j->io.buf.buf_offset = (unsigned)n;
	return 0;
}

/* mem=KIND[:PATH] (alias iomem): where the buffers' memory comes from (io/iomem.c); fio's
 * cudamalloc needs a CUDA build of fio and a GPU, and is refused. */
FIO_APPLY(mem)
{
	static const struct { const char *name; enum io_mem_kind kind; } kinds[] = {
		{ "malloc", IO_MEM_MALLOC }, { "shm", IO_MEM_SHM }, { "shmhuge", IO_MEM_SHMHUGE },
		{ "mmap", IO_MEM_MMAP }, { "mmaphuge", IO_MEM_MMAPHUGE }, { "mmapshared", IO_MEM_MMAPSHARED },
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (strlen(kinds[i].name) != n || strncmp(v, kinds[i].name, n) != 0)
			continue;
		j->io.buf.mem = kinds[i].kind;
		j->io.buf.mem_file = NULL;
		if (!colon)
			return 0;
		if (kinds[i].kind < IO_MEM_MMAP)
			return nm_errf(err, errlen, "%s: a file (:PATH) goes with mmap, mmaphuge or mmapshared only",
				       fio_q(v, qb, sizeof qb));
		if (!colon[1])
			return nm_errf(err, errlen, "%s: the file's path is empty", fio_q(v, qb, sizeof qb));
		j->io.buf.mem_file = fio_job_strdup(j, colon + 1);
		return 0;
	}
	if (n == strlen("cudamalloc") && strncmp(v, "cudamalloc", n) == 0)
		return nm_errf(err, errlen, "cudamalloc: GPU memory (a CUDA build of fio) is not supported");
	return nm_errf(err, errlen, "%s: not malloc, shm, shmhuge, mmap, mmaphuge or mmapshared",
		       fio_q(v, qb, sizeof qb));
}

/* lockmem=SIZE: each thread maps and mlocks that much for its run, as fio's (io/iomem.c). */
FIO_APPLY(lockmem) { return fio_size(j, v, &j->io.buf.lockmem, err, errlen); }

FIO_APPLY(fadvise_hint)
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
FIO_APPLY(iodepth_batch)
{
	uint64_t n;
	if (fio_int(j, v, 0, UINT_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.queue.iodepth_batch_submit = n ? (unsigned)n : UINT_MAX;
	return 0;
}

/* fio's default 1: each wait (the queue full) waits for one completion; 0 waits for one too. */
FIO_APPLY(iodepth_batch_complete_min)
{
	uint64_t n;
	if (fio_int(j, v, 0, UINT_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.queue.iodepth_batch_complete_min = (unsigned)n;
	return 0;
}

/* fio's default is the min's: one completion taken per wait, its slot refilled. */
FIO_APPLY(iodepth_batch_complete_max)
{
	uint64_t n;
	if (fio_int(j, v, 0, UINT_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.queue.iodepth_batch_complete_max = (unsigned)n;
	return 0;
}

static int avg_time(const struct fio_job *j, const char *v, uint64_t *ns, char *err, size_t errlen)
{
	uint64_t ms;
	if (fio_int(j, v, 1, 24ull * 3600 * 1000, &ms, err, errlen) < 0)
		return -1;
	*ns = ms * 1000000ull;
	return 0;
}

/* Milliseconds, as fio's; the engine samples bandwidth and IOPS on their own intervals.
 * The engine's iops interval follows the bw one unless set: fio's stays at its 500 ms. */
FIO_APPLY(bwavgtime)
{
	if (avg_time(j, v, &j->io.report.sample_ns, err, errlen) < 0)
		return -1;
	if (!j->io.report.iops_sample_ns)
		j->io.report.iops_sample_ns = 500000000ull;
	return 0;
}

FIO_APPLY(iopsavgtime) { return avg_time(j, v, &j->io.report.iops_sample_ns, err, errlen); }

/* fio's buffer contents: buffer_compress_percentage, buffer_compress_chunk and the dedupe_*
 * options, with fio 3.33's rules (the engine makes the bytes: io/content.c). */

static int percent(const struct fio_job *j, const char *v, unsigned *out, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_int(j, v, 0, 100, &n, err, errlen) < 0)
		return -1;
	*out = (unsigned)n;
	return 0;
}

FIO_APPLY(buffer_compress_percentage) { return percent(j, v, &j->io.buf.content.compress_pct, err, errlen); }
/* fio's callback turns refill_buffers on as it reads the option (a later refill_buffers=0 wins) */
FIO_APPLY(dedupe_percentage)
{
	if (percent(j, v, &j->io.buf.content.dedupe_pct, err, errlen) < 0)
		return -1;
	j->io.buf.refill_buffers = 1;
	return 0;
}
/* buffer_pattern: write buffers hold the pattern (fio/pattern_parse.c's syntax). fio's callback
 * sets refill_buffers as it reads the option: on when the job reads so far (rw's default is a
 * read) or compresses, else off; a later refill_buffers= wins. It turns scramble_buffers and
 * zero_buffers off where it stands too. */
FIO_APPLY(buffer_pattern)
{
	struct io_buf_spec *b = &j->io.buf;
	if (fio_parse_pattern(v, b->pattern, sizeof b->pattern, &b->pattern_len, err, errlen) < 0)
		return -1;
	enum io_rw rw = j->io.rw;
	b->refill_buffers = b->content.compress_pct || rw == IO_READ || rw == IO_RANDREAD || rw == IO_RW || rw == IO_RANDRW;
	b->scramble = 0;
	if (b->fill == FILL_ZERO)
		b->fill = FILL_RANDOM;
	return 0;
}

FIO_APPLY(dedupe_working_set_percentage) { return percent(j, v, &j->io.buf.content.ws_pct, err, errlen); }

FIO_APPLY(buffer_compress_chunk)
{
	uint64_t n;
	if (fio_size(j, v, &n, err, errlen) < 0)
		return -1;
	if (n > UINT32_MAX)
		return nm_errf(err, errlen, "at most 4 GiB");
	j->io.buf.content.chunk = (uint32_t)n;
	return 0;
}

FIO_APPLY(dedupe_mode)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (strcmp(v, "repeat") && strcmp(v, "working_set"))
		return nm_errf(err, errlen, "\"%s\": expected repeat or working_set", fio_q(v, qb, sizeof qb));
	j->io.buf.content.working_set = !strcmp(v, "working_set");
	return 0;
}

FIO_APPLY(dedupe_global)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.buf.content.global = b;
	return 0;
}

int fio_job_content(struct fio_job *j, char *err, size_t errlen)
{
	struct io_content_spec *c = &j->io.buf.content;
	int given, zero_given, compress_given, dedupe_given;
	/* fio 3.33's scramble: on unless off (buffer_pattern turns it off) or zero_buffers=1 was
	 * given and scramble_buffers was not; and never on a write whose buffer is refilled,
	 * compressed or deduped (the options given at all, whatever their values) or verify's */
	fio_job_opt(j, "scramble_buffers", &given);
	fio_job_opt(j, "zero_buffers", &zero_given);
	fio_job_opt(j, "buffer_compress_percentage", &compress_given);
	fio_job_opt(j, "dedupe_percentage", &dedupe_given);
	if (!given && zero_given && j->io.buf.fill == FILL_ZERO)
		j->io.buf.scramble = 0;
	if (compress_given || dedupe_given || j->io.verify.kind != IO_VERIFY_NONE)
		j->io.buf.scramble = 0;
	if (j->io.buf.pattern_len) /* fio fills with the pattern before it looks at zero_buffers */
		j->io.buf.fill = FILL_PATTERN;
	if (c->compress_pct == 100) { /* fio: all zeros (the pattern, with one) */
		if (!j->io.buf.pattern_len)
			j->io.buf.fill = FILL_ZERO;
		c->compress_pct = 0;
	} else if (c->compress_pct) { /* fio refills for compression unless told not to */
		fio_job_opt(j, "refill_buffers", &given);
		if (!given)
			j->io.buf.refill_buffers = 1;
	}
	if (j->io.buf.refill_buffers)
		j->io.buf.scramble = 0;
	if (!c->dedupe_pct || !c->working_set)
		return 0;
	fio_job_opt(j, "size", &given);
	if (!given)
		return nm_errf(err, errlen, "dedupe_mode=working_set needs size= (as in fio)");
	if (j->io.nrfiles != 1)
		return nm_errf(err, errlen, "dedupe_mode=working_set takes one file per job, not %u (as in fio)", j->io.nrfiles);
	if (c->ws_pct + c->dedupe_pct > 100)
		return nm_errf(err, errlen, "dedupe_percentage=%u cannot be met with dedupe_working_set_percentage=%u "
			       "of unique pages (as in fio)", c->dedupe_pct, c->ws_pct);
	return 0;
}

void fio_plan_threads(struct fio_plan *p)
{
	unsigned n = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		p->jobs[i].io.buf.content.thread0 = n;
		p->jobs[i].io.pattern.fio_thread = n + 1; /* fio's thread number (io/taus.h) */
		p->jobs[i].io.place.cpu_thread0 = n; /* cpus_allowed_policy=split counts them so */
		n += p->jobs[i].io.numjobs;
	}
	for (size_t i = 0; i < p->njobs; i++)
		p->jobs[i].io.buf.content.nthreads = n;
}

/* How a job's I/O goes over its files: fio's file_service_type (the engine's io_next_file). */

/* roundrobin, random or sequential, with :N (I/Os on a file before the next) on the first two */
FIO_APPLY(file_service_type)
{
	static const struct { const char *name; enum io_file_service how; } kinds[] = {
		{ "roundrobin", FILES_ROUNDROBIN }, { "random", FILES_RANDOM }, { "sequential", FILES_SEQUENTIAL },
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	const char *colon = strchr(v, ':');
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (!fio_word_is(v, kinds[i].name))
			continue;
		uint64_t nr = 1;
		if (colon && kinds[i].how != FILES_SEQUENTIAL && fio_count(colon + 1, 1, UINT32_MAX, &nr, err, errlen) < 0)
			return -1;
		j->io.files.file_service = kinds[i].how;
		j->io.files.file_service_nr = (unsigned)nr;
		return 0;
	}
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	if (!strncmp(v, "zipf", n) || !strncmp(v, "pareto", n) || !strncmp(v, "normal", n) || !strncmp(v, "gauss", n))
		return nm_errf(err, errlen, "\"%s\": skewed file choice is not supported (roundrobin, random and "
			       "sequential are)", fio_q(v, qb, sizeof qb));
	return nm_errf(err, errlen, "\"%s\": expected roundrobin, random or sequential", fio_q(v, qb, sizeof qb));
}
