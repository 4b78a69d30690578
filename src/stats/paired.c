#include "stats/paired.h"
#include "stats/summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* P(T+ = w) for w in [0, n(n+1)/2] under no change: each rank is in T+ with probability 1/2
 * independently, added one rank at a time.  NULL when out of memory. */
static double *signed_rank_pmf(size_t n)
{
	size_t max = n * (n + 1) / 2;
	double *p = calloc(max + 1, sizeof *p);
	if (!p)
		return NULL;
	p[0] = 1;
	for (size_t r = 1; r <= n; r++) {
		size_t top = r * (r + 1) / 2;
		for (size_t w = top; w >= r; w--)
			p[w] = (p[w] + p[w - r]) / 2;
		for (size_t w = r; w-- > 0;)
			p[w] /= 2;
	}
	return p;
}

long paired_critical(size_t n, double alpha_half, double *tail)
{
	if (tail)
		*tail = 0;
	if (n == 0)
		return -1;
	if (n > PAIRED_EXACT_LIMIT) {
		double m = (double)n * (double)(n + 1) / 4;
		double sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24);
		long c = (long)floor(m + stats_normal_quantile(alpha_half) * sd - 0.5);
		if (tail)
			*tail = stats_normal_cdf(((double)c + 0.5 - m) / sd);
		return c;
	}
	double *p = signed_rank_pmf(n);
	if (!p)
		return -1;
	long c = -1;
	double cum = 0;
	for (size_t w = 0; w <= n * (n + 1) / 2; w++) {
		if (cum + p[w] > alpha_half * (1 + 1e-12))
			break;
		cum += p[w];
		c = (long)w;
	}
	free(p);
	if (tail)
		*tail = cum;
	return c;
}

/* Two-sided signed-rank p-value of the differences d[0..n). */
static double signed_rank_p(const double *d, size_t n)
{
	struct ranked {
		double abs;
		int positive;
	} *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return 1;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0)
			v[m++] = (struct ranked){ fabs(d[i]), d[i] > 0 };
	if (m == 0) {
		free(v);
		return 1;
	}
	/* sort by |d| (insertion: n is a few dozen rounds) and give ties their midrank */
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0 && v[j - 1].abs > v[j].abs; j--) {
			struct ranked t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	double tplus = 0, tie_term = 0;
	int ties = 0;
	for (size_t i = 0; i < m;) {
		size_t j = i;
		while (j + 1 < m && v[j + 1].abs == v[i].abs)
			j++;
		double rank = (double)(i + j + 2) / 2, t = (double)(j - i + 1);
		for (size_t k = i; k <= j; k++)
			tplus += v[k].positive ? rank : 0;
		if (j > i)
			ties = 1;
		tie_term += t * t * t - t;
		i = j + 1;
	}
	free(v);
	double p;
	double *pmf = !ties && m == n && m <= PAIRED_EXACT_LIMIT ? signed_rank_pmf(m) : NULL;
	if (pmf) {
		/* T+ is symmetric about m(m+1)/4: the nearer tail, doubled */
		double mean = (double)m * (double)(m + 1) / 4, low = 0;
		size_t t = (size_t)tplus, lo_w = tplus <= mean ? t : m * (m + 1) / 2 - t;
		for (size_t w = 0; w <= lo_w; w++)
			low += pmf[w];
		p = 2 * low;
		free(pmf);
	} else {
		double mean = (double)m * (double)(m + 1) / 4;
		double var = (double)m * (double)(m + 1) * (double)(2 * m + 1) / 24 - tie_term / 48;
		double dev = fabs(tplus - mean) - 0.5;
		p = var > 0 ? 2 * stats_normal_cdf(-(dev > 0 ? dev : 0) / sqrt(var)) : 1;
	}
	return p > 1 ? 1 : p;
}

size_t paired_ratio(const double *ref, const double *cur, size_t n, double confidence, struct paired_result *out)
{
	if (confidence <= 0)
		confidence = 0.95;
	*out = (struct paired_result){ .ratio = NAN, .median_ratio = NAN, .lo = 0, .hi = INFINITY, .p = 1 };
	double *d = malloc((n ? n : 1) * sizeof *d);
	if (!d)
		return 0;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (ref[i] > 0 && cur[i] > 0 && isfinite(ref[i]) && isfinite(cur[i]))
			d[m++] = log(cur[i] / ref[i]);
	out->n = m;
	if (m == 0) {
		free(d);
		return 0;
	}
	size_t nw = m * (m + 1) / 2;
	double *w = malloc(nw * sizeof *w);
	if (!w) {
		free(d);
		return m;
	}
	size_t k = 0;
	for (size_t i = 0; i < m; i++)
		for (size_t j = i; j < m; j++)
			w[k++] = (d[i] + d[j]) / 2;
	stats_sort(w, nw);
	out->ratio = exp(stats_median_sorted(w, nw));
	double tail;
	long c = paired_critical(m, (1 - confidence) / 2, &tail);
	if (c >= 0 && (size_t)c < nw / 2) {
		out->lo = exp(w[c]);
		out->hi = exp(w[nw - 1 - (size_t)c]);
		out->confidence = 1 - 2 * tail;
	}
	out->p = signed_rank_p(d, m);
	stats_sort(d, m);
	out->median_ratio = exp(stats_median_sorted(d, m));
	free(w);
	free(d);
	return m;
}

/* A ratio as a signed percent change: "+92%", "-8.5%" (one decimal below 10%). */
static void pct_text(double ratio, char *buf, size_t len)
{
	double pct = (ratio - 1) * 100;
	snprintf(buf, len, fabs(pct) < 9.95 ? "%+.1f%%" : "%+.0f%%", pct);
}

/* How far a ratio is from 1 either way, in percent: max(r, 1/r) - 1. */
static double either_way_pct(double r)
{
	return ((r >= 1 ? r : 1 / r) - 1) * 100;
}

static void bound_text(double pct, char *buf, size_t len)
{
	snprintf(buf, len, pct < 9.95 ? "%.1f%%" : "%.0f%%", pct);
}

/* The interval's confidence as computed: the exact signed-rank level at or above the one asked
 * ("96.9%" from 6 pairs, not a rounded "97%" beside a footnote that says 95%). */
static void confidence_text(double confidence, char *buf, size_t len)
{
	double pct = 100 * confidence;
	snprintf(buf, len, fabs(pct - round(pct)) < 0.05 ? "%.0f%%" : "%.1f%%", pct);
}

void paired_decide(const struct paired_result *r, double floor_pct, struct paired_verdict *v)
{
	char a[32], b[32], c[32], x[32], f[32], conf[16];
	if (floor_pct <= 0)
		floor_pct = PAIRED_FLOOR_PCT;
	memset(v, 0, sizeof *v);
	bound_text(floor_pct, f, sizeof f);
	if (r->n < PAIRED_MIN_PAIRS || !isfinite(r->hi) || !(r->lo > 0)) {
		v->call = PAIRED_CANT_TELL;
		v->bound_pct = INFINITY;
		snprintf(v->text, sizeof v->text, "can't tell: too few pairs");
		snprintf(v->why, sizeof v->why, "%zu pair%s: an interval needs %d (more passes: --loops %d or more)",
			 r->n, r->n == 1 ? "" : "s", PAIRED_MIN_PAIRS, PAIRED_MIN_PAIRS);
		return;
	}
	double up = 1 + floor_pct / 100;
	confidence_text(r->confidence, conf, sizeof conf);
	pct_text(r->ratio, a, sizeof a);
	pct_text(r->lo, b, sizeof b);
	pct_text(r->hi, c, sizeof c);
	if (r->lo > up || r->hi < 1 / up) {
		v->call = PAIRED_CALLED;
		v->bound_pct = either_way_pct(r->ratio);
		snprintf(v->text, sizeof v->text, "called %s [%s, %s]", a, b, c);
		snprintf(v->why, sizeof v->why,
			 "%s interval of the per-round ratios (%zu pairs) lies beyond the ±%s floor; p=%.3f", conf,
			 r->n, f, r->p);
		return;
	}
	double lo_pct = either_way_pct(r->lo), hi_pct = either_way_pct(r->hi);
	v->bound_pct = lo_pct > hi_pct ? lo_pct : hi_pct;
	bound_text(v->bound_pct, x, sizeof x);
	if (v->bound_pct <= PAIRED_USEFUL_BOUND_PCT) {
		v->call = PAIRED_NO_CHANGE;
		snprintf(v->text, sizeof v->text, "no change beyond ±%s", x);
		snprintf(v->why, sizeof v->why, "%s, %s interval [%s, %s] from %zu pairs, not all beyond the ±%s floor",
			 a, conf, b, c, r->n, f);
	} else {
		v->call = PAIRED_CANT_TELL;
		if (stats_pct_unstable(v->bound_pct))
			snprintf(v->text, sizeof v->text, "can't tell: noise past ±100%% here");
		else
			snprintf(v->text, sizeof v->text, "can't tell: ±%s noise here", x);
		snprintf(v->why, sizeof v->why,
			 "the per-round ratios vary too much: %s, %s interval [%s, %s] from %zu pairs; "
			 "more passes (--loops) or longer ones (--runtime) would narrow it",
			 a, conf, b, c, r->n);
	}
}
