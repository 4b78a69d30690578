#include "test.h"
#include "stats/mannwhitney.h"
#include "stats/summary.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

TEST(stats_quantile_r8)
{
	double v[] = { 1, 2, 3, 4 };
	CHECK_NEAR(stats_quantile(v, 4, 0.5), 2.5, 1e-12);
	/* h = (4 + 1/3) * 0.25 + 1/3 = 17/12: 1 + 5/12 */
	CHECK_NEAR(stats_quantile(v, 4, 0.25), 1 + 5.0 / 12, 1e-12);
	CHECK_NEAR(stats_quantile(v, 4, 0), 1, 0);
	CHECK_NEAR(stats_quantile(v, 4, 1), 4, 0);
	CHECK_NEAR(stats_quantile(v, 3, 0.5), 2, 0);
	CHECK(isnan(stats_quantile(v, 0, 0.5)));
}

TEST(stats_median_plain_midpoint)
{
	/* The plain median is (a + b) / 2, which for 0.1 and 0.7 is not R8's a + (b - a) / 2. */
	double v[] = { 0.7, 0.1, 5 };
	CHECK(stats_median(v, 2) == (0.1 + 0.7) / 2);
	CHECK(stats_median(v, 2) != stats_quantile((double[]){ 0.1, 0.7 }, 2, 0.5));
	CHECK(v[0] == 0.7 && v[1] == 0.1); /* not modified */
	CHECK(stats_median(v, 3) == 0.7);
	CHECK(stats_median(v, 0) == 0);
	double s[] = { 1, 2, 3, 10 };
	CHECK(stats_median_sorted(s, 4) == 2.5);
	CHECK(stats_median_sorted(s, 1) == 1);
}

TEST(stats_median_ci_orders_exact)
{
	size_t lo, hi;
	double conf;
	/* Binomial(10, 1/2): the 2nd..9th values hold 1002/1024 of the mass */
	stats_median_ci_orders(10, 0.95, &lo, &hi, &conf);
	CHECK_EQ_U64(lo, 2);
	CHECK_EQ_U64(hi, 9);
	CHECK_NEAR(conf, 1002.0 / 1024, 1e-12);
	/* n = 6: 62/64 between the 1st and 6th */
	stats_median_ci_orders(6, 0.95, &lo, &hi, &conf);
	CHECK_EQ_U64(lo, 1);
	CHECK_EQ_U64(hi, 6);
	/* n = 5 cannot reach 95% inside the sample: the lower bound is open */
	stats_median_ci_orders(5, 0.95, &lo, &hi, &conf);
	CHECK_EQ_U64(lo, 0);
	CHECK_EQ_U64(summary_min_samples(0.95), 6);
}

TEST(stats_median_ci_orders_normal_approx)
{
	size_t lo, hi;
	double conf;
	/* n = 50, mu 25, sigma sqrt(12.5): the band rounds to [18, 33); the left-biased [18, 32)
	 * still holds 0.95006 >= 0.95, so it is taken */
	stats_median_ci_orders(50, 0.95, &lo, &hi, &conf);
	CHECK_EQ_U64(lo, 18);
	CHECK_EQ_U64(hi, 32);
	CHECK_NEAR(conf, 0.9500565457, 1e-8);
}

TEST(stats_summary_median_and_range)
{
	double x[] = { 10, 1, 9, 2, 8, 3, 7, 4, 6, 5 };
	struct summary s;
	char buf[16];
	CHECK(summary_median(x, 10, 0.95, &s) == 0);
	CHECK_NEAR(s.center, 5.5, 1e-12);
	CHECK_NEAR(s.lo, 2, 0);
	CHECK_NEAR(s.hi, 9, 0);
	/* max(9/5.5 - 1, 1 - 2/5.5) = 0.6364 */
	CHECK_EQ_STR(summary_range_pct(&s, buf, sizeof buf), "64%");
	CHECK(summary_median(x, 3, 0.95, &s) == 0);
	CHECK(isinf(s.lo));
	CHECK_EQ_STR(summary_range_pct(&s, buf, sizeof buf), "∞");
	double z[] = { 0, 0, 0, 0, 0, 0 };
	CHECK(summary_median(z, 6, 0.95, &s) == 0);
	CHECK_EQ_STR(summary_range_pct(&s, buf, sizeof buf), "0%");
	double mixed[] = { -1, 1, 2, 3, 4, 5 };
	CHECK(summary_median(mixed, 6, 0.95, &s) == 0);
	CHECK_EQ_STR(summary_range_pct(&s, buf, sizeof buf), "?");
	CHECK(summary_median(x, 0, 0.95, &s) < 0);
}

TEST(stats_spread_unstable_past_100pct)
{
	char buf[96];
	/* "± 1404%": the upper bound 15 medians away */
	CHECK(stats_spread_unstable(7.48, 1.2, 7.48 * 15.04));
	CHECK_EQ_STR(stats_spread_text(buf, sizeof buf, 7.48, 1.2, 95, "1170%", "7.48 MB/s", "1.20 MB/s", "95.0 MB/s"),
		     "unstable: 7.48 MB/s, range 1.20 MB/s to 95.0 MB/s");
	/* ± 100% exactly is still a figure; just past it is not */
	CHECK(!stats_spread_unstable(10, 5, 20));
	CHECK(stats_spread_unstable(10, 5, 20.01));
	CHECK_EQ_STR(stats_spread_text(buf, sizeof buf, 10, 5, 20, "100%", "10 s", "5 s", "20 s"), "10 s ± 100%");
	/* the 64% of 1..10 stays a figure */
	CHECK(!stats_spread_unstable(5.5, 2, 9));
	/* bounds across zero (summary_range_pct's "?") */
	CHECK(stats_spread_unstable(3, -1, 5));
	CHECK(stats_spread_unstable(-3, -5, 1));
	CHECK(stats_spread_unstable(2, 0, 3));
	/* too few samples: the infinite bound keeps its ∞; all zero: 0% */
	CHECK(!stats_spread_unstable(3, -INFINITY, INFINITY));
	CHECK(!stats_spread_unstable(0, 0, 0));
	CHECK(!stats_spread_unstable(NAN, 1, 2));
	CHECK_EQ_STR(stats_noise_text(12.2, buf, sizeof buf), "±13% noise");
	CHECK_EQ_STR(stats_noise_text(100, buf, sizeof buf), "±100% noise");
	CHECK_EQ_STR(stats_noise_text(1404, buf, sizeof buf), "noise past ±100%");
	struct summary s = { .center = 4, .lo = 1, .hi = 9, .n = 10 };
	CHECK(summary_unstable(&s));
	s.hi = 8;
	CHECK(!summary_unstable(&s));
}

TEST(stats_geomean_of_positive_values)
{
	double x[] = { 1, 4, 16 };
	CHECK_NEAR(stats_geomean(x, 3), 4, 1e-12);
	double bad[] = { 1, 0 };
	CHECK(isnan(stats_geomean(bad, 2)));
	CHECK(isnan(stats_geomean(x, 0)));
}

TEST(stats_mwu_exact_no_ties)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct mwu_result r;
	CHECK(mwu_test(a, 5, b, 5, &r) == 0);
	CHECK(r.exact);
	CHECK_NEAR(r.u, 0, 0);
	CHECK_NEAR(r.p, 2.0 / 252, 1e-12); /* one arrangement of C(10, 5) on each side */
	CHECK_NEAR(mwu_pvalue(b, 5, a, 5), 2.0 / 252, 1e-12);
	CHECK_NEAR(mwu_min_pvalue(10), 2.0 / 184756, 1e-15);
	CHECK_NEAR(mwu_min_pvalue(4), 2.0 / 70, 1e-15);
	/* one value each, as benchstat's "p=1.000 n=1" */
	double x = 100, y = 101;
	CHECK_NEAR(mwu_pvalue(&x, 1, &y, 1), 1, 1e-12);
	/* U1 == U2: p is 1 */
	double c[] = { 1, 4 }, d[] = { 2, 3 };
	CHECK_NEAR(mwu_pvalue(c, 2, d, 2), 1, 0);
}

TEST(stats_mwu_degenerate)
{
	double a[] = { 3, 3, 3 }, b[] = { 3, 3 };
	struct mwu_result r;
	CHECK(mwu_test(a, 3, b, 2, &r) == 0);
	CHECK(r.all_equal);
	CHECK_NEAR(r.p, 1, 0);
	CHECK(mwu_test(a, 0, b, 2, &r) < 0);
	CHECK_NEAR(r.p, 1, 0);
}

/* Brute force: every way to pick which na of the pooled values form the first sample. */
static double brute_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double pool[16];
	for (size_t i = 0; i < na; i++)
		pool[i] = a[i];
	for (size_t i = 0; i < nb; i++)
		pool[na + i] = b[i];
	double u_obs = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u_obs += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	double small = fmin(u_obs, (double)(na * nb) - u_obs);
	if (u_obs == (double)(na * nb) - u_obs)
		return 1;
	unsigned long below = 0, total = 0;
	for (unsigned mask = 0; mask < (1u << n); mask++) {
		if ((size_t)__builtin_popcount(mask) != na)
			continue;
		double u = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if ((mask >> i & 1) && !(mask >> j & 1))
					u += pool[i] > pool[j] ? 1 : pool[i] == pool[j] ? 0.5 : 0;
		total++;
		if (u <= small)
			below++;
	}
	return 2.0 * below / total;
}

TEST(stats_mwu_exact_with_ties_matches_enumeration)
{
	srand(42);
	for (int trial = 0; trial < 200; trial++) {
		size_t na = 1 + (size_t)rand() % 7, nb = 1 + (size_t)rand() % 7;
		double a[8], b[8];
		for (size_t i = 0; i < na; i++)
			a[i] = rand() % 6;
		for (size_t i = 0; i < nb; i++)
			b[i] = rand() % 6;
		struct mwu_result r;
		mwu_test(a, na, b, nb, &r);
		if (r.all_equal)
			continue;
		CHECK(r.exact);
		CHECK_NEAR(r.p, brute_p(a, na, b, nb), 1e-9);
	}
}

TEST(stats_mwu_normal_approximation)
{
	/* 30 values each, in pairs (ties), so above the 25-value exact limit for ties:
	 * U1 = 288, tie-corrected sigma, continuity correction: p = 0.0167625... */
	double a[30], b[30];
	for (int i = 0; i < 30; i++) {
		a[i] = i / 2;
		b[i] = i / 2 + 3;
	}
	struct mwu_result r;
	CHECK(mwu_test(a, 30, b, 30, &r) == 0);
	CHECK(!r.exact);
	CHECK_NEAR(r.u, 288, 0);
	CHECK_NEAR(r.p, 0.016762535550069298, 1e-12);
}

TEST(stats_mwu_exact_at_limit_is_quick_and_tiny)
{
	double a[50], b[50];
	for (int i = 0; i < 50; i++) {
		a[i] = i;
		b[i] = 100 + i;
	}
	struct mwu_result r;
	CHECK(mwu_test(a, 50, b, 50, &r) == 0);
	CHECK(r.exact);
	CHECK(r.p > 0 && r.p < 1e-25); /* 2 / C(100, 50) = 1.98e-29 */
	CHECK_NEAR(r.p / mwu_min_pvalue(50), 1, 1e-9);
}

#include "stats/scale.h"

TEST(stats_scale_like_benchstat)
{
	char b[32];
	CHECK_EQ_INT(scale_class_of("sec/op"), SCALE_DECIMAL);
	CHECK_EQ_INT(scale_class_of("B/s"), SCALE_BINARY);
	CHECK_EQ_INT(scale_class_of("B/op"), SCALE_BINARY);
	CHECK_EQ_INT(scale_class_of("op/B"), SCALE_DECIMAL);
	CHECK_EQ_STR(scale_one(1.718e-6, SCALE_DECIMAL, b, sizeof b), "1.718µ");
	CHECK_EQ_STR(scale_one(237.5e-9, SCALE_DECIMAL, b, sizeof b), "237.5n");
	CHECK_EQ_STR(scale_one(46.55e-9, SCALE_DECIMAL, b, sizeof b), "46.55n");
	/* 99.996 rounds to 100.0 at 4 digits, so it takes the 1-decimal form */
	CHECK_EQ_STR(scale_one(99.996, SCALE_DECIMAL, b, sizeof b), "100.0");
	CHECK_EQ_STR(scale_one(99.99, SCALE_DECIMAL, b, sizeof b), "99.99");
	CHECK_EQ_STR(scale_one(0, SCALE_DECIMAL, b, sizeof b), "0.000");
	CHECK_EQ_STR(scale_one(3.0 * (1 << 30), SCALE_BINARY, b, sizeof b), "3.000Gi");
	CHECK_EQ_STR(scale_one(5e-12, SCALE_DECIMAL, b, sizeof b), "0.005000n");
	/* a row shares the scale of its smallest value */
	double row[] = { 1.423e-6, 950e-9 };
	struct scaler s = scale_common(row, 2, SCALE_DECIMAL);
	CHECK_EQ_STR(scale_format(&s, row[0], b, sizeof b), "1423.0n");
	char u[32];
	CHECK_NEAR(scale_tidy_unit("ns/op", u, sizeof u), 1e-9, 1e-24);
	CHECK_EQ_STR(u, "sec/op");
	CHECK_NEAR(scale_tidy_unit("MB/s", u, sizeof u), 1e6, 0);
	CHECK_EQ_STR(u, "B/s");
	CHECK_NEAR(scale_tidy_unit("ns/MB", u, sizeof u), 1e-9, 1e-24);
	CHECK_EQ_STR(u, "sec/MB");
	CHECK_NEAR(scale_tidy_unit("allocs/op", u, sizeof u), 1, 0);
	CHECK_EQ_STR(u, "allocs/op");
}

/* Non-finite input: the commands refuse it, but the statistics must still stay inside their
 * buffers.  NaN ranks below every number (all NaNs one tie group) and ±Inf like any other value,
 * so the test must agree with the same samples where finite stand-ins keep that order:
 * NaN -> -DBL_MAX, -Inf -> -DBL_MAX/2, +Inf -> DBL_MAX. */
static void finite_stand_in(const double *x, double *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = isnan(x[i]) ? -DBL_MAX : isinf(x[i]) ? (x[i] > 0 ? DBL_MAX : -DBL_MAX / 2) : x[i];
}

TEST(stats_mwu_nan_is_ranked_not_overrun)
{
	/* the reproducer of the benchstat crash: one NaN in one of two samples */
	double a[] = { 1, 2, NAN, 3 }, b[] = { 1, 2, 2 };
	struct mwu_result r, want;
	double fa[4], fb[3];
	finite_stand_in(a, fa, 4);
	finite_stand_in(b, fb, 3);
	CHECK(mwu_test(a, 4, b, 3, &r) == 0);
	CHECK(mwu_test(fa, 4, fb, 3, &want) == 0);
	CHECK_NEAR(r.u, want.u, 0);
	CHECK_NEAR(r.p, want.p, 1e-12);
	double n3[] = { NAN, NAN, NAN }, n2[] = { NAN, NAN };
	CHECK(mwu_test(n3, 3, n2, 2, &r) == 0);
	CHECK(r.all_equal);
	CHECK_NEAR(r.p, 1, 0);
}

TEST(stats_nonfinite_huge_duplicate_inputs_stay_in_bounds)
{
	static const double pool[] = { NAN, INFINITY, -INFINITY, 0, 1, 2, 1e300, -1e300, 5e-324 };
	double a[80], b[80], fa[80], fb[80];
	srand(7);
	for (int round = 0; round < 400; round++) {
		size_t na = 1 + (size_t)rand() % 80, nb = 1 + (size_t)rand() % 80;
		for (size_t i = 0; i < na; i++)
			a[i] = pool[rand() % 9];
		for (size_t i = 0; i < nb; i++)
			b[i] = pool[rand() % 9];
		struct mwu_result r, want;
		CHECK(mwu_test(a, na, b, nb, &r) == 0);
		CHECK(r.p >= 0 && r.p <= 1);
		finite_stand_in(a, fa, na);
		finite_stand_in(b, fb, nb);
		mwu_test(fa, na, fb, nb, &want);
		CHECK_NEAR(r.u, want.u, 0);
		CHECK_NEAR(r.p, want.p, 1e-9);

		struct summary s;
		CHECK(summary_median(a, na, 0.95, &s) == 0);
		CHECK(s.n == na);
		/* the bounds are in stats_sort's order: NaN first, then by value */
		CHECK(isnan(s.lo) || (!isnan(s.hi) && s.lo <= s.hi));
		double sorted[80];
		memcpy(sorted, a, na * sizeof *a);
		stats_sort(sorted, na);
		for (size_t i = 1; i < na; i++)
			CHECK(isnan(sorted[i - 1]) || (!isnan(sorted[i]) && sorted[i - 1] <= sorted[i]));
		double g = stats_geomean(a, na);
		CHECK(isnan(g) || g > 0);
	}
	/* many duplicates: the normal approximation with every value tied */
	static double many[5000];
	for (size_t i = 0; i < 5000; i++)
		many[i] = 1e308;
	struct mwu_result r;
	CHECK(mwu_test(many, 2500, many + 2500, 2500, &r) == 0);
	CHECK(r.all_equal && r.p == 1);
}

TEST(stats_nan_parameters_give_no_index)
{
	double v[] = { 1, 2, 3 };
	/* a NaN p or confidence must not become an index */
	CHECK(stats_quantile(v, 3, NAN) == 1);
	size_t lo, hi;
	stats_median_ci_orders(40, NAN, &lo, &hi, NULL);
	CHECK_EQ_U64(lo, 0);
	CHECK_EQ_U64(hi, 41);
	struct summary s;
	CHECK(summary_median(v, 3, NAN, &s) == 0);
	CHECK(isinf(s.lo) && isinf(s.hi) && s.center == 2);
}
