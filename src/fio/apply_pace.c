/* fio's pacing options onto io_job.pace (io/pace.h; the engine's io/rate.c, io/flow.c and
 * io/lattarget.c do the pacing): rates and think times, flows between jobs, and the latency
 * target. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/flow.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio's pacing options onto io_job's (the engine's io/rate.c does the pacing): rate, rate_iops,
 * rate_min, rate_iops_min as READ[,WRITE[,TRIM]] (one value: both directions), thinktime and
 * thinktime_spin in microseconds unless a unit is given, thinktime_blocks. */

/* v's ','-separated parts into out[read], out[write], out[trim] (one value: all three, as fio);
 * sizes (kb_base) when size, else plain counts. An empty part leaves that direction. */
static int per_dir(struct fio_job *j, const char *v, int size, uint64_t out[DIR_COUNT], char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	int one = !strchr(v, ',');
	const char *s = v;
	for (int d = 0; d < DIR_COUNT && s; d++) {
		const char *c = strchr(s, ',');
		char *part = xstrndup(s, c ? (size_t)(c - s) : strlen(s));
		uint64_t n = 0;
		int rc = !*part ? 0 : size ? fio_size(j, part, &n, err, errlen) : fio_int(j, part, 0, UINT32_MAX, &n, err, errlen);
		int given = *part != 0;
		free(part);
		if (rc < 0)
			return -1;
		if (given)
			out[d] = n;
		if (one)
			out[DIR_WRITE] = out[DIR_TRIM] = n;
		s = c ? c + 1 : NULL;
	}
	if (s)
		return nm_errf(err, errlen, "\"%s\": at most three values (read,write,trim)", fio_q(v, qb, sizeof qb));
	return 0;
}

FIO_APPLY(rate) { return per_dir(j, v, 1, j->io.pace.rate_bps, err, errlen); }
FIO_APPLY(rate_iops) { return per_dir(j, v, 0, j->io.pace.rate_iops, err, errlen); }
FIO_APPLY(rate_min) { return per_dir(j, v, 1, j->io.pace.rate_min_bps, err, errlen); }
FIO_APPLY(rate_iops_min) { return per_dir(j, v, 0, j->io.pace.rate_min_iops, err, errlen); }

/* fio's think times: a bare number is microseconds. */
static int usec_time(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return parse_duration(v, 1000ull, ns, err, errlen);
}

FIO_APPLY(thinktime) { return usec_time(v, &j->io.pace.thinktime_ns, err, errlen); }
FIO_APPLY(thinktime_spin) { return usec_time(v, &j->io.pace.thinktime_spin_ns, err, errlen); }

FIO_APPLY(thinktime_blocks)
{
	uint64_t n;
	if (fio_int(j, v, 1, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.pace.thinktime_blocks = (unsigned)n;
	return 0;
}

FIO_APPLY(rate_process)
{
	char qb[64];
	if (v && !strcmp(v, "linear"))
		return 0;
	return nm_errf(err, errlen, "\"%s\": linear only (poisson is not implemented)", fio_q(v, qb, sizeof qb));
}

/* fio's flow control between jobs onto io_job's (the engine's io/flow.c and io/rate.c do it):
 * flow (a thread's weight, 0 to 1000; 0: no flow), flow_id (the jobs of one id share a flow),
 * flow_sleep (microseconds a held thread sleeps).  The plan owns one io_flow per flow_id in
 * use; the scheduler adds and takes off the threads' weights (fio/sched.c). */

#define FLOW_MAX_WEIGHT 1000 /* fio's */

/* fio checks the value as a signed number against its maximum and keeps it unsigned: flow=-1
 * is accepted, a weight of 2^32 - 1 that no thread of its flow is ever held by. */
FIO_APPLY(flow)
{
	uint64_t n;
	int neg = v && *v == '-';
	if (fio_int(j, neg ? v + 1 : v, 0, neg ? (uint64_t)INT_MAX + 1 : FLOW_MAX_WEIGHT, &n, err, errlen) < 0)
		return -1;
	j->io.pace.flow_weight = neg ? (unsigned)-(int64_t)n : (unsigned)n;
	return 0;
}

FIO_APPLY(flow_id)
{
	uint64_t n;
	int neg = v && *v == '-';
	if (fio_int(j, neg ? v + 1 : v, 0, (uint64_t)INT_MAX + neg, &n, err, errlen) < 0)
		return -1;
	j->flow_id = neg ? (int)-(int64_t)n : (int)n;
	return 0;
}

FIO_APPLY(flow_sleep)
{
	uint64_t us;
	if (fio_int(j, v, 0, UINT32_MAX, &us, err, errlen) < 0)
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

/* fio's latency target onto io_job's (the engine's io/lattarget.c searches the depth):
 * latency_target and latency_window (microseconds unless a unit is given), latency_percentile
 * (0 to 100, fio's default 100) and latency_run. */

/* fio's latency times: a bare number is microseconds, and only whole ones count. */
static int whole_usec_time(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0 || parse_duration(v, 1000ull, ns, err, errlen) < 0)
		return -1;
	*ns -= *ns % 1000; /* fio keeps whole microseconds (so 500ns is no target, as in fio) */
	return 0;
}

FIO_APPLY(latency_target) { return whole_usec_time(v, &j->io.pace.lat_target_ns, err, errlen); }
FIO_APPLY(latency_window) { return whole_usec_time(v, &j->io.pace.lat_window_ns, err, errlen); }

FIO_APPLY(latency_percentile)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return parse_percent(v, &j->io.pace.lat_percentile, err, errlen);
}

FIO_APPLY(latency_run)
{
	return fio_parse_bool(v, &j->io.pace.lat_run, err, errlen);
}
