/* Figures shared by the fio output writers (report_json.c, report_text.c). */
#ifndef NM_FIO_REPORT_FIGURES_H
#define NM_FIO_REPORT_FIGURES_H

#include "fio/report.h"

struct fio_dir_figures {
	uint64_t runtime_ns, runtime_ms;
	uint64_t bw_bytes, bw_kib;      /* per second */
	double iops;
};

struct fio_group_figures {
	unsigned nentries;
	unsigned kb_base, unit_base;    /* the group's first entry's */
	uint64_t bytes[DIR_COUNT];
	uint64_t min_run_ns[DIR_COUNT], max_run_ns[DIR_COUNT];
	uint64_t min_bw[DIR_COUNT], max_bw[DIR_COUNT], agg_bw[DIR_COUNT]; /* B/s */
};

void fio_percentile_list(const struct fio_report_entry *e, const double **p, size_t *n);
void fio_dir_figures(const struct io_job_result *r, int dir, struct fio_dir_figures *f);
void fio_latency_levels(const struct io_job_result *r, double ns[10], double us[10], double ms[12]);
void fio_depth_levels(const struct io_job_result *r, double out[7]);
/* fio's "submit" and "complete" rows: the calls that handed I/Os to the kernel / reaped them,
 * by how many each took (0, 1-4, 5-8, 9-16, 17-32, 33-64, more), in percent of the calls. */
void fio_call_levels(const struct io_job_result *r, double submit[7], double complete[7]);
/* fio's unified_rw_reporting: out is r with the entries of mixed reporting (all: of both too)
 * holding every direction's figures in READ's ("mixed" in fio's outputs), the others zero.
 * The entries are shallow copies in an array of their own, to free(out->entries) alone when
 * it returns 1; 0: none to fold, out->entries are r's. */
int fio_report_unify(const struct fio_report *r, struct fio_report *out, int all);
void fio_group_figures(const struct fio_report *rep, int groupid, struct fio_group_figures *g);

/* fio's "aggr" figures of a stacked device (dm, md): its direct slaves' counters averaged over
 * the slaves, and the busiest slave's util. 0 when the device has no slaves. */
struct fio_disk_aggr {
	struct disk_counters c;
	double max_util;
};
int fio_disk_aggr(const struct disk_activity *a, size_t dev, struct fio_disk_aggr *out);

#endif
