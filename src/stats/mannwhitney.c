#include "stats/mannwhitney.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Equal in stats_sort's order: NaN groups with NaN, so every tie group has a value. */
static int same_value(double x, double y)
{
	return x == y || (isnan(x) && isnan(y));
}

static double choose(long n, long k)
{
	if (k < 0 || k > n)
		return 0;
	double c = 1;
	if (k > n - k)
		k = n - k;
	for (long i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

/* The exact null distribution of 2*R1 (twice the rank sum of the first sample) given the tie
 * groups: every way of picking n1 of the N positions is equally likely, and picking r of a group
 * of t tied values adds r times the group's midrank.  A knapsack over the groups, counting the
 * ways (weighted by C(t, r)) for each (picked so far, 2*rank sum).  Returns P(2*U1 <= two_u). */
static double exact_cdf(const size_t *ties, size_t ngroups, size_t n1, size_t n, long two_u)
{
	long smax = (long)(n * (n + 1)); /* 2 * sum of all ranks */
	size_t width = (size_t)smax + 1;
	double *dp = xcalloc(1, (n1 + 1) * width * sizeof *dp);
	dp[0] = 1;

	size_t start = 1; /* rank of the group's first value */
	for (size_t g = 0; g < ngroups; g++) {
		long t = (long)ties[g];
		long two_mid = (long)(2 * start) + t - 1; /* 2 * midrank */
		long end = (long)start + t - 1;
		long reach = end * (end + 1); /* no 2*rank sum so far can exceed this */
		double ways[t + 1];
		for (long r = 0; r <= t; r++)
			ways[r] = choose(t, r);
		for (long j = (long)n1; j >= 1; j--) {
			double *row = dp + (size_t)j * width;
			long rmax = t < j ? t : j;
			for (long s = reach < smax ? reach : smax; s >= two_mid; s--) {
				double add = 0;
				for (long r = 1; r <= rmax && s - r * two_mid >= 0; r++)
					add += dp[(size_t)(j - r) * width + (size_t)(s - r * two_mid)] * ways[r];
				row[s] += add;
			}
		}
		start += (size_t)t;
	}

	/* 2*U1 = 2*R1 - n1(n1+1) */
	long offset = (long)(n1 * (n1 + 1));
	double below = 0, total = 0;
	const double *row = dp + n1 * width;
	for (long s = 0; s <= smax; s++) {
		total += row[s];
		if (s - offset <= two_u)
			below += row[s];
	}
	free(dp);
	return below / total;
}

int mwu_test(const double *a, size_t na, const double *b, size_t nb, struct mwu_result *out)
{
	memset(out, 0, sizeof *out);
	out->p = 1;
	if (na == 0 || nb == 0)
		return -1;

	size_t n = na + nb;
	double *vals = xcalloc(1, n * sizeof *vals);
	memcpy(vals, a, na * sizeof *vals);
	memcpy(vals + na, b, nb * sizeof *vals);
	stats_sort(vals, n);
	/* How many of each distinct value come from a: walk a sorted copy of a alongside. */
	double *as = xcalloc(1, na * sizeof *as);
	memcpy(as, a, na * sizeof *as);
	stats_sort(as, na);

	size_t *ties = xcalloc(1, n * sizeof *ties), ngroups = 0, ai = 0;
	double r1 = 0, tie_term = 0;
	int has_ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1; /* a group holds at least its first value, whatever it compares like */
		while (j < n && same_value(vals[j], vals[i]))
			j++;
		size_t from_a = 0;
		while (ai < na && same_value(as[ai], vals[i]))
			ai++, from_a++;
		double t = (double)(j - i);
		r1 += (double)from_a * ((double)(i + 1) + (double)j) / 2; /* midrank of ranks i+1..j */
		tie_term += t * t * t - t;
		if (j - i > 1)
			has_ties = 1;
		ties[ngroups++] = j - i;
		i = j;
	}
	free(as);
	free(vals);

	double u1 = r1 - (double)na * (double)(na + 1) / 2;
	double u2 = (double)na * (double)nb - u1;
	double usmall = fmin(u1, u2);
	out->u = u1;

	size_t limit = has_ties ? MWU_TIES_EXACT_LIMIT : MWU_EXACT_LIMIT;
	if (ngroups == 1) {
		out->all_equal = 1;
	} else if (na <= limit && nb <= limit) {
		out->exact = 1;
		if (u1 == u2)
			out->p = 1; /* the whole distribution: doubling would count the middle twice */
		else
			out->p = 2 * exact_cdf(ties, ngroups, na, n, (long)llround(2 * usmall));
	} else {
		double N = (double)n, mu = (double)na * (double)nb / 2;
		double sigma = sqrt((double)na * (double)nb * ((N + 1) - tie_term / (N * (N - 1))) / 12);
		if (sigma == 0) {
			out->all_equal = 1;
		} else {
			double num = u1 - mu;
			if (num > 0) /* continuity correction, towards the mean */
				num -= 0.5;
			else if (num < 0)
				num += 0.5;
			double z = num / sigma;
			double cdf = 0.5 * erfc(-z / M_SQRT2);
			out->p = 2 * fmin(cdf, 1 - cdf);
		}
	}
	free(ties);
	return 0;
}

double mwu_pvalue(const double *a, size_t na, const double *b, size_t nb)
{
	struct mwu_result r;
	mwu_test(a, na, b, nb, &r);
	return r.p;
}

double mwu_min_pvalue(size_t n)
{
	return n ? 2 / choose(2 * (long)n, (long)n) : 1;
}
