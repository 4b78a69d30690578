/* The state of a worker's I/O loop and what the loop's files share. They call downward only:
 * the thread (io/worker.c) runs the read-back driver of data verification (io/verify_run.c) or
 * the per-I/O loop (io/loop.c); both use the passes over the files (io/pass.c); the loop
 * keeps its figures through its measured window (io/loop_measure.c). Everything in the state
 * belongs to the worker's own thread. */
#ifndef NM_IO_LOOP_H
#define NM_IO_LOOP_H

#include "io/internal.h"

#include <sys/resource.h>

struct io_loop {
	int random, fixed_dir;     /* fixed_dir: DIR_READ/DIR_WRITE/DIR_TRIM, or -1 for a mix */
	int trimwrite, tw_pending; /* fio's trimwrite (each block trimmed, then written); the last
	                            * I/O was a trim, at tw_offset, tw_len bytes, of tw_file */
	uint64_t tw_offset;
	uint32_t tw_len;
	uint32_t tw_file;
	int measuring;
	uint64_t t_start;          /* ticks: the loop began */
	uint64_t t_measure;        /* ticks: measuring began (after the ramp) */
	uint64_t ramp_end;         /* ticks; 0 = no ramp left */
	uint64_t deadline;         /* ticks; 0 = none */
	uint64_t last_done;        /* ticks: the last counted completion */
	uint64_t next_event;       /* min of ramp_end, sec_next, the samplers' next, deadline */
	uint64_t sec_next, sec_len;
	uint64_t sec_ios0, sec_bytes0;
	struct io_sampler bw, iops;
	double depth_sum;          /* I/Os in flight after each submission, summed */
	uint64_t pass_size, issued; /* bytes per pass over the files, bytes issued in this pass */
	uint64_t cut;               /* issued bytes where next_io looks up from its fast path: the
	                             * pass's end, or the zone's (strided zones) if that is sooner */
	uint64_t mix_slack;         /* a pass (or zone) with less than this + 1 bytes left is over:
	                             * the smallest mixed size less 1 where what is left bounds a
	                             * size (io/bssplit.c), else 0 */
	int file_ends;              /* a mix over several files: each file's pass ends where the
	                             * smallest size no longer fits it (the rest of its region, or
	                             * of what a random map holds), as fio's files of size/nrfiles */
	int seq_ends;               /* rw of one size, or one direction with fio's holes
	                             * (rw=read:N): a file is done where a direction's next
	                             * block no longer fits it (io/worker.c, io/loop.c's seq_done) */
	int rand_ends;              /* random I/O of one size over a random map: a file is done
	                             * once each of its whole blocks had an I/O, as fio's map full
	                             * (where that changes which file gets an I/O: io/worker.c) */
	int files_again;            /* every file done before the pass's bytes: they start over
	                             * within the pass (fio's io_size over a random mix's map) */
	uint64_t files_whole;       /* one size where the files end a pass (sequential I/O of one
	                             * direction, a random map): their whole blocks; else 0 */
	int zoned;                  /* fio's strided zones (job->pattern.zone_size, one file) */
	/* rw and randrw: the direction as fio's rwmix takes it (io/loop.c's mix_dir): mix_dir's
	 * I/Os go on until mix_ios[mix_dir] reaches mix_until, then a direction is drawn */
	int mix_dir;
	uint64_t mix_ios[2], mix_until;
	uint64_t pass_ios;          /* I/Os issued in this pass (for number_ios) */
	uint64_t number_ios;        /* job->number_ios (twice that for trimwrite, as fio) */
	int simple;                /* every I/O of the run is the common one (io/loop.c's
	                            * simple_run): within a pass, next_io tests nothing else */
	int after_io;              /* a finished I/O asks for more than its booking (verify, a
	                            * verify state, syncs every N writes, a latency target): set
	                            * once per run, so the common I/O tests one flag */
	int scramble;              /* writes get fio's scramble (job->buf.scramble where the
	                            * buffer is neither refilled nor verify's) */
	int opening;               /* the first I/O is still to come: its files' cache is yet to drop */
	unsigned loops_left;
	/* fio's thread loop over a job's loops and io_size (io/pass.c's io_loop_fio_pass): the
	 * bytes and I/Os issued in the passes before this one, the bytes that end the job (loops
	 * x io_size, or size), a pass's bounds from its files and from an engine that queues */
	int fio_passes;
	uint64_t done_bytes, done_ios, limit, files_cap, queue_cap;
	unsigned writes_since_sync;
	int need_sync;
	uint64_t mono_start;
	struct rusage ru0;         /* at the start of the measured part: CPU and switches */
	struct rusage ru_thread0;  /* at the thread's start: page faults (as fio's, which count
	                            * the faults of its buffers' first touch) */
	size_t sec_cap;
	struct io_pace pace;       /* rate and thinktime (io/rate.c); pace.on 0: none */
	struct io_lat lat;         /* latency target (io/lattarget.c); lat.on 0: none */
	unsigned lat_unused;       /* request slots the latency target leaves unused; 0 without one */
	/* data verification (io/verify_run.c): the run is in phases, writes then their read-back
	 * (verifying); the time of each, the runtimes fio gives writes and reads */
	int phased, verifying;
	uint64_t phase_ticks[DIR_COUNT];
};

/* io/loop.c: run the engine's loop until next_io has nothing more (or the deadline, a stop,
 * an error). */
void io_loop_run(struct io_worker *w, struct io_loop *ls);

/* io/pass.c: start a new pass over the files (their offsets from the start; the cache
 * dropped when reopen, or always for a buffered job); sync the files (fsync, or fdatasync for
 * a job with fdatasync= only). */
void io_loop_new_pass(struct io_worker *w, struct io_loop *ls, int reopen);
/* io/pass.c: with ls->fio_passes, whether fio's thread loop runs another pass and, if so, its
 * size (ls->pass_size, and ls->number_ios the I/Os left); 0: the job is over. */
int io_loop_fio_pass(struct io_worker *w, struct io_loop *ls);
void io_loop_sync_files(struct io_worker *w, struct io_loop *ls);
/* io/worker_setup.c: fail the job with a message (the first failure is kept). */
void io_worker_failf(struct io_worker *w, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* io/loop_measure.c: the clocks before the first I/O (after the direction and pass size are
 * set); the figures started over (the ramp's end: counts, histograms, samplers, CPU); a second
 * closed into the per-second series; a snapshot request answered into w->snap; the final
 * times, CPU and rate summaries. */
void io_loop_start_clocks(struct io_worker *w, struct io_loop *ls);
void io_loop_start_measuring(struct io_worker *w, struct io_loop *ls, uint64_t now);
void io_loop_close_second(struct io_worker *w, struct io_loop *ls);
void io_loop_answer_snapshot(struct io_worker *w, struct io_loop *ls, uint64_t now, unsigned req);
void io_loop_finish(struct io_worker *w, struct io_loop *ls);

/* The loop's next time-driven event (tick looks closer only then): the ramp's end, else the
 * next second or sample, and the deadline if sooner. */
static inline void io_loop_next_event(struct io_loop *ls)
{
	uint64_t e = UINT64_MAX;
	if (ls->ramp_end)
		e = ls->ramp_end;
	else {
		e = ls->sec_next < ls->bw.next ? ls->sec_next : ls->bw.next;
		if (ls->iops.next < e)
			e = ls->iops.next;
	}
	if (ls->deadline && ls->deadline < e)
		e = ls->deadline;
	ls->next_event = e;
}

static inline uint64_t io_total_ios(const struct io_job_result *r)
{
	return r->dir[DIR_READ].ios + r->dir[DIR_WRITE].ios + r->dir[DIR_TRIM].ios;
}

/* A synchronous engine's I/Os are each at depth 1, submitted and completed one per call. */
static inline void io_book_sync_levels(struct io_job_result *r)
{
	uint64_t n = io_total_ios(r);
	r->iodepth_level[0] = n;
	r->submit_level[1] = r->complete_level[1] = n;
}

/* io/verify_run.c: fio's write and verify passes. */
void io_loop_run_verified(struct io_worker *w, struct io_loop *ls);

#endif
