/* One worker thread from start to end: its setup (io/worker_setup.c: buffers, files, CPUs,
 * engine), the loop's state before the first I/O, the per-I/O loop (io/loop.c) or fio's
 * write-then-verify passes (io/verify_run.c), and the cleanup. The top of the loop's files:
 * it calls them, none calls it. */
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

/* Whether fio's thread loop decides the passes (io/pass.c's io_loop_fio_pass): a job of
 * loops or io_size, not time-based, whose passes are the plain loop's (no read-back of
 * verify or replay, which keep their own; nor lfsr with a mix of sizes, trimwrite with
 * number_ios or without fio's random map, whose passes are not fio's either way). */
static int fio_passes(const struct io_worker *w, const struct io_loop *ls)
{
	const struct io_job *job = w->job;
	int tw_own = ls->trimwrite && (job->number_ios || (ls->random && (job->pattern.norandommap ||
									   job->pattern.dist != DIST_UNIFORM)));
	return (job->loops > 1 || job->files.io_limit || ls->zoned) && !job->time_based && !tw_own &&
	       !(ls->zoned && (w->mixed_bs || ls->fixed_dir < 0)) && !(job->pattern.lfsr && w->mixed_bs) &&
	       !job->replay.entries && w->nfiles && !(w->vfy && io_verify_reads_back(w->vfy));
}

/* fio's bounds of the passes (io/pass.c): where the files end a pass, their bytes; an engine
 * that queues (fio's null at a depth above 1 too) counts a pass's bytes and stops it at
 * size (io_size where a random job writes without a map, as fio's do_io), a synchronous
 * one only at the job's loops x io_size. Then the first pass's size. */
static void init_fio_passes(struct io_worker *w, struct io_loop *ls, int ends, uint64_t files)
{
	const struct io_job *job = w->job;
	ls->files_cap = ls->zoned ? io_zone_pass_bytes(w, job->bs[ls->fixed_dir])
		      : ends ? ls->pass_size : UINT64_MAX;
	ls->limit = job->size ? job->size : files;
	uint64_t size = job->files.io_limit ? files : ls->limit;
	if (ls->random && io_job_writes(job) && job->pattern.norandommap && ls->limit > size)
		size = ls->limit;
	int queues = !(w->ops->caps & IO_ENGINE_SYNC) || (strcmp(w->ops->name, "null") == 0 && job->iodepth > 1);
	ls->queue_cap = queues ? size * (ls->trimwrite ? 2 : 1) : UINT64_MAX;
	ls->loops_left = job->loops;
	ls->fio_passes = io_loop_fio_pass(w, ls);
	if (!ls->fio_passes) /* a first pass of nothing: the loop's own passes, as before */
		ls->loops_left = job->loops;
}

/* A pass's size: size bytes, or the whole region of every file (the files' whole blocks where
 * they end the pass, file_end; trimwrite's rounds, twice its bytes); UINT64_MAX where nothing
 * bounds it. files: the files' bytes; bs: the job's block size (the smaller of two). */
static void init_pass_size(struct io_worker *w, struct io_loop *ls, uint64_t files, int fio_loop, int ends,
			   int file_end, uint64_t bs)
{
	const struct io_job *job = w->job;
	if (fio_loop && ends && files && !ls->zoned)
		ls->pass_size = files;
	if (!ls->pass_size && ls->zoned) /* the whole file, zone after zone */
		ls->pass_size = w->files[0].size > w->files[0].region_start ? w->files[0].size - w->files[0].region_start : 0;
	if (!ls->pass_size)
		for (unsigned i = 0; i < w->nfiles; i++)
			ls->pass_size += w->files[i].region_len;
	if (ls->zoned && !w->mixed_bs && ls->pass_size > bs)
		ls->pass_size -= ls->pass_size % bs;
	else if (file_end && !w->mixed_bs && bs) {
		uint64_t whole = 0;
		for (unsigned i = 0; i < w->nfiles; i++)
			whole += w->files[i].region_len / bs * bs;
		if (ls->pass_size <= files && whole < ls->pass_size)
			ls->pass_size = whole;
		ls->files_whole = whole;
		/* trimwrite over more than the files (io_size): fio trims and writes the files'
		 * whole blocks in rounds, another while the two directions' bytes together fall
		 * short of the size by a largest block or more (io_size=192k over 128k: one round) */
		uint64_t big = 0;
		for (int d = 0; d < DIR_COUNT; d++)
			big = job->bs[d] > big ? job->bs[d] : big;
		if (ls->trimwrite && whole && ls->pass_size > whole) {
			uint64_t rounds = whole;
			while (2 * rounds < ls->pass_size && ls->pass_size - 2 * rounds >= big)
				rounds += whole;
			ls->pass_size = rounds;
		}
	}
	if (ls->trimwrite) /* every block trimmed and written: twice the bytes, as fio's */
		ls->pass_size *= 2;
	if (!ls->pass_size)
		ls->pass_size = UINT64_MAX;
}

/* Where a file ends within a pass (its last whole block, a direction's next I/O no longer
 * fitting, a full random map) and what that means for the loop: mix_slack, file_ends,
 * seq_ends, rand_ends, files_again, files_stay. */
static void init_file_ends(struct io_worker *w, struct io_loop *ls, uint64_t files, int fio_loop, int file_end,
			   uint64_t bs)
{
	const struct io_job *job = w->job;
	/* a mixed size fits what is left of the pass where fio's file ends the pass: a random map
	 * (fio's is shared by the directions), or sequential I/O in one direction (a mix's
	 * directions each have their place in the file, and fio's byte count ends the job) */
	if (w->mixed_bs && (ls->random ? !job->pattern.norandommap && !job->pattern.lfsr : ls->fixed_dir >= 0)) {
		uint64_t small = UINT64_MAX;
		for (int d = 0; d < DIR_COUNT; d++)
			if ((ls->fixed_dir < 0 && d != DIR_TRIM) || d == ls->fixed_dir)
				small = io_bs_smallest(job, d) < small ? io_bs_smallest(job, d) : small;
		ls->mix_slack = small != UINT64_MAX && small ? small - 1 : 0;
		/* files the pass fits in: each ends where the smallest size no longer fits it (the
		 * rest of its region, or what its random map has left), as fio's files of
		 * size/nrfiles each; a pass over more than the files goes round them */
		ls->file_ends = w->nfiles && !ls->trimwrite && !ls->zoned && ls->pass_size <= files &&
				(!ls->random || job->pattern.dist == DIST_UNIFORM);
		if (w->fio_offsets) { /* fio's random map ends each file (io/bssplit.c), its bytes the
				       * pass: a pass over more than the files (io_size) starts them over */
			ls->mix_slack = 0, ls->file_ends = 0;
			ls->files_again = ls->pass_size > files && !fio_loop;
		}
	}
	/* rw, sequential I/O of both directions over files the pass fits in (or any pass of fio's
	 * thread loop, io_size beyond the files too): a file is done where a direction's next I/O
	 * no longer fits it, as fio's (each direction has its place in the file), the pass where
	 * all are or at fio's byte count, whichever comes first */
	/* (and one direction where openfiles opens files lazily: a done file is closed for the next) */
	if (!ls->random && (ls->fixed_dir < 0 || w->open_cap) && !ls->trimwrite && !ls->zoned && w->nfiles &&
	    !job->pattern.rw_seq_skip) {
		if (ls->pass_size <= files || fio_loop) {
			ls->seq_ends = !w->mixed_bs;
			ls->file_ends = w->mixed_bs;
		}
	}
	/* one direction with fio's holes (rw=read:N): a file is done where its next block no
	 * longer fits, as fio's (io/loop.c's seq_done); without this the offset wrapped and the
	 * pass went on to size bytes (t0007: 128 reads of 1m over 128m, fio's 85) */
	if (!ls->random && ls->fixed_dir >= 0 && job->pattern.rw_seq_skip > 0 && !w->mixed_bs && !ls->zoned &&
	    w->nfiles)
		ls->seq_ends = 1;
	/* random I/O of one size over a random map: fio's file is done once its map is full (and
	 * closed where openfiles opens lazily), so a file that has had all its blocks is passed
	 * by. Kept off where that changes nothing (files of equal blocks in turn, all open), for
	 * the loop's fast path. A time-based run starts a full map over (fio resets the file). */
	if (ls->random && file_end && !w->mixed_bs && !w->fio_offsets && !ls->trimwrite && !ls->zoned &&
	    !job->time_based && !w->vfy && w->nfiles > 1 && bs && ls->pass_size <= ls->files_whole) {
		int unequal = 0;
		for (unsigned i = 1; i < w->nfiles; i++)
			unequal |= w->files[i].region_len / bs != w->files[0].region_len / bs;
		ls->rand_ends = w->open_cap || unequal || job->files.file_service != FILES_ROUNDROBIN ||
				job->files.file_service_nr > 1;
	}
	/* sequential service of random I/O: a file keeps the I/O until it is done, as fio's; where
	 * no file ends (no map, a distribution, a time-based run) the first keeps every I/O */
	w->files_stay = ls->random && (ls->rand_ends || (!file_end && !job->pattern.lfsr) || job->time_based);
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
	/* fio's passes end where the files do (sequential I/O of one direction, a random map),
	 * whatever the job's bytes: a pass is then the files' (the bytes bound it in io/pass.c) */
	uint64_t files = 0;
	for (unsigned i = 0; i < w->nfiles; i++)
		files += w->files[i].region_len;
	/* (percentage_random's sequential I/Os leave fio's map alone: its end alone ends a pass) */
	int part = job->pattern.seq_pct[DIR_READ] || job->pattern.seq_pct[DIR_WRITE];
	int ends = ls->random ? (w->fio_offsets ? w->fio_offsets == 2 && !part
						: job->pattern.lfsr || (!job->pattern.norandommap && job->pattern.dist == DIST_UNIFORM))
			      : ls->fixed_dir >= 0 || ls->trimwrite;
	int fio_loop = fio_passes(w, ls);
	/* Where fio's files end the pass (sequential I/O of one direction, or a random map over
	 * the files), a pass within the files ends at each file's last whole block: size=20000
	 * at 4k moves 16384 bytes, 3 files of 6666 bytes 12288 (a mix's sizes fit each file's
	 * rest, below).  Elsewhere fio's byte count ends it, with the I/O that reaches the size
	 * (norandommap, rw: 20480). Strided zones: whole blocks of the size. */
	int file_end = w->nfiles && (ls->random ? !job->pattern.norandommap && job->pattern.dist == DIST_UNIFORM
						: ls->fixed_dir >= 0 || ls->trimwrite);
	uint64_t bs = ls->fixed_dir >= 0 ? job->bs[ls->fixed_dir] : ls->trimwrite ? job->bs[DIR_TRIM]
		     : job->bs[DIR_READ] < job->bs[DIR_WRITE] ? job->bs[DIR_READ] : job->bs[DIR_WRITE];
	init_pass_size(w, ls, files, fio_loop, ends, file_end, bs);
	init_file_ends(w, ls, files, fio_loop, file_end, bs);
	uint64_t zone_file = 0;
	if (ls->zoned && w->files[0].size > w->files[0].region_start)
		zone_file = w->files[0].size - w->files[0].region_start;
	if (fio_loop) /* zones: the whole file's bytes, not the first zone's */
		init_fio_passes(w, ls, ends && files && !ls->zoned, ls->zoned ? zone_file : files);
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
	if (rc < 0 || io_worker_stop_asked(w))
		goto out;
	init_loop(w, &ls);
	if (w->trace)
		io_trace_begin(w, ls.t_start);

	if (__builtin_expect(w->vfy != NULL, 0) && io_verify_reads_back(w->vfy))
		io_loop_run_verified(w, &ls);
	else
		io_loop_run(w, &ls);

	if (w->status == IO_OK && job->sync.end_fsync && io_job_writes(job) &&
	    !(w->ops->caps & (IO_ENGINE_DISKLESS | IO_ENGINE_NO_OPEN)))
		io_loop_sync_files(w, &ls);
	if (w->trace)
		io_trace_end(w);
	io_loop_finish(w, &ls);
	io_vstate_finish(w); /* the thread ran: its state is saved, as fio's thread end saves it */
	if (job->pace.flow) /* its I/Os leave the flow's count (the front end takes its weight off) */
		io_flow_leave(job->pace.flow, ls.pace.flow_ios);
out:
	w->ops->cleanup(w);
	io_dist_cleanup(w);
	io_bs_fio_cleanup(w);
	io_verify_cleanup(w);
	io_vstate_cleanup(w);
	io_trace_cleanup(w);
	io_content_free(w->content);
	w->content = NULL;
	io_worker_close_files(w);
	free(w->reqs);
	io_mem_unpin(w);
	io_mem_free(w);
	w->reqs = NULL;
	w->bufs = NULL;
	return NULL;
}
