/* `nodemark disk` results: the CrystalDiskMark-style table, the full report of a custom job,
 * the --json document, and the saved record.  Input is what disk/passes.c ran. */
#ifndef NM_EXPORT_DISK_REPORT_H
#define NM_EXPORT_DISK_REPORT_H

#include <jansson.h>
#include <stdio.h>
#include "disk/plan.h"
#include "disk/test.h"
#include "io/engine.h"
#include "results/record.h"

struct disk_report {
	const char *profile;        /* "cdm", ... or NULL for a custom job */
	const char *const *targets;
	unsigned ntargets;
	const struct disk_test *tests;
	unsigned ntests;
	uint64_t file_size, runtime_ns, interval_ns;
	unsigned passes;
};

/* The report of a plan that ran (the null engine's target is called "null"). */
void disk_report_init(struct disk_report *r, const struct disk_plan *p);

void disk_print_table(FILE *out, const struct disk_report *r);     /* profiles */
void disk_print_full(FILE *out, const struct disk_report *r);      /* custom jobs */
json_t *disk_json(const struct disk_report *r);
/* Into b, the bench of test t: settings, per-pass metrics, the clat histogram, per-second series. */
void disk_test_to_bench(const struct disk_report *r, const struct disk_test *t, struct bench *b);
/* One bench per complete test (a test cut short by an error or a signal is left out). */
void disk_to_record(const struct disk_report *r, struct record *rec);

#endif
