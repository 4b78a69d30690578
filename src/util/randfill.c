#include "util/randfill.h"

#include <string.h>

void rand_fill(void *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed ? seed : 0x9E3779B97F4A7C15ull;
	unsigned char *p = buf;
	while (len) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		uint64_t v = x * 0x2545F4914F6CDD1Dull;
		size_t n = len < sizeof v ? len : sizeof v;
		memcpy(p, &v, n);
		p += n;
		len -= n;
	}
}
