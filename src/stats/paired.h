/* Paired comparisons: two settings measured in turns, one sample of each per round, compared
 * round by round.  The host's slow minute falls on both samples of a round, so the per-round
 * ratio cancels it, and a test on the ratios calls differences that two separate runs cannot.
 *
 * The arithmetic works on log ratios d_i = log(cur_i / ref_i), so a shift is a ratio:
 *   - the Hodges-Lehmann estimate: the median of the n(n+1)/2 Walsh averages (d_i + d_j) / 2,
 *     i <= j, as a ratio exp(.);
 *   - its interval from the Wilcoxon signed-rank distribution: with c the largest count for
 *     which P(T+ <= c) <= (1 - confidence) / 2 under no change, the interval runs from the
 *     (c+1)-th smallest to the (c+1)-th largest Walsh average (exact distribution up to
 *     PAIRED_EXACT_LIMIT pairs, else the normal approximation).  Six pairs are the fewest that
 *     give a 95% interval (P(T+ = 0) = 1/64);
 *   - the two-sided signed-rank p-value (exact without ties or zero differences, else the
 *     normal approximation with midranks, zeros dropped and the tie correction).
 *
 * The verdict words are those of the comparisons (DESIGN.md): a called change with its
 * interval, "no change beyond ±X%", or "can't tell: ±X% noise here" and why.
 *
 * Pure: no I/O, no clock. */
#ifndef NM_STATS_PAIRED_H
#define NM_STATS_PAIRED_H

#include <stddef.h>

#define PAIRED_EXACT_LIMIT 200
/* The fewest pairs that give a 95% interval. */
#define PAIRED_MIN_PAIRS 6
/* The floor for pairs measured in turns on one machine: a ratio whose whole interval lies
 * beyond ±5% is called.  What pairing cannot remove (two files at different places of one
 * disk, the order within a round) stays below it in this machine's A/A runs (BENCHMARKS.md). */
#define PAIRED_FLOOR_PCT 5.0
/* A bound wider than this says nothing a user can act on: "can't tell" instead of "no change
 * beyond ±X%". */
#define PAIRED_USEFUL_BOUND_PCT 25.0

struct paired_result {
	size_t n;               /* pairs */
	double ratio;           /* Hodges-Lehmann estimate of cur/ref; NAN when n is 0 */
	double lo, hi;          /* its interval; 0 and INFINITY when n is too small */
	double confidence;      /* the interval's actual confidence (>= the one asked); 0 when none */
	double median_ratio;    /* the plain median of the per-round ratios */
	double p;               /* two-sided signed-rank p-value; 1 when n is 0 */
};

/* Compare cur[i] with ref[i], i < n (every value > 0; a pair with a value <= 0 is left out).
 * confidence 0 means 0.95.  Returns the pairs used. */
size_t paired_ratio(const double *ref, const double *cur, size_t n, double confidence, struct paired_result *out);

/* The Wilcoxon signed-rank critical count for n pairs: the largest c with P(T+ <= c) <=
 * alpha_half under no change, or -1 when even P(T+ = 0) = 2^-n is larger (no interval).
 * *tail (may be NULL) gets P(T+ <= c). */
long paired_critical(size_t n, double alpha_half, double *tail);

enum paired_call {
	PAIRED_CALLED,          /* the whole interval lies beyond ±floor */
	PAIRED_NO_CHANGE,       /* not called; the interval rules out more than ±bound */
	PAIRED_CANT_TELL,       /* no interval, or one too wide to say anything */
};

struct paired_verdict {
	enum paired_call call;
	double bound_pct;       /* no change: X of "no change beyond ±X%"; can't tell: the noise */
	char text[128];         /* "called +92% [+85%, +99%]", "no change beyond ±4%",
				 * "can't tell: ±40% noise here" */
	char why[256];          /* the reason, and for can't tell what would decide it */
};

/* floor_pct 0 means PAIRED_FLOOR_PCT. */
void paired_decide(const struct paired_result *r, double floor_pct, struct paired_verdict *v);

#endif
