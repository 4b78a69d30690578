/* Flow control between jobs (fio's flow, flow_id, flow_sleep): the threads that share a flow
 * do I/O in the ratio of their weights.  A flow counts every I/O its threads issue (from 1, as
 * fio's); a thread whose own count is above its weight's share of that count waits (io/rate.c
 * asks io/flow.c before each I/O).
 *
 * The front end makes one flow per flow_id, adds the weight of every thread that will run on
 * it before the first starts (fio adds them all when it reads the job file, so a job waits for
 * the others of its flow even when they start later), and takes each thread's weight off once
 * it is done or will not run.  Each thread takes its own I/Os off the count when it ends. */
#ifndef NM_IO_FLOW_H
#define NM_IO_FLOW_H

#include <stdint.h>

struct io_flow;

/* A flow with no weight and a count of 1; NULL when out of memory. */
struct io_flow *io_flow_new(void);
void io_flow_free(struct io_flow *f);
/* Adds delta (negative: takes it off) to the weight of the threads that run or will, in 32
 * bits that wrap, as fio's (whose flow=-1 is a weight of 2^32 - 1). */
void io_flow_weigh(struct io_flow *f, int64_t delta);
/* The flow's count of I/Os and its weight now (for tests and messages). */
uint64_t io_flow_count(const struct io_flow *f);
uint32_t io_flow_weight(const struct io_flow *f);

#endif
