/* Summaries of a sample the way benchstat gives them: the median (R8 quantile) with a
 * distribution-free confidence interval from order statistics, and the geometric mean.
 *
 * The interval comes from Binomial(n, 1/2): the number of samples below the population median.
 * For n <= 30 the exact distribution is summed outward from its mode (ties between the two
 * sides go left), above that a normal approximation with continuity correction is used.
 * n = 10 at 95% gives the 2nd and 9th values.  Too few samples give an infinite bound. */
#ifndef NM_STATS_SUMMARY_H
#define NM_STATS_SUMMARY_H

#include <stddef.h>

struct summary {
	double center;          /* the median */
	double lo, hi;          /* the interval; -INFINITY / INFINITY when n is too small */
	double confidence;      /* the interval's actual confidence (>= the one asked for) */
	size_t n;
};

/* v[0..n) in ascending order (qsort with the one comparison of doubles): a total order with NaN
 * first (as Go's sort.Float64s), so a NaN in the input cannot make the order inconsistent. */
void stats_sort(double *v, size_t n);

/* The R8 quantile (Hyndman & Fan) of sorted[0..n), p in [0, 1]. NAN when n is 0. */
double stats_quantile(const double *sorted, size_t n, double p);

/* The plain median of sorted[0..n): the middle value, or the mean of the two middle values for
 * an even n; 0 when n is 0.  (It can differ from stats_quantile(.., 0.5) in the last bit, so the
 * figures that have always used it keep it.) */
double stats_median_sorted(const double *sorted, size_t n);
/* The same of x[0..n) in any order (not modified). */
double stats_median(const double *x, size_t n);

/* The 1-based order statistics [lo_order, hi_order] that bound the confidence interval of the
 * median of n values; lo_order 0 or hi_order n+1 mean an infinite bound. */
void stats_median_ci_orders(size_t n, double confidence, size_t *lo_order, size_t *hi_order,
			    double *actual_confidence);

/* Median and its interval of x[0..n) (not modified). Returns -1 when n is 0. */
int summary_median(const double *x, size_t n, double confidence, struct summary *out);

/* The smallest n that gives a finite interval at this confidence (6 at 0.95). */
size_t summary_min_samples(double confidence);

/* benchstat's "± x%" text without the "±": max(hi/center - 1, 1 - lo/center) as "%.0f%%";
 * "∞" for an infinite bound, "?" when the bounds have another sign than the center. */
const char *summary_range_pct(const struct summary *s, char *buf, size_t len);

/* Whether a spread means nothing as "± X%" (issue 32 item 5): the bound farthest from the
 * center is more than the center itself away from it (X over 100%: 7.48 MB/s ± 1404%), or the
 * bounds reach the other side of zero.  An infinite bound (too few samples) is not unstable:
 * it keeps its "∞".  The one rule every output asks. */
int stats_spread_unstable(double center, double lo, double hi);
/* The same rule for a spread already in percent (a verdict's noise): over 100. */
int stats_pct_unstable(double pct);
/* A noise in percent as text: "±12% noise", or "noise past ±100%" where stats_pct_unstable. */
const char *stats_noise_text(double pct, char *buf, size_t len);
int summary_unstable(const struct summary *s);

/* The spread as text from the figures already written with their unit: "C ± X%" (pct as
 * summary_range_pct writes it), or "unstable: C, range LO to HI" when stats_spread_unstable. */
const char *stats_spread_text(char *buf, size_t len, double center, double lo, double hi, const char *pct,
			      const char *c_text, const char *lo_text, const char *hi_text);

/* The standard normal distribution function, and its inverse (by bisection: ample for
 * confidence levels). */
double stats_normal_cdf(double z);
double stats_normal_quantile(double p);

/* Geometric mean of x[0..n); NAN when n is 0 or a value is <= 0. */
double stats_geomean(const double *x, size_t n);

#endif
