/* The per-I/O loop of a worker thread: run_sync for synchronous engines, run_async (with its
 * ring slots) for the others, and what they do for every I/O: pick it (next_io, fill_io),
 * time it, book it (complete, book), and look at the clock (tick).
 *
 * Everything the loop touches belongs to this thread (requests, buffers, fds, PRNG, result
 * with its histograms); the only shared things are a stop flag it reads and two progress
 * counters it writes, each on its own cache line.  Nothing in the loop allocates, locks or
 * makes a system call other than the I/O itself (and fsync when asked).
 *
 * The per-I/O helpers are static inline in this one translation unit on purpose, so the
 * compiler folds them into the two loops; the rare branches (trimwrite, verify, the latency
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

/* What a mixed size must fit in, as fio's: the rest of the pass where fio's end of the file
 * ends it (a random map used up, or one direction's sequential I/O at the region's end; fio's
 * byte count alone goes past it), and for sequential I/O the rest of the region from where the
 * file is (from its start again when not even the smallest
 * size fits there, as the offset wraps). */
static __attribute__((noinline)) uint64_t mixed_room(struct io_worker *w, const struct io_loop *ls,
						     const struct io_file *f, int dir)
{
	uint64_t room = UINT64_MAX;
	if (ls->mix_slack)
		room = ls->cut > ls->issued ? ls->cut - ls->issued : 0;
	if (w->nfiles && f->region_len < room)
		room = f->region_len;
	if (!ls->random && w->nfiles) {
		uint64_t end = f->region_start + f->region_len, pos = f->seq_pos[dir];
		uint64_t left = pos < end ? end - pos : 0;
		if (left < io_bs_smallest(w->job, dir) && !ls->file_ends)
			left = f->region_len;
		room = left < room ? left : room;
	}
	if (ls->random && ls->file_ends) { /* what the file's random map has left */
		uint64_t small = io_bs_smallest(w->job, dir), cap = f->region_len - f->region_len % small;
		uint64_t left = cap > f->moved ? cap - f->moved : 0;
		room = left < room ? left : room;
	}
	return room;
}

/* The file *f is done: mark it and move r to the next one. 0 when every file is done (the
 * pass is over), else 1 with *f, *fi and r->file on the next file. */
static __attribute__((noinline)) int file_done(struct io_worker *w, struct io_file **f, unsigned *fi,
					       struct io_req *r, uint64_t bs)
{
	(*f)->done = 1;
	if (__builtin_expect(w->open_cap != 0, 0))
		io_file_done_close(w, *fi);
	if (++w->files_done == w->nfiles)
		return 0;
	*fi = io_next_file(w, bs);
	*f = &w->files[*fi];
	r->file = (uint32_t)*fi;
	return 1;
}

/* Whether sequential I/O of bs bytes is done with file f (ls->seq_ends): its next block no
 * longer fits the region. With fio's holes (rw=read:N), fio 3.33's get_next_seq_offset and
 * get_next_offset: the file is done once the last I/O reached the file's end; an offset in
 * the region (hole added) at or past the file's size wraps, to offset= within the region
 * (fio's own quirk: 0 where the region starts the file); at or past the region's length it
 * is done, and so is a block that would run past the region's end. */
static inline int seq_done(const struct io_worker *w, struct io_file *f, int dir, uint64_t bs)
{
	uint64_t end = f->region_start + f->region_len, pos = f->seq_pos[dir];
	int64_t skip = w->job->pattern.rw_seq_skip;
	if (skip > 0 && pos != f->region_start) {
		uint64_t real = f->size > end ? f->size : end;
		if (pos - (uint64_t)skip >= real)
			return 1;
		if (pos - f->region_start >= real)
			f->seq_pos[dir] = pos = 2 * f->region_start;
		if (pos - f->region_start >= f->region_len)
			return 1;
	}
	return pos + bs > end;
}

/* Whether each write gets new data (fio's refill_buffers: random, or buffer_pattern's). */
static inline int refills(const struct io_job *job)
{
	return job->buf.refill_buffers && job->buf.fill != FILL_ZERO;
}

/* fio's scramble_buffers on a write about to go: in each whole 512-byte sector of its buffer,
 * the sector's file offset at the start of one of its 8 cache lines (the same one for the
 * I/O, picked by the time) and the start time (seconds, nanoseconds) in its bytes 48..63, as
 * fio 3.33's small_content_scramble; a reused buffer then never writes the same bytes twice. */
static inline void scramble(struct io_req *r, uint64_t start)
{
	uint64_t ns = ticks_to_ns(start), t[2] = { ns / 1000000000u, ns % 1000000000u }, off = r->offset;
	size_t line = (size_t)((t[1] ^ off) & 7) << 6;
	for (char *p = r->buf, *end = p + (r->len & ~511u); p < end; p += 512, off += 512) {
		memcpy(p + line, &off, sizeof off);
		memcpy(p + 48, t, sizeof t);
	}
}

/* Where an I/O of one size goes in f (none in no file, or in one smaller than the size). */
static inline uint64_t one_size_offset(struct io_worker *w, const struct io_loop *ls, struct io_file *f, int dir,
				       uint64_t bs)
{
	return w->nfiles && f->region_len >= bs ? io_pick_offset(w, f, dir, bs, ls->random) : 0;
}

/* Fill r with an I/O of direction dir (which pacing may switch). Returns -1 when its rate or
 * think time holds it back (ls->pace says until when), 0 when every file of a mix's file ends
 * is done (the pass is over), else 1. */
static inline int fill_io(struct io_worker *w, struct io_loop *ls, struct io_req *r, int dir)
{
	const struct io_job *job = w->job;
	if (__builtin_expect(ls->pace.on, 0) && io_pace_hold(&ls->pace, job, &dir, ticks_now()))
		return -1;
	uint64_t bs = job->bs[dir];
	unsigned fi = w->nfiles > 1 ? io_next_file(w, bs) : 0;
	struct io_file *f = &w->files[fi];
	r->dir = (uint8_t)dir;
	r->file = (uint32_t)fi;
	if (__builtin_expect(w->fio_offsets != 0, 0)) { /* a random mix's offsets as fio's */
		int64_t off;
		while ((off = io_bs_fio_offset(w, f, dir)) < 0) /* the file is done */
			if (!file_done(w, &f, &fi, r, bs))
				return 0;
		bs = io_bs_pick(w, dir, f->region_len - (uint64_t)off);
		bs = io_bs_fio_mark(w, f, dir, (uint64_t)off, bs); /* the map, last_pos */
		r->offset = f->region_start + (uint64_t)off;
	} else if (__builtin_expect(w->mixed_bs, 0)) {
		uint64_t room = mixed_room(w, ls, f, dir);
		while (ls->file_ends && room < io_bs_smallest(job, dir)) { /* the file is done */
			if (!file_done(w, &f, &fi, r, bs))
				return 0;
			room = mixed_room(w, ls, f, dir);
		}
		if (ls->random && job->pattern.lfsr && w->nfiles && !f->dist) {
			/* fio's order: the register's next block, then a size that fits from there */
			r->offset = io_lfsr_offset(f, io_bs_smallest(job, dir));
			uint64_t left = f->region_start + f->region_len - r->offset;
			bs = io_bs_pick(w, dir, left < room ? left : room);
		} else {
			bs = io_bs_pick(w, dir, room);
			r->offset = w->nfiles ? io_bs_offset(w, f, dir, bs, ls->random) : 0;
		}
		uint64_t small = io_bs_smallest(job, dir); /* a random map's blocks are the smallest size */
		f->moved += ls->random ? (bs + small - 1) / small * small : bs;
	} else {
		while (__builtin_expect(ls->seq_ends, 0) && seq_done(w, f, dir, bs))
			if (!file_done(w, &f, &fi, r, bs)) /* the file is done */
				return 0;
		if (__builtin_expect(ls->rand_ends, 0)) {
			while (f->moved / bs >= f->region_len / bs) /* its map is full: done */
				if (!file_done(w, &f, &fi, r, bs))
					return 0;
			f->moved += bs;
		}
		r->offset = one_size_offset(w, ls, f, dir, bs);
	}
	r->len = (uint32_t)bs;
	r->prio = job->place.ioprio;
	if (__builtin_expect(job->place.ncmdprio[dir] != 0, 0))
		r->prio = io_prio_pick(w, dir, bs);
	ls->issued += bs;
	ls->pass_ios++;
	if (__builtin_expect(ls->pace.on, 0))
		io_pace_issued(&ls->pace, job, dir, bs);
	if (dir == DIR_WRITE && refills(job))
		io_refill_buffer(w, r->buf, bs);
	return 1;
}

/* trimwrite: a trim of the next block, then a write of the same block (fio writes what it
 * trimmed, offset and size); the pair counts twice towards the pass, as in fio. */
static __attribute__((noinline)) int trimwrite_next(struct io_worker *w, struct io_loop *ls, struct io_req *r)
{
	if (!ls->tw_pending) {
		int n = fill_io(w, ls, r, DIR_TRIM);
		if (n > 0 && r->dir == DIR_TRIM) {
			ls->tw_pending = 1;
			ls->tw_offset = r->offset;
			ls->tw_len = r->len;
			ls->tw_file = r->file;
		}
		return n;
	}
	if (ls->pace.on && io_pace_hold(&ls->pace, w->job, &(int){ DIR_WRITE }, ticks_now()))
		return -1;
	ls->tw_pending = 0;
	r->dir = DIR_WRITE;
	r->offset = ls->tw_offset;
	r->len = ls->tw_len;
	r->file = ls->tw_file;
	r->prio = w->job->place.ioprio;
	ls->issued += r->len;
	ls->pass_ios++;
	if (ls->pace.on)
		io_pace_issued(&ls->pace, w->job, DIR_WRITE, r->len);
	if (refills(w->job))
		io_refill_buffer(w, r->buf, r->len);
	return 1;
}

/* The direction of rw's and randrw's next I/O, as fio 3.33's rwmix takes it: a direction is
 * drawn (1 + r/2^32 x 100 at most rwmix_read: a read) once the current one's I/Os reach
 * mix_until; a change of direction sets mix_until to the old direction's I/Os so far times
 * the new one's share, so a direction is kept for a run of I/Os. */
static inline int mix_dir(struct io_worker *w, struct io_loop *ls)
{
	if (ls->mix_ios[ls->mix_dir] >= ls->mix_until) {
		uint64_t r = io_taus_next(&w->mix_taus);
		unsigned v = 1 + (unsigned)(100.0 * io_taus_unit(&w->mix_taus, r)), rd = w->job->rwmix_read;
		int d = v <= rd ? DIR_READ : DIR_WRITE;
		if (d != ls->mix_dir)
			ls->mix_until = ls->mix_ios[ls->mix_dir] * (d == DIR_READ ? rd : 100 - rd) / 100;
		ls->mix_dir = d;
	}
	return ls->mix_dir;
}

/* Fill r with the next I/O. Returns 0 when this thread has nothing more to issue, -1 when
 * its rate or think time holds the next one back (ls->pace says until when). */
static inline int next_io_plain(struct io_worker *w, struct io_loop *ls, struct io_req *r)
{
	const struct io_job *job = w->job;
	/* a trim's write goes whatever the count: fio ends a trimwrite job on its written bytes */
	if (__builtin_expect(ls->tw_pending, 0))
		return trimwrite_next(w, ls, r);
again:
	if (ls->issued + ls->mix_slack >= ls->cut || (ls->number_ios && ls->pass_ios >= ls->number_ios)) {
		if (ls->issued + ls->mix_slack < ls->pass_size && !(ls->number_ios && ls->pass_ios >= ls->number_ios)) {
			ls->cut = io_zone_next(w, ls->issued, ls->pass_size); /* a zone's end, mid-pass */
		} else {
			if (ls->fio_passes && !ls->opening) {
				ls->done_bytes += ls->issued;
				ls->done_ios += ls->pass_ios;
				if (!io_loop_fio_pass(w, ls))
					return 0;
			} else if (!job->time_based && !ls->opening) {
				if (ls->loops_left <= 1)
					return 0;
				ls->loops_left--;
			}
			io_loop_new_pass(w, ls, ls->opening || !job->time_based);
		}
	}
	int dir = ls->fixed_dir;
	if (dir < 0) {
		if (__builtin_expect(ls->trimwrite, 0))
			return trimwrite_next(w, ls, r);
		dir = mix_dir(w, ls);
	}
	int n = fill_io(w, ls, r, dir);
	if (n == 1 && ls->fixed_dir < 0 && r->dir < 2)
		ls->mix_ios[r->dir]++;
	if (__builtin_expect(n == 0, 0)) { /* every file done: the pass is over, or they start over */
		uint64_t big = w->job->bs[DIR_READ] > w->job->bs[DIR_WRITE] ? w->job->bs[DIR_READ] : w->job->bs[DIR_WRITE];
		if (ls->files_again && ls->pass_size - ls->issued >= big) { /* fio: not for less than a largest size */
			uint64_t issued = ls->issued, ios = ls->pass_ios;
			io_loop_new_pass(w, ls, 1);
			ls->issued = issued, ls->pass_ios = ios;
		} else if (ls->fio_passes) { /* the pass is over at what it issued */
			ls->pass_size = ls->cut = ls->issued;
		} else {
			ls->issued = ls->cut = ls->pass_size;
		}
		goto again;
	}
	return n;
}

/* Count a finished I/O in the measured figures. */
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

/* (always inline: the common I/O books from complete() with no call) */
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

/* A job with verify=: the read-back phase reads the logged writes; during the writes, a
 * backlog batch may come first; the job's own I/O gets its data, headers and log entry. */
static __attribute__((noinline)) int next_io_verified(struct io_worker *w, struct io_loop *ls, struct io_req *r)
{
	r->vcheck = 0;
	if (io_verify_state_stopped(w->vfy))
		return 0;
	int n;
	if (ls->verifying)
		n = io_verify_next_readback(w, r);
	else if (io_verify_next_backlog(w, r))
		n = 1;
	else if ((n = next_io_plain(w, ls, r)) == 1)
		io_verify_prepare(w, r);
	if (n == 1 && r->vcheck == IO_VCHECK_READ && w->job->verify.loaded && io_vstate_stops(w, r)) {
		io_verify_state_stop(w->vfy); /* past what the saved writes completed: the job ends */
		return 0;
	}
	return n;
}

/* fio's iologs: the I/O comes from the log being replayed, or is picked as usual; either way
 * a record gets its line. */
static __attribute__((noinline)) int next_io_traced(struct io_worker *w, struct io_loop *ls, struct io_req *r)
{
	int n;
	if (w->job->replay.entries) {
		if (ls->opening) /* the files' cache dropped at the first I/O, as a pass does */
			io_loop_new_pass(w, ls, 1);
		n = io_trace_replay_next(w, r, ls->measuring);
	}
	else if (w->vfy)
		n = next_io_verified(w, ls, r);
	else
		n = next_io_plain(w, ls, r);
	if (n == 1 && w->job->replay.record && io_trace_record_io(w, r) < 0)
		return 0; /* the record failed, and the job with it */
	return n;
}

/* Whether every I/O of this run is the common one (ls->simple): one direction of one size,
 * neither paced nor counted (number_ios), no mix, cmdprio, refilled buffers, verify or iolog.
 * What fill_io and next_io_plain test per I/O for the rest is then known once. */
static int simple_run(const struct io_worker *w, const struct io_loop *ls)
{
	const struct io_job *job = w->job;
	int dir = ls->fixed_dir;
	if (dir < 0 || w->trace || w->vfy || ls->pace.on || ls->number_ios || ls->mix_slack || ls->seq_ends ||
	    ls->rand_ends || ls->files_again || w->mixed_bs || w->fio_offsets || job->place.ncmdprio[dir])
		return 0;
	return !(dir == DIR_WRITE && refills(job));
}

/* The common I/O within a pass (or zone): what fill_io does for it, none of its tests. */
static inline void next_io_simple(struct io_worker *w, struct io_loop *ls, struct io_req *r)
{
	int dir = ls->fixed_dir;
	uint64_t bs = w->job->bs[dir];
	unsigned fi = w->nfiles > 1 ? io_next_file(w, bs) : 0;
	r->dir = (uint8_t)dir;
	r->file = (uint32_t)fi;
	r->offset = one_size_offset(w, ls, &w->files[fi], dir, bs);
	r->len = (uint32_t)bs;
	r->prio = w->job->place.ioprio;
	ls->issued += bs;
	ls->pass_ios++;
}

/* The others, and the common I/O that starts a pass or zone (or finds the run over). */
static __attribute__((noinline)) int next_io_any(struct io_worker *w, struct io_loop *ls, struct io_req *r)
{
	if (w->trace)
		return next_io_traced(w, ls, r);
	if (w->vfy)
		return next_io_verified(w, ls, r);
	return next_io_plain(w, ls, r);
}

static inline int next_io(struct io_worker *w, struct io_loop *ls, struct io_req *r)
{
	if (__builtin_expect(ls->simple, 1) && ls->issued < ls->cut) {
		next_io_simple(w, ls, r);
		return 1;
	}
	return next_io_any(w, ls, r);
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
