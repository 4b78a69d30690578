/* Random offsets: a permutation of the blocks, so a random pass reads every block once
 * (fio's random map) without keeping a bitmap of the whole device. */
#include "io/internal.h"

static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dull;
	x ^= x >> 33;
	return x;
}

void randperm_init(struct randperm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;
	while (bits < 64 && (1ull << bits) < n)
		bits++;
	bits += bits & 1; /* two equal halves */
	p->n = n;
	p->half = bits / 2;
	p->mask = (1ull << p->half) - 1;
	for (int r = 0; r < 4; r++)
		p->key[r] = mix(seed + 0x9e3779b97f4a7c15ull * (uint64_t)(r + 1));
}

static inline uint64_t feistel(const struct randperm *p, uint64_t x)
{
	uint64_t l = x >> p->half, r = x & p->mask;
	for (int round = 0; round < 4; round++) {
		uint64_t t = l ^ (mix(r ^ p->key[round]) & p->mask);
		l = r;
		r = t;
	}
	return (l << p->half) | r;
}

uint64_t randperm_at(const struct randperm *p, uint64_t i)
{
	/* Cycle walking: the network permutes [0, 4^half); stepping until the value falls
	 * below n permutes [0, n). The domain is under 4n, so a few steps at most on average. */
	uint64_t x = i;
	do
		x = feistel(p, x);
	while (x >= p->n);
	return x;
}
