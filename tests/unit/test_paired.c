/* The paired statistic on fixed inputs.  The expected values come from
 * tests/unit/data/paired_ref.py, which enumerates all 2^n sign patterns by brute force (no
 * recurrence, no library), and the critical counts also match the published tables of the
 * Wilcoxon signed-rank test (two-sided 5%: n=8 3, n=10 8, n=12 13, n=20 52). */
#include "test.h"
#include "stats/paired.h"

TEST(paired_critical_counts_match_tables)
{
	double tail;
	CHECK_EQ_INT(paired_critical(5, 0.025, &tail), -1); /* 1/32 > 2.5%: no interval */
	CHECK_EQ_INT(paired_critical(6, 0.025, &tail), 0);
	CHECK_NEAR(tail, 1.0 / 64, 1e-15);
	CHECK_EQ_INT(paired_critical(8, 0.025, &tail), 3);
	CHECK_NEAR(tail, 0.01953125, 1e-15);
	CHECK_EQ_INT(paired_critical(10, 0.025, &tail), 8);
	CHECK_NEAR(tail, 0.0244140625, 1e-15);
	CHECK_EQ_INT(paired_critical(12, 0.025, &tail), 13);
	CHECK_NEAR(tail, 0.021240234375, 1e-15);
	CHECK_EQ_INT(paired_critical(20, 0.025, NULL), 52);
	CHECK_EQ_INT(paired_critical(0, 0.025, NULL), -1);
}

TEST(paired_ratio_clear_speedup)
{
	double ref[] = { 100, 102, 98, 101, 99, 100, 103, 97 };
	double cur[] = { 120, 119, 121, 118, 125, 117, 122, 120 };
	struct paired_result r;
	CHECK_EQ_U64(paired_ratio(ref, cur, 8, 0.95, &r), 8);
	CHECK_NEAR(r.ratio, 1.201642733180, 1e-10);
	CHECK_NEAR(r.lo, 1.1683321445547923, 1e-12);
	CHECK_NEAR(r.hi, 1.2371134020618557, 1e-12);
	CHECK_NEAR(r.confidence, 0.9609375, 1e-12);
	CHECK_NEAR(r.p, 0.0078125, 1e-12);
	CHECK_NEAR(r.median_ratio, 1.192207709798, 1e-10);
	struct paired_verdict v;
	paired_decide(&r, 5, &v);
	CHECK_EQ_INT(v.call, PAIRED_CALLED);
	CHECK_EQ_STR(v.text, "called +20% [+17%, +24%]");
}

TEST(paired_ratio_no_change_states_bound)
{
	double ref[] = { 100, 90, 110, 95, 105, 100, 98, 102, 97, 101 };
	double cur[] = { 101, 92, 108, 96, 103, 99, 99, 104, 95, 100.5 };
	struct paired_result r;
	paired_ratio(ref, cur, 10, 0, &r);
	CHECK_NEAR(r.ratio, 1.000093366323, 1e-10);
	CHECK_NEAR(r.lo, 0.985900603509299, 1e-12);
	CHECK_NEAR(r.hi, 1.0147925510017441, 1e-12);
	CHECK_NEAR(r.confidence, 0.951171875, 1e-12);
	CHECK_NEAR(r.p, 0.921875, 1e-12);
	struct paired_verdict v;
	paired_decide(&r, 5, &v);
	CHECK_EQ_INT(v.call, PAIRED_NO_CHANGE);
	/* max(1.01479, 1/0.98590) - 1 = 1.48% */
	CHECK_EQ_STR(v.text, "no change beyond ±1.5%");
}

TEST(paired_ratio_six_pairs_slowdown)
{
	double ref[] = { 50, 80, 65, 70, 90, 60 };
	double cur[] = { 40, 70, 60, 50, 85, 55 };
	struct paired_result r;
	paired_ratio(ref, cur, 6, 0.95, &r);
	CHECK_NEAR(r.ratio, 0.869226987360, 1e-10);
	CHECK_NEAR(r.lo, 50.0 / 70, 1e-12); /* the smallest Walsh average is the smallest ratio */
	CHECK_NEAR(r.hi, 85.0 / 90, 1e-12);
	CHECK_NEAR(r.p, 0.03125, 1e-12);
	CHECK_NEAR(r.median_ratio, 0.895591052509, 1e-10);
	struct paired_verdict v;
	paired_decide(&r, 5, &v);
	CHECK_EQ_INT(v.call, PAIRED_CALLED); /* hi 0.944 < 1/1.05 */
	paired_decide(&r, 6, &v);            /* 1/1.06 = 0.943 < hi: the interval reaches the floor */
	CHECK_EQ_INT(v.call, PAIRED_CANT_TELL); /* and [-29%, -5.6%] is wider than ±25% */
	CHECK(strstr(v.text, "can't tell: ±40% noise here") != NULL);
}

TEST(paired_too_few_pairs_cannot_tell)
{
	double ref[] = { 100, 100, 100, 100, 100 }, cur[] = { 200, 210, 190, 205, 195 };
	struct paired_result r;
	paired_ratio(ref, cur, 5, 0.95, &r);
	CHECK(r.ratio > 1.9 && r.ratio < 2.1);
	CHECK(isinf(r.hi) && r.lo == 0);
	struct paired_verdict v;
	paired_decide(&r, 0, &v);
	CHECK_EQ_INT(v.call, PAIRED_CANT_TELL);
	CHECK(strstr(v.why, "5 pairs: an interval needs 6") != NULL);
}

TEST(paired_drops_nonpositive_pairs)
{
	double ref[] = { 100, 0, 100, 100, 100, 100, 100 }, cur[] = { 110, 110, 110, 110, 110, 110, -1 };
	struct paired_result r;
	CHECK_EQ_U64(paired_ratio(ref, cur, 7, 0.95, &r), 5);
	CHECK_NEAR(r.ratio, 1.1, 1e-12);
	CHECK_NEAR(r.median_ratio, 1.1, 1e-12);
	CHECK_NEAR(r.p, 0.036888425707, 1e-9); /* ties in |d|: normal approximation with midranks */
}

TEST(paired_p_with_ties_and_a_zero)
{
	/* ratios 1.1 1.1 1/1.05 1.2 1 1.2 1.3: one zero difference dropped, two pairs of ties */
	double ref[] = { 100, 100, 105, 100, 100, 100, 100 }, cur[] = { 110, 110, 100, 120, 100, 120, 130 };
	struct paired_result r;
	paired_ratio(ref, cur, 7, 0.95, &r);
	CHECK_NEAR(r.p, 0.057779571124, 1e-9);
}
