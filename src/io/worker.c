/* One worker thread from start to end: its setup (io/worker_setup.c: buffers, files, CPUs,
 * engine), the loop's state before the first I/O, the per-I/O loop (io/loop.c) or fio's
 * write-then-verify passes (io/verify_run.c), and the cleanup; with what the loop asks for at
 * pass boundaries and fsync points, and the job's first failure. */
#include "io/internal.h"
#include "io/loop.h"
#include "io/ticks.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* The first failure is the job's: its message in w->err and in the result. */
void io_worker_failf(struct io_worker *w, int err, const char *fmt, ...)
{
	if (w->status != IO_OK)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof w->err, fmt, ap);
	va_end(ap);
	w->status = IO_FAILED;
	w->res->error = err;
	snprintf(w->res->errmsg, sizeof w->res->errmsg, "%s", w->err);
}

/* A new pass over the files: start them over and drop what the last pass left in the page
 * cache, as fio does. fio reopens its files at a loop, which drops their cache even under
 * O_DIRECT (the drop at an open ignores it); a time-based wrap keeps them open and drops the
 * cache of buffered jobs only. The first pass (opening) drops at its first I/O, inside the
 * measured time, where fio opens its files: lazily, at the first I/O of its timed loop, so on
 * a file left dirty by an earlier job fio's first drop waits for the writeback it starts, and
 * that time is part of fio's runtime. */
void io_loop_new_pass(struct io_worker *w, struct io_loop *ls, int reopen)
{
	ls->issued = ls->pass_ios = 0;
	ls->tw_pending = 0;
	ls->cut = ls->zoned && w->job->pattern.zone_size < ls->pass_size ? w->job->pattern.zone_size : ls->pass_size;
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		if (!ls->opening) {
			for (int d = 0; d < DIR_COUNT; d++) {
				f->seq_pos[d] = f->region_start;
				f->perm_i[d] = f->perm[d].n; /* the next random pick starts a new order */
			}
		}
		if (reopen || !w->direct)
			io_file_drop_cache(w, f);
	}
	ls->opening = 0;
}

/* fsync (fdatasync for fdatasync=) every file, msync a mapped one first; timed as a sync. */
void io_loop_sync_files(struct io_worker *w, struct io_loop *ls)
{
	const struct io_job *job = w->job;
	int data_only = !job->sync.fsync_every && job->sync.fdatasync_every;
	uint64_t t0 = ticks_now();
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		int rc = 0;
		if (f->map)
			rc = msync(f->map, f->size, MS_SYNC);
		if (rc == 0)
			rc = data_only ? fdatasync(f->fd) : fsync(f->fd);
		if (rc < 0) {
			int e = errno;
			io_worker_failf(w, e, "%s: %s: %s", f->path, data_only ? "fdatasync" : "fsync", strerror(e));
			return;
		}
	}
	if (ls->measuring) {
		w->res->sync_ios++;
		hist_add(&w->res->sync_lat, ticks_to_ns(ticks_now() - t0));
	}
	ls->writes_since_sync = 0;
	ls->need_sync = 0;
}

/* The loop's state before the first I/O: direction, pass size, sampling intervals, clocks. */
static void init_loop(struct io_worker *w, struct io_loop *ls)
{
	const struct io_job *job = w->job;
	ls->random = io_job_random(job);
	w->mixed_bs = io_job_mixed_bs(job);
	ls->fixed_dir = job->rw == IO_READ || job->rw == IO_RANDREAD     ? DIR_READ
		       : job->rw == IO_WRITE || job->rw == IO_RANDWRITE ? DIR_WRITE
		       : job->rw == IO_TRIM || job->rw == IO_RANDTRIM   ? DIR_TRIM
									: -1;
	ls->trimwrite = job->rw == IO_TRIMWRITE || job->rw == IO_RANDTRIMWRITE;
	ls->number_ios = job->number_ios * (ls->trimwrite ? 2 : 1);
	if (ls->fixed_dir < 0 && !ls->trimwrite && job->rwmix_read == 100)
		ls->fixed_dir = DIR_READ;
	if (ls->fixed_dir < 0 && !ls->trimwrite && job->rwmix_read == 0)
		ls->fixed_dir = DIR_WRITE;
	ls->loops_left = job->loops;
	/* A pass: size bytes, or the whole region of every file; time-based runs wrap to a new
	 * pass until the deadline. */
	ls->zoned = job->pattern.zone_size && w->nfiles == 1;
	ls->pass_size = job->size;
	if (!ls->pass_size && ls->zoned) /* the whole file, zone after zone */
		ls->pass_size = w->files[0].size > job->offset ? w->files[0].size - job->offset : 0;
	if (!ls->pass_size)
		for (unsigned i = 0; i < w->nfiles; i++)
			ls->pass_size += w->files[i].region_len;
	if (ls->trimwrite) /* every block trimmed and written: twice the bytes, as fio's */
		ls->pass_size *= 2;
	if (!ls->pass_size)
		ls->pass_size = UINT64_MAX;
	ls->issued = ls->cut = ls->pass_size; /* the first I/O opens the first pass (io_loop_new_pass) */
	ls->opening = 1;
	io_loop_start_clocks(w, ls);
}

void *io_worker_main(void *arg)
{
	struct io_worker *w = arg;
	const struct io_job *job = w->job;
	struct io_loop ls;

	memset(&ls, 0, sizeof ls);
	getrusage(RUSAGE_THREAD, &ls.ru_thread0);
	int rc = io_worker_prepare(w);
	/* Everyone waits for everyone, failed or not, so no thread is left at the barrier. */
	pthread_barrier_wait(w->barrier);
	if (rc < 0 || atomic_load(&w->ctl->stop))
		goto out;
	init_loop(w, &ls);

	if (__builtin_expect(w->vfy != NULL, 0) && io_verify_reads_back(w->vfy))
		io_loop_run_verified(w, &ls);
	else
		io_loop_run(w, &ls);

	if (w->status == IO_OK && job->sync.end_fsync && io_job_writes(job) &&
	    !(w->ops->caps & (IO_ENGINE_DISKLESS | IO_ENGINE_NO_OPEN)))
		io_loop_sync_files(w, &ls);
	io_loop_finish(w, &ls);
	if (job->pace.flow) /* its I/Os leave the flow's count (the front end takes its weight off) */
		io_flow_leave(job->pace.flow, ls.pace.flow_ios);
out:
	w->ops->cleanup(w);
	io_dist_cleanup(w);
	io_verify_cleanup(w);
	io_content_free(w->content);
	w->content = NULL;
	io_worker_close_files(w);
	free(w->reqs);
	free(w->bufs);
	w->reqs = NULL;
	w->bufs = NULL;
	return NULL;
}
