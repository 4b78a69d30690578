/* fio's write-then-verify passes, around the worker's own loop (io/loop.c), as fio 3.33's
 * thread loop runs them: a pass of writes, then everything it wrote read back and checked, again
 * while loops are left, and after them while the bytes moved (written and read back) fall
 * short of io_size (or size) by a largest block or more. A pass of writes ends where the files
 * do (sequential I/O, a random map) or where the job's writes reach loops x io_size; only an
 * engine that queues (libaio, io_uring) also ends it at io_size, because fio counts a pass's
 * bytes as it queues them, so a random job with norandommap over psync writes every loop's
 * bytes before one read-back. (A time-based job has no such pass: as fio's, its writes take
 * the runtime, read back only by verify_backlog.) The reads count as reads, the read-back time
 * as their runtime and the writing time as the writes', as fio reports them. */
#include "io/loop.h"
#include "io/ticks.h"

/* The measured ticks from t0 to now into phase d's time (what ran in the ramp is not). */
static void phase_end(struct io_loop *ls, int d, uint64_t t0)
{
	if (!ls->measuring)
		return;
	uint64_t now = ticks_now(), from = t0 > ls->t_measure ? t0 : ls->t_measure;
	if (ls->deadline && now > ls->deadline) /* as fill_times: to the deadline, or the last I/O after it */
		now = ls->last_done > ls->deadline ? ls->last_done : ls->deadline;
	ls->phase_ticks[d] += now > from ? now - from : 0;
}

/* Before reading back: the files' cache dropped, as fio's reopening of them does (fio does not
 * sync them first, so what is still dirty stays cached, there as here). */
static void reopen_files(struct io_worker *w)
{
	for (unsigned i = 0; i < w->nfiles; i++)
		io_file_drop_cache(w, &w->files[i]);
}

static int stopped(struct io_worker *w, struct io_loop *ls)
{
	return w->status != IO_OK || io_worker_stop_asked(w) || io_verify_state_stopped(w->vfy) ||
	       (ls->deadline && ticks_now() >= ls->deadline);
}

/* fio's keep_running once no loop is left: number_ios x loops not reached (reads included)
 * and the bytes moved (reads included) short of the limit by a largest block or more. */
static int short_of_limit(struct io_worker *w, uint64_t limit)
{
	const struct io_job *job = w->job;
	if (job->number_ios && w->res->dir[DIR_READ].ios + w->res->dir[DIR_WRITE].ios >= job->number_ios * job->loops)
		return 0;
	uint64_t moved = w->res->dir[DIR_READ].bytes + w->res->dir[DIR_WRITE].bytes, big = 0;
	for (int d = 0; d < DIR_COUNT; d++)
		big = w->job->bs[d] > big ? w->job->bs[d] : big;
	return moved < limit && limit - moved >= big;
}

/* The bytes the next pass of writes may issue: what loops x limit leaves, at most the limit
 * for an engine that queues, at most the files' whole blocks where the files end a pass. */
static uint64_t pass_bytes(struct io_worker *w, struct io_loop *ls, uint64_t limit, uint64_t written)
{
	uint64_t total = limit * w->job->loops, left = total > written ? total - written : 0;
	if (!(w->ops->caps & IO_ENGINE_SYNC) && left > limit)
		left = limit;
	if (ls->files_whole && !ls->trimwrite && left > ls->files_whole)
		left = ls->files_whole;
	return left;
}

void io_loop_run_verified(struct io_worker *w, struct io_loop *ls)
{
	unsigned loops = w->job->loops;
	uint64_t limit = ls->pass_size, written = 0;
	ls->phased = 1;
	ls->files_again = 0; /* the files' end ends a pass; the next pass starts them over */
	for (int first = 1;; first = 0) {
		if (loops)
			loops--;
		else if (!short_of_limit(w, limit))
			return;
		uint64_t bytes = pass_bytes(w, ls, limit, written);
		if (!bytes) /* fio: a pass that writes nothing ends the job */
			return;
		ls->pass_size = bytes;
		if (first) /* the first I/O opens the pass */
			ls->issued = ls->cut = bytes;
		else {
			io_verify_new_pass(w->vfy);
			io_loop_new_pass(w, ls, 1);
		}
		ls->loops_left = 1;
		uint64_t t0 = ticks_now();
		io_loop_run(w, ls);
		written = w->res->dir[DIR_WRITE].bytes; /* what the passes wrote (none in flight now) */
		phase_end(ls, DIR_WRITE, t0);
		if (stopped(w, ls))
			return;
		reopen_files(w);
		if (io_verify_begin_readback(w)) {
			ls->verifying = 1;
			t0 = ticks_now();
			io_loop_run(w, ls);
			phase_end(ls, DIR_READ, t0);
			ls->verifying = 0;
		}
		if (stopped(w, ls))
			return;
	}
}
