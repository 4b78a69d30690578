/* Running a parsed fio plan end to end: lay out, run in fio's order, print fio's reports
 * (--status-interval ones too), and give back the record to save. */
#ifndef NM_FIO_RUN_H
#define NM_FIO_RUN_H

#include "fio/plan.h"
#include "fio/sched.h"
#include "results/record.h"

/* Returns an NM_EXIT_* code.  *rec is the run to save (fio's figures as metrics) when the
 * code is OK or INTERRUPTED, else NULL; argv is the command line it records. */
int fio_run_plan(const struct fio_plan *p, int argc, char **argv, struct record **rec);

/* One report entry per thread, or per group where group_reporting merges them (fio's rule:
 * a thread with group_reporting joins the entry before it when that is of its group).
 * res_of[i] holds job i's numjobs results; the entries' results are the caller's to free. */
void fio_build_entries(const struct fio_sched *s, struct io_job_result *const *res_of, struct fio_report *rep);
/* The entries for the lines fio prints before the run: one per job, nthreads = numjobs. */
void fio_header_entries(const struct fio_sched *s, struct fio_report *rep);
/* The saved run: one bench per report entry, fio's figures as metrics. */
struct record *fio_make_record(int argc, char **argv, const struct fio_report *rep);

#endif
