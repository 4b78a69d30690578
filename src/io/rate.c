/* Pacing, with fio's definitions (rate_process=linear):
 *
 *   rate / rate_iops   per direction and thread: the I/O that follows B bytes (N I/Os) issued
 *                      since the start goes no earlier than B / rate (N / rate_iops) seconds
 *                      after it; a direction ahead of its rate gives way to the other when that
 *                      one is behind, else the thread waits, once what it has in flight is done;
 *   rate_min           the job fails when a direction's rate over the last second (checked at
 *                      completions, after 2 s) is under it;
 *   thinktime          after every thinktime_blocks I/Os, once they have completed, a pause
 *                      (the first thinktime_spin of it spinning on the CPU);
 *   flow               once the rates let an I/O go, the job's flow (io/flow.c) may hold it:
 *                      the thread tries again at its next chance, or with flow_sleep lets what
 *                      it has in flight finish and sleeps that long first, as fio's.
 *
 * All of it is off unless asked (p->on), so a job without it pays one branch per I/O. */
#include "io/internal.h"
#include "io/ticks.h"
#include "util/error.h"

#include <sched.h>
#include <string.h>
#include <time.h>

void io_pace_init(struct io_pace *p, const struct io_job *job, uint64_t t0)
{
	memset(p, 0, sizeof *p);
	p->t0 = t0;
	p->check_at = t0 + ticks_from_ns(2000000000ull);
	for (int d = 0; d < DIR_COUNT; d++)
		if (job->pace.rate_bps[d] || job->pace.rate_iops[d] || job->pace.rate_min_bps[d] || job->pace.rate_min_iops[d])
			p->on = 1;
	if (job->pace.thinktime_ns || job->pace.flow)
		p->on = 1;
}

/* ticks after t0 when direction d may issue again; 0 when it has no rate */
static uint64_t rate_due(const struct io_pace *p, const struct io_job *job, int d)
{
	uint64_t ns = 0, n;
	if (job->pace.rate_bps[d])
		ns = (uint64_t)((unsigned __int128)p->bytes[d] * 1000000000u / job->pace.rate_bps[d]);
	if (job->pace.rate_iops[d] && (n = (uint64_t)((unsigned __int128)p->ios[d] * 1000000000u / job->pace.rate_iops[d])) > ns)
		ns = n;
	return ns ? p->t0 + ticks_from_ns(ns) : 0;
}

/* The rates: 0 when an I/O of *dir (or of the other direction, then *dir) may go now. */
static int rate_hold(struct io_pace *p, const struct io_job *job, int *dir, uint64_t now)
{
	int d = *dir, o = d ^ 1;
	uint64_t due = rate_due(p, job, d);
	if (due <= now)
		return 0;
	int mixed = (job->rw == IO_RW || job->rw == IO_RANDRW) && job->rwmix_read > 0 && job->rwmix_read < 100;
	if (mixed) {
		uint64_t odue = rate_due(p, job, o);
		if (odue <= now) {
			*dir = o;
			return 0;
		}
		due = odue < due ? odue : due;
	}
	p->due = due;
	return 1;
}

int io_pace_hold(struct io_pace *p, const struct io_job *job, int *dir, uint64_t now)
{
	p->held = 1;
	if (p->flow_wait) /* the flow held it: nothing until the flow_sleep is over */
		return 1;
	p->flow_held = 0;
	if (p->think_pending || now < p->think_end) {
		p->due = p->think_end;
		return 1;
	}
	if (rate_hold(p, job, dir, now))
		return 1;
	/* last, as fio's flow check at the top of its loop comes before the rate's wait inside it:
	 * an I/O is counted in its flow once, when it goes */
	p->flow_held = job->pace.flow && io_flow_ahead(job->pace.flow, job->pace.flow_weight, &p->flow_ios);
	if (p->flow_held) {
		p->due = now;
		p->flow_wait = job->pace.flow_sleep_ns != 0;
		return 1;
	}
	return p->held = 0;
}

void io_pace_issued(struct io_pace *p, const struct io_job *job, int dir, uint64_t bs)
{
	p->bytes[dir] += bs;
	p->ios[dir]++;
	if (job->pace.thinktime_ns && ++p->since_think >= (job->pace.thinktime_blocks ? job->pace.thinktime_blocks : 1)) {
		p->since_think = 0;
		p->think_pending = 1;
	}
}

void io_pace_wait(struct io_pace *p, const struct io_job *job, uint64_t limit)
{
	uint64_t now = ticks_now();
	if (p->think_pending) { /* what was in flight is done: the pause starts now */
		p->think_pending = 0;
		p->spin_end = now + ticks_from_ns(job->pace.thinktime_spin_ns < job->pace.thinktime_ns ? job->pace.thinktime_spin_ns
												: job->pace.thinktime_ns);
		p->think_end = p->due = now + ticks_from_ns(job->pace.thinktime_ns);
	}
	while (now < p->spin_end && now < limit)
		now = ticks_now();
	if (p->flow_held) { /* the others of the flow are behind: give them the CPU, or sleep */
		if (!p->flow_wait) {
			sched_yield();
			return;
		}
		p->flow_wait = 0; /* a pause as think time's: no I/O before its end */
		p->think_end = p->due = now + ticks_from_ns(job->pace.flow_sleep_ns);
	}
	uint64_t until = p->due < limit ? p->due : limit;
	if (until <= now)
		return;
	uint64_t ns = ticks_to_ns(until - now);
	if (ns > 20000000) /* wake now and then: a stop or a status request is seen soon */
		ns = 20000000;
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	nanosleep(&ts, NULL);
}

int io_pace_check_min(struct io_pace *p, const struct io_job *job, const struct io_job_result *r, uint64_t now,
		      char *err, size_t errlen)
{
	if (now < p->check_at)
		return 0;
	uint64_t spent_ns = ticks_to_ns(now - p->check_at) + 1000000000u;
	int first = 1;
	for (int d = 0; d < DIR_COUNT; d++)
		first &= p->check_bytes[d] + p->check_ios[d] == 0;
	for (int d = 0; d < DIR_COUNT && !first; d++) {
		const struct io_dir_result *dr = &r->dir[d];
		if (!dr->ios)
			continue;
		uint64_t bps = (uint64_t)((unsigned __int128)(dr->bytes - p->check_bytes[d]) * 1000000000u / spent_ns);
		uint64_t iops = (uint64_t)((unsigned __int128)(dr->ios - p->check_ios[d]) * 1000000000u / spent_ns);
		const char *what = d == DIR_READ ? "read" : d == DIR_WRITE ? "write" : "trim";
		if (job->pace.rate_min_bps[d] && bps < job->pace.rate_min_bps[d])
			return nm_errf(err, errlen, "%s: rate_min=%llu B/s not met, got %llu B/s", what,
				       (unsigned long long)job->pace.rate_min_bps[d], (unsigned long long)bps);
		if (!job->pace.rate_min_bps[d] && job->pace.rate_min_iops[d] && iops < job->pace.rate_min_iops[d])
			return nm_errf(err, errlen, "%s: rate_iops_min=%llu not met, got %llu IOPS", what,
				       (unsigned long long)job->pace.rate_min_iops[d], (unsigned long long)iops);
	}
	for (int d = 0; d < DIR_COUNT; d++) {
		p->check_bytes[d] = r->dir[d].bytes;
		p->check_ios[d] = r->dir[d].ios;
	}
	p->check_at = now + ticks_from_ns(1000000000u);
	return 0;
}
