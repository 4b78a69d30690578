/* fio's steady state detection (steadystate=, ss_dur=, ss_ramp=, ss_interval=): a thread's bw and
 * iops are sampled every interval; once the last duration's samples meet the criterion -- all
 * within the limit of their mean, or a least-squares slope under it -- the thread ends early.
 *
 * Fed from the scheduler's progress callback (fio/sched.c) with a thread's running totals, or
 * with group_reporting its group's sum, as fio 3.33 judges; the report (JSON "steadystate",
 * the normal "steadystate  :" line) reads what it kept. */
#ifndef NM_FIO_STEADYSTATE_H
#define NM_FIO_STEADYSTATE_H

#include <stdint.h>
#include "fio/plan.h"

struct fio_ss {
	struct fio_ss_opts o;
	unsigned n;                     /* samples in the window: duration / interval */
	uint64_t *bw, *iops;            /* the window, a ring of n: B/s and I/Os per s */
	unsigned head, count;           /* the oldest sample; how many are held (up to n) */
	int ramp_over;                  /* samples are being kept (ss_ramp has passed) */
	int attained;
	double criterion;               /* the last judgement's figure (a % of the mean with pct) */
	double deviation, slope;        /* the last judgement's deviation or slope */
	uint64_t last_ns, last_bytes, last_ios; /* at the previous sample (0 before the first) */
	uint64_t due_ns;                /* when the next sample is due (since the job began) */
	int started;                    /* the first update came (its totals are the base) */
};

/* Whether the job asks for it (a duration of a second or more). */
int fio_ss_wanted(const struct fio_ss_opts *o);
/* Set up for o; fio_ss_wanted(o) must hold. */
void fio_ss_init(struct fio_ss *ss, const struct fio_ss_opts *o);
void fio_ss_free(struct fio_ss *ss);

/* One thread's totals so far (with group_reporting its group's) at elapsed_ns into its job's
 * measured part (after fio's ramp_time, as fio's clock restarts there): the first call's
 * totals are the base; a sample
 * each interval since 0, a full window judged. Returns 1 once steady state is attained. */
int fio_ss_update(struct fio_ss *ss, uint64_t elapsed_ns, uint64_t bytes, uint64_t ios);

/* The window in time order, zeros after the samples when it is not full (fio's layout):
 * out_bw and out_iops get n values each. And the means over the n slots. */
void fio_ss_window(const struct fio_ss *ss, uint64_t *out_bw, uint64_t *out_iops);
uint64_t fio_ss_bw_mean(const struct fio_ss *ss);
uint64_t fio_ss_iops_mean(const struct fio_ss *ss);

/* fio's "ss" string: "iops_slope:0.010000%". */
void fio_ss_describe(const struct fio_ss *ss, char *buf, size_t len);

#endif
