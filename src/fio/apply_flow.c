/* fio's flow control between jobs onto io_job's (the engine's io/flow.c and io/rate.c do it):
 * flow (a thread's weight, 0 to 1000; 0: no flow), flow_id (the jobs of one id share a flow),
 * flow_sleep (microseconds a held thread sleeps).  The plan owns one io_flow per flow_id in
 * use; the scheduler adds and takes off the threads' weights (fio/sched.c). */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/flow.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define FLOW_MAX_WEIGHT 1000 /* fio's */

/* fio checks the value as a signed number against its maximum and keeps it unsigned: flow=-1
 * is accepted, a weight of 2^32 - 1 that no thread of its flow is ever held by. */
FIO_APPLY(flow)
{
	uint64_t n;
	int neg = v && *v == '-';
	if (fio_count(neg ? v + 1 : v, 0, neg ? (uint64_t)INT_MAX + 1 : FLOW_MAX_WEIGHT, &n, err, errlen) < 0)
		return -1;
	j->io.flow_weight = neg ? (unsigned)-(int64_t)n : (unsigned)n;
	return 0;
}

FIO_APPLY(flow_id)
{
	uint64_t n;
	int neg = v && *v == '-';
	if (fio_count(neg ? v + 1 : v, 0, (uint64_t)INT_MAX + neg, &n, err, errlen) < 0)
		return -1;
	j->flow_id = neg ? (int)-(int64_t)n : (int)n;
	return 0;
}

FIO_APPLY(flow_sleep)
{
	uint64_t us;
	if (fio_count(v, 0, UINT32_MAX, &us, err, errlen) < 0)
		return -1;
	j->io.flow_sleep_ns = us * 1000u;
	return 0;
}

void fio_plan_flows(struct fio_plan *p)
{
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		if (!j->io.flow_weight)
			continue;
		for (size_t k = 0; k < i && !j->io.flow; k++)
			if (p->jobs[k].io.flow && p->jobs[k].flow_id == j->flow_id)
				j->io.flow = p->jobs[k].io.flow;
		if (j->io.flow)
			continue;
		if (!(j->io.flow = io_flow_new()))
			abort();
		p->flows = xrealloc(p->flows, (p->nflows + 1) * sizeof *p->flows);
		p->flows[p->nflows++] = j->io.flow;
	}
}

void fio_plan_free_flows(struct fio_plan *p)
{
	for (size_t i = 0; i < p->nflows; i++)
		io_flow_free(p->flows[i]);
	free(p->flows);
	p->flows = NULL;
	p->nflows = 0;
}
