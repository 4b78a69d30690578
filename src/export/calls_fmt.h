/* The calls of a comparison (compare/calls.h) written out: a text section, a Markdown list, an
 * HTML table, JSON. */
#ifndef NM_EXPORT_CALLS_FMT_H
#define NM_EXPORT_CALLS_FMT_H

#include <jansson.h>
#include <stdio.h>

#include "compare/calls.h"

/* The text section: a header with the rule, one line per row that is a call or was not
 * compared, and the counts; rows of one phase not compared for the same reason share one line
 * ("  hash phase, 4 figures  not compared: ...").  metric NULL: every metric.  Nothing when cl
 * is empty. */
void calls_write_text(FILE *f, const struct call_list *cl, const char *metric);
/* [{"metric", "unit", "name", "column", "call", "delta_pct", "p", "n": [a, b], "floor_pct",
 *   "floor_from": "history" | "default", "floor_runs", "why", and calls_verdict_json's fields}] */
json_t *calls_to_json(const struct call_list *cl);
/* The verdict's category fields into o: "verdict" ("called", "no change", "can't tell"),
 * "verdict_text", "noise_pct", "interval_pct" [lo, hi] or null, "cause", "decide" (can't tell). */
void calls_verdict_json(json_t *o, const struct verdict *v);

#endif
