/* The random numbers of a block-size mix's draws, as fio 3.33 makes them: L'Ecuyer's
 * maximally equidistributed combined Tausworthe generator of three 32-bit components
 * (taus88, Math. Comp. 65 (1996) 203-213), seeded from fio's seed of the direction's size
 * generator.  With fio's generator and fio's seeds a job draws the sizes fio's same job draws,
 * in the same order, so where the sizes alone decide the bytes (sequential I/O of one
 * direction) the two tools move the same bytes in the same I/Os: a size that is no multiple
 * of the smallest (bsrange=1536-4k) makes the bytes depend on the draws.  fio 3.33 derives a
 * thread's seeds from randseed= (0x89 by default) and its thread number (1 up, over the
 * threads of all jobs in order): the seed is multiplied by 0x9e370001 four times, then seed
 * number i is seed x thread + i, the seed multiplied once more for each next i; the read,
 * write and trim sizes use seeds 0, 1 and 2 (a verifying job writes with the read seed, a
 * trimwrite job trims with the write seed).  A generator takes the seed's low 32 bits: each
 * component is the previous one (the first: 53) times 69069, xor the seed, raised by 1, 7 or
 * 15 when below that (the components' low bits must not all be 0), then 6 draws are
 * discarded.  random_generator=tausworthe64 makes fio draw the sizes and offsets from the
 * 64-bit form instead (L'Ecuyer's five-component taus258, Math. Comp. 68 (1999) 261-269):
 * the whole 64-bit seed, each component the previous one times 6906969069 xor the seed,
 * raised by 1, 7, 15, 33 or 49 when below that (fio's floors, whatever taus258 asks), 6
 * draws discarded, and a number over 2^64 where the 32-bit one is over 2^32. */
#ifndef NM_IO_TAUS_H
#define NM_IO_TAUS_H

#include <stdint.h>

struct io_taus {
	int wide;                   /* the 64-bit form (fio's tausworthe64); 0: the 32-bit one */
	uint32_t s1, s2, s3;
	uint64_t z[5];
};

static inline uint64_t io_taus_next(struct io_taus *t)
{
	if (t->wide) {
		/* taus258's components: z = ((z & its top k bits) << s) ^ (((z << q) ^ z) >> (k - s)) */
		static const struct { unsigned k, q, s; } comp[5] = {
			{ 63, 1, 10 }, { 55, 24, 5 }, { 52, 3, 29 }, { 47, 5, 23 }, { 41, 3, 8 },
		};
		uint64_t x = 0;
		for (int i = 0; i < 5; i++) {
			uint64_t z = t->z[i];
			unsigned k = comp[i].k, q = comp[i].q, s = comp[i].s;
			t->z[i] = ((z & (~0ull << (64 - k))) << s) ^ (((z << q) ^ z) >> (k - s));
			x ^= t->z[i];
		}
		return x;
	}
	t->s1 = ((t->s1 & 0xfffffffeu) << 12) ^ (((t->s1 << 13) ^ t->s1) >> 19);
	t->s2 = ((t->s2 & 0xfffffff8u) << 4) ^ (((t->s2 << 2) ^ t->s2) >> 25);
	t->s3 = ((t->s3 & 0xfffffff0u) << 17) ^ (((t->s3 << 3) ^ t->s3) >> 11);
	return t->s1 ^ t->s2 ^ t->s3;
}

/* The largest number the generator gives, and a number as a fraction of its range, [0, 1]
 * (as fio's r / (max + 1.0), the division in doubles) */
static inline uint64_t io_taus_max(const struct io_taus *t)
{
	return t->wide ? UINT64_MAX : UINT32_MAX;
}

static inline double io_taus_unit(const struct io_taus *t, uint64_t r)
{
	return (double)r / (t->wide ? 18446744073709551616.0 : 4294967296.0);
}

static inline uint64_t io_taus_floor(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

static inline void io_taus_seed(struct io_taus *t, uint64_t seed64, int wide)
{
	t->wide = wide;
	if (wide) {
		static const uint64_t floors[5] = { 1, 7, 15, 33, 49 };
		uint64_t prev = 53;
		for (int i = 0; i < 5; i++)
			prev = t->z[i] = io_taus_floor(prev * 6906969069ull ^ seed64, floors[i]);
	} else {
		uint32_t seed = (uint32_t)seed64;
		t->s1 = (uint32_t)io_taus_floor(53u * 69069u ^ seed, 1);
		t->s2 = (uint32_t)io_taus_floor(t->s1 * 69069u ^ seed, 7);
		t->s3 = (uint32_t)io_taus_floor(t->s2 * 69069u ^ seed, 15);
	}
	for (int i = 0; i < 6; i++)
		io_taus_next(t);
}

/* fio's seed number idx of thread (1 up) for randseed= seed. */
static inline uint64_t io_taus_fio_seed(uint64_t seed, unsigned thread, unsigned idx)
{
	for (unsigned i = 0; i < 4 + idx; i++)
		seed *= 0x9e370001ull;
	return seed * thread + idx;
}

#endif
