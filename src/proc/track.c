#include "proc/track.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	r.cum_s = time_s - t->t0;
	if (t->nrows == 0)
		t->first_seg_s = r.seg_s;
	r.first_ratio = t->first_seg_s > 0 ? r.seg_s / t->first_seg_s : NAN;
	r.rate = r.seg_s > 0 ? (m - t->prev_m) / r.seg_s : NAN;
	double done = m - t->v0;
	r.eta_s = t->total > 0 && done > 0 && r.cum_s > 0 ? (t->total - m) / (done / r.cum_s) : NAN;
	double b1 = track_series_time(t->baseline, m), b0 = track_series_time(t->baseline, t->prev_m);
	r.base_diff_s = isnan(b1) || isnan(b0) ? NAN : r.seg_s - (b1 - b0);
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

int track_parse_time(const char *text, size_t len, const char *fmt, double *out)
{
	char buf[128], *end;
	struct tm tm;
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, text, len);
	buf[len] = 0;
	if (strcmp(fmt, "%s") == 0) {
		double v = strtod(buf, &end);
		if (end == buf || *end || !isfinite(v))
			return -1;
		*out = v;
		return 0;
	}
	memset(&tm, 0, sizeof tm);
	end = strptime(buf, fmt, &tm);
	if (!end)
		return -1;
	double frac = 0;
	if ((*end == '.' || *end == ',') && isdigit((unsigned char)end[1])) {
		double scale = 0.1;
		for (end++; isdigit((unsigned char)*end); end++, scale /= 10)
			frac += (*end - '0') * scale;
	}
	/* Log times are read as UTC: only differences between them matter. */
	time_t s = timegm(&tm);
	if (s == (time_t)-1 && tm.tm_year != 69)
		return -1;
	*out = (double)s + frac;
	return 0;
}
