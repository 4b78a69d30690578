/* `nodemark disk` results: the CrystalDiskMark-style table, the full report of a custom job,
 * the --json document, and the saved record.  Input is what the engine returned. */
#ifndef NM_EXPORT_DISK_REPORT_H
#define NM_EXPORT_DISK_REPORT_H

#include <jansson.h>
#include <stdio.h>
#include "io/engine.h"
#include "results/record.h"

/* One test ("SEQ1M Q8T1 read") and its passes. */
struct disk_test {
	char name[64];
	struct io_job job;
	unsigned npasses;           /* passes that ran */
	struct io_job_result *total;   /* [npasses]: all threads merged */
	struct io_job_result *targets; /* [npasses * ntargets]: merged per target */
	struct io_job_result *jobs;    /* [job.numjobs]: each thread, of the best pass */
	unsigned best;              /* the pass with the highest bandwidth */
	char engine[16];             /* the engine used, or "mixed" over targets */
	int direct;                 /* 1 O_DIRECT, 0 buffered, -1 mixed */
};

struct disk_report {
	const char *profile;        /* "cdm", ... or NULL for a custom job */
	const char *const *targets;
	unsigned ntargets;
	struct disk_test *tests;
	unsigned ntests;
	uint64_t file_size, runtime_ns, interval_ns;
	unsigned passes;
};

/* Allocate room for passes; free everything a test owns. */
int disk_test_alloc(struct disk_test *t, unsigned passes, unsigned ntargets);
/* Store pass p from results[numjobs] (merging per target and in total); keeps the per-job
 * results when p becomes the best pass (takes ownership of results' series). */
void disk_test_add_pass(struct disk_test *t, unsigned ntargets, struct io_job_result *results);
void disk_test_free(struct disk_test *t, unsigned ntargets);

/* Median and the distribution-free spread (benchstat's ±) of the passes' bandwidth. */
void disk_test_spread(const struct disk_test *t, double *median, double *spread_pct);

void disk_print_table(FILE *out, const struct disk_report *r);     /* profiles */
void disk_print_full(FILE *out, const struct disk_report *r);      /* custom jobs */
json_t *disk_json(const struct disk_report *r);
/* One bench per test: settings, per-pass metrics, the clat histogram, per-second series. */
void disk_to_record(const struct disk_report *r, struct record *rec);

#endif
