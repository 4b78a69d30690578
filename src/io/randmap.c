/* A random mix's offsets as fio 3.33 picks them (io_u.c), so that its sizes (drawn after the
 * offset, to fit from there to the file's end) and its bytes follow fio's:
 *
 * - Direction d's offsets are multiples of ba[d] (blockalign, else d's smallest size): block
 *   b = lastb x r/2^32, r from fio's offset generator, lastb the file's region in ba[d]
 *   blocks (less smallest - ba when the smallest is larger); zoned: v = 1..100 from fio's zone
 *   generator picks a zone, and b falls in its share of lastb; zipf, pareto and normal: a
 *   rank of nodemark's (io/distrib.c) over fio's ranges (the smaller of the directions'
 *   smallest sizes). An offset past the file's end, or where d's smallest size no longer
 *   fits, ends the file, as fio's.
 * - The random map, kept only with a uniform distribution, no norandommap and no blockalign
 *   other than the smallest size (fio turns it off otherwise): a bit per block of the
 *   smallest size of all directions, read and written at the block numbers of the I/O's own
 *   direction, as fio's: block b already covered gives the next free one after it (round to
 *   the start), the file is done when none is left; an I/O covers the free blocks of its
 *   direction's smallest size from its offset on, cut at the first covered one (4096 bytes
 *   at 1536-byte blocks cover 3).
 *
 * Not lfsr (io/lfsr.c), strided zones or randtrim; randtrimwrite's trims take it (each write
 * then goes where its trim went, io/loop.c), as fio's t0023 wants every sector trimmed once.
 * A map over more than 2^31 blocks is not made. */
#include "io/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int io_bs_fio_setup(struct io_worker *w)
{
	const struct io_job *job = w->job;
	w->fio_offsets = 0;
	if (!io_job_random(job) || job->pattern.lfsr || job->pattern.zone_size ||
	    job->rw == IO_RANDTRIM)
		return 0;
	/* one size: fio's offsets where no map keeps each block once a pass (norandommap, uniform),
	 * so the blocks a pass writes, rewrites and leaves are fio's (a verify's read-back too) */
	int part = job->pattern.seq_pct[DIR_READ] || job->pattern.seq_pct[DIR_WRITE]; /* percentage_random */
	if (!io_job_mixed_bs(job) && !(job->pattern.norandommap && job->pattern.dist == DIST_UNIFORM) && !part)
		return 0;
	uint64_t unit = UINT64_MAX;
	int aligned = 1; /* every direction's offsets on its smallest size: fio keeps its map */
	for (int d = 0; d < DIR_COUNT; d++) {
		uint64_t small = io_bs_smallest(job, d);
		if (!small)
			return 0;
		unit = small < unit ? small : unit;
		w->fio_ba[d] = job->pattern.blockalign[d] ? job->pattern.blockalign[d] : small;
		aligned &= w->fio_ba[d] == small;
	}
	for (unsigned i = 0; i < w->nfiles; i++)
		if (w->files[i].region_len / unit > (1ull << 31))
			return 0;
	w->fio_unit = unit;
	int map = !job->pattern.norandommap && aligned && job->pattern.dist == DIST_UNIFORM;
	w->fio_offsets = map ? 2 : 1;
	for (unsigned i = 0; i < w->nfiles && map; i++) {
		struct io_file *f = &w->files[i];
		f->fmap_bits = f->region_len / unit;
		f->fmap = calloc(f->fmap_bits / 64 + 1, sizeof *f->fmap);
		if (!f->fmap) {
			snprintf(w->err, sizeof w->err, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

void io_bs_fio_cleanup(struct io_worker *w)
{
	for (unsigned i = 0; i < w->nfiles; i++) {
		free(w->files[i].fmap);
		w->files[i].fmap = NULL;
	}
}

static int covered(const struct io_file *f, uint64_t b)
{
	return (int)(f->fmap[b / 64] >> (b % 64) & 1);
}

/* zoned: the zone of fio's draw v (1..100), as its first block and its length in blocks of
 * the lastb blocks of the region (fio's percentages of lastb, rounded down). */
static void zone_span(struct io_worker *w, int dir, uint64_t *first, uint64_t *lastb)
{
	const struct io_pattern *p = &w->job->pattern;
	uint64_t r = io_taus_next(&w->zone_taus);
	unsigned v = (unsigned)(100.0 * io_taus_unit(&w->zone_taus, r)), access = 0, size = 0;
	for (unsigned z = 0; z < p->nzones[dir]; z++) {
		access += p->zones[dir][z].access_pct;
		if (v < access) {
			*first = size * *lastb / 100;
			*lastb = *lastb * p->zones[dir][z].size_pct / 100;
			return;
		}
		size += p->zones[dir][z].size_pct;
	}
}

/* The next free block of f's map after b, round to the start; -1: none. */
static int64_t next_free(const struct io_file *f, uint64_t b)
{
	for (uint64_t n = 1; n < f->fmap_bits; n++) {
		uint64_t c = (b + n) % f->fmap_bits;
		if (c % 64 == 0 && f->fmap[c / 64] == UINT64_MAX && c + 64 <= f->fmap_bits) {
			n += 63; /* a whole word covered */
			continue;
		}
		if (!covered(f, c))
			return (int64_t)c;
	}
	return -1;
}

/* A uniform (or zoned) block in ba[dir] units; -1: the file's map is full. */
static int64_t uniform_block(struct io_worker *w, struct io_file *f, int dir)
{
	const struct io_job *job = w->job;
	uint64_t ba = w->fio_ba[dir], small = io_bs_smallest(job, dir), len = f->region_len, first = 0;
	if (small > ba) /* the last offsets leave room for the smallest size */
		len = len > small - ba ? len - (small - ba) : 0;
	uint64_t lastb = len / ba;
	if (!lastb)
		return -1;
	if (job->pattern.dist == DIST_ZONED)
		zone_span(w, dir, &first, &lastb);
	uint64_t r = io_taus_next(&w->off_taus);
	uint64_t b = (uint64_t)((double)lastb * io_taus_unit(&w->off_taus, r));
	if (lastb && b >= lastb) /* a 64-bit number that rounds to 2^64 in a double */
		b = lastb - 1;
	if (f->fmap && b < f->fmap_bits && covered(f, b)) {
		int64_t c = next_free(f, b);
		if (c < 0)
			return -1;
		b = (uint64_t)c;
	}
	return (int64_t)(b + first);
}

/* percentage_random below 100: fio's draw of 1..100 (seq_rand_state) says whether this I/O
 * follows on from the direction's last one; it does where that ended inside the file, and
 * the random map is then left alone (fio's BUSY_OK), also when it falls back to a random
 * pick. Returns the offset, or -1 for a random one. */
static int64_t follow_on(struct io_worker *w, struct io_file *f, int dir)
{
	struct io_taus *t = &w->seq_taus[dir];
	uint64_t r = io_taus_next(t);
	unsigned v = 1 + (unsigned)(100.0 * io_taus_unit(t, r));
	if (v <= 100u - w->job->pattern.seq_pct[dir])
		return -1;
	w->fio_seq = 1;
	return f->fio_last_pos[dir] < f->region_len ? (int64_t)f->fio_last_pos[dir] : -1;
}

int64_t io_bs_fio_offset(struct io_worker *w, struct io_file *f, int dir)
{
	uint64_t b;
	w->fio_seq = 0;
	if (__builtin_expect(w->job->pattern.seq_pct[dir] != 0, 0)) {
		int64_t s = follow_on(w, f, dir);
		if (s >= 0)
			return s;
	}
	if (f->dist && w->job->pattern.dist != DIST_ZONED) {
		b = io_dist_block(f->dist, &w->rng, dir);
	} else {
		int64_t u = uniform_block(w, f, dir);
		if (u < 0)
			return -1;
		b = (uint64_t)u;
	}
	uint64_t off = b * w->fio_ba[dir];
	if (off >= f->region_len || f->region_len - off < io_bs_smallest(w->job, dir))
		return -1;
	return (int64_t)off;
}

uint64_t io_bs_fio_mark(struct io_worker *w, struct io_file *f, int dir, uint64_t off, uint64_t bs)
{
	if (f->fmap && !w->fio_seq) {
		uint64_t small = io_bs_smallest(w->job, dir), b = off / small, want = (bs + small - 1) / small, n = 0;
		while (n < want && b + n < f->fmap_bits && !covered(f, b + n)) {
			f->fmap[(b + n) / 64] |= 1ull << ((b + n) % 64);
			n++;
		}
		bs = n * small < bs ? n * small : bs;
	}
	f->fio_last_pos[dir] = off + bs;
	return bs;
}
