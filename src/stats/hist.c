#include "stats/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

unsigned hist_index(uint64_t v)
{
	if (v < (HIST_VAL << 1))
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned error_bits = msb - HIST_BITS;
	unsigned base = (error_bits + 1) << HIST_BITS;
	unsigned offset = (unsigned)((v >> error_bits) & (HIST_VAL - 1));
	unsigned idx = base + offset;
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

uint64_t hist_bucket_value(unsigned idx)
{
	if (idx < (HIST_VAL << 1))
		return idx;
	unsigned error_bits = (idx >> HIST_BITS) - 1;
	uint64_t base = 1ull << (error_bits + HIST_BITS);
	uint64_t k = idx % HIST_VAL;
	/* the middle of the bucket: base + (k + 0.5) * 2^error_bits */
	return base + (uint64_t)(((double)k + 0.5) * (double)(1ull << error_bits));
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_NR; i++)
		dst->bucket[i] += src->bucket[i];
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}

double hist_mean(const struct hist *h)
{
	return h->n ? h->sum / (double)h->n : 0;
}

double hist_stddev(const struct hist *h)
{
	if (h->n < 2)
		return 0;
	double n = (double)h->n;
	double var = (h->sumsq - h->sum * h->sum / n) / (n - 1);
	return var > 0 ? sqrt(var) : 0;
}

void hist_percentiles(const struct hist *h, const double *p, size_t np, uint64_t *out)
{
	uint64_t sum = 0;
	size_t j = 0;
	if (!h->n) {
		for (size_t i = 0; i < np; i++)
			out[i] = 0;
		return;
	}
	for (unsigned i = 0; i < HIST_NR && j < np; i++) {
		sum += h->bucket[i];
		while (j < np && (double)sum >= p[j] / 100.0 * (double)h->n)
			out[j++] = hist_bucket_value(i);
	}
	for (; j < np; j++)
		out[j] = hist_bucket_value(HIST_NR - 1);
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t v;
	hist_percentiles(h, &p, 1, &v);
	return v;
}
