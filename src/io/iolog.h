/* What a worker thread records for fio's log files (write_lat_log, write_bw_log,
 * write_iops_log, write_hist_log), when its job's io_log_spec asks: the engine keeps the
 * figures, the front end (fio/logs.c) turns them into fio's files.
 *
 * Three kinds of records, all timed from the start of the measured part (after the ramp):
 *  - one per I/O (spec.window_ns 0): its completion time, size, offset and latencies;
 *  - one per direction and window (spec.window_ns > 0): the window's I/Os, bytes and the sums
 *    and maxima of their latencies; a window without I/O of a direction has no record;
 *  - one completion latency histogram per direction and spec.hist_ns window (its non-empty
 *    buckets, stats/hist.h's), when a later I/O of that direction closes it, as fio's: the
 *    last, unclosed window has none.
 * The worker calls io_log_start, io_log_io for each measured completion and io_log_end; a
 * job that asks for nothing has no io_log and pays one untaken branch per I/O. Records live in
 * chunks (no big copy while the job runs). Per-I/O records, the ones that grow with the I/O
 * rate, are kept in memory IO_LOG_SPILL_CHUNKS chunks at a time: then they go, as they are, to
 * an unnamed file in the current directory (O_TMPFILE: nothing is left if the process dies)
 * and the chunks are reused, so memory stays bounded however long the job runs. Before each
 * such write the file system must keep space_reserve() free, as for test files; when it would
 * not, the log stops there (nospace). Where no such file can be made, the records stay in
 * memory up to IO_LOG_MAX_BYTES. A log that stopped says so in truncated. */
#ifndef NM_IO_IOLOG_H
#define NM_IO_IOLOG_H

#include <stddef.h>
#include <stdint.h>
#include "io/job.h"

#define IO_LOG_MAX_BYTES (1ull << 30) /* per thread, in memory */
#define IO_LOG_SPILL_CHUNKS 16        /* per-I/O chunks in memory before they go to the file */
#define IO_LOG_NO_SLAT UINT64_MAX     /* an engine without a submission step (psync) */

struct io_log_io {
	uint64_t t_ns;              /* completion */
	uint64_t offset;
	uint64_t clat_ns, lat_ns;
	uint64_t slat_ns;           /* or IO_LOG_NO_SLAT */
	uint32_t bs;                /* bytes done */
	uint8_t dir;
	uint16_t prio;              /* the I/O's ioprio value (0: none set) */
};

struct io_log_window {
	uint64_t t_ns, len_ns;      /* the window's end and length (the last one ends with the run) */
	uint8_t dir;
	uint8_t last;               /* cut short by the end of the run (fio logs its latencies,
	                             * not its bw or iops: its sampler never got there) */
	uint64_t ios, bytes, nslat;
	double lat_sum, clat_sum, slat_sum;
	uint64_t lat_max, clat_max, slat_max;
};

struct io_log_bin {
	uint32_t idx;               /* stats/hist.h bucket */
	uint64_t count;
};

struct io_log_hist {
	uint64_t t_ns;              /* when it was closed (the window's end) */
	uint8_t dir;
	uint32_t bs;                /* the size of the window's last I/O (fio's column) */
	size_t first, n;            /* its buckets: io_log_bin_at(first) .. (first + n - 1) */
};

/* A growing array in fixed chunks: appending never moves what is there. */
struct io_log_chunks {
	char **chunk;
	size_t nchunks, cap, n, esz;
};

struct io_log {
	struct io_log_spec spec;
	uint64_t t0;                /* ticks: measuring began */
	struct io_log_chunks ios, windows, hists, bins;
	struct io_log_window cur[DIR_COUNT];
	uint64_t win_end;           /* ns: the end of the current window */
	uint64_t *hist_cur[DIR_COUNT]; /* counts of the open histogram windows */
	uint64_t hist_n[DIR_COUNT], hist_end[DIR_COUNT];
	uint32_t hist_bs[DIR_COUNT];
	size_t bytes;               /* memory held by the records */
	int truncated;              /* a record was dropped (IO_LOG_MAX_BYTES, no memory, nospace) */
	int nospace;                /* dropped to keep the file system's reserve free */
	int spill_fd;               /* the per-I/O records written out (-1: none, -2: cannot) */
	uint64_t spilled;           /* how many: they come before those in ios */
};

/* A log for spec, or NULL when it asks for nothing or memory is short (then nothing is logged). */
struct io_log *io_log_new(const struct io_log_spec *spec);
void io_log_free(struct io_log *l);

/* The worker's calls: measuring starts at t0 (ticks); an I/O done at done (ticks), submitted
 * at issue (ticks) after it was prepared at start (ticks; async 0: no submission step); the
 * measured part ends end_ns after t0. */
void io_log_start(struct io_log *l, uint64_t t0);
void io_log_io(struct io_log *l, uint8_t dir, uint32_t bs, uint64_t offset, uint16_t prio, uint64_t start,
	       uint64_t issue, uint64_t done, int async);
void io_log_end(struct io_log *l, uint64_t end_ns);

/* Every per-I/O record, in the order they were made (the file's, then memory's). 0, or -1
 * with errno when the file cannot be read back. */
int io_log_each_io(const struct io_log *l, void (*fn)(const struct io_log_io *e, void *arg), void *arg);

/* Reading the records back (in the order they were made): record i of c. */
#define IO_LOG_CHUNK 4096 /* records per chunk */
static inline void *io_log_chunks_at(const struct io_log_chunks *c, size_t i)
{
	return c->chunk[i / IO_LOG_CHUNK] + (i % IO_LOG_CHUNK) * c->esz;
}

#endif
