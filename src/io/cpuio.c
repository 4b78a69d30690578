/* fio's cpuio engine: each I/O burns the CPU for a chunk, then the thread rests so that it
 * keeps cpuload percent of one CPU busy (fio sets its think time to chunk x (100 - load) /
 * load; the worker rests for what pause_ns says, outside the I/O's latency, as fio's think
 * time).  cpumode=noop spins for cpuchunks microseconds; qsort sorts a 1 MiB array four
 * ways, and the chunk is what that took (fio's, so the load stays near cpuload when the
 * sort gets slower).  No data moves (IO_ENGINE_NO_DATA). */
#include "io/internal.h"
#include "io/ticks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define QSORT_N (256u * 1024u) /* 32-bit numbers: 1 MiB, as fio's */

/* fio's cpuio options (the table is at the end) */
struct cpuio_opts {
	unsigned cpuload;           /* percent of a CPU each thread burns; required */
	unsigned cpuchunk_us;       /* one burn; 0: 50000 (fio's cpuchunks) */
	int cpumode_qsort;          /* 0: spin (fio's noop); 1: sort an array (qsort) */
	int exit_on_io_done;        /* stop once the jobs that do I/O are done */
};
IO_ENGINE_OPTS_FIT(struct cpuio_opts);

struct cpu_state {
	int32_t *data;
};

static int cpuio_check(const struct io_job *job, const void *opts, char *err, size_t errlen)
{
	(void)job;
	if (!((const struct cpuio_opts *)opts)->cpuload)
		return snprintf(err, errlen, "the cpuio engine needs cpuload= (percent of a CPU)"), -1;
	return 0;
}

static int cpuio_setup(struct io_worker *w)
{
	const struct cpuio_opts *o = IO_WORKER_OPTS(w, struct cpuio_opts);
	struct cpu_state *st = calloc(1, sizeof *st);
	if (!st)
		return -ENOMEM;
	if (o->cpumode_qsort) {
		st->data = malloc(QSORT_N * sizeof *st->data);
		if (!st->data) {
			free(st);
			return -ENOMEM;
		}
		uint64_t seed = 0x63707569; /* the same numbers each run */
		for (unsigned i = 0; i < QSORT_N; i++)
			st->data[i] = (int32_t)prng_next(&seed);
	}
	w->engine_data = st;
	return 0;
}

static int cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

static int cmp_byte(const void *a, const void *b)
{
	return *(const int8_t *)a - *(const int8_t *)b;
}

static void sort_four_ways(int32_t *d)
{
	qsort(d, QSORT_N, sizeof *d, cmp_up);
	qsort(d, QSORT_N, sizeof *d, cmp_down);
	qsort(d, QSORT_N * sizeof *d, 1, cmp_byte);
	qsort(d, QSORT_N, sizeof *d, cmp_down);
}

static int cpuio_queue(struct io_worker *w, struct io_req *r)
{
	const struct cpuio_opts *o = IO_WORKER_OPTS(w, struct cpuio_opts);
	struct cpu_state *st = w->engine_data;
	unsigned load = o->cpuload > 100 ? 100 : o->cpuload;
	uint64_t t0 = ticks_now(), chunk_ns;
	if (st->data) {
		sort_four_ways(st->data);
		chunk_ns = ticks_to_ns(ticks_now() - t0);
	} else {
		chunk_ns = (uint64_t)(o->cpuchunk_us ? o->cpuchunk_us : 50000) * 1000;
		uint64_t end = t0 + ticks_from_ns(chunk_ns);
		while (ticks_now() < end)
			__asm__ volatile("" ::: "memory");
	}
	w->pause_ns = chunk_ns * (100 - load) / load;
	r->res = r->len;
	return 1;
}

static void cpuio_cleanup(struct io_worker *w)
{
	struct cpu_state *st = w->engine_data;
	if (st)
		free(st->data);
	free(st);
	w->engine_data = NULL;
}

/* fio caps cpuload at 100; 0 is refused when the job starts (as fio's), by cpuio_check. */
static const char *const cpumodes[] = { "noop", "qsort", NULL };
static const struct io_engine_option cpuio_options[] = {
	{ "cpuload", NULL, IO_EOPT_UINT, NULL, 0, UINT32_MAX, NULL, IO_EOPT_OFF(struct cpuio_opts, cpuload),
	  "cpuio_opts.cpuload (percent of a CPU per thread)", 0 },
	{ "cpuchunks", NULL, IO_EOPT_UINT, "50000", 1, UINT32_MAX, NULL, IO_EOPT_OFF(struct cpuio_opts, cpuchunk_us),
	  "cpuio_opts.cpuchunk_us (microseconds per burn)", 0 },
	{ "cpumode", NULL, IO_EOPT_CHOICE, "noop", 0, 0, cpumodes, IO_EOPT_OFF(struct cpuio_opts, cpumode_qsort),
	  "cpuio_opts.cpumode_qsort (noop spins, qsort sorts)", 0 },
	{ "exit_on_io_done", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, IO_EOPT_OFF(struct cpuio_opts, exit_on_io_done),
	  "cpuio_opts.exit_on_io_done (stops when the jobs doing I/O are done)", 0 },
	{ 0 },
};

/* fio's cpuio options */
static const struct io_engine_fio_option cpuio_fio_options[] = {
	{ "cpuload", 0 }, { "cpumode", 0 }, { "cpuchunks", 0 }, { "exit_on_io_done", 0 }, { 0 },
};

const struct io_engine_ops io_cpuio_ops = {
	.name = "cpuio",
	.fio_options = cpuio_fio_options,
	.caps = IO_ENGINE_SYNC | IO_ENGINE_DISKLESS | IO_ENGINE_NO_DATA,
	.options = cpuio_options,
	.options_size = sizeof(struct cpuio_opts),
	.check = cpuio_check,
	.setup = cpuio_setup,
	.queue = cpuio_queue,
	.cleanup = cpuio_cleanup,
};

int io_job_ends_with_data_jobs(const struct io_job *job)
{
	struct io_engine_optbuf buf;
	return job->engine == &io_cpuio_ops &&
	       ((const struct cpuio_opts *)io_engine_opts_get(job, job->engine, &buf))->exit_on_io_done;
}
