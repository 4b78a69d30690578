/* fio's steady state detection (see steadystate.h), judged as fio 3.33 judges it: the window's
 * mean and largest deviation from it, or the least-squares slope over samples 0..n-1, each
 * against the limit (as a percentage of the mean when the limit has '%'). */
#include "fio/steadystate.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC_US 1000000ull

int fio_ss_wanted(const struct fio_ss_opts *o)
{
	return o->dur_us >= SEC_US && o->interval_us >= SEC_US && o->dur_us / SEC_US >= o->interval_us / SEC_US;
}

void fio_ss_init(struct fio_ss *ss, const struct fio_ss_opts *o)
{
	memset(ss, 0, sizeof *ss);
	ss->o = *o;
	/* fio counts whole seconds of both */
	ss->n = (unsigned)((o->dur_us / SEC_US) / (o->interval_us / SEC_US));
	ss->bw = xcalloc(ss->n, sizeof *ss->bw);
	ss->iops = xcalloc(ss->n, sizeof *ss->iops);
	ss->ramp_over = o->ramp_us == 0;
	ss->due_ns = o->interval_us / SEC_US * 1000000000ull;
}

void fio_ss_free(struct fio_ss *ss)
{
	free(ss->bw);
	free(ss->iops);
	ss->bw = ss->iops = NULL;
}

static uint64_t slot(const struct fio_ss *ss, unsigned i, const uint64_t *data)
{
	return data[(ss->head + i) % ss->n];
}

/* The judged series: iops or bw. */
static const uint64_t *judged(const struct fio_ss *ss)
{
	return ss->o.iops ? ss->iops : ss->bw;
}

static int judge_deviation(struct fio_ss *ss)
{
	const uint64_t *y = judged(ss);
	double sum = 0;
	for (unsigned i = 0; i < ss->n; i++)
		sum += (double)y[i];
	double mean = sum / ss->n, dev = 0;
	for (unsigned i = 0; i < ss->n; i++)
		dev = fmax(dev, fabs((double)y[i] - mean));
	ss->deviation = dev;
	ss->criterion = ss->o.pct ? 100.0 * dev / mean : dev;
	return ss->criterion < ss->o.limit;
}

static int judge_slope(struct fio_ss *ss)
{
	const uint64_t *y = judged(ss);
	double n = ss->n, sum_y = 0, sum_xy = 0;
	uint64_t sum_y_int = 0;
	for (unsigned i = 0; i < ss->n; i++) {
		uint64_t v = slot(ss, i, y);
		sum_y += (double)v;
		sum_y_int += v;
		sum_xy += (double)i * (double)v;
	}
	double sum_x = n * (n - 1) / 2, sum_x_sq = (n - 1) * n * (2 * n - 1) / 6;
	ss->slope = (sum_xy - sum_x * sum_y / n) / (sum_x_sq - sum_x * sum_x / n);
	/* fio divides the slope by the mean in whole units */
	ss->criterion = ss->o.pct ? 100.0 * ss->slope / (double)(sum_y_int / ss->n) : ss->slope;
	return fabs(ss->criterion) < ss->o.limit;
}

static void push(struct fio_ss *ss, uint64_t bw, uint64_t iops)
{
	unsigned at = (ss->head + ss->count) % ss->n;
	if (ss->count == ss->n) { /* full: the oldest goes */
		at = ss->head;
		ss->head = (ss->head + 1) % ss->n;
	} else {
		ss->count++;
	}
	ss->bw[at] = bw;
	ss->iops[at] = iops;
}

int fio_ss_update(struct fio_ss *ss, uint64_t elapsed_ns, uint64_t bytes, uint64_t ios)
{
	if (ss->attained)
		return 1;
	if (!ss->started) { /* the totals so far are the base of the first sample */
		ss->started = 1;
		ss->last_ns = elapsed_ns;
		ss->last_bytes = bytes;
		ss->last_ios = ios;
	}
	if (elapsed_ns < ss->due_ns)
		return 0;
	uint64_t interval_ns = ss->o.interval_us / SEC_US * 1000000000ull;
	while (ss->due_ns <= elapsed_ns) /* a late call takes one sample, not several */
		ss->due_ns += interval_ns;
	uint64_t dt = elapsed_ns - ss->last_ns;
	uint64_t db = bytes >= ss->last_bytes ? bytes - ss->last_bytes : 0;
	uint64_t di = ios >= ss->last_ios ? ios - ss->last_ios : 0;
	uint64_t bw = dt ? (uint64_t)((__uint128_t)db * 1000000000u / dt) : 0;
	uint64_t iops = dt ? (uint64_t)((__uint128_t)di * 1000000000u / dt) : 0;
	ss->last_ns = elapsed_ns;
	ss->last_bytes = bytes;
	ss->last_ios = ios;
	/* fio keeps samples from one interval after ss_ramp on */
	if (!ss->ramp_over && elapsed_ns >= (ss->o.ramp_us + ss->o.interval_us / SEC_US * SEC_US) * 1000)
		ss->ramp_over = 1;
	if (!ss->ramp_over)
		return 0;
	push(ss, bw, iops);
	if (ss->count < ss->n)
		return 0;
	ss->attained = ss->o.slope ? judge_slope(ss) : judge_deviation(ss);
	return ss->attained;
}

void fio_ss_window(const struct fio_ss *ss, uint64_t *out_bw, uint64_t *out_iops)
{
	for (unsigned i = 0; i < ss->n; i++) {
		out_bw[i] = i < ss->count ? slot(ss, i, ss->bw) : 0;
		out_iops[i] = i < ss->count ? slot(ss, i, ss->iops) : 0;
	}
}

static uint64_t mean_of(const struct fio_ss *ss, const uint64_t *data)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < ss->n; i++)
		sum += data[i];
	return ss->n ? sum / ss->n : 0;
}

uint64_t fio_ss_bw_mean(const struct fio_ss *ss) { return mean_of(ss, ss->bw); }
uint64_t fio_ss_iops_mean(const struct fio_ss *ss) { return mean_of(ss, ss->iops); }

void fio_ss_describe(const struct fio_ss *ss, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s:%f%s", ss->o.iops ? "iops" : "bw", ss->o.slope ? "_slope" : "", (float)ss->o.limit,
		 ss->o.pct ? "%" : "");
}
