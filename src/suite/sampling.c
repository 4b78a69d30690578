/* How many samples a figure gets: enough for its interval to be narrower than the change worth
 * detecting, within the mode's bounds and time budget (suite/phase.h). */
#include "suite/phase.h"
#include "results/history.h"
#include "stats/summary.h"
#include "stats/verdict.h"
#include "util/clock.h"

#include <math.h>
#include <stdio.h>

/* The figure's floor: its history through the command's callback, else the phase's default. */
static double floor_of(const struct suite_ctx *c, const char *bench, int *runs)
{
	double def = history_default_floor_for(c->phase, bench, "bytes_per_sec");
	*runs = 0;
	if (!bench || !c->opts->floor_pct)
		return def;
	double pct = c->opts->floor_pct(c->opts->floor_arg, bench, "bytes_per_sec", def, runs);
	return isfinite(pct) && pct > 0 ? pct : def;
}

void suite_sampler_start(const struct suite_ctx *c, struct suite_sampler *s, const char *bench, double budget_s)
{
	enum suite_mode m = c->opts->mode;
	s->min = m == SUITE_FULL ? 10 : VERDICT_MIN_SAMPLES;
	s->max = m == SUITE_QUICK ? 10 : m == SUITE_FULL ? 30 : 20;
	if (c->round_samples) /* a round of a re-measure: so many, the interval is judged later */
		s->min = s->max = c->round_samples;
	s->target_pct = floor_of(c, bench, &s->floor_runs) / 2;
	s->budget_s = budget_s;
	s->start_ns = clock_now_ns();
	s->stopped = NULL;
}

void suite_sampler_also(const struct suite_ctx *c, struct suite_sampler *s, const char *bench)
{
	int runs;
	double target = floor_of(c, bench, &runs) / 2;
	if (target < s->target_pct) {
		s->target_pct = target;
		s->floor_runs = runs;
	}
}

static int more(struct suite_sampler *s, const struct metric *m, int *budget)
{
	size_t n = m->nsamples;
	if (n >= s->max || (n >= s->min && verdict_interval_pct(m->samples, n) <= s->target_pct))
		return 0;
	if ((double)(clock_now_ns() - s->start_ns) / 1e9 >= s->budget_s) {
		*budget = 1;
		return 0;
	}
	return 1;
}

int suite_sampler_more(struct suite_sampler *s, const struct metric *m)
{
	return suite_sampler_more_all(s, (struct metric *const *)&m, 1);
}

int suite_sampler_more_all(struct suite_sampler *s, struct metric *const *m, size_t n)
{
	int budget = 0, any = 0, at_max = 1;
	for (size_t i = 0; i < n; i++) {
		any |= more(s, m[i], &budget);
		at_max &= m[i]->nsamples >= s->max;
	}
	if (!any)
		s->stopped = budget ? "budget" : at_max ? "max" : "interval";
	return any;
}

void suite_sampler_save(struct suite_ctx *c, const struct bench *b, const struct suite_sampler *s,
			const struct metric *m)
{
	json_t *all = json_object_get(c->rec->extra, "sampling");
	if (!all) {
		all = json_object();
		json_object_set_new(c->rec->extra, "sampling", all);
	}
	double pct = verdict_interval_pct(m->samples, m->nsamples);
	json_object_set_new(all, b->name,
			    json_pack("{s:I, s:i, s:i, s:f, s:s, s:i, s:o, s:f, s:s}", "samples", (json_int_t)m->nsamples,
				      "min", (int)s->min, "max", (int)s->max, "target_pct", s->target_pct, "target_from",
				      verdict_floor_source(s->floor_runs, 0), "floor_runs",
				      s->floor_runs, "interval_pct",
				      isfinite(pct) ? json_real(pct) : json_null(), "budget_s", s->budget_s, "stopped",
				      s->stopped ? s->stopped : "interval"));
	if (s->stopped && *s->stopped == 'b') {
		char have[32] = "± ∞";
		if (isfinite(pct) && stats_pct_unstable(pct)) /* no figure past 100% */
			snprintf(have, sizeof have, "past ±100%%");
		else if (isfinite(pct))
			snprintf(have, sizeof have, "± %.0f%%", pct);
		suite_note(c, "%s: the time budget (%.1f s) ran out after %zu samples (interval %s, wanted %.3g%%)",
			   b->name, s->budget_s, m->nsamples, have, s->target_pct);
	}
}
