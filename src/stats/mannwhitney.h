/* The two-sided Mann-Whitney U test, as benchstat runs it to decide whether two samples differ.
 *
 * Ties get midranks.  The p-value comes from the exact distribution of U (conditional on the
 * tie pattern) when both samples have at most 50 values, or 25 when there are ties; otherwise
 * from the normal approximation with tie and continuity corrections.  Any input is ranked in
 * stats_sort's order (NaN lowest, all NaNs one tie group): the commands refuse non-finite
 * measurements before this, but the test never reads past its buffers on them. */
#ifndef NM_STATS_MANNWHITNEY_H
#define NM_STATS_MANNWHITNEY_H

#include <stddef.h>

#define MWU_EXACT_LIMIT 50
#define MWU_TIES_EXACT_LIMIT 25

struct mwu_result {
	double u;       /* U of the first sample: pairs a > b, plus half the ties */
	double p;       /* two-sided p-value */
	int exact;      /* 1 when p came from the exact distribution */
	int all_equal;  /* every value is the same: the test means nothing, p = 1 */
};

/* Returns 0, or -1 when a sample is empty (p = 1 then). */
int mwu_test(const double *a, size_t na, const double *b, size_t nb, struct mwu_result *out);

/* Just the two-sided p-value; 1 when the test cannot say anything (empty sample, all equal). */
double mwu_pvalue(const double *a, size_t na, const double *b, size_t nb);

/* The smallest p-value two samples of n values each can reach (no ties): 2 / C(2n, n). */
double mwu_min_pvalue(size_t n);

#endif
