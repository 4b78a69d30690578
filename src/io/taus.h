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
 * discarded. */
#ifndef NM_IO_TAUS_H
#define NM_IO_TAUS_H

#include <stdint.h>

struct io_taus {
	uint32_t s1, s2, s3;
};

static inline uint32_t io_taus_next(struct io_taus *t)
{
	t->s1 = ((t->s1 & 0xfffffffeu) << 12) ^ (((t->s1 << 13) ^ t->s1) >> 19);
	t->s2 = ((t->s2 & 0xfffffff8u) << 4) ^ (((t->s2 << 2) ^ t->s2) >> 25);
	t->s3 = ((t->s3 & 0xfffffff0u) << 17) ^ (((t->s3 << 3) ^ t->s3) >> 11);
	return t->s1 ^ t->s2 ^ t->s3;
}

static inline uint32_t io_taus_floor(uint32_t x, uint32_t m)
{
	return x < m ? x + m : x;
}

static inline void io_taus_seed(struct io_taus *t, uint64_t seed64)
{
	uint32_t seed = (uint32_t)seed64;
	t->s1 = io_taus_floor(53u * 69069u ^ seed, 1);
	t->s2 = io_taus_floor(t->s1 * 69069u ^ seed, 7);
	t->s3 = io_taus_floor(t->s2 * 69069u ^ seed, 15);
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
