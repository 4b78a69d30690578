/* The timeline of a long job: progress values at times, cut into milestones (every N units or
 * every x% of a total).  Each milestone gives a row: the segment's time, its multiple of the
 * first segment's, the cumulative time, rate, ETA, and the difference against the same segment
 * of a baseline timeline (an earlier run). */
#ifndef NM_COMPARE_TRACK_H
#define NM_COMPARE_TRACK_H

#include "results/record.h"

#include <stddef.h>

struct track_row {
	double milestone;
	double pct;             /* of the total; NAN without one */
	double seg_s;           /* time since the previous milestone (or the start) */
	double span;            /* units since the previous milestone */
	int partial;            /* span is less than every (the start, the total, or the end) */
	double first_ratio;     /* time per unit over the first segment's: seg_s / the first
				 * segment's when both are full */
	double cum_s;           /* since the start */
	double rate;            /* units per second over the segment; NAN when seg_s is 0 */
	double eta_s;           /* at the mean rate so far; NAN without a total */
	double base_diff_s;     /* seg_s minus the baseline's same segment; NAN when none */
	double wall;            /* the milestone's time of day (seconds since the epoch); NAN
				 * when the times have no known origin (track_set_wall) */
};

struct track {
	double total;           /* 0: unknown */
	double every;           /* units between milestones, > 0 */
	const struct series *baseline; /* (seconds since start, value); may be NULL */

	int started;
	double t0, v0;          /* the origin: start time (s) and the first value seen */
	double vmax, tlast;     /* the highest value so far and the time it was seen */
	double next;            /* the next milestone */
	double prev_t, prev_m;  /* the previous milestone's time and value (the origin at first) */
	double first_seg_s, first_span;
	double wall_offset;     /* added to a point's time gives its time of day (track_set_wall) */
	int wall_known, wall_utc; /* wall_utc: shown as UTC (a log's own text), else local time */
	size_t points;          /* progress values seen */
	struct track_row *rows;
	size_t nrows, cap;
};

void track_init(struct track *t, double total, double every, const struct series *baseline);
void track_free(struct track *t);

/* Set the origin time explicitly (a command's start); else the first point's time is used. */
void track_start(struct track *t, double t0);

/* How a point's time maps to the time of day: time_s + offset seconds since the epoch, shown
 * as UTC (times read from a log, which keep the log's own text) or as local time (the clock). */
void track_set_wall(struct track *t, double offset, int utc);

/* Does a value reach the next milestone (so its time is needed)? */
static inline int track_crosses(const struct track *t, double value)
{
	return !t->started || value >= t->next;
}

/* A progress value that crosses no milestone (its time is not needed). */
static inline void track_seen(struct track *t, double value)
{
	t->points++;
	if (value > t->vmax)
		t->vmax = value;
}

/* A progress value at a time (seconds, any origin but the same for all points).  Returns how
 * many rows were added (several when one jump crosses several milestones). */
size_t track_point(struct track *t, double time_s, double value);

/* The end of the input, at time_s (the last progress line's time, or the end of the job): when
 * the progress went past the last milestone without reaching the next one, a last, partial
 * row up to the highest value. Returns 1 when it added one. */
size_t track_finish(struct track *t, double time_s);

/* The time (seconds since its start) at which a timeline reached value, by linear
 * interpolation; NAN outside it. */
double track_series_time(const struct series *s, double value);

/* The baseline's time to the progress this timeline covered (its first value to its highest);
 * NAN without a baseline or outside it. */
double track_base_total(const struct track *t);

/* A saved track run's progress series (a bench with "every" and a "progress" series); NULL
 * when the bench is not one. */
const struct series *track_saved_progress(const struct bench *b);

/* A saved timeline's rows rebuilt as track computed them live (the same milestones, segment
 * times, x first and, against baseline, vs base): its points replayed through track_point.
 * Returns the timeline's total seconds, or -1 when b is no track run. */
double track_replay(struct track *t, const struct bench *b, const struct series *baseline);

/* Two or more saved runs of one job, milestone by milestone (compare, show, report): each run
 * replayed against the first run's timeline, as the live track --baseline table. */
struct track_cmp {
	const char *job;
	size_t n;
	struct track *runs;     /* [n]; runs[0] has no baseline */
	const char **names;     /* [n] */
	double *total_s;        /* [n] */
};

/* From one bench per run, the first the baseline; 0, or -1 when one is no track run. */
int track_cmp_build(struct track_cmp *c, const struct bench *const *benches, const char *const *names, size_t n);
void track_cmp_free(struct track_cmp *c);

#endif
