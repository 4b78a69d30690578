/* Non-uniform random offsets (io/distrib.c): each distribution's draws against its formula
 * (fixed seeds, so the counts are the same every run), and the scatter as a permutation. */
#include "io/engine.h"
#include "io/internal.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DRAWS 200000

/* counts[block] of DRAWS draws over n blocks of 4 KiB (scatter 0: the block is the rank);
 * NULL when a draw falls outside the region or the state is wrong. */
static uint64_t *rank_counts(struct io_job *job, uint64_t n, int scatter)
{
	struct io_dist_state *d = malloc(sizeof *d);
	uint64_t *c = calloc(n, sizeof *c), rng = 12345;
	int ok = io_dist_init(d, job, n * 4096, 99) == 0 && d->nranges == n;
	d->scatter = scatter;
	for (int i = 0; ok && i < DRAWS; i++) {
		uint64_t b = io_dist_block(d, &rng, DIR_READ);
		if (b >= n)
			ok = 0;
		else
			c[b]++;
	}
	free(d);
	if (!ok)
		free(c);
	return ok ? c : NULL;
}

static struct io_job dist_job(enum io_dist kind, double param)
{
	struct io_job j;
	io_job_init(&j);
	j.pattern.dist = kind;
	j.pattern.dist_param = param;
	j.pattern.dist_has_center = 1; /* rank 0 at block 0, so the counts are by rank */
	j.pattern.dist_center = 0;
	return j;
}

TEST(dist_uniform_asks_for_no_state)
{
	struct io_job j;
	struct io_dist_state d;
	io_job_init(&j);
	CHECK(io_dist_init(&d, &j, 1 << 20, 1) < 0);
}

TEST(dist_zipf_follows_the_power_law)
{
	const uint64_t n = 1000;
	const double theta = 1.2;
	struct io_job j = dist_job(DIST_ZIPF, theta);
	uint64_t *c = rank_counts(&j, n, 0);
	CHECK(c);
	double zetan = 0, top10 = 0;
	for (uint64_t k = 1; k <= n; k++)
		zetan += pow((double)k, -theta);
	for (uint64_t k = 1; k <= 10; k++)
		top10 += pow((double)k, -theta) / zetan;
	uint64_t got10 = 0;
	for (int k = 0; k < 10; k++)
		got10 += c[k];
	/* ranks 1 and 2 are exact in Gray's method; the tail is its power-law approximation */
	CHECK_NEAR((double)c[0] / DRAWS, 1 / zetan, 0.005);
	CHECK_NEAR((double)c[1] / DRAWS, pow(2, -theta) / zetan, 0.005);
	CHECK_NEAR((double)got10 / DRAWS, top10, 0.03);
	CHECK(c[0] > c[1] && c[1] > c[5] && c[5] > c[100]);
	free(c);
}

TEST(dist_pareto_gives_one_minus_h_to_h_of_the_blocks)
{
	const uint64_t n = 1000;
	struct io_job j = dist_job(DIST_PARETO, 0.2);
	uint64_t *c = rank_counts(&j, n, 0), hot = 0;
	CHECK(c);
	for (uint64_t k = 0; k < n / 5; k++)
		hot += c[k];
	CHECK_NEAR((double)hot / DRAWS, 0.8, 0.01); /* the 80/20 rule */
	free(c);
}

TEST(dist_normal_is_a_bell_around_the_middle)
{
	const uint64_t n = 1200;
	struct io_job j = dist_job(DIST_NORMAL, 0);
	j.pattern.dist_has_center = 0;
	uint64_t *c = rank_counts(&j, n, 0), in1 = 0, in2 = 0;
	CHECK(c);
	for (uint64_t k = 0; k < n; k++) { /* sigma of the mean of 12 uniform draws: n / 12 */
		double z = fabs((double)k - (double)n / 2) / ((double)n / 12);
		in1 += z <= 1 ? c[k] : 0;
		in2 += z <= 2 ? c[k] : 0;
	}
	CHECK_NEAR((double)in1 / DRAWS, 0.683, 0.02);
	CHECK_NEAR((double)in2 / DRAWS, 0.954, 0.01);
	free(c);
}

TEST(dist_zoned_puts_each_share_in_its_slice)
{
	const uint64_t n = 1000;
	struct io_job j = dist_job(DIST_ZONED, 0);
	const struct io_zone z[] = { { 50, 5 }, { 30, 15 }, { 20, 80 } };
	memcpy(j.pattern.zones[DIR_READ], z, sizeof z);
	j.pattern.nzones[DIR_READ] = 3;
	uint64_t *c = rank_counts(&j, n, 1), s[3] = { 0 };
	CHECK(c);
	for (uint64_t k = 0; k < n; k++)
		s[k < 50 ? 0 : k < 200 ? 1 : 2] += c[k];
	CHECK_NEAR((double)s[0] / DRAWS, 0.5, 0.01);
	CHECK_NEAR((double)s[1] / DRAWS, 0.3, 0.01);
	CHECK_NEAR((double)s[2] / DRAWS, 0.2, 0.01);
	free(c);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The scatter moves ranks to other blocks but never merges two: the same draws give the same
 * counts, only on other blocks (any number of blocks, a power of two or not). */
TEST(dist_scatter_is_a_permutation_of_the_ranks)
{
	const uint64_t sizes[] = { 1000, 1024 };
	for (int i = 0; i < 2; i++) {
		uint64_t n = sizes[i];
		struct io_job j = dist_job(DIST_ZIPF, 0.8);
		uint64_t *plain = rank_counts(&j, n, 0), *spread = rank_counts(&j, n, 1);
		CHECK(plain && spread);
		CHECK(spread[0] == plain[0]);       /* rank 0 stays at the center asked for (0) */
		CHECK(memcmp(plain, spread, n * sizeof *plain) != 0); /* the others moved */
		qsort(plain, n, sizeof *plain, cmp_desc);
		qsort(spread, n, sizeof *spread, cmp_desc);
		CHECK(memcmp(plain, spread, n * sizeof *plain) == 0);
		free(plain);
		free(spread);
	}
}
