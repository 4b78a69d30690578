/* Latency target (fio's latency_target, latency_window, latency_percentile, latency_run): the
 * search for the deepest queue whose I/Os stay under the target, with fio's steps.
 *
 *   start      depth 1, bounds 1 and iodepth;
 *   met        (a window whose share of I/Os under the target is at least the percentile; an
 *              empty window is not met, as fio's 0/0): the depth is the new low bound, and
 *              doubles while nothing has failed yet, else goes halfway to the high bound; one
 *              below the high bound three windows in a row, the high bound rises by one;
 *   not met    the depth is the new high bound and goes halfway down to the low one (which
 *              gives way by one when the depth is already there); what is in flight finishes
 *              before the next window.  At depth 1 nothing changes, except at percentile 100,
 *              where every I/O over the target counts at once and one at depth 1 fails the job
 *              (fio's "max latency exceeded"), those in flight while the depth comes down too;
 *   found      a window met at a depth that would not change (unless latency_run): what is in
 *              flight finishes, the figures start over, and the job ends after one more window
 *              met there.
 *
 * The per-I/O loop (io/loop.c) asks only when the job has a target. */
#include "io/internal.h"
#include "io/ticks.h"

#include <string.h>

static void new_window(struct io_lat *l, uint64_t now)
{
	l->window_start = now;
	l->ios = l->failed = 0;
}

void io_lat_init(struct io_lat *l, const struct io_job *job, uint64_t now)
{
	memset(l, 0, sizeof *l);
	l->on = job->pace.lat_target_ns != 0;
	l->max_qd = job->iodepth ? job->iodepth : 1;
	l->qd = l->on ? 1 : l->max_qd;
	l->qd_low = 1;
	l->qd_high = l->max_qd;
	l->target_ns = job->pace.lat_target_ns;
	l->window_len = ticks_from_ns(job->pace.lat_window_ns);
	l->pct = job->pace.lat_percentile;
	l->keep_on = job->pace.lat_run;
	new_window(l, now);
}

/* Not met: halfway down. Returns 1 at depth 1, where it cannot go lower. */
static int step_down(struct io_lat *l)
{
	if (l->qd == 1)
		return 1;
	l->qd_high = l->qd;
	if (l->qd == l->qd_low)
		l->qd_low--;
	l->qd = (l->qd + l->qd_low) / 2;
	l->stable = 0;
	l->quiesce = 1;
	return 0;
}

static void step_up(struct io_lat *l, uint64_t now)
{
	unsigned was = l->qd;
	l->qd_low = l->qd;
	if (l->qd + 1 == l->qd_high && ++l->stable >= 3) { /* stuck one below: try one higher */
		l->qd_high++;
		l->stable = 0;
	}
	l->qd = l->qd_high != l->max_qd ? (l->qd + l->qd_high) / 2 : l->qd * 2;
	if (l->qd > l->max_qd)
		l->qd = l->max_qd;
	if (!l->keep_on && l->qd == was) {
		if (l->final_run)
			l->done = 1;
		else
			l->final_run = l->quiesce = l->reset = 1;
	}
	if (!l->quiesce)
		new_window(l, now);
}

int io_lat_completed(struct io_lat *l, uint64_t lat_ns)
{
	if (l->pct < 100.0) {
		if (l->quiesce) /* the next window starts once these are done */
			return 0;
		l->ios++;
		l->failed += lat_ns > l->target_ns;
		return 0;
	}
	l->ios++;
	return lat_ns > l->target_ns && step_down(l) ? -1 : 0;
}

void io_lat_check(struct io_lat *l, uint64_t now)
{
	if (l->quiesce || l->done || now - l->window_start < l->window_len)
		return;
	/* fio's share of 0 I/Os is 0/0, which meets no percentile */
	int met = l->ios && (double)(l->ios - l->failed) * 100.0 / (double)l->ios >= l->pct;
	if (met)
		step_up(l, now);
	else
		step_down(l); /* at depth 1 the window goes on, as fio's */
}

int io_lat_quiesced(struct io_lat *l, uint64_t now)
{
	int reset = l->reset;
	l->quiesce = l->reset = 0;
	new_window(l, now);
	return reset;
}

unsigned io_lat_unused(const struct io_lat *l, unsigned depth)
{
	if (l->quiesce)
		return depth;
	return depth > l->qd ? depth - l->qd : 0;
}
