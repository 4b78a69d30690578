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

const char *verdict_category_name(enum verdict_category c)
{
	return c == VERDICT_CAT_CALLED ? "called" : c == VERDICT_CAT_NO_CHANGE ? "no change" : "can't tell";
}

/* The floor in words, with how a CPU-time floor was widened for other processes' load. */
static void floor_words(double floor_pct, int floor_runs, int host_paced, double before_load, char *buf, size_t len)
{
	if (before_load > 0) {
		char own[64];
		verdict_floor_text(before_load, floor_runs, host_paced, own, sizeof own);
		snprintf(buf, len, "%.0f%%: %s, widened by %.0f%% for other processes' load", floor_pct, own,
			 VERDICT_CPU_CONTENTION_PCT);
	} else {
		verdict_floor_text(floor_pct, floor_runs, host_paced, buf, len);
	}
}

/* What would decide a row that could not be told, from the reason it could not. */
static const char *decide_for(const char *why, int host_paced)
{
	if (strstr(why, "steal"))
		return "a quieter machine (steal is the host's other guests; rerun when they are idle)";
	if (strstr(why, "busy"))
		return "a quiet window, or measuring in turns (`disk A B` for storage, `run` re-measures its calls)";
	if (strstr(why, "too few samples"))
		return "more samples (--runs, or a longer time budget)";
	if (host_paced)
		return "measuring in turns with `disk A B` (both targets under the same host weather)";
	if (strstr(why, "within the noise floor"))
		return "a history of quiet runs here (5 or more narrow the floor), or measuring in turns (`disk A B`)";
	return "more samples (--runs), measured in turns";
}

/* The part of v->why the category reads: without the note of a CPU-time basis, whose busy
 * reasons are not why the row could not be told (those samples were judged). */
static const char *own_why(const struct verdict *v, char *buf, size_t len)
{
	const char *note = v->cpu_basis ? strstr(v->why, "; judged on CPU time")
		: v->basis_note[0] ? strstr(v->why, "; not judged on CPU time") : NULL;
	if (!note)
		return v->why;
	snprintf(buf, len, "%.*s", (int)(note - v->why), v->why);
	return buf;
}

static void categorize(struct verdict *v)
{
	char whybuf[sizeof v->why];
	const char *why = own_why(v, whybuf, sizeof whybuf);
	v->cause[0] = v->decide[0] = 0;
	double h = v->ci_pct;
	v->lo_pct = isfinite(h) && isfinite(v->delta_pct) ? v->delta_pct - h : NAN;
	v->hi_pct = isfinite(h) && isfinite(v->delta_pct) ? v->delta_pct + h : NAN;
	if (verdict_is_call(v->kind)) {
		v->cat = VERDICT_CAT_CALLED;
		v->noise_pct = h;
		const char *dir = v->kind == VERDICT_REGRESSION ? "worse" : v->kind == VERDICT_IMPROVEMENT ? "better"
												      : "changed";
		if (isfinite(v->lo_pct))
			snprintf(v->text, sizeof v->text, "%s: %+.1f%% (95%% interval %+.1f%% to %+.1f%%)", dir,
				 v->delta_pct, v->lo_pct, v->hi_pct);
		else
			snprintf(v->text, sizeof v->text, "%s: %+.1f%%", dir, v->delta_pct);
		return;
	}
	/* Unchanged: the interval bounds the change, unless it is wide or the floor is a host's. */
	double bound = isfinite(h) && isfinite(v->delta_pct) ? fabs(v->delta_pct) + h : INFINITY;
	if (v->kind == VERDICT_UNCHANGED && !v->floor_host_paced && bound <= VERDICT_NO_CHANGE_MAX_PCT) {
		v->cat = VERDICT_CAT_NO_CHANGE;
		v->noise_pct = ceil(fmax(bound, VERDICT_FLOOR_MIN_PCT));
		snprintf(v->text, sizeof v->text, "no change beyond ±%.0f%%", v->noise_pct);
		return;
	}
	v->cat = VERDICT_CAT_CANT_TELL;
	if (v->kind == VERDICT_NOT_COMPARED) {
		const char *w = why;
		if (strncmp(w, "not compared: ", 14) == 0)
			w += 14;
		snprintf(v->cause, sizeof v->cause, "%.399s", w);
		/* a busy run's samples can agree with each other and still be off: the floor is the
		 * least noise known here */
		v->noise_pct = isfinite(h) ? fmax(h, v->floor_pct) : v->floor_pct;
	} else if (v->floor_host_paced) {
		snprintf(v->cause, sizeof v->cause, "a virtual machine's storage: its host sets the pace (floor %.0f%%)",
			 v->floor_pct);
		v->noise_pct = fmax(v->floor_pct, isfinite(bound) ? bound : 0);
	} else if (strstr(why, "within the noise floor")) {
		/* significant, but inside what this figure moves by between runs here */
		char fl[128];
		floor_words(v->floor_pct, v->floor_runs, v->floor_host_paced, v->floor_before_load_pct, fl, sizeof fl);
		snprintf(v->cause, sizeof v->cause, "this figure moves by up to its noise floor between runs (%s)", fl);
		v->noise_pct = v->floor_pct;
	} else {
		snprintf(v->cause, sizeof v->cause, "the samples spread too widely (the change's interval %s)",
			 isfinite(bound) ? "reaches past the 25% a no-change verdict allows" : "is not finite");
		v->noise_pct = isfinite(bound) ? bound : v->floor_pct;
	}
	snprintf(v->decide, sizeof v->decide, "%s", decide_for(why, v->floor_host_paced));
	char nz[40];
	snprintf(v->text, sizeof v->text, "can't tell: %s here (%.400s); would decide: %s",
		 stats_noise_text(v->noise_pct, nz, sizeof nz), v->cause, v->decide);
}

/* A verdict on the CPU-time basis says so after whatever it says, and so does one the basis
 * was not for (a changed CPU set). */
static void append_basis(char *buf, size_t len, const struct verdict *v)
{
	size_t n = strlen(buf);
	if (v->basis_note[0] && n < len)
		snprintf(buf + n, len - n, " (%s)", v->basis_note);
}

void verdict_categorize(struct verdict *v)
{
	categorize(v);
	append_basis(v->text, sizeof v->text, v);
}

void verdict_summary(const struct verdict *v, char *buf, size_t len)
{
	char nz[40];
	if (v->cat != VERDICT_CAT_CANT_TELL)
		snprintf(buf, len, "%s", v->text);
	else
		snprintf(buf, len, "can't tell: %s here; would decide: %s", stats_noise_text(v->noise_pct, nz, sizeof nz),
			 v->decide);
	if (v->cat == VERDICT_CAT_CANT_TELL)
		append_basis(buf, len, v);
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

static void decide_kind(const struct verdict_input *in, double before_load, struct verdict *out)
{
	double alpha = in->alpha > 0 ? in->alpha : 0.05;
	memset(out, 0, sizeof *out);
	out->nbase = in->nbase;
	out->ncur = in->ncur;
	out->floor_pct = in->floor_pct;
	out->floor_runs = in->floor_runs;
	out->floor_host_paced = in->floor_host_paced;
	out->floor_before_load_pct = before_load;
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
	char floor[128];
	floor_words(in->floor_pct, in->floor_runs, in->floor_host_paced, before_load, floor, sizeof floor);
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

void verdict_decide(const struct verdict_input *in, struct verdict *out)
{
	const struct verdict_input *given = in;
	struct verdict_input cpu;
	int cpu_fits = (in->base_busy || in->cur_busy) && in->base_cpu && in->cur_cpu && in->cpu_busy;
	int on_cpu = cpu_fits && !in->cpu_basis_off;
	double before_load = 0;
	if (on_cpu) {
		/* a busy run's wall-clock rate is partly the other process's; its rate per CPU-second
		 * is mostly the figure's own, so the row is judged on that, by the same rules, with
		 * the floor widened for what the load still does to it */
		cpu = *in;
		cpu.base = in->base_cpu;
		cpu.cur = in->cur_cpu;
		cpu.base_busy = cpu.cur_busy = NULL;
		if (in->cpu_floor_pct > cpu.floor_pct) {
			cpu.floor_pct = in->cpu_floor_pct;
			cpu.floor_runs = 0;
			cpu.floor_host_paced = 0;
		}
		before_load = cpu.floor_pct;
		cpu.floor_pct = ((1 + before_load / 100) * (1 + VERDICT_CPU_CONTENTION_PCT / 100) - 1) * 100;
		in = &cpu;
	}
	decide_kind(in, before_load, out);
	if (on_cpu) {
		out->cpu_basis = 1;
		snprintf(out->basis_note, sizeof out->basis_note, "judged on CPU time: %.40s", in->cpu_busy);
		size_t n = strlen(out->why);
		snprintf(out->why + n, sizeof out->why - n, "; %s (%.300s%s%.300s)", out->basis_note,
			 given->base_busy ? given->base_busy : "", given->base_busy && given->cur_busy ? "; " : "",
			 given->cur_busy ? given->cur_busy : "");
	} else if (cpu_fits) {
		/* a busy pair whose CPU set changed: the wall-clock rules (a busy run is not
		 * compared), and why the CPU time that would have judged it does not */
		snprintf(out->basis_note, sizeof out->basis_note, "not judged on CPU time: %.60s", in->cpu_basis_off);
		size_t n = strlen(out->why);
		snprintf(out->why + n, sizeof out->why - n,
			 "; %s (bytes per CPU-second do not see how many CPUs the threads could use)", out->basis_note);
	}
	/* the change's interval: each median's 95% interval, as percent, added in quadrature (the
	 * two runs' samples are independent) */
	double a = verdict_interval_pct(in->base, in->nbase), b = verdict_interval_pct(in->cur, in->ncur);
	out->ci_pct = isfinite(a) && isfinite(b) ? sqrt(a * a + b * b) : INFINITY;
	verdict_categorize(out);
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
		snprintf(out->why, sizeof out->why, "%.380s; confirmed by a re-measure: %+.1f%% (p=%.3f n=%zu+%zu%s%s)",
			 f.why, again->delta_pct, again->p, again->nbase, again->ncur, again->cpu_basis ? ", " : "",
			 again->cpu_basis ? again->basis_note : "");
		verdict_categorize(out);
		return;
	}
	out->recheck = VERDICT_WITHDRAWN;
	out->kind = again->kind == VERDICT_UNCHANGED ? VERDICT_UNCHANGED : VERDICT_NOT_COMPARED;
	const char *w = again->why;
	if (verdict_is_call(again->kind)) /* the other way: two measures that disagree */
		w = "the re-measure called it the other way";
	snprintf(out->why, sizeof out->why, "withdrawn after a re-measure: %.500s (the run's samples said %s %+.1f%%)", w,
		 verdict_kind_name(f.kind), f.delta_pct);
	/* the re-measure's figures are what the withdrawal rests on */
	out->ci_pct = again->ci_pct;
	out->cpu_basis = again->cpu_basis;
	snprintf(out->basis_note, sizeof out->basis_note, "%s", again->basis_note);
	verdict_categorize(out);
}
