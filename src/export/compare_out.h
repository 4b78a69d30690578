/* A whole comparison written out in the format a command asked for: the tables, the verdicts
 * and what changed between two runs, all rendered from one model (compare/model.h). */
#ifndef NM_EXPORT_COMPARE_OUT_H
#define NM_EXPORT_COMPARE_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "compare/model.h"

enum cmp_format { CMP_TEXT, CMP_BENCHSTAT, CMP_MARKDOWN, CMP_CSV, CMP_JSON };

/* compare's output: text (the tables, the calls, what changed from the first to the second of
 * two runs; for disk and fio runs the compact tables instead of benchstat's), benchstat (its
 * per-unit tables always), Markdown (the tables with a verdict column), CSV (the tables) or JSON (the tables,
 * each compared cell with its verdict, and "calls"). */
void cmp_write(FILE *f, const struct cmp_model *m, enum cmp_format fmt);

/* What `run` prints about its baseline (a model of two runs, cmp_build_pair): the throughput
 * table, what changed, and the calls about it.  Returns the number of changes called. */
int cmp_write_baseline(FILE *f, const struct cmp_model *m);

/* 1 when every input is a disk or fio run: text is then the compact tables
 * (export/compare_compact.c): a table per figure family (iops, bytes_per_sec, clat_mean_ns,
 * ...), read and write in one, a row per job as the user named it, a value per column (a single
 * sample alone, more with its interval), a ratio per column after the first with its verdict's
 * word; one footnote for single samples, the calls listed only when one says more. */
int cmp_compact_applies(const struct cmp_model *m);
void cmp_write_compact(FILE *f, const struct cmp_model *m);

#endif
