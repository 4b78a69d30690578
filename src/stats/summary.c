#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	if (isnan(x) || isnan(y))
		return isnan(y) - isnan(x); /* NaN first: a total order, which qsort needs */
	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
}

double stats_quantile(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return NAN;
	/* R8: h = (n + 1/3) p + 1/3, 1-based; clamp to the ends. */
	double h = ((double)n + 1.0 / 3) * p + 1.0 / 3;
	if (!(h > 1)) /* a NaN p too: never an index from it */
		return sorted[0];
	if (h >= (double)n)
		return sorted[n - 1];
	double fl = floor(h);
	size_t i = (size_t)fl; /* 1-based index of the lower neighbour */
	return sorted[i - 1] + (h - fl) * (sorted[i] - sorted[i - 1]);
}

double stats_median_sorted(const double *sorted, size_t n)
{
	if (n == 0)
		return 0;
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double stats_median(const double *x, size_t n)
{
	if (n == 0)
		return 0;
	double *v = xcalloc(n, sizeof *v);
	memcpy(v, x, n * sizeof *v);
	stats_sort(v, n);
	double med = stats_median_sorted(v, n);
	free(v);
	return med;
}

/* log C(n, k) through lgamma, in the same order of operations as the usual formula, so that the
 * left/right tie-break below behaves as in benchstat for n > 20. */
static double binom_half_pmf(long n, long k)
{
	if (k < 0 || k > n)
		return 0;
	double c;
	if (k == 0 || k == n) {
		c = 1;
	} else if (n <= 20) {
		/* exact in 64 bits: n!/(n-k)! / k! */
		uint64_t num = 1, den = 1;
		for (long i = n - k + 1; i <= n; i++)
			num *= (uint64_t)i;
		for (long i = 2; i <= k; i++)
			den *= (uint64_t)i;
		c = (double)(num / den);
	} else {
		c = exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1));
	}
	return c * pow(0.5, (double)k) * pow(0.5, (double)(n - k));
}

double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* Inverse of the standard normal CDF: bisection on erfc, ample for confidence levels. */
double stats_normal_quantile(double p)
{
	double lo = -40, hi = 40;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (stats_normal_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void stats_median_ci_orders(size_t n, double confidence, size_t *lo_order, size_t *hi_order,
			    double *actual_confidence)
{
	long N = (long)n, l, r;
	double conf;

	if (!(confidence < 1)) { /* NaN too: the widest interval, never an order from it */
		*lo_order = 0;
		*hi_order = n + 1;
		if (actual_confidence)
			*actual_confidence = 1;
		return;
	}
	if (N <= 30) {
		/* k = how many samples lie below the population median.  Start at the (left) mode and
		 * take the more likely neighbour until the mass reaches the confidence: [l, r). */
		long x = (long)ceil((double)(N + 1) * 0.5) - 1;
		conf = binom_half_pmf(N, x);
		l = x;
		r = x + 1;
		double lp = binom_half_pmf(N, l - 1), rp = binom_half_pmf(N, r);
		while (conf < confidence && (lp > 0 || rp > 0)) {
			if (lp >= rp) {
				conf += lp;
				l--;
				lp = binom_half_pmf(N, l - 1);
			} else {
				conf += rp;
				r++;
				rp = binom_half_pmf(N, r);
			}
		}
	} else {
		double mu = N * 0.5, sigma = sqrt(N * 0.25);
		double l1 = mu + sigma * stats_normal_quantile((1 - confidence) / 2);
		double r1 = 2 * mu - l1;
		/* Round out to the bands [k - 0.5, k + 0.5] of the continuity correction. */
		l = (long)floor(floor(l1 - 0.5) + 0.5) + 1;
		r = (long)floor(ceil(r1 - 0.5) + 0.5) + 1;
#define BAND(l_, r_) (stats_normal_cdf(((double)(r_) - 0.5 - mu) / sigma) - \
		      stats_normal_cdf(((double)(l_) - 0.5 - mu) / sigma))
		conf = BAND(l, r);
		double biased = BAND(l, r - 1);
#undef BAND
		/* The symmetric band may be wider than needed: prefer the left-biased one. */
		if (biased >= confidence && biased < conf) {
			conf = biased;
			r--;
		}
		if (l <= 0 && r >= N + 1)
			conf = 1;
	}
	if (l < 0)
		l = 0;
	if (r > N + 1)
		r = N + 1;
	*lo_order = (size_t)l;
	*hi_order = (size_t)r;
	if (actual_confidence)
		*actual_confidence = conf;
}

int summary_median(const double *x, size_t n, double confidence, struct summary *out)
{
	memset(out, 0, sizeof *out);
	if (n == 0)
		return -1;
	double *v = malloc(n * sizeof *v);
	if (!v)
		abort();
	memcpy(v, x, n * sizeof *v);
	stats_sort(v, n);

	size_t lo, hi;
	stats_median_ci_orders(n, confidence, &lo, &hi, &out->confidence);
	out->n = n;
	out->center = stats_quantile(v, n, 0.5);
	out->lo = lo < 1 ? -INFINITY : v[lo - 1];
	out->hi = hi > n ? INFINITY : v[hi - 1];
	free(v);
	return 0;
}

size_t summary_min_samples(double confidence)
{
	for (size_t n = 2; n <= 50; n++) {
		size_t lo, hi;
		stats_median_ci_orders(n, confidence, &lo, &hi, NULL);
		if (lo > 0 && hi <= n)
			return n;
	}
	return 51;
}

static int sign(double v)
{
	return (v > 0) - (v < 0);
}

const char *summary_range_pct(const struct summary *s, char *buf, size_t len)
{
	if (isinf(s->lo) || isinf(s->hi))
		snprintf(buf, len, "∞");
	else if (sign(s->center) != sign(s->lo) || sign(s->center) != sign(s->hi))
		snprintf(buf, len, "?");
	else if (s->center == 0)
		snprintf(buf, len, "0%%");
	else
		snprintf(buf, len, "%.0f%%", 100 * fmax(s->hi / s->center - 1, 1 - s->lo / s->center));
	return buf;
}

int stats_spread_unstable(double center, double lo, double hi)
{
	if (isnan(center) || isnan(lo) || isnan(hi) || isinf(lo) || isinf(hi))
		return 0;
	if (sign(center) != sign(lo) || sign(center) != sign(hi))
		return 1;
	return stats_pct_unstable(100 * fmax(hi / center - 1, 1 - lo / center));
}

int stats_pct_unstable(double pct)
{
	return pct > 100;
}

const char *stats_noise_text(double pct, char *buf, size_t len)
{
	if (stats_pct_unstable(pct))
		snprintf(buf, len, "noise past ±100%%");
	else
		snprintf(buf, len, "±%.0f%% noise", ceil(pct));
	return buf;
}

int summary_unstable(const struct summary *s)
{
	return stats_spread_unstable(s->center, s->lo, s->hi);
}

const char *stats_spread_text(char *buf, size_t len, double center, double lo, double hi, const char *pct,
			      const char *c_text, const char *lo_text, const char *hi_text)
{
	if (stats_spread_unstable(center, lo, hi))
		snprintf(buf, len, "unstable: %s, range %s to %s", c_text, lo_text, hi_text);
	else
		snprintf(buf, len, "%s ± %s", c_text, pct);
	return buf;
}

double stats_geomean(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / (double)n);
}
