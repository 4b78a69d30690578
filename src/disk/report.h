/* `nodemark disk`'s own output, as fio/ has fio's: the CrystalDiskMark-style table, the full
 * report of a custom job and the --json document, from what disk/passes.c ran (the saved
 * record: disk/record.h). */
#ifndef NM_DISK_REPORT_H
#define NM_DISK_REPORT_H

#include <jansson.h>
#include <stdio.h>
#include "disk/plan.h"

struct disk_report {
	const char *profile;        /* "cdm", ... or NULL for a custom job */
	const char *const *targets;
	unsigned ntargets;
	const struct disk_test *tests;
	unsigned ntests;
	uint64_t file_size, runtime_ns, interval_ns;
	unsigned passes;
	int finished_only;          /* interrupted: only the tests that finished (those saved) */
};

/* The report of a plan that ran (the null engine's target is called "null"). */
void disk_report_init(struct disk_report *r, const struct disk_plan *p);

void disk_print_table(FILE *out, const struct disk_report *r);     /* profiles */
void disk_print_full(FILE *out, const struct disk_report *r);      /* custom jobs */
json_t *disk_json(const struct disk_report *r);

#endif
