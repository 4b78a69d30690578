/* Non-uniform random offsets, with fio's definitions of random_distribution:
 *
 *   zipf:θ      rank k (1-based) drawn with probability k^-θ / ζ(n,θ), by Gray et al.'s
 *               closed-form approximation ("Quickly generating billion-record synthetic
 *               databases", 1994): exact for ranks 1 and 2, a power law beyond;
 *   pareto:h    rank = (n-1) · u^(log h / log(1-h)), so a fraction h of the blocks gets 1-h of
 *               the I/O (pareto:0.2 is the 80/20 rule);
 *   normal:dev  the mean of 12 uniform draws over the region (a bell around its middle, σ ≈ n/12),
 *               plus a uniform spread of dev % of the region;
 *   zoned       access%/size% pairs: that share of the I/O falls uniformly in that slice.
 *
 * For zipf, pareto and normal the rank is then scattered over the region (so the hot blocks are
 * not all at the start) and shifted by a random amount, or to the center asked for, as fio does.
 * fio scatters with a multiplicative hash, a permutation when the number of blocks is a power of
 * two; nodemark with its random permutation (io/offsets.c), one for any number of blocks, so
 * each block gets exactly its rank's share.  Both jobs are equally skewed, on other blocks.  The region is cut in blocks of the smaller block size of the two directions, as fio's. */
#include "io/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZIPF_MAX_TERMS 10000000ull /* ζ(n) summed over at most this many terms, as fio */

/* A uniform double in [0, 1). */
static inline double unit_draw(uint64_t *rng)
{
	return (double)(prng_next(rng) >> 11) * 0x1.0p-53;
}

/* A seed mixer (for each file's own generator). */
static inline uint64_t scatter(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static void zoned_init(struct io_dist_state *d, const struct io_job *job, uint64_t len)
{
	for (int dir = 0; dir < DIR_COUNT; dir++) {
		uint64_t blocks = len / job->bs[dir];
		unsigned v = 0, size_done = 0;
		for (unsigned z = 0; z < job->pattern.nzones[dir]; z++) {
			const struct io_zone *zn = &job->pattern.zones[dir][z];
			uint64_t first = blocks * size_done / 100;
			uint64_t n = blocks * zn->size_pct / 100;
			for (unsigned a = 0; a < zn->access_pct && v < 100; a++, v++) {
				d->zone_first[dir][v] = first;
				d->zone_len[dir][v] = n ? n : 1;
			}
			size_done += zn->size_pct;
		}
		for (; v < 100; v++) { /* no zones for this direction (or short of 100 %): uniform */
			d->zone_first[dir][v] = 0;
			d->zone_len[dir][v] = blocks ? blocks : 1;
		}
	}
}

int io_dist_init(struct io_dist_state *d, const struct io_job *job, uint64_t len, uint64_t seed)
{
	if (job->pattern.dist == DIST_UNIFORM)
		return -1;
	memset(d, 0, sizeof *d);
	d->kind = job->pattern.dist;
	d->scatter = 1;
	uint64_t rd = io_bs_smallest(job, DIR_READ), wr = io_bs_smallest(job, DIR_WRITE);
	d->range = rd < wr ? rd : wr; /* fio's: the smaller of the two directions' smallest sizes */
	d->nranges = (len + d->range - 1) / d->range;
	if (!d->nranges)
		d->nranges = 1;
	uint64_t rng = seed;
	randperm_init(&d->perm, d->nranges, prng_next(&rng));
	d->perm0 = randperm_at(&d->perm, 0);
	switch (d->kind) {
	case DIST_ZIPF: {
		d->theta = job->pattern.dist_param;
		d->zeta2 = 1.0 + pow(0.5, d->theta);
		uint64_t terms = d->nranges < ZIPF_MAX_TERMS ? d->nranges : ZIPF_MAX_TERMS;
		for (uint64_t i = 1; i <= terms; i++)
			d->zetan += pow((double)i, -d->theta);
		break;
	}
	case DIST_PARETO:
		d->pareto_pow = log(job->pattern.dist_param) / log(1.0 - job->pattern.dist_param);
		break;
	case DIST_NORMAL:
		if (job->pattern.dist_param > 0) {
			d->stddev = (uint64_t)ceil((double)d->nranges * job->pattern.dist_param / 100.0);
			if (d->stddev > d->nranges / 2)
				d->stddev = d->nranges / 2;
		}
		break;
	case DIST_ZONED:
		zoned_init(d, job, len);
		break;
	default:
		return -1;
	}
	if (d->kind == DIST_NORMAL) /* the bell is centered already: move it only when asked */
		d->rand_off = job->pattern.dist_has_center
			? (uint64_t)((double)d->nranges * (job->pattern.dist_center + 0.5)) % d->nranges : 0;
	else
		d->rand_off = job->pattern.dist_has_center ? (uint64_t)((double)d->nranges * job->pattern.dist_center)
						   : prng_below(&rng, d->nranges);
	return 0;
}

static uint64_t zipf_rank(const struct io_dist_state *d, uint64_t *rng)
{
	double n = (double)d->nranges, u = unit_draw(rng), uz = u * d->zetan;
	if (uz < 1.0)
		return 0;
	if (uz < d->zeta2)
		return 1;
	double alpha = 1.0 / (1.0 - d->theta);
	double eta = (1.0 - pow(2.0 / n, 1.0 - d->theta)) / (1.0 - d->zeta2 / d->zetan);
	return (uint64_t)(n * pow(eta * u - eta + 1.0, alpha));
}

static uint64_t normal_rank(const struct io_dist_state *d, uint64_t *rng)
{
	uint64_t sum = 0;
	for (int i = 0; i < 12; i++)
		sum += prng_below(rng, d->nranges + 1);
	sum = (sum + 11) / 12;
	if (d->stddev) {
		int64_t dev = (int64_t)prng_below(rng, d->stddev) - (int64_t)(d->stddev / 2);
		while (dev > 0 && sum + (uint64_t)dev >= d->nranges)
			dev /= 2;
		sum = dev < 0 && (uint64_t)-dev > sum ? 0 : sum + (uint64_t)dev;
	}
	return sum;
}

uint64_t io_dist_rank(struct io_dist_state *d, uint64_t *rng, int dir)
{
	uint64_t r;
	switch (d->kind) {
	case DIST_ZIPF:
		r = zipf_rank(d, rng);
		break;
	case DIST_PARETO:
		r = (uint64_t)((double)(d->nranges - 1) * pow(unit_draw(rng), d->pareto_pow));
		break;
	case DIST_NORMAL:
		r = normal_rank(d, rng);
		break;
	case DIST_ZONED: {
		unsigned v = (unsigned)prng_below(rng, 100);
		return d->zone_first[dir][v] + prng_below(rng, d->zone_len[dir][v]);
	}
	default:
		r = prng_below(rng, d->nranges);
	}
	return r < d->nranges ? r : d->nranges - 1;
}

uint64_t io_dist_block(struct io_dist_state *d, uint64_t *rng, int dir)
{
	uint64_t r = io_dist_rank(d, rng, dir);
	if (d->kind == DIST_ZONED)
		return r;
	if (d->scatter) /* rank 0 stays at rand_off: the center, when one is asked for */
		r = (randperm_at(&d->perm, r) + d->nranges - d->perm0) % d->nranges;
	return (r + d->rand_off) % d->nranges;
}

uint64_t io_dist_offset(struct io_worker *w, struct io_file *f, int dir, uint64_t bs)
{
	struct io_dist_state *d = f->dist;
	uint64_t unit = d->kind == DIST_ZONED ? w->job->bs[dir] : d->range;
	uint64_t off = io_dist_block(d, &w->rng, dir) * unit;
	if (off + bs > f->region_len) /* the last blocks: an I/O that fits, aligned as the others */
		off = f->region_len >= bs ? (f->region_len - bs) / unit * unit : 0;
	return f->region_start + off;
}

int io_dist_setup(struct io_worker *w)
{
	if (w->job->pattern.dist == DIST_UNIFORM || !io_job_random(w->job))
		return 0;
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		f->dist = malloc(sizeof *f->dist);
		if (!f->dist) {
			snprintf(w->err, sizeof w->err, "out of memory");
			return -ENOMEM;
		}
		io_dist_init(f->dist, w->job, f->region_len, w->rng ^ scatter(i + 1));
	}
	return 0;
}

void io_dist_cleanup(struct io_worker *w)
{
	for (unsigned i = 0; i < w->nfiles; i++) {
		free(w->files[i].dist);
		w->files[i].dist = NULL;
	}
}
