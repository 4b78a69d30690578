/* A pass over a worker's files, what the loop (io/loop.c) and the verify passes
 * (io/verify_run.c) ask of the files between I/Os: a new pass started (offsets from the start,
 * the page cache dropped) and the files synced. */
#include "io/internal.h"
#include "io/loop.h"
#include "io/ticks.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
	w->files_done = 0;
	ls->tw_pending = 0;
	if (!ls->opening && reopen && w->job->pattern.randrepeat) /* fio's next loop draws again */
		io_bs_reseed(w);
	if (!ls->opening && reopen)
		ls->mix_until = 0; /* fio's rw draws a direction at a loop's first I/O */
	/* a loop over files that end: fio has closed each at its end (the last ones where it finds
	 * them done), so lazy ones open again at their first I/O; files that never end (no map)
	 * stay open, as fio's loops then run on as one */
	if (!ls->opening && reopen && w->open_cap && (ls->rand_ends || ls->seq_ends || ls->file_ends))
		for (unsigned i = 0; i < w->nfiles; i++)
			io_file_done_close(w, i);
	if (!ls->opening && ls->zoned && ls->fio_passes) /* fio starts a loop at the first zone */
		io_zone_enter(w, &w->files[0], io_job_offset(w->job, w->index));
	ls->cut = ls->zoned && w->job->pattern.zone_size < ls->pass_size ? w->job->pattern.zone_size : ls->pass_size;
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		f->moved = 0;
		f->done = 0;
		if (f->fmap)
			memset(f->fmap, 0, (f->fmap_bits / 64 + 1) * sizeof *f->fmap);
		if (!ls->opening) {
			for (int d = 0; d < DIR_COUNT; d++) {
				f->seq_pos[d] = f->region_start;
				f->perm_i[d] = f->perm[d].n; /* the next random pick starts a new order */
			}
			lfsr_seq_restart(&f->lfsr); /* fio's register starts each loop from its seed */
		}
		if (reopen || !w->direct)
			io_file_drop_cache(w, f);
	}
	ls->opening = 0;
}

/* fio 3.33's thread loop (backend.c's keep_running and do_io) over a job's loops and io_size:
 * a pass for each loop, then more while the job's bytes fall short of io_size by a largest
 * block or more (not without io_size: the files are done). A pass ends where its files do
 * (files_cap), at the job's loops x io_size (or size) issued over all its passes, and with an
 * engine that queues at its own bytes (queue_cap), whichever comes first, the I/O that
 * reaches it done; a pass that would move nothing ends the job. So with psync a norandommap
 * job of loops=3 moves 3 x size in one pass, and io_size=2m over a 1m file with loops=2
 * moves 2m, not twice that. number_ios is the job's too (x loops), as fio's. */
int io_loop_fio_pass(struct io_worker *w, struct io_loop *ls)
{
	const struct io_job *job = w->job;
	/* trimwrite: fio's job total counts the writes alone, a pass here both directions */
	uint64_t mul = (uint64_t)job->loops * (ls->trimwrite ? 2 : 1), total = ls->limit * mul;
	uint64_t ios = job->number_ios * job->loops;
	if (ls->limit && total / ls->limit != mul)
		total = UINT64_MAX;
	if (ls->loops_left) {
		ls->loops_left--;
	} else {
		uint64_t big = 0;
		for (int d = 0; d < DIR_COUNT; d++)
			big = job->bs[d] > big ? job->bs[d] : big;
		if (!job->files.io_limit || ls->done_bytes >= ls->limit || ls->limit - ls->done_bytes < big)
			return 0;
	}
	if (job->number_ios && ls->done_ios >= ios)
		return 0;
	uint64_t n = total > ls->done_bytes ? total - ls->done_bytes : 0;
	n = n < ls->files_cap ? n : ls->files_cap;
	n = n < ls->queue_cap ? n : ls->queue_cap;
	if (!n)
		return 0;
	ls->pass_size = n;
	ls->number_ios = job->number_ios ? ios - ls->done_ios : 0;
	return 1;
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
		if (f->fd < 0 && w->open_cap) /* closed (openfiles): nothing of it to sync */
			continue;
		if (f->map)
			rc = msync(f->map, f->size, MS_SYNC);
		if (rc == 0)
			rc = data_only ? fdatasync(f->fd) : fsync(f->fd);
		if (rc < 0) {
			int e = errno;
			io_worker_failf(w, e, "%s: %s: %s", f->path, data_only ? "fdatasync" : "fsync", strerror(e));
			return;
		}
		io_trace_record_sync(w, i, data_only);
	}
	if (ls->measuring) {
		w->res->sync_ios++;
		hist_add(&w->res->sync_lat, ticks_to_ns(ticks_now() - t0));
	}
	ls->writes_since_sync = 0;
	ls->need_sync = 0;
}
