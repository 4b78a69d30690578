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
#include <stdio.h>
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
	j->io.pace.flow_weight = neg ? (unsigned)-(int64_t)n : (unsigned)n;
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
	j->io.pace.flow_sleep_ns = us * 1000u;
	return 0;
}

/* Whether job k starts only once job i (before it) has ended: a stonewall after i, up to k, or
 * k's wait_for names i. */
static int starts_after(const struct fio_plan *p, size_t i, size_t k)
{
	for (size_t m = i + 1; m <= k; m++)
		if (p->jobs[m].stonewall)
			return 1;
	return p->jobs[k].wait_for && strcmp(p->jobs[k].wait_for, p->jobs[i].name) == 0;
}

/* fio counts every weight of a flow from the start, so a job whose flow-mates start only after
 * it has ended is held once it is ahead of them, that is after an I/O or two, until its
 * runtime: said on stderr; without a runtime it would wait for ever (fio's does): refused. */
static int check_later_mates(struct fio_plan *p, size_t i, char *err, size_t errlen)
{
	const struct fio_job *j = &p->jobs[i];
	uint32_t later = 0;
	const char *mate = NULL;
	for (size_t k = i + 1; k < p->njobs; k++) {
		const struct fio_job *o = &p->jobs[k];
		if (o->io.pace.flow != j->io.pace.flow || !starts_after(p, i, k))
			continue;
		later += o->io.pace.flow_weight * o->io.numjobs; /* 32 bits that wrap, as the flow's */
		mate = mate ? mate : o->name;
	}
	if (!later)
		return 0;
	char qa[64], qb[64], *n;
	fio_q(j->name, qa, sizeof qa);
	fio_q(mate, qb, sizeof qb);
	if (!j->io.runtime_ns)
		return nm_errf(err, errlen, "job '%s': flow: '%s' of its flow_id %d starts only after it ends, so it would "
			       "wait for ever (as fio's would): give it a runtime or another flow_id", qa, qb, j->flow_id);
	if (asprintf(&n, "job '%s': flow: '%s' of its flow_id %d starts only after it ends: it is held until its "
		     "runtime, as in fio", qa, qb, j->flow_id) < 0)
		abort();
	fio_strv_push(&p->notes, &p->nnotes, n);
	return 0;
}

int fio_plan_flows(struct fio_plan *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		if (!j->io.pace.flow_weight)
			continue;
		for (size_t k = 0; k < i && !j->io.pace.flow; k++)
			if (p->jobs[k].io.pace.flow && p->jobs[k].flow_id == j->flow_id)
				j->io.pace.flow = p->jobs[k].io.pace.flow;
		if (j->io.pace.flow)
			continue;
		if (!(j->io.pace.flow = io_flow_new()))
			abort();
		p->flows = xrealloc(p->flows, (p->nflows + 1) * sizeof *p->flows);
		p->flows[p->nflows++] = j->io.pace.flow;
	}
	for (size_t i = 0; i < p->njobs; i++)
		if (p->jobs[i].io.pace.flow && check_later_mates(p, i, err, errlen) < 0)
			return -1;
	return 0;
}

void fio_plan_free_flows(struct fio_plan *p)
{
	for (size_t i = 0; i < p->nflows; i++)
		io_flow_free(p->flows[i]);
	free(p->flows);
	p->flows = NULL;
	p->nflows = 0;
}
