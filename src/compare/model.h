/* The comparison: one model of "what changed, by how much, can I trust it", built once per
 * command from the selected runs; every output (text, Markdown, CSV, JSON, the HTML report, the
 * lines `run` prints about its baseline) only renders it.
 *
 * It is benchstat's tables (compare/table.h: per metric a row per benchmark, a column per input
 * or --col value; per cell the median, its interval and the U test against the first column;
 * per column the geomean over the benchmarks present on both sides) and, for nodemark's own
 * runs, a verdict per compared cell (compare/calls.h: called, unchanged, not compared, each with
 * its reason).  A cell's ratio to the first column and its verdict are fields of the cell, so a
 * renderer never decides anything: it colours a cell from its verdict alone. */
#ifndef NM_COMPARE_MODEL_H
#define NM_COMPARE_MODEL_H

#include "compare/calls.h"
#include "compare/changes.h"
#include "compare/table.h"
#include "compare/track.h"

struct cmp_model {
	struct ct_result tab;           /* the tables (cells carry ratio and call) */
	struct call_list calls;         /* the verdicts, in table, column, row order */
	const struct ct_input *in;      /* the inputs (what changed, the report's runs and charts) */
	size_t nin;
	struct track_cmp tl;            /* saved track runs of one job, milestone by milestone
					 * (every input one; else tl.n is 0) */
	json_t *changes;                /* two runs, both with an inventory: what changed between
					 * them (compare/changes.h); else NULL */
};

/* Builds the tables and the verdicts, and points each compared cell at its verdict.  0, or -1
 * with a message (no samples left after the filters, an unknown key). */
int cmp_build(const struct ct_input *in, size_t nin, const struct ct_opts *o, struct cmp_model *m, char *err,
	      size_t errlen);
void cmp_free(struct cmp_model *m);

/* How a cell reads, from its verdict alone: a called change better or worse in the metric's
 * direction, a change in a metric with none, or nothing to mark (unchanged, not compared, no
 * verdict at all, as for Go benchmark text). */
enum cmp_mark { CMP_MARK_NONE, CMP_MARK_BETTER, CMP_MARK_WORSE, CMP_MARK_CHANGED };
enum cmp_mark cmp_cell_mark(const struct ct_cell *c);

/* Two runs as `run` shows them: the baseline and this run, named "baseline ID LABEL" and "this run
 * ID LABEL" (names holds the two names; in the inputs).  base NULL: rec alone, "run ID". */
int cmp_build_pair(const struct record *base, const struct record *rec, char (*names)[128], struct ct_input *in,
		   struct cmp_model *m, char *err, size_t errlen);

#endif
