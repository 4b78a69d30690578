/* fio's bw and iops lines: one sample of a rate per interval (bwavgtime, iopsavgtime), per
 * direction, summarised as min, max, mean and standard deviation (Welford, no sample kept). */
#include "io/internal.h"
#include "io/ticks.h"

#include <math.h>
#include <string.h>

static void rate_add(struct rate_stat *s, double v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->n++;
	double d = v - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * (v - s->mean);
}

void io_sampler_restart(struct io_sampler *s, uint64_t now)
{
	memset(s->base, 0, sizeof s->base);
	memset(s->st, 0, sizeof s->st);
	s->last = now;
	s->next = now + s->len;
}

/* The real time since the last sample, so a late check does not inflate the rate. A
 * direction with no I/O in the interval adds no sample, as fio's. */
void io_sampler_close(struct io_sampler *s, const struct io_job_result *r, uint64_t now)
{
	double secs = (double)ticks_to_ns(now - s->last) / 1e9;
	for (int d = 0; d < DIR_COUNT && secs > 0; d++) {
		const struct io_dir_result *dr = &r->dir[d];
		uint64_t count = s->bytes ? dr->bytes : dr->ios;
		uint64_t delta = count - s->base[d];
		s->base[d] = count;
		if (delta)
			rate_add(&s->st[d], (double)delta / secs);
	}
	s->last = now;
	s->next += s->len;
	if (s->next <= now) /* the thread was away for more than one interval */
		s->next = now + s->len;
}

void io_rate_out(const struct rate_stat *s, uint64_t *min, uint64_t *max, double *mean, double *dev,
		 uint64_t *samples)
{
	*samples = s->n;
	*min = (uint64_t)s->min;
	*max = (uint64_t)s->max;
	*mean = s->mean;
	*dev = s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) : 0;
}
