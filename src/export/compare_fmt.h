/* A comparison (compare/model.h) written out: benchstat's text tables, Markdown, CSV, JSON, and
 * the texts of its cells that the report's tables and charts share. */
#ifndef NM_EXPORT_COMPARE_FMT_H
#define NM_EXPORT_COMPARE_FMT_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "compare/model.h"

/* The "vs base" text: "-17.20%", "~", "0.00%", "?". */
const char *ct_delta(const struct ct_result *res, const struct ct_cell *base, const struct ct_cell *c,
		     char *buf, size_t len);
/* A table of nodemark's own metric (bytes_per_sec in B/s), not of Go benchmark text (whose
 * metric is its unit, sec/op): its figures are shown by the unit policy (units_figure). */
static inline int ct_own_metric(const struct ct_table *t) { return strcmp(t->metric, t->unit) != 0; }

/* "p=0.000 n=10", "n=10+8", ... */
const char *ct_pn(const struct ct_cell *base, const struct ct_cell *c, char *buf, size_t len);
/* The table's header unit: "sec/op", or "iops (op/s)" when the metric has its own name: the
 * record's unit, for the raw numbers of CSV and JSON and a chart's name. */
const char *ct_title(const struct ct_table *t, char *buf, size_t len);
/* The header over cells shown by the unit policy: units_header with the units its cells (and
 * geomean) show, "mean latency (µs, ms)", not the unit they were scaled from; Go benchmark
 * units as ct_title. */
const char *ct_title_shown(const struct ct_result *res, const struct ct_table *t, char *buf, size_t len);

/* The texts of one table's cells as the text output shows them, without footnotes:
 * (nrows + 1) * ncols entries, row-major, the last row being the geomean.  Caller frees. */
struct ct_text {
	char center[112], pct[16], delta[24], pn[48]; /* center: "unstable: ..." past 100% */
	int present, compared;
};
struct ct_text *ct_texts(const struct ct_result *res, const struct ct_table *t);

/* The tables alone (text, CSV, JSON); compare_out.h writes a whole comparison. */
/* benchstat's text tables; metric NULL: every table, else that metric's alone. */
void ct_write_text(FILE *f, const struct ct_result *res, const char *metric);
/* Markdown tables; with verdicts (nodemark runs) a verdict column beside each compared column. */
void ct_write_markdown(FILE *f, const struct cmp_model *m);
void ct_write_csv(FILE *f, const struct ct_result *res);
json_t *ct_to_json(const struct ct_result *res);

#endif
