/* Latency histogram with fio's log-linear bucket scheme, so percentiles match fio's and
 * json+ "bins" can be produced.
 *
 * Values (ns) whose highest set bit is below bit 7 (v < 128) get a bucket each; above that,
 * every power of two is split into 64 buckets (6 bits), 29 groups, 1856 counters in all.
 * A bucket reports its midpoint; the relative error is at most 1/128 (< 0.8%).
 * A percentile is the value of the first bucket where the running count reaches p/100 * N.
 * Exact min, max, sum and sum of squares ride along for mean and standard deviation. */
#ifndef NM_STATS_HIST_H
#define NM_STATS_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)
#define HIST_GROUPS 29
#define HIST_NR (HIST_GROUPS * HIST_VAL)

struct hist {
	uint64_t n;
	uint64_t min, max;
	double sum, sumsq;
	uint64_t bucket[HIST_NR];
};

void hist_init(struct hist *h);
unsigned hist_index(uint64_t v);
uint64_t hist_bucket_value(unsigned idx);   /* the midpoint fio reports */

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->n++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->sum += (double)v;
	h->sumsq += (double)v * (double)v;
}

void hist_merge(struct hist *dst, const struct hist *src);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);   /* sample standard deviation (n - 1), as fio */
/* Percentiles p[0..n) in percent (99.9); out[i] in ns. 0 for an empty histogram. */
void hist_percentiles(const struct hist *h, const double *p, size_t n, uint64_t *out);
uint64_t hist_percentile(const struct hist *h, double p);

#endif
