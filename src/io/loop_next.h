/* The next I/O of the per-I/O loop (io/loop.c, its only includer): its file, offset, size and
 * direction (fill_io, next_io_plain and the passes' cut, mixed sizes, trimwrite), the verify
 * and replay sources of I/O, and next_io, which takes next_io_simple for a run of common
 * I/Os. Static inline (the rare branches noinline) for the reason io/loop.c gives: they fold
 * into its two loops, so they live in a header that only that translation unit includes;
 * what is done with an I/O once chosen (time it, book it, the clock) stays in io/loop.c. */
#ifndef NM_IO_LOOP_NEXT_H
#define NM_IO_LOOP_NEXT_H

#include "io/internal.h"
#include "io/iolog.h"
#include "io/loop.h"
#include "io/ticks.h"

#include <string.h>

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

#endif
