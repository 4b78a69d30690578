#include "stats/verdict.h"
#include "stats/mannwhitney.h"
#include "stats/summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *verdict_kind_name(enum verdict_kind k)
{
	switch (k) {
	case VERDICT_REGRESSION:
		return "regression";
	case VERDICT_IMPROVEMENT:
		return "improvement";
	case VERDICT_CHANGED:
		return "changed";
	case VERDICT_NOT_COMPARED:
		return "not compared";
	default:
		return "unchanged";
	}
}

int verdict_is_call(enum verdict_kind k)
{
	return k == VERDICT_REGRESSION || k == VERDICT_IMPROVEMENT || k == VERDICT_CHANGED;
}

void verdict_floor_text(double floor_pct, int floor_runs, int host_paced, char *buf, size_t len)
{
	if (host_paced)
		snprintf(buf, len, "%.0f%% for a virtual machine's storage", floor_pct);
	else if (floor_runs >= VERDICT_HISTORY_MIN)
		snprintf(buf, len, "%.0f%% from %d runs", floor_pct, floor_runs);
	else
		snprintf(buf, len, "%.0f%% by default", floor_pct);
}

const char *verdict_floor_source(int floor_runs, int host_paced)
{
	return host_paced ? "host-paced" : floor_runs >= VERDICT_HISTORY_MIN ? "history" : "default";
}

static double median_of(const double *x, size_t n)
{
	struct summary s;
	return summary_median(x, n, 0.95, &s) < 0 ? NAN : s.center;
}

/* How far apart two medians are, as a factor either way, in percent: 100 MB/s to 50 MB/s and
 * 1 ms to 2 ms are both 100%, so a throughput and the latency of the same slowdown meet the
 * same floor (a drop of -50% next to a rise of +100% would not). */
static double change_factor_pct(double base, double cur)
{
	double r = cur / base;
	return (r >= 1 ? r - 1 : 1 / r - 1) * 100;
}

void verdict_decide(const struct verdict_input *in, struct verdict *out)
{
	double alpha = in->alpha > 0 ? in->alpha : 0.05;
	memset(out, 0, sizeof *out);
	out->nbase = in->nbase;
	out->ncur = in->ncur;
	out->floor_pct = in->floor_pct;
	out->floor_runs = in->floor_runs;
	out->floor_host_paced = in->floor_host_paced;
	out->p = NAN;
	double mb = median_of(in->base, in->nbase), mc = median_of(in->cur, in->ncur);
	out->delta_pct = mb > 0 && mc >= 0 ? (mc / mb - 1) * 100 : NAN;

	out->kind = VERDICT_NOT_COMPARED;
	if (in->base_busy || in->cur_busy) {
		snprintf(out->why, sizeof out->why, "not compared: %s%s%s", in->base_busy ? in->base_busy : "",
			 in->base_busy && in->cur_busy ? "; " : "", in->cur_busy ? in->cur_busy : "");
		return;
	}
	if (in->nbase < VERDICT_MIN_SAMPLES || in->ncur < VERDICT_MIN_SAMPLES) {
		snprintf(out->why, sizeof out->why, "not compared: too few samples (%zu+%zu; a call needs %d each%s%s)",
			 in->nbase, in->ncur, VERDICT_MIN_SAMPLES, in->short_why ? ": " : "",
			 in->short_why ? in->short_why : "");
		return;
	}
	if (isnan(out->delta_pct)) {
		snprintf(out->why, sizeof out->why, "not compared: the baseline's median is not positive");
		return;
	}

	struct mwu_result t;
	mwu_test(in->base, in->nbase, in->cur, in->ncur, &t);
	out->p = t.p;
	out->kind = VERDICT_UNCHANGED;
	if (t.all_equal || !(t.p <= alpha)) {
		snprintf(out->why, sizeof out->why, "unchanged: %+.1f%% is not significant (p=%.3f n=%zu+%zu)",
			 out->delta_pct, t.p, in->nbase, in->ncur);
		return;
	}
	char floor[64];
	verdict_floor_text(in->floor_pct, in->floor_runs, in->floor_host_paced, floor, sizeof floor);
	if (change_factor_pct(mb, mc) <= in->floor_pct) {
		snprintf(out->why, sizeof out->why, "unchanged: %+.1f%% is within the noise floor (%s)",
			 out->delta_pct, floor);
		return;
	}
	int better = in->direction * (out->delta_pct > 0 ? 1 : -1);
	out->kind = better > 0 ? VERDICT_IMPROVEMENT : better < 0 ? VERDICT_REGRESSION : VERDICT_CHANGED;
	snprintf(out->why, sizeof out->why, "%s: %+.1f%% (p=%.3f n=%zu+%zu, noise floor %s)",
		 verdict_kind_name(out->kind), out->delta_pct, t.p, in->nbase, in->ncur, floor);
}

double verdict_floor_from_history(const double *medians, size_t k, double default_pct)
{
	if (k < VERDICT_HISTORY_MIN)
		return default_pct;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < k; i++) {
		lo = fmin(lo, medians[i]);
		hi = fmax(hi, medians[i]);
	}
	if (!(lo > 0))
		return default_pct;
	/* the spread of the medians as a factor, with a margin of that spread again, at most 25%: a
	 * tight figure gets (hi/lo)^2 - 1, and one run far off does not make a wide figure's floor
	 * the square of its outlier (blake3/2t here: 3.3-4.9 GB/s gave 124%, too wide to see a
	 * halving) */
	double r = hi / lo;
	double pct = (r * fmin(r, VERDICT_FLOOR_MARGIN) - 1) * 100;
	return pct > VERDICT_FLOOR_MIN_PCT ? pct : VERDICT_FLOOR_MIN_PCT;
}

double verdict_interval_pct(const double *x, size_t n)
{
	struct summary s;
	if (summary_median(x, n, 0.95, &s) < 0 || isinf(s.lo) || isinf(s.hi) || !(s.center > 0) || !(s.lo > 0))
		return INFINITY;
	return 100 * fmax(s.hi / s.center - 1, 1 - s.lo / s.center);
}

void verdict_confirm(const struct verdict *first, const struct verdict *again, struct verdict *out)
{
	struct verdict f = *first;
	*out = f;
	out->first_kind = f.kind;
	if (again->kind == f.kind) {
		out->recheck = VERDICT_CONFIRMED;
		snprintf(out->why, sizeof out->why, "%.380s; confirmed by a re-measure: %+.1f%% (p=%.3f n=%zu+%zu)", f.why,
			 again->delta_pct, again->p, again->nbase, again->ncur);
		return;
	}
	out->recheck = VERDICT_WITHDRAWN;
	out->kind = again->kind == VERDICT_UNCHANGED ? VERDICT_UNCHANGED : VERDICT_NOT_COMPARED;
	const char *w = again->why;
	if (verdict_is_call(again->kind)) /* the other way: two measures that disagree */
		w = "the re-measure called it the other way";
	snprintf(out->why, sizeof out->why, "withdrawn after a re-measure: %.500s (the run's samples said %s %+.1f%%)", w,
		 verdict_kind_name(f.kind), f.delta_pct);
}
