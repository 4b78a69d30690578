/* A worker's own things before its loop starts: its I/O buffers, its files opened as the job
 * asks (O_DIRECT or not), its CPUs and engine; whether it should stop waiting on something
 * outside; and how it fails (the job's first failure).  (The thread is io/worker.c, its loop
 * io/loop.c.) */
#include "io/internal.h"
#include "io/ticks.h"
#include "util/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

/* fio's openfiles below the files: each opened at its first I/O, closed once done
 * (io/fileservice.c). A sync engine's only, where no I/O is in flight when a file closes, and
 * not with verify (its read-back passes reopen every file) or mmap (it maps every file). */
static int opens_lazily(const struct io_worker *w)
{
	const struct io_job *job = w->job;
	unsigned caps = w->ops->caps;
	return job->files.openfiles && job->files.openfiles < w->nfiles && (caps & IO_ENGINE_SYNC) &&
	       !(caps & (IO_ENGINE_NO_OPEN | IO_ENGINE_NO_LAYOUT | IO_ENGINE_NO_DIRECT)) &&
	       job->verify.kind == IO_VERIFY_NONE;
}

int io_worker_open_files(struct io_worker *w)
{
	int flags = (io_job_writes(w->job) ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (w->direct)
		flags |= O_DIRECT;
	if ((w->ops->caps & IO_ENGINE_DISKLESS))
		return 0;
	if (opens_lazily(w)) {
		w->open_idx = malloc(w->job->files.openfiles * sizeof *w->open_idx);
		if (!w->open_idx) {
			snprintf(w->err, sizeof w->err, "out of memory");
			return -ENOMEM;
		}
		w->open_cap = w->job->files.openfiles;
		w->open_flags = flags;
		for (unsigned i = 0; i < w->nfiles; i++)
			for (int d = 0; d < DIR_COUNT; d++)
				w->files[i].seq_pos[d] = w->files[i].region_start;
		return 0;
	}
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		for (int d = 0; d < DIR_COUNT; d++)
			f->seq_pos[d] = f->region_start;
		if ((w->ops->caps & IO_ENGINE_NO_OPEN))
			continue; /* the engine works on the path */
		f->fd = open(f->path, flags);
		f->fd_pos = 0;
		if (f->fd < 0) {
			int e = errno;
			snprintf(w->err, sizeof w->err, "%s: cannot open: %s", f->path, strerror(e));
			return -e;
		}
		for (int d = 0; d < DIR_COUNT; d++)
			f->seq_pos[d] = f->region_start;
	}
	return 0;
}

void io_worker_close_files(struct io_worker *w)
{
	for (unsigned i = 0; i < w->nfiles; i++)
		if (w->files[i].fd >= 0) {
			close(w->files[i].fd);
			w->files[i].fd = -1;
		}
	w->nopen = w->open_cap = 0;
	free(w->open_idx);
	w->open_idx = NULL;
}

int io_worker_setup_buffers(struct io_worker *w)
{
	const struct io_job *job = w->job;
	uint64_t bs = job->bs[DIR_READ] > job->bs[DIR_WRITE] ? job->bs[DIR_READ] : job->bs[DIR_WRITE];
	/* trimwrite writes what it trimmed: the trim's size (bs=4k,4k,8k writes 8k) */
	if ((job->rw == IO_TRIMWRITE || job->rw == IO_RANDTRIMWRITE) && job->bs[DIR_TRIM] > bs)
		bs = job->bs[DIR_TRIM];
	w->depth = (w->ops->caps & IO_ENGINE_SYNC) ? 1 : job->iodepth;
	w->buf_size = (bs + 4095) & ~(size_t)4095;
	w->reqs = calloc(w->depth, sizeof *w->reqs);
	/* Page aligned (fio's are only for O_DIRECT or iomem_align: a buffered fio job's buffers
	 * sit where malloc puts them, 16 bytes past a page, which makes the kernel's copies into
	 * them several times dearer on some CPUs); buf_offset moves them as fio's iomem_align. */
	size_t total = w->buf_size * w->depth + job->buf.buf_offset;
	if (!w->reqs) {
		snprintf(w->err, sizeof w->err, "cannot allocate %u buffers of %zu bytes", w->depth, w->buf_size);
		return -ENOMEM;
	}
	int rc = io_mem_alloc(w, total); /* fio's mem= (io/iomem.c) */
	if (rc < 0)
		return rc;
	void *p = w->bufs;
	if (job->buf.fill == FILL_ZERO || (w->ops->caps & IO_ENGINE_DISKLESS)) {
		memset(w->bufs, 0, total);
	} else {
		uint64_t *q = p;
		for (size_t i = 0; i < total / 8; i++)
			q[i] = prng_next(&w->rng);
		memset(w->bufs + total / 8 * 8, 0, total % 8);
	}
	for (unsigned i = 0; i < w->depth; i++) {
		w->reqs[i].index = i;
		w->reqs[i].buf = w->bufs + job->buf.buf_offset + (size_t)i * w->buf_size;
		if (job->buf.fill == FILL_PATTERN && !(w->ops->caps & IO_ENGINE_DISKLESS)) /* from each buffer's start, as fio */
			io_pattern_fill(w->reqs[i].buf, w->buf_size, job->buf.pattern, job->buf.pattern_len, 0);
	}
	return 0;
}

void io_worker_pin(struct io_worker *w)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (w->cpu >= 0)
		CPU_SET(w->cpu, &set);
	else if (w->ncpuset)
		for (unsigned i = 0; i < w->ncpuset; i++)
			CPU_SET(w->cpuset[i], &set);
	else
		return;
	sched_setaffinity(0, sizeof set, &set); /* best effort: a CPU may be offline */
}

/* The job's NUMA memory policy on this thread, before it allocates its buffers: the call fio's
 * libnuma makes (a 1024-node mask; maxnode one past it, as libnuma counts). */
static int io_worker_mempolicy(struct io_worker *w)
{
	const struct io_place_spec *p = &w->job->place;
	if (!p->mem_policy)
		return 0;
	if (syscall(SYS_set_mempolicy, p->mem_policy, p->mem_nodes, (unsigned long)IO_MAX_NODES + 1) < 0) {
		int e = errno;
		snprintf(w->err, sizeof w->err, "numa memory policy: set_mempolicy: %s", strerror(e));
		return -e;
	}
	return 0;
}

/* The thread's buffers, files, offset distribution and engine; a failure is kept in the result. */
int io_worker_prepare(struct io_worker *w)
{
	const struct io_job *job = w->job;
	io_worker_pin(w);
	int rc = io_worker_mempolicy(w);
	if (rc == 0)
		rc = io_prio_thread(w);
	if (rc == 0)
		rc = io_worker_setup_buffers(w);
	if (rc == 0)
		rc = io_mem_pin(w);
	if (rc == 0)
		rc = io_worker_open_files(w);
	if (rc == 0)
		rc = io_dist_setup(w);
	if (rc == 0)
		rc = io_bs_fio_setup(w);
	if (rc == 0)
		rc = io_verify_setup(w);
	if (rc == 0)
		rc = io_vstate_setup(w);
	if (rc == 0)
		rc = io_trace_setup(w);
	if (rc == 0 && io_job_content(job) && !(w->content = io_content_new(job, w->index))) {
		snprintf(w->err, sizeof w->err, "out of memory");
		rc = -ENOMEM;
	}
	if (rc == 0)
		rc = w->ops->setup(w);
	if (rc == 0) /* after setup: the mmap engine hints its mappings too */
		for (unsigned i = 0; i < w->nfiles; i++)
			io_file_hint(w, &w->files[i], io_job_random(job));
	if (rc < 0) {
		w->status = IO_FAILED;
		w->res->error = -rc;
		snprintf(w->res->errmsg, sizeof w->res->errmsg, "%s", w->err);
	}
	return rc;
}

int io_worker_stopping(const struct io_worker *w)
{
	return io_worker_stop_asked(w) || cleanup_interrupted() ||
	       (w->deadline && ticks_now() >= w->deadline);
}
