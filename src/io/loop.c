/* The per-I/O loop of a worker thread: run_sync for synchronous engines, run_async (with its
 * ring slots) for the others, and what they do for every I/O: pick it (next_io, fill_io),
 * time it, book it (complete, book), and look at the clock (tick).
 *
 * Everything the loop touches belongs to this thread (requests, buffers, fds, PRNG, result
 * with its histograms); the only shared things are a stop flag it reads and two progress
 * counters it writes, each on its own cache line.  Nothing in the loop allocates, locks or
 * makes a system call other than the I/O itself (and fsync when asked).
 *
 * Choosing the next I/O (fill_io, next_io and their rare branches) is io/loop_next.h, a header
 * of this file alone. The per-I/O helpers are static inline in this one translation unit on
 * purpose, so the compiler folds them into the two loops; the rare branches (trimwrite, verify, the latency
 * target, rate_min, an engine's pause) are static noinline here, out of the loop's way. A run
 * whose every I/O is the common one (simple_run: one direction of one size, no pacing, no mix,
 * no number_ios...) takes next_io_simple within a pass, so the tests of fio's rarer features
 * are made once per run, not per I/O (BENCHMARKS.md: instructions per null I/O). What
 * runs once per run, per pass or per second is elsewhere: io/worker.c (the thread, the loop's
 * start, passes, syncs) and io/loop_measure.c (the measured window: the ramp's end, the
 * per-second series, snapshots, the final times). */
#include "io/internal.h"
#include "io/iolog.h"
#include "io/loop.h"
#include "io/loop_next.h"
#include "io/ticks.h"
#include "util/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Time-driven events: end of the ramp, a second boundary, the deadline, a stop request.
 * Returns 1 when the loop should stop issuing. */
static inline int tick(struct io_worker *w, struct io_loop *ls, uint64_t now)
{
	if (io_worker_stop_asked(w))
		return 1;
	unsigned req = atomic_load_explicit(&w->ctl->snap_req, memory_order_acquire);
	if (__builtin_expect(req != w->snap_seen, 0))
		io_loop_answer_snapshot(w, ls, now, req);
	if (now < ls->next_event)
		return 0;
	if (ls->ramp_end && now >= ls->ramp_end)
		io_loop_start_measuring(w, ls, now);
	/* the samples due by the deadline count, so a 2 s run at 500 ms has 4 */
	uint64_t upto = ls->deadline && now > ls->deadline ? ls->deadline : now;
	if (ls->measuring && upto >= ls->bw.next)
		io_sampler_close(&ls->bw, w->res, upto);
	if (ls->measuring && upto >= ls->iops.next)
		io_sampler_close(&ls->iops, w->res, upto);
	while (ls->measuring && upto >= ls->sec_next)
		io_loop_close_second(w, ls);
	if (ls->deadline && now >= ls->deadline)
		return 1;
	io_loop_next_event(ls);
	return 0;
}

/* An engine whose I/O is an operation: cpuio and exec move no bytes (their latency is the
 * op's); the file-operation engines' bytes count, and only an I/O that did the operation has a
 * latency (fio times the open, stat or unlink, not the file's other I/Os). */
static __attribute__((noinline)) void book_op(struct io_worker *w, const struct io_req *r, struct io_dir_result *d,
					      uint64_t done)
{
	if (w->ops->caps & IO_ENGINE_OP_LAT) {
		d->bytes += (uint64_t)r->res;
		if (r->no_lat)
			return;
	}
	hist_add(&d->clat, ticks_to_ns(done - r->issue_ns));
	if (w->res->log && (w->ops->caps & IO_ENGINE_OP_LAT))
		io_log_io(w->res->log, r->dir, (uint32_t)r->res, r->offset, r->prio, r->start_ns, r->issue_ns, done, 0);
}

/* Count a finished I/O in the measured figures (always inline: the common I/O books from
 * complete() with no call). */
static inline __attribute__((always_inline)) void book(struct io_worker *w, const struct io_req *r, uint64_t done, int async)
{
	struct io_dir_result *d = &w->res->dir[r->dir];
	d->ios++;
	if (__builtin_expect(w->ops->caps & (IO_ENGINE_NO_DATA | IO_ENGINE_OP_LAT), 0)) {
		book_op(w, r, d, done);
		return;
	}
	d->bytes += (uint64_t)r->res;
	if ((uint64_t)r->res != r->len)
		d->short_ios++;
	hist_add(&d->clat, ticks_to_ns(done - r->issue_ns));
	if (async) {
		hist_add(&d->slat, ticks_to_ns(r->issue_ns - r->start_ns));
		hist_add(&d->lat, ticks_to_ns(done - r->start_ns));
	}
	if (__builtin_expect(w->res->prios != NULL, 0)) /* cmdprio shares: fio's per-priority figures */
		io_prio_book(w->res->prios, r->dir, r->prio,
			     ticks_to_ns(done - (w->job->report.prio_total_lat && async ? r->start_ns : r->issue_ns)));
	if (__builtin_expect(w->res->log != NULL, 0)) /* fio's log files asked for */
		io_log_io(w->res->log, r->dir, (uint32_t)r->res, r->offset, r->prio, r->start_ns, r->issue_ns, done, async);
}

/* The latency target hears of a completion (counted first, as fio counts the I/O that fails
 * the job); -1 when the job fails: percentile 100 and over the target at depth 1. */
static __attribute__((noinline)) int lat_completed(struct io_worker *w, struct io_loop *ls, const struct io_req *r,
						   uint64_t done)
{
	uint64_t lat = ticks_to_ns(done - r->start_ns);
	if (io_lat_completed(&ls->lat, lat) == 0)
		return 0;
	io_worker_failf(w, ETIMEDOUT, "%s: %s of %u bytes at offset %llu: latency of %llu ns over latency_target (%llu ns) at depth 1",
		  w->nfiles ? w->files[r->file].path : "(null)", r->dir == DIR_READ ? "read" : "write", r->len,
		  (unsigned long long)r->offset, (unsigned long long)lat, (unsigned long long)ls->lat.target_ns);
	return -1;
}

/* A read that failed its check (or a logged write, now marked done). -1 stops the job. */
static __attribute__((noinline)) int verify_completed(struct io_worker *w, struct io_req *r)
{
	char msg[sizeof w->err];
	if (io_verify_completed(w, r, msg, sizeof msg) == 0)
		return 0;
	io_worker_failf(w, EILSEQ, "%s", msg);
	return -1;
}

/* fio's fill_device: a write that found the filesystem full ends the thread, not the job's
 * failure; fio counts it as an I/O without bytes. Returns -1: the loop stops. */
static __attribute__((noinline)) int filled(struct io_worker *w, struct io_loop *ls, const struct io_req *r)
{
	if (ls->measuring)
		w->res->dir[DIR_WRITE].ios++;
	if (!w->filled) {
		w->filled = 1;
		nm_warn("%s: write of %u bytes at offset %llu: %s (fill_device: the filesystem is full, the job ends)",
			w->nfiles ? w->files[r->file].path : "(null)", r->len, (unsigned long long)r->offset,
			strerror((int)-r->res));
	}
	return -1;
}

/* What a finished I/O asks for beyond its booking (ls->after_io): its verify state, the syncs
 * every N writes, the booking, its verify check, the latency target's step. -1: the loop stops. */
static __attribute__((noinline)) int completed_more(struct io_worker *w, struct io_loop *ls, struct io_req *r,
						    uint64_t done, int async)
{
	if (w->vring != NULL && r->dir == DIR_WRITE)
		io_vstate_write_done(w->vring, r, 1);
	if (r->dir == DIR_WRITE && (w->job->sync.fsync_every || w->job->sync.fdatasync_every)) {
		unsigned every = w->job->sync.fsync_every ? w->job->sync.fsync_every : w->job->sync.fdatasync_every;
		if (++ls->writes_since_sync >= every)
			ls->need_sync = 1;
	}
	if (ls->measuring)
		book(w, r, done, async);
	/* checked once counted: fio counts the read that fails its check */
	if (r->vcheck != 0 && verify_completed(w, r) < 0)
		return -1;
	if (ls->lat.on)
		return lat_completed(w, ls, r, done);
	return 0;
}

/* Book one finished I/O. Returns -1 on an I/O error (the loop stops). */
static inline int complete(struct io_worker *w, struct io_loop *ls, struct io_req *r, uint64_t done, int async)
{
	if (r->res < 0 || (r->res == 0 && r->len)) {
		int e = r->res < 0 ? (int)-r->res : EIO;
		if (w->vring && r->dir == DIR_WRITE) /* issued, in fio's count, not completed */
			io_vstate_write_done(w->vring, r, 0);
		if (w->job->files.fill && r->dir == DIR_WRITE && (e == ENOSPC || e == EDQUOT))
			return filled(w, ls, r);
		const char *hint = w->ops->fail_hint ? w->ops->fail_hint(w, e) : NULL;
		static const char *const what[DIR_COUNT] = { "read", "write", "trim" };
		io_worker_failf(w, e, "%s: %s of %u bytes at offset %llu: %s%s",
			  w->nfiles ? w->files[r->file].path : "(null)", what[r->dir],
			  r->len, (unsigned long long)r->offset,
			  r->res < 0 ? strerror(e) : "unexpected end of file", hint ? hint : "");
		return -1;
	}
	if (__builtin_expect(ls->after_io, 0))
		return completed_more(w, ls, r, done, async);
	if (ls->measuring)
		book(w, r, done, async);
	return 0;
}

/* rate_min / rate_iops_min not met: the job fails, as fio's. */
static __attribute__((noinline)) int rate_min_failed(struct io_worker *w, struct io_loop *ls, uint64_t now)
{
	char msg[256];
	if (io_pace_check_min(&ls->pace, w->job, w->res, now, msg, sizeof msg) == 0)
		return 0;
	io_worker_failf(w, EIO, "%s", msg);
	return 1;
}

/* The latency target after completions: the window's verdict, and once what was in flight at
 * the old depth is done, the next window (at the final run, the figures start over too).
 * Returns 1 when the search is over and the job ends. */
static __attribute__((noinline)) int lat_step(struct io_worker *w, struct io_loop *ls, unsigned inflight, uint64_t now)
{
	struct io_lat *l = &ls->lat;
	if (w->status != IO_OK) /* failed (over the target at depth 1): the search is over */
		return 1;
	if (ls->measuring)
		io_lat_check(l, now);
	if (l->quiesce && !inflight && io_lat_quiesced(l, now))
		io_loop_start_measuring(w, ls, now);
	ls->lat_unused = io_lat_unused(l, w->depth);
	w->res->latency_depth = l->qd;
	return l->done;
}

/* The rest an engine asked for after its I/O, in steps of at most 50 ms to see a stop or the
 * deadline (what runs past it is not measured). Returns 1 when the loop should stop. */
static __attribute__((noinline)) int engine_pause(struct io_worker *w, struct io_loop *ls)
{
	uint64_t end = ticks_now() + ticks_from_ns(w->pause_ns), now;
	int stop;
	w->pause_ns = 0;
	while (!(stop = tick(w, ls, now = ticks_now())) && now < end) {
		uint64_t ns = ticks_to_ns(end - now);
		struct timespec ts = { 0, (long)(ns < 50000000ull ? ns : 50000000ull) };
		nanosleep(&ts, NULL);
	}
	return stop;
}

static void run_sync(struct io_worker *w, struct io_loop *ls)
{
	struct io_req *r = &w->reqs[0];
	const struct io_engine_ops *ops = w->ops;
	struct io_live *live = w->live;
	uint64_t ios = 0, bytes = 0;
	w->res->iodepth_level[0] = 0;
	for (;;) {
		int n = next_io(w, ls, r);
		if (n < 0) { /* paced: wait for the I/O's time, minding the loop's events */
			io_pace_wait(&ls->pace, w->job, ls->next_event);
			if (tick(w, ls, ticks_now()))
				break;
			continue;
		}
		if (!n)
			break;
		uint64_t t0 = ticks_now();
		r->start_ns = r->issue_ns = t0;
		if (ls->scramble && r->dir == DIR_WRITE) { /* fio's clat starts after it */
			scramble(r, t0);
			r->issue_ns = ticks_now();
		}
		int last = ops->queue(w, r) == IO_QUEUE_LAST;
		uint64_t t1 = ticks_now();
		if (last && r->res <= 0) /* the peer closed before this one: nothing to book */
			break;
		if (complete(w, ls, r, t1, 0) < 0 || (ls->pace.on && rate_min_failed(w, ls, t1)))
			break;
		ls->last_done = t1;
		ios++;
		bytes += r->len;
		atomic_store_explicit(&live->ios, ios, memory_order_relaxed);
		atomic_store_explicit(&live->bytes, bytes, memory_order_relaxed);
		if (ls->need_sync) {
			io_loop_sync_files(w, ls);
			if (w->status != IO_OK)
				break;
		}
		if (__builtin_expect(ls->lat.on, 0) && lat_step(w, ls, 0, t1))
			break;
		if (last || tick(w, ls, t1))
			break;
		if (__builtin_expect(w->pause_ns != 0, 0) && engine_pause(w, ls))
			break;
	}
	if (ls->measuring) {
		io_book_sync_levels(w->res);
		w->res->depth_max = io_total_ios(w->res) ? 1 : 0;
		w->res->depth_samples = io_total_ios(w->res);
		ls->depth_sum = (double)io_total_ios(w->res);
	}
}

static inline unsigned depth_bucket(unsigned n)
{
	/* fio's 1, 2, 4, 8, 16, 32, >=64 */
	unsigned b = 0;
	while (b < 6 && (1u << (b + 1)) <= n)
		b++;
	return b;
}

/* fio's buckets for the I/Os one call submitted or reaped: 0, 1-4, 5-8, ..., 33-64, more */
static inline unsigned call_bucket(unsigned n)
{
	if (!n)
		return 0;
	unsigned b = 1;
	while (b < 6 && n > (4u << (b - 1)))
		b++;
	return b;
}

/* The requests of run_async: free slots, those queued and not yet submitted, completions. */
struct ring_slots {
	struct io_req **freelist, **queued, **done;
	unsigned nfree, nqueued, inflight;
	unsigned inline_done;       /* I/Os queue() did itself (trims), booked since the last look */
	uint64_t inline_bytes;
	struct io_req *held;        /* prepared, waiting for an overlapping I/O (serialize_overlap) */
};

/* fio's serialize_overlap: whether r's bytes overlap those of an I/O queued or in flight on
 * its file (it then waits for that one's completion, as fio's FIO_Q_BUSY). */
static __attribute__((noinline)) int overlaps_busy(const struct io_worker *w, const struct io_req *r)
{
	for (unsigned i = 0; i < w->depth; i++) {
		const struct io_req *o = &w->reqs[i];
		if (o->busy && o->file == r->file && o->offset < r->offset + r->len && r->offset < o->offset + o->len)
			return 1;
	}
	return 0;
}

/* The next request to queue: the one held back once nothing it overlaps is busy, else a free
 * slot filled by next_io (held back when it overlaps).  1 with *rp set; 0 nothing to queue now
 * (a held one waits, or next_io held back: *stop says whether it is done); -1 none free. */
static inline int take_next(struct io_worker *w, struct io_loop *ls, struct ring_slots *q, struct io_req **rp,
			    int *stop)
{
	if (__builtin_expect(q->held != NULL, 0)) {
		if (overlaps_busy(w, q->held))
			return 0;
		*rp = q->held;
		q->held = NULL;
		return 1;
	}
	if (q->nfree <= ls->lat_unused)
		return -1;
	struct io_req *r = q->freelist[--q->nfree];
	int n = next_io(w, ls, r);
	if (n <= 0) { /* done, or held back by pacing (run_async waits once nothing is in flight) */
		q->nfree++;
		*stop = n == 0;
		return 0;
	}
	if (__builtin_expect(w->job->queue.serialize_overlap, 0) && overlaps_busy(w, r)) {
		q->held = r;
		return 0;
	}
	*rp = r;
	return 1;
}

/* Hand what is queued to the kernel and stamp it: slat up to the return of the submitting
 * call, clat from there (as fio's io_uring engine stamps issue_time after io_uring_enter). */
static int submit_queued(struct io_worker *w, struct io_loop *ls, struct ring_slots *q)
{
	int n = w->ops->submit(w);
	if (n < 0) {
		io_worker_failf(w, -n, "%s: io_uring_enter: %s", w->nfiles ? w->files[0].path : "", strerror(-n));
		return -1;
	}
	uint64_t issue = ticks_now();
	if (ls->measuring)
		w->res->submit_level[call_bucket(q->nqueued)]++;
	for (unsigned i = 0; i < q->nqueued; i++) {
		q->queued[i]->issue_ns = issue;
		q->inflight++;
		if (ls->measuring)
			w->res->iodepth_level[depth_bucket(q->inflight)]++;
	}
	q->nqueued = 0;
	return 0;
}

/* An I/O the engine did inside queue(), as fio's io_uring and libaio engines do trims: booked
 * at once, its slot free again. Returns 1 when the loop should stop (it failed). */
static __attribute__((noinline)) int complete_inline(struct io_worker *w, struct io_loop *ls, struct ring_slots *q,
						     struct io_req *r)
{
	uint64_t t = ticks_now();
	r->issue_ns = r->start_ns;
	ls->last_done = t;
	q->freelist[q->nfree++] = r;
	q->inline_done++;
	q->inline_bytes += r->len;
	return complete(w, ls, r, t, 1) < 0;
}

/* The I/Os done inside queue() since the last look, into the live counters. Returns 1 when
 * nothing is in flight (the loop goes round again rather than wait). */
static __attribute__((noinline)) int count_inline(struct io_worker *w, struct ring_slots *q, uint64_t *ios,
						  uint64_t *bytes)
{
	*ios += q->inline_done;
	*bytes += q->inline_bytes;
	q->inline_done = 0;
	q->inline_bytes = 0;
	atomic_store_explicit(&w->live->ios, *ios, memory_order_relaxed);
	atomic_store_explicit(&w->live->bytes, *bytes, memory_order_relaxed);
	return !q->inflight;
}

/* Fill every free slot, submitting each batch as it is ready (fio's iodepth_batch_submit,
 * default 1: an I/O goes to the kernel as soon as it is prepared). Returns 1 when the loop
 * should stop issuing, -1 on a failed submission. */
static int refill(struct io_worker *w, struct io_loop *ls, struct ring_slots *q)
{
	unsigned batch = w->job->queue.iodepth_batch_submit ? w->job->queue.iodepth_batch_submit : 1;
	int stop = 0;
	while (!ls->need_sync) {
		struct io_req *r;
		if (take_next(w, ls, q, &r, &stop) <= 0)
			break;
		r->start_ns = ticks_now();
		if (ls->scramble && r->dir == DIR_WRITE) /* in the submission latency, as fio's */
			scramble(r, r->start_ns);
		int rc = w->ops->queue(w, r);
		if (rc < 0) {
			io_worker_failf(w, -rc, "%s: cannot queue I/O: %s", w->files[r->file].path, strerror(-rc));
			q->freelist[q->nfree++] = r;
			stop = 1;
			break;
		}
		if (__builtin_expect(rc > 0, 0)) { /* done already (a trim): book it, then tick again */
			stop = complete_inline(w, ls, q, r);
			break;
		}
		r->busy = 1;
		q->queued[q->nqueued++] = r;
		if (q->nqueued >= batch && submit_queued(w, ls, q) < 0)
			return -1;
	}
	if (q->nqueued && submit_queued(w, ls, q) < 0)
		return -1;
	if (ls->measuring && q->inflight) { /* the depth the wait starts with */
		struct io_job_result *res = w->res;
		if (q->inflight > res->depth_max)
			res->depth_max = q->inflight;
		res->depth_samples++;
		ls->depth_sum += q->inflight;
	}
	return stop;
}

/* Keep iodepth I/Os in flight as fio does: wait for iodepth_batch_complete_min completions
 * (fio's default: 1), take at most iodepth_batch_complete_max of those that are there (fio's
 * default: the min), refill the freed slots, and wait again. At the deadline (or a stop)
 * nothing more is issued and what is in flight is drained and counted, as fio's. */
static void run_async(struct io_worker *w, struct io_loop *ls)
{
	unsigned depth = w->depth;
	struct ring_slots q = { .freelist = malloc(depth * sizeof *q.freelist), .queued = malloc(depth * sizeof *q.queued),
				.done = malloc(depth * sizeof *q.done), .nfree = depth };
	uint64_t ios = 0, bytes = 0;
	int draining = 0;
	/* fio's iodepth_batch_complete_min (0 waits for 1 all the same, as fio's) and _max (at
	 * least the min) */
	unsigned reap_min = w->job->queue.iodepth_batch_complete_min ? w->job->queue.iodepth_batch_complete_min : 1;
	unsigned reap_max = w->job->queue.iodepth_batch_complete_max;
	if (reap_min > depth)
		reap_min = depth;
	if (reap_max < reap_min)
		reap_max = reap_min;
	if (reap_max > depth)
		reap_max = depth;
	if (!q.freelist || !q.done || !q.queued) {
		io_worker_failf(w, ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < depth; i++)
		q.freelist[i] = &w->reqs[depth - 1 - i];

	for (;;) {
		if (!draining && (tick(w, ls, ticks_now()) || w->status != IO_OK))
			draining = 1;
		if (ls->need_sync && !draining && q.inflight == 0) {
			io_loop_sync_files(w, ls);
			if (w->status != IO_OK)
				draining = 1;
		}
		if (!draining) {
			int rc = refill(w, ls, &q);
			if (rc < 0)
				break;
			draining = rc;
		}
		if (__builtin_expect(q.inline_done != 0, 0) && count_inline(w, &q, &ios, &bytes))
			continue; /* nothing in flight to wait for: issue more */
		if (!q.inflight) {
			if (!draining && ls->pace.held) {
				io_pace_wait(&ls->pace, w->job, ls->next_event);
				continue;
			}
			break;
		}
		int n = w->ops->reap(w, reap_min < q.inflight ? reap_min : q.inflight, reap_max, q.done);
		if (n < 0) {
			io_worker_failf(w, -n, "%s: waiting for completions: %s", w->nfiles ? w->files[0].path : "", strerror(-n));
			break;
		}
		uint64_t t = ticks_now();
		if (ls->measuring)
			w->res->complete_level[call_bucket((unsigned)n)]++;
		/* What completes after the deadline counts, and the runtime runs to it (fill_times):
		 * fio reaps what is in flight when its runtime is up and counts it (do_io) */
		ls->last_done = t;
		for (int i = 0; i < n; i++) {
			struct io_req *r = q.done[i];
			r->busy = 0;
			q.inflight--;
			q.freelist[q.nfree++] = r;
			if (complete(w, ls, r, t, 1) < 0)
				draining = 1;
			ios++;
			bytes += r->len;
		}
		atomic_store_explicit(&w->live->ios, ios, memory_order_relaxed);
		atomic_store_explicit(&w->live->bytes, bytes, memory_order_relaxed);
		if (ls->pace.on && rate_min_failed(w, ls, t))
			draining = 1;
		if (__builtin_expect(ls->lat.on, 0) && lat_step(w, ls, q.inflight, t))
			draining = 1;
	}
out:
	free(q.freelist);
	free(q.done);
	free(q.queued);
}

void io_loop_run(struct io_worker *w, struct io_loop *ls)
{
	ls->simple = simple_run(w, ls);
	ls->scramble = w->job->buf.scramble && !w->job->buf.refill_buffers && !w->vfy && ls->fixed_dir != DIR_READ;
	const struct io_job *job = w->job;
	ls->after_io = w->vfy || w->vring || job->sync.fsync_every || job->sync.fdatasync_every ||
		       job->pace.lat_target_ns || ls->lat.on;
	if ((w->ops->caps & IO_ENGINE_SYNC))
		run_sync(w, ls);
	else
		run_async(w, ls);
}
