/* fio's write-then-verify passes, around the worker's own loop (io/loop.c): each loop's
 * pass of writes is read back and checked before the next loop starts (a time-based job has
 * no such pass: as fio's, its writes take the runtime, read back only by verify_backlog). The reads count as reads, the
 * read-back time as their runtime and the writing time as the writes', as fio reports them. */
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
	return w->status != IO_OK || io_worker_stop_asked(w) ||
	       (ls->deadline && ticks_now() >= ls->deadline);
}

void io_loop_run_verified(struct io_worker *w, struct io_loop *ls)
{
	unsigned loops = w->job->loops;
	ls->phased = 1;
	for (;;) {
		ls->loops_left = 1;
		uint64_t t0 = ticks_now();
		io_loop_run(w, ls);
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
		if (stopped(w, ls) || --loops == 0)
			return;
		io_verify_new_pass(w->vfy);
		io_loop_new_pass(w, ls, 1);
	}
}
