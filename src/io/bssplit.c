/* Block-size mixes, with fio's definitions:
 *
 *   bssplit=SIZE/PCT:...  each I/O of a direction is SIZE bytes with probability PCT %
 *                         (entries by rising share; what the shares leave goes to the last);
 *   bsrange=MIN-MAX       min + u * max bytes (u uniform in [0,1)), rounded down to a multiple
 *                         of min and capped at max: the multiples of min, about evenly;
 *   blockalign=N          random offsets are multiples of N (default: the smallest size).
 *
 * The sizes are drawn with fio's generator and seeds (io/taus.h).  A random I/O of a mix takes
 * fio's offsets and random map (io/randmap.c) where it can, else (lfsr, strided zones, trims)
 * it goes anywhere in the region where it fits.  Sequential I/O follows on from the previous one whatever its size. */
#include "io/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int io_job_mixed_bs(const struct io_job *job)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (job->pattern.nbssplit[d] || job->pattern.bs_min[d] || job->pattern.blockalign[d])
			return 1;
	return 0;
}

uint64_t io_bs_smallest(const struct io_job *job, int dir)
{
	if (job->pattern.nbssplit[dir]) {
		uint64_t m = job->bs[dir];
		for (unsigned i = 0; i < job->pattern.nbssplit[dir]; i++)
			if (job->pattern.bssplit[dir][i].bs < m)
				m = job->pattern.bssplit[dir][i].bs;
		return m;
	}
	return job->pattern.bs_min[dir] ? job->pattern.bs_min[dir] : job->bs[dir];
}

/* One size, as fio's get_next_buflen draws it from the direction's generator (io/taus.h), r
 * its 32-bit number: a bssplit's size is the first (by rising share) whose running share
 * covers r and that fits room, else the last with a share; a bsrange's is min + r/2^32 x max.
 * Either is rounded down to a multiple of the smallest (power of two or not: a 4k entry of
 * 1536/50:4k/50 is 3072, as fio's; not with bs_unaligned) and capped at the largest. */
static uint64_t draw(struct io_worker *w, int dir, uint64_t room)
{
	const struct io_job *job = w->job;
	uint64_t max = job->bs[dir], min = io_bs_smallest(job, dir), len = max;
	struct io_taus *t = &w->bs_taus[dir];
	uint64_t r = io_taus_next(t);
	if (job->pattern.nbssplit[dir]) {
		unsigned cum = 0;
		for (unsigned i = 0; i < job->pattern.nbssplit[dir]; i++) {
			const struct io_bs_share *e = &job->pattern.bssplit[dir][i];
			if (!e->pct)
				continue;
			len = e->bs;
			cum += e->pct;
			if (r / cum <= io_taus_max(t) / 100 && len <= room)
				break;
		}
	} else {
		len = min + (uint64_t)((double)max * io_taus_unit(t, r));
	}
	if (!job->pattern.bs_unaligned)
		len -= (min & (min - 1)) == 0 ? len & (min - 1) : len % min;
	return len < max ? len : max;
}

/* fio's seed number idx of fio thread tn: allrandrepeat's fixed one, else from randseed. */
static uint64_t fio_seed(const struct io_worker *w, unsigned tn, unsigned idx)
{
	if (w->job->pattern.allrandrepeat)
		return 0xb1899bedull * tn + idx;
	return io_taus_fio_seed(w->bs_seed, tn, idx);
}

/* The size generators as fio seeds them (io/taus.h): at the start, and at each loop where
 * randrepeat (fio's default) starts them over. */
void io_bs_reseed(struct io_worker *w)
{
	const struct io_job *job = w->job;
	unsigned tn = job->pattern.fio_thread ? job->pattern.fio_thread + io_fio_nth(job, w->index) : 1 + w->index;
	unsigned idx[DIR_COUNT] = { 0, 1, 2 };
	if (job->verify.kind != IO_VERIFY_NONE)
		idx[DIR_WRITE] = idx[DIR_READ];
	if (job->rw == IO_TRIMWRITE || job->rw == IO_RANDTRIMWRITE)
		idx[DIR_TRIM] = idx[DIR_WRITE];
	/* random_generator=tausworthe64: the sizes and offsets from fio's 64-bit generator; the
	 * rwmix's stays 32-bit, as fio's */
	int wide = job->pattern.taus64;
	for (int d = 0; d < DIR_COUNT; d++)
		io_taus_seed(&w->bs_taus[d], fio_seed(w, tn, idx[d]), wide);
	io_taus_seed(&w->mix_taus, fio_seed(w, tn, 4), 0); /* fio's rwmix: seed 4 */
	/* fio's offsets: with randrepeat its own seed, 0xb1899bed x thread, else seed number 6 */
	io_taus_seed(&w->off_taus, job->pattern.randrepeat ? 0xb1899bedull * tn : fio_seed(w, tn, 6),
		     wide);
	io_taus_seed(&w->zone_taus, fio_seed(w, tn, 16), 0); /* fio's zone_state: 16 */
	for (int d = 0; d < DIR_COUNT; d++) /* seq_rand_state: all seed 10, 32-bit */
		io_taus_seed(&w->seq_taus[d], fio_seed(w, tn, 10), 0);
	io_taus_seed(&w->file_taus, fio_seed(w, tn, 5), wide); /* next_file_state: 5 */
}

/* The largest size of the mix that is at most room (the smallest when none is). */
static uint64_t largest_within(const struct io_job *job, int dir, uint64_t room)
{
	uint64_t small = io_bs_smallest(job, dir), best = small;
	if (job->pattern.nbssplit[dir]) {
		for (unsigned i = 0; i < job->pattern.nbssplit[dir]; i++) {
			uint64_t b = job->pattern.bssplit[dir][i].bs;
			if (b <= room && b > best)
				best = b;
		}
		return best;
	}
	uint64_t r = room < job->bs[dir] ? room : job->bs[dir];
	return r > small ? r - r % small : small;
}

/* fio draws a size again until it fits what is left (io_u.c's io_u_fits): the rest of the
 * file from the offset (sequential I/O, fio's random offsets), or of the pass and the file's
 * map otherwise; so size=20000 at bsrange=1k-4k moves 19 KiB, not 16 KiB of whole 4k blocks.
 * A run of unlucky draws (or a share of 0 %) ends in the largest size that fits. */
uint64_t io_bs_pick(struct io_worker *w, int dir, uint64_t room)
{
	uint64_t small = io_bs_smallest(w->job, dir);
	if (small == w->job->bs[dir] || room < small) /* one size (fio draws none), or none fits */
		return small;
	for (int tries = 0; tries < 4096; tries++) {
		uint64_t len = draw(w, dir, room);
		if (len <= room)
			return len;
	}
	return largest_within(w->job, dir, room);
}

uint64_t io_bs_offset(struct io_worker *w, struct io_file *f, int dir, uint64_t bs, int random)
{
	if (!random)
		return io_pick_offset(w, f, dir, bs, 0);
	if (f->dist)
		return io_dist_offset(w, f, dir, bs);
	const struct io_job *job = w->job;
	uint64_t align = job->pattern.blockalign[dir] ? job->pattern.blockalign[dir] : io_bs_smallest(job, dir);
	if (f->region_len < bs)
		return f->region_start;
	uint64_t slots = (f->region_len - bs) / align + 1;
	return f->region_start + prng_below(&w->rng, slots) * align;
}
