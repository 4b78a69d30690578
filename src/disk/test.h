/* One disk test ("SEQ1M Q8T1 read") and the passes it ran: every pass merged per target and in
 * total, the best pass (CrystalDiskMark's score), and each thread's figures of that pass. */
#ifndef NM_DISK_TEST_H
#define NM_DISK_TEST_H

#include "io/engine.h"

struct disk_test {
	char name[64];
	struct io_job job;
	unsigned npasses;              /* passes that ran */
	unsigned maxpasses;            /* room allocated */
	int complete;                  /* every pass it was planned to run has run */
	struct io_job_result *total;   /* [npasses]: all threads merged */
	struct io_job_result *targets; /* [npasses * ntargets]: merged per target */
	struct io_job_result *jobs;    /* [job.numjobs]: each thread, of the best pass */
	unsigned best;                 /* the pass with the highest bandwidth */
	char engine[16];               /* the engine used, or "mixed" over targets */
	int direct;                    /* 1 O_DIRECT, 0 buffered, -1 mixed */
};

/* Room for up to passes passes; 0, or -1 when out of memory. */
int disk_test_alloc(struct disk_test *t, unsigned passes, unsigned ntargets);
/* Store the next pass from results[job.numjobs] (merging per target and in total); keeps the
 * per-thread results when it becomes the best pass (taking their series), frees the others'. */
void disk_test_add_pass(struct disk_test *t, unsigned ntargets, struct io_job_result *results);
void disk_test_free(struct disk_test *t, unsigned ntargets);

/* Both directions' total latency in one histogram, and their I/Os. */
void disk_result_lat(const struct io_job_result *r, struct hist *h);
uint64_t disk_result_ios(const struct io_job_result *r);

/* A pass's figures as the record keeps them, one sample per pass (disk/record.c): bandwidth,
 * IOPS, mean and 99th percentile latency (ns), CPU time per I/O (ns). */
struct disk_figures {
	double bytes_per_sec, iops, lat_mean_ns, lat_p99_ns, cpu_ns_per_io;
};
void disk_pass_figures(const struct io_job_result *r, struct disk_figures *f);
/* Each figure's median over t's passes, by the one median show, compare and report take of
 * the saved samples (summary_median): the one statistic disk prints. */
void disk_test_medians(const struct disk_test *t, struct disk_figures *med);

/* Median of the passes' bandwidth and the spread: how far the farthest pass is from it, in %. */
void disk_test_spread(const struct disk_test *t, double *median, double *spread_pct);
/* The slowest and fastest pass (bytes per second); 0 without passes. */
void disk_test_range(const struct disk_test *t, double *lo, double *hi);
/* Whether the passes spread past 100% of their median (stats_spread_unstable): the table
 * says "unstable" and gives the range instead of a percentage. */
int disk_test_unstable(const struct disk_test *t);
/* "7.48 MB/s ± 12%", or "unstable: 7.48 MB/s, range 1.20 MB/s to 95.0 MB/s". */
const char *disk_test_spread_text(const struct disk_test *t, char *buf, size_t len);

#endif
