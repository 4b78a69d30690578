/* The table `nodemark track` prints while it follows a job (a live timeline, not a record):
 * one row per milestone, then the totals. */
#ifndef NM_COMPARE_TRACK_TABLE_H
#define NM_COMPARE_TRACK_TABLE_H

#include "compare/track.h"

#include <jansson.h>
#include <stdio.h>

void track_print_header(FILE *fp, const struct track *t);
void track_print_row(FILE *fp, const struct track *t, const struct track_row *r);
/* total_s: from the start to the end; lines: all lines read (0: unknown, a saved run). */
void track_print_end(FILE *fp, const struct track *t, double total_s, size_t lines);
/* The line that ended the job (track --until): its number and time of day. */
void track_print_until(FILE *fp, const struct track *t, size_t line, double time_s);

/* The same as JSON (track --json): {"rows": [{"milestone", "pct", "segment_s", "span", "partial",
 * "x_first", "elapsed_s", "rate", "eta_s", "vs_base_s", "time_of_day"}], "total_s", "start", "end",
 * "progress_lines", "lines", "mean_rate"}; a figure that does not exist is null. */
json_t *track_to_json(const struct track *t, double total_s, size_t lines);

/* Saved runs of one job milestone by milestone (compare, show's and report's table): a row per
 * milestone any run reached, per run its segment time and x first, and for each run after the
 * first its vs base (the live --baseline column, against the first run); the total row.  Text
 * (aligned), Markdown, CSV (plain seconds) or an HTML table. */
enum track_style { TRACK_TEXT, TRACK_MARKDOWN, TRACK_CSV, TRACK_HTML };
void track_cmp_write(FILE *fp, const struct track_cmp *c, enum track_style st);
/* {"job", "runs": [names], "rows": [{"milestone", "runs": [{"segment_s", "x_first", "partial",
 * "vs_base_s"}]}], "total": [{"total_s", "vs_base_s"}]}; null for a figure a run lacks. */
json_t *track_cmp_to_json(const struct track_cmp *c);

#endif
