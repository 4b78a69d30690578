/* A whole comparison written out in the format a command asked for: the tables, the verdicts
 * and what changed between two runs, all rendered from one model (compare/model.h). */
#ifndef NM_EXPORT_COMPARE_OUT_H
#define NM_EXPORT_COMPARE_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "compare/model.h"

enum cmp_format { CMP_TEXT, CMP_MARKDOWN, CMP_CSV, CMP_JSON };

/* compare's output: text (the tables, the calls, what changed from the first to the second of
 * two runs), Markdown (the tables with a verdict column), CSV (the tables) or JSON (the tables,
 * each compared cell with its verdict, and "calls"). */
void cmp_write(FILE *f, const struct cmp_model *m, enum cmp_format fmt);

/* What `run` prints about its baseline (a model of two runs, cmp_build_pair): the throughput
 * table, what changed, and the calls about it.  Returns the number of changes called. */
int cmp_write_baseline(FILE *f, const struct cmp_model *m);

#endif
