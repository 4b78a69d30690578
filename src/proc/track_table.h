/* The table `nodemark track` prints while it follows a job (a live timeline, not a record):
 * one row per milestone, then the totals. */
#ifndef NM_PROC_TRACK_TABLE_H
#define NM_PROC_TRACK_TABLE_H

#include "proc/track.h"

#include <jansson.h>
#include <stdio.h>

void track_print_header(FILE *fp, const struct track *t);
void track_print_row(FILE *fp, const struct track *t, const struct track_row *r);
/* total_s: from the start to the end; lines: all lines read. */
void track_print_end(FILE *fp, const struct track *t, double total_s, size_t lines);
/* The line that ended the job (track --until): its number and time of day. */
void track_print_until(FILE *fp, const struct track *t, size_t line, double time_s);

/* The same as JSON (track --json): {"rows": [{"milestone", "pct", "segment_s", "span", "partial",
 * "x_first", "elapsed_s", "rate", "eta_s", "vs_base_s", "time_of_day"}], "total_s", "start", "end",
 * "progress_lines", "lines", "mean_rate"}; a figure that does not exist is null. */
json_t *track_to_json(const struct track *t, double total_s, size_t lines);

#endif
