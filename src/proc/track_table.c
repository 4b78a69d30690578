#include "proc/track_table.h"
#include "util/units.h"

#include <math.h>
#include <time.h>

/* "+36m22s", "+1.25s"; "-" for NAN. */
static const char *dur(double s, int sign, char *buf, size_t len)
{
	char t[24];
	if (isnan(s))
		return "-";
	if (s == 0)
		return "0s";
	units_duration((uint64_t)(fabs(s) * 1e9 + 0.5), t, sizeof t);
	snprintf(buf, len, "%s%s", sign ? (s < 0 ? "-" : "+") : "", t);
	return buf;
}

static const char *rate_fmt(double r, char *buf, size_t len)
{
	if (isnan(r))
		snprintf(buf, len, "-");
	else if (r < 1000)
		snprintf(buf, len, "%.3g", r);
	else
		units_count(r, buf, len);
	return buf;
}

static const char *num(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

/* A milestone's time of day, "2024-01-03T05:36:49" (to the second); "-" when unknown. */
static const char *time_of_day(const struct track *t, double wall, char *buf, size_t len)
{
	struct tm tm;
	time_t s = (time_t)floor(wall);
	if (isnan(wall) || !(t->wall_utc ? gmtime_r(&s, &tm) : localtime_r(&s, &tm)) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		return "-";
	return buf;
}

void track_print_header(FILE *fp, const struct track *t)
{
	fprintf(fp, "%14s %7s %10s %10s %8s %10s %12s %9s %19s%s\n", "milestone", "%", "segment", "seconds",
		"x first", "elapsed", "rate /s", "ETA", "time of day", t->baseline ? "   vs base" : "");
	fflush(fp);
}

void track_print_row(FILE *fp, const struct track *t, const struct track_row *r)
{
	char m[32], pct[16], seg[32], ratio[16], cum[32], rate[32], eta[32], base[32], tod[32];
	if (isnan(r->pct))
		snprintf(pct, sizeof pct, "-");
	else
		snprintf(pct, sizeof pct, "%.1f%%", r->pct);
	/* A partial segment is marked '*': its ratio is per unit (see the note under the table). */
	if (isnan(r->first_ratio))
		snprintf(ratio, sizeof ratio, "-%s", r->partial ? "*" : "");
	else
		snprintf(ratio, sizeof ratio, "x%.2f%s", r->first_ratio, r->partial ? "*" : "");
	rate_fmt(r->rate, rate, sizeof rate);
	fprintf(fp, "%14s %7s %10s %10.*f %8s %10s %12s %9s %19s", num(r->milestone, m, sizeof m), pct,
		dur(r->seg_s, 1, seg, sizeof seg), r->seg_s < 10 ? 2 : r->seg_s < 100 ? 1 : 0, r->seg_s, ratio,
		dur(r->cum_s, 0, cum, sizeof cum), rate, dur(r->eta_s, 0, eta, sizeof eta),
		time_of_day(t, r->wall, tod, sizeof tod));
	if (t->baseline)
		fprintf(fp, " %9s", dur(r->base_diff_s, 1, base, sizeof base));
	fputc('\n', fp);
	fflush(fp);
}

void track_print_end(FILE *fp, const struct track *t, double total_s, size_t lines)
{
	char d[32], a[32], b[32], rate[32];
	if (!t->started) {
		fprintf(fp, "no progress line among %zu lines\n", lines);
		return;
	}
	size_t partial = 0;
	for (size_t i = 0; i < t->nrows; i++)
		partial += t->rows[i].partial;
	if (partial)
		fprintf(fp, "* a partial segment (fewer units than --every): x first compares time per unit\n");
	double done = t->vmax - t->v0;
	fprintf(fp, "total: %s (%.1f s), progress %s → %s in %zu of %zu lines", dur(total_s, 0, d, sizeof d),
		total_s, num(t->v0, a, sizeof a), num(t->vmax, b, sizeof b), t->points, lines);
	if (total_s > 0 && done > 0)
		fprintf(fp, ", mean rate %s /s", rate_fmt(done / total_s, rate, sizeof rate));
	fputc('\n', fp);
	if (t->baseline && t->baseline->n) {
		double bt = track_series_time(t->baseline, t->vmax);
		double b0 = track_series_time(t->baseline, t->v0);
		if (!isnan(bt) && !isnan(b0))
			fprintf(fp, "baseline: %s to the same progress (%s)\n", dur(bt - b0, 0, a, sizeof a),
				dur(total_s - (bt - b0), 1, b, sizeof b));
	}
}

void track_print_until(FILE *fp, const struct track *t, size_t line, double time_s)
{
	char tod[32];
	fprintf(fp, "ended: line %zu matched --until", line);
	if (t->wall_known)
		fprintf(fp, ", at %s", time_of_day(t, time_s + t->wall_offset, tod, sizeof tod));
	fputc('\n', fp);
}

static json_t *num_or_null(double v) { return isfinite(v) ? json_real(v) : json_null(); }

json_t *track_to_json(const struct track *t, double total_s, size_t lines)
{
	json_t *o = json_object(), *rows = json_array();
	for (size_t i = 0; i < t->nrows; i++) {
		const struct track_row *r = &t->rows[i];
		json_t *j = json_object();
		json_object_set_new(j, "milestone", json_real(r->milestone));
		json_object_set_new(j, "pct", num_or_null(r->pct));
		json_object_set_new(j, "segment_s", json_real(r->seg_s));
		json_object_set_new(j, "span", json_real(r->span));
		json_object_set_new(j, "partial", json_boolean(r->partial));
		json_object_set_new(j, "x_first", num_or_null(r->first_ratio));
		json_object_set_new(j, "elapsed_s", json_real(r->cum_s));
		json_object_set_new(j, "rate", num_or_null(r->rate));
		json_object_set_new(j, "eta_s", num_or_null(r->eta_s));
		json_object_set_new(j, "vs_base_s", num_or_null(r->base_diff_s));
		char tod[32];
		const char *at = time_of_day(t, r->wall, tod, sizeof tod);
		json_object_set_new(j, "time_of_day", *at == '-' ? json_null() : json_string(at));
		json_array_append_new(rows, j);
	}
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "total_s", json_real(total_s));
	json_object_set_new(o, "start", t->started ? json_real(t->v0) : json_null());
	json_object_set_new(o, "end", t->started ? json_real(t->vmax) : json_null());
	json_object_set_new(o, "progress_lines", json_integer((json_int_t)t->points));
	json_object_set_new(o, "lines", json_integer((json_int_t)lines));
	json_object_set_new(o, "mean_rate",
			    total_s > 0 && t->vmax > t->v0 ? json_real((t->vmax - t->v0) / total_s) : json_null());
	return o;
}
