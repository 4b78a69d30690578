#include "compare/track.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void track_init(struct track *t, double total, double every, const struct series *baseline)
{
	memset(t, 0, sizeof *t);
	t->total = total;
	t->every = every;
	t->baseline = baseline;
	t->t0 = NAN;
}

void track_free(struct track *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nrows = t->cap = 0;
}

void track_start(struct track *t, double t0) { t->t0 = t0; }

void track_set_wall(struct track *t, double offset, int utc)
{
	t->wall_offset = offset;
	t->wall_known = 1;
	t->wall_utc = utc;
}

double track_series_time(const struct series *s, double v)
{
	if (!s || s->n == 0 || v < s->y[0] || v > s->y[s->n - 1])
		return NAN;
	for (size_t i = 0; i < s->n; i++) {
		if (s->y[i] < v)
			continue;
		if (s->y[i] == v || i == 0)
			return s->x[i];
		double f = (v - s->y[i - 1]) / (s->y[i] - s->y[i - 1]);
		return s->x[i - 1] + f * (s->x[i] - s->x[i - 1]);
	}
	return NAN;
}

/* The first milestone above v: the next multiple of every, or the total at the end. */
static double milestone_after(const struct track *t, double v)
{
	double m = (floor(v / t->every) + 1) * t->every;
	if (t->total > 0 && m > t->total && v < t->total)
		m = t->total;
	return m;
}

static void add_row(struct track *t, double time_s, double m)
{
	struct track_row r;
	r.milestone = m;
	r.pct = t->total > 0 ? m / t->total * 100 : NAN;
	r.seg_s = time_s - t->prev_t;
	r.span = m - t->prev_m;
	r.partial = r.span < t->every * (1 - 1e-9);
	r.cum_s = time_s - t->t0;
	if (t->nrows == 0) {
		t->first_seg_s = r.seg_s;
		t->first_span = r.span;
	}
	/* Per unit, so a short segment (the end at the total, an unfinished last one) is not
	 * read as a slow full one. */
	r.first_ratio = t->first_seg_s > 0 && r.span > 0 ? (r.seg_s / r.span) / (t->first_seg_s / t->first_span) : NAN;
	r.rate = r.seg_s > 0 ? r.span / r.seg_s : NAN;
	double done = m - t->v0;
	r.eta_s = t->total > 0 && done > 0 && r.cum_s > 0 ? (t->total - m) / (done / r.cum_s) : NAN;
	double b1 = track_series_time(t->baseline, m), b0 = track_series_time(t->baseline, t->prev_m);
	r.base_diff_s = isnan(b1) || isnan(b0) ? NAN : r.seg_s - (b1 - b0);
	r.wall = t->wall_known ? time_s + t->wall_offset : NAN;
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->rows = realloc(t->rows, t->cap * sizeof *t->rows);
		if (!t->rows)
			abort();
	}
	t->rows[t->nrows++] = r;
	t->prev_t = time_s;
	t->prev_m = m;
}

size_t track_finish(struct track *t, double time_s)
{
	if (!t->started || t->vmax <= t->prev_m || !(time_s >= t->prev_t))
		return 0;
	add_row(t, time_s, t->vmax);
	return 1;
}

size_t track_point(struct track *t, double time_s, double v)
{
	size_t before = t->nrows;
	t->points++;
	if (!t->started) {
		/* With the start time known (a command we started), a first value within the first
		 * milestone means the job starts from 0; otherwise (a log, a resumed job) the first
		 * value seen is where it started. */
		int from_zero = !isnan(t->t0) && v <= t->every && v >= 0;
		t->started = 1;
		if (isnan(t->t0))
			t->t0 = time_s;
		t->v0 = t->vmax = from_zero ? 0 : v;
		t->prev_t = t->t0;
		t->prev_m = t->v0;
		t->next = milestone_after(t, t->v0);
		t->tlast = time_s;
		if (!from_zero)
			return 0;
	}
	if (v > t->vmax) {
		t->vmax = v;
		t->tlast = time_s;
	}
	while (v >= t->next && !(t->total > 0 && t->prev_m >= t->total)) {
		add_row(t, time_s, t->next);
		t->next = milestone_after(t, t->next);
	}
	return t->nrows - before;
}

double track_base_total(const struct track *t)
{
	if (!t->baseline || !t->baseline->n || !t->started)
		return NAN;
	double bt = track_series_time(t->baseline, t->vmax), b0 = track_series_time(t->baseline, t->v0);
	return isnan(bt) || isnan(b0) ? NAN : bt - b0;
}

const struct series *track_saved_progress(const struct bench *b)
{
	json_t *every = json_object_get(b->settings, "every");
	if (!json_is_number(every) || !(json_number_value(every) > 0))
		return NULL;
	for (size_t k = 0; k < b->nseries; k++)
		if (strcmp(b->series[k]->name, "progress") == 0 && b->series[k]->n)
			return b->series[k];
	return NULL;
}

double track_replay(struct track *t, const struct bench *b, const struct series *baseline)
{
	const struct series *s = track_saved_progress(b);
	if (!s)
		return -1;
	json_t *total = json_object_get(b->settings, "total");
	track_init(t, json_is_number(total) ? json_number_value(total) : 0,
		   json_number_value(json_object_get(b->settings, "every")), baseline);
	/* The series starts at (0, the first value) and holds each milestone's time, then the
	 * highest value at the end when it passed the last milestone. */
	track_start(t, 0);
	for (size_t i = 0; i < s->n; i++)
		track_point(t, s->x[i], s->y[i]);
	double end = s->x[s->n - 1];
	track_finish(t, end);
	/* the job may have run on past its last progress line: its saved total is the end */
	const struct metric *total_s = bench_find_metric(b, "total_s");
	if (total_s && total_s->nsamples && metric_median(total_s) >= end)
		end = metric_median(total_s);
	return end;
}

int track_cmp_build(struct track_cmp *c, const struct bench *const *benches, const char *const *names, size_t n)
{
	memset(c, 0, sizeof *c);
	c->job = n ? benches[0]->name : NULL;
	c->runs = calloc(n, sizeof *c->runs);
	c->names = calloc(n, sizeof *c->names);
	c->total_s = calloc(n, sizeof *c->total_s);
	if (!c->runs || !c->names || !c->total_s)
		abort();
	const struct series *base = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct bench *b = benches[i];
		if ((c->total_s[i] = track_replay(&c->runs[i], b, base)) < 0) {
			track_cmp_free(c);
			return -1;
		}
		c->names[i] = names[i];
		c->n = i + 1;
		if (i == 0)
			base = track_saved_progress(b);
	}
	return 0;
}

void track_cmp_free(struct track_cmp *c)
{
	for (size_t i = 0; i < c->n; i++)
		track_free(&c->runs[i]);
	free(c->runs);
	free(c->names);
	free(c->total_s);
	memset(c, 0, sizeof *c);
}
