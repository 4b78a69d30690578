#include "proc/track.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
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

/* Days since 1970-01-01 of a proleptic Gregorian date (days past the month's end roll over,
 * as timegm does). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Up to width digits (after blanks, as strptime allows) within [lo, hi]; NULL when none. */
static const char *field(const char *s, const char *end, int width, int lo, int hi, int *out)
{
	int v = 0, n = 0;
	while (s < end && *s == ' ')
		s++;
	for (; s < end && n < width && isdigit((unsigned char)*s); s++, n++)
		v = v * 10 + (*s - '0');
	if (n == 0 || v < lo || v > hi)
		return NULL;
	*out = v;
	return s;
}

/* The common numeric formats (%Y %m %d %H %M %S %y %e %F %T, literals, blanks), parsed by
 * hand: a line's time costs no strptime. 1 and *s past the text, 0 not parsed (a bad time),
 * -1 a directive this does not know (strptime's turn). */
static int parse_numeric(const char **sp, const char *end, const char *fmt, int64_t *epoch)
{
	int y = 1900, mo = 1, d = 1, h = 0, mi = 0, sec = 0;
	const char *s = *sp;
	for (const char *f = fmt; *f && s; f++) {
		if (*f == ' ') {
			while (s < end && isspace((unsigned char)*s))
				s++;
			continue;
		}
		if (*f != '%') {
			s = s < end && *s == *f ? s + 1 : NULL;
			continue;
		}
		switch (*++f) {
		case 'Y': s = field(s, end, 4, 0, 9999, &y); break;
		case 'y':
			s = field(s, end, 2, 0, 99, &y);
			y += y < 69 ? 2000 : 1900;
			break;
		case 'm': s = field(s, end, 2, 1, 12, &mo); break;
		case 'd': case 'e': s = field(s, end, 2, 1, 31, &d); break;
		case 'H': s = field(s, end, 2, 0, 23, &h); break;
		case 'M': s = field(s, end, 2, 0, 59, &mi); break;
		case 'S': s = field(s, end, 2, 0, 61, &sec); break;
		case 'F':
			if ((s = field(s, end, 4, 0, 9999, &y)) && s < end && *s++ == '-' &&
			    (s = field(s, end, 2, 1, 12, &mo)) && s < end && *s++ == '-')
				s = field(s, end, 2, 1, 31, &d);
			else
				s = NULL;
			break;
		case 'T':
			if ((s = field(s, end, 2, 0, 23, &h)) && s < end && *s++ == ':' &&
			    (s = field(s, end, 2, 0, 59, &mi)) && s < end && *s++ == ':')
				s = field(s, end, 2, 0, 61, &sec);
			else
				s = NULL;
			break;
		case '%': s = s < end && *s == '%' ? s + 1 : NULL; break;
		default: return -1;
		}
	}
	if (!s)
		return 0;
	*sp = s;
	*epoch = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	return 1;
}

/* The strptime route, for formats with names (%b, %a) or other directives. */
static int parse_strptime(const char *text, size_t len, const char *fmt, size_t *used, int64_t *epoch)
{
	char buf[128];
	struct tm tm;
	memcpy(buf, text, len);
	buf[len] = 0;
	memset(&tm, 0, sizeof tm);
	char *end = strptime(buf, fmt, &tm);
	if (!end)
		return -1;
	/* Log times are read as UTC: only differences between them matter. */
	time_t s = timegm(&tm);
	if (s == (time_t)-1 && tm.tm_year != 69)
		return -1;
	*used = (size_t)(end - buf);
	*epoch = (int64_t)s;
	return 0;
}

int track_parse_time(const char *text, size_t len, const char *fmt, double *out)
{
	const char *end = text + len, *s = text;
	int64_t epoch;
	if (len == 0 || len >= 128)
		return -1;
	if (strcmp(fmt, "%s") == 0) {
		char buf[128], *e;
		memcpy(buf, text, len);
		buf[len] = 0;
		double v = strtod(buf, &e);
		if (e == buf || *e || !isfinite(v))
			return -1;
		*out = v;
		return 0;
	}
	int r = parse_numeric(&s, end, fmt, &epoch);
	if (r == 0)
		return -1;
	if (r < 0) {
		size_t used;
		if (parse_strptime(text, len, fmt, &used, &epoch) < 0)
			return -1;
		s = text + used;
	}
	double frac = 0;
	if (s + 1 < end && (*s == '.' || *s == ',') && isdigit((unsigned char)s[1])) {
		double scale = 0.1;
		for (s++; s < end && isdigit((unsigned char)*s); s++, scale /= 10)
			frac += (*s - '0') * scale;
	}
	*out = (double)epoch + frac;
	return 0;
}
