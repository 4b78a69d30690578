/* io_job.pace: how fast a job may go: rate caps and floors (io/rate.c), think times, flows
 * shared between jobs (io/flow.c) and a latency target that searches the depth (io/lattarget.c).
 * All 0: as fast as it goes. */
#ifndef NM_IO_PACE_H
#define NM_IO_PACE_H

#include <stdint.h>
#include "io/dir.h"

struct io_flow;

struct io_pace_spec {
	/* Pacing (io/rate.c), per direction and thread; 0: as fast as it goes */
	uint64_t rate_bps[DIR_COUNT];  /* fio's rate: bytes issued by t after start <= rate * t */
	uint64_t rate_iops[DIR_COUNT]; /* fio's rate_iops */
	uint64_t rate_min_bps[DIR_COUNT], rate_min_iops[DIR_COUNT]; /* the job fails below these,
	                             * checked as fio: at completions, once a second after 2 s */
	uint64_t thinktime_ns;      /* a pause after every thinktime_blocks I/Os have completed */
	uint64_t thinktime_spin_ns; /* the first part of it spent spinning on the CPU */
	unsigned thinktime_blocks;  /* default 1 */
	struct io_flow *flow;       /* fio's flow_id: shared with the other jobs of the flow (io/flow.h,
	                             * whose owner adds the threads' weights); NULL: none */
	unsigned flow_weight;       /* fio's flow: each thread's weight in it */
	uint64_t flow_sleep_ns;     /* a held thread lets its I/O finish, then sleeps this long;
	                             * 0: it tries again at once */
	/* Latency target (io/lattarget.c, fio's latency_target): the queue depth is searched for,
	 * from 1 up to iodepth, the deepest whose I/Os stay under the target; 0: none */
	uint64_t lat_target_ns;
	uint64_t lat_window_ns;     /* each depth is judged over this long (fio's latency_window) */
	double lat_percentile;      /* the share of a window's I/Os that must be under the target;
	                             * 100 (the default): one I/O over it lowers the depth, and at
	                             * depth 1 fails the job, as fio's */
	int lat_run;                /* 1: go on adjusting all run long (fio's latency_run); 0: once
	                             * the depth is found, one more window measures it and the job ends */
};

#endif
