/* Block-size mixes, with fio's definitions:
 *
 *   bssplit=SIZE/PCT:...  each I/O of a direction is SIZE bytes with probability PCT %
 *                         (entries by rising share; what the shares leave goes to the last);
 *   bsrange=MIN-MAX       min + u * max bytes (u uniform in [0,1)), rounded down to a multiple
 *                         of min and capped at max: the multiples of min, about evenly;
 *   blockalign=N          random offsets are multiples of N (default: the smallest size).
 *
 * A random I/O of a mix goes anywhere in the region where it fits (no random map: fio's keeps
 * one in units of the smallest size; nodemark's permutation needs one size).  Sequential I/O
 * follows on from the previous one whatever its size. */
#include "io/internal.h"

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

static uint64_t draw(struct io_worker *w, int dir)
{
	const struct io_job *job = w->job;
	uint64_t max = job->bs[dir];
	if (job->pattern.nbssplit[dir]) {
		unsigned u = (unsigned)prng_below(&w->rng, 100), cum = 0, n = job->pattern.nbssplit[dir];
		for (unsigned i = 0; i < n; i++) {
			cum += job->pattern.bssplit[dir][i].pct;
			if (u < cum)
				return job->pattern.bssplit[dir][i].bs;
		}
		return job->pattern.bssplit[dir][n - 1].bs;
	}
	uint64_t min = job->pattern.bs_min[dir];
	if (!min || min >= max)
		return max;
	uint64_t len = min + prng_below(&w->rng, max);
	len -= len % min;
	return len < max ? len : max;
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
 * region for sequential I/O, the rest of the pass where a random map ends it; so a pass of
 * size=20000 at bsrange=1k-4k moves 19 KiB (the size rounds down to the smallest block), not
 * 16 KiB of whole 4k blocks. A run of unlucky draws (or a share of 0 %) ends in the largest
 * size that fits. */
uint64_t io_bs_pick(struct io_worker *w, int dir, uint64_t room)
{
	for (int tries = 0; tries < 64; tries++) {
		uint64_t len = draw(w, dir);
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
