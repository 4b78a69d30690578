/* The libaio engine: Linux's native AIO (io_setup, io_submit, io_getevents), as fio's libaio
 * engine drives it, through syscall(2) so that no libaio needs to be linked. It is its own
 * engine, not io_uring's, because the kernel's AIO behaves differently on buffered files: an
 * io_submit of a buffered read or write does the whole I/O inside the call (the page cache
 * copy, and the device read on a miss) and only then returns, so at most one buffered I/O is
 * ever in flight whatever the iodepth, and its time is submission latency, not completion
 * latency. fio's example fio-rand-read (buffered, iodepth 16) measures exactly that; io_uring
 * would queue the 16 reads and report several times the IOPS. With O_DIRECT the I/Os are
 * queued to the device and complete later, as in fio.
 *
 * One AIO context per thread with iodepth events; each I/O is one iocb (the slot's own), handed
 * to the kernel by the next submit, collected with io_getevents(min, max). Trims are done
 * synchronously in queue(), as fio's libaio does them. */
#include "io/internal.h"

#include <errno.h>
#include <linux/aio_abi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

/* fio's libaio options (the table is at the end) */
struct libaio_opts {
	int nowait;                 /* RWF_NOWAIT on each read and write */
};
IO_ENGINE_OPTS_FIT(struct libaio_opts);

struct libaio_data {
	aio_context_t ctx;
	int ctx_ok;
	struct iocb *iocbs;      /* one per request slot (io_req.index) */
	struct iocb **pending;   /* queued, not yet submitted, in order */
	unsigned npending;
	struct io_event *events;
};

static long aio_setup(unsigned nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

static long aio_destroy(aio_context_t ctx)
{
	return syscall(SYS_io_destroy, ctx);
}

static long aio_submit(aio_context_t ctx, long nr, struct iocb **iocbs)
{
	return syscall(SYS_io_submit, ctx, nr, iocbs);
}

static long aio_getevents(aio_context_t ctx, long min, long max, struct io_event *ev)
{
	return syscall(SYS_io_getevents, ctx, min, max, ev, NULL);
}

static int probed;

static void probe(void)
{
	aio_context_t ctx = 0;
	probed = aio_setup(1, &ctx) == 0;
	if (probed)
		aio_destroy(ctx);
}

/* AIO may be compiled out (CONFIG_AIO=n) or blocked by a seccomp filter (ENOSYS, EPERM). */
static int libaio_available(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, probe);
	return probed;
}

static int libaio_setup(struct io_worker *w)
{
	struct libaio_data *a = calloc(1, sizeof *a);
	if (!a) {
		snprintf(w->err, sizeof w->err, "out of memory");
		return -ENOMEM;
	}
	w->engine_data = a;
	a->iocbs = calloc(w->depth, sizeof *a->iocbs);
	a->pending = calloc(w->depth, sizeof *a->pending);
	a->events = calloc(w->depth, sizeof *a->events);
	if (!a->iocbs || !a->pending || !a->events) {
		snprintf(w->err, sizeof w->err, "out of memory");
		return -ENOMEM;
	}
	if (aio_setup(w->depth, &a->ctx) < 0) {
		int e = errno;
		/* EAGAIN: the system-wide /proc/sys/fs/aio-max-nr is used up */
		snprintf(w->err, sizeof w->err, "%s: io_setup(%u): %s%s", w->target->path, w->depth, strerror(e),
			 e == EAGAIN ? " (fs.aio-max-nr reached)" : "");
		return -e;
	}
	a->ctx_ok = 1;
	return 0;
}

static int libaio_queue(struct io_worker *w, struct io_req *r)
{
	struct libaio_data *a = w->engine_data;
	if (__builtin_expect(r->dir == DIR_TRIM, 0)) { /* synchronous, as fio's libaio engine */
		io_trim_discard(w, r);
		return 1;
	}
	struct iocb *cb = &a->iocbs[r->index];
	memset(cb, 0, sizeof *cb);
	cb->aio_data = (uint64_t)(uintptr_t)r;
	cb->aio_lio_opcode = r->dir == DIR_READ ? IOCB_CMD_PREAD : IOCB_CMD_PWRITE;
	cb->aio_fildes = (uint32_t)w->files[r->file].fd;
	cb->aio_buf = (uint64_t)(uintptr_t)r->buf;
	cb->aio_nbytes = r->len;
	cb->aio_offset = (int64_t)r->offset;
	if (IO_WORKER_OPTS(w, struct libaio_opts)->nowait)
		cb->aio_rw_flags = RWF_NOWAIT;
	if (r->prio) {
		cb->aio_reqprio = r->prio;
		cb->aio_flags |= IOCB_FLAG_IOPRIO;
	}
	a->pending[a->npending++] = cb;
	return 0;
}

/* io_submit what is queued. A buffered I/O is done by the time this returns. EAGAIN with I/Os
 * in flight: the rest waits for the next reap, which submits it first (as fio's commit leaves
 * it for its getevents). */
static int submit_pending(struct libaio_data *a, int have_inflight)
{
	unsigned submitted = 0;
	while (submitted < a->npending) {
		long rc = aio_submit(a->ctx, (long)(a->npending - submitted), a->pending + submitted);
		if (rc > 0) {
			submitted += (unsigned)rc;
			continue;
		}
		int e = rc < 0 ? errno : EAGAIN;
		if (e == EINTR)
			continue;
		if (e == EAGAIN && (submitted || have_inflight))
			break;
		if (e == EAGAIN) {
			usleep(1);
			continue;
		}
		return -e;
	}
	memmove(a->pending, a->pending + submitted, (a->npending - submitted) * sizeof *a->pending);
	a->npending -= submitted;
	return (int)submitted;
}

static int libaio_submit(struct io_worker *w)
{
	return submit_pending(w->engine_data, 0);
}

static int libaio_reap(struct io_worker *w, unsigned min, unsigned max, struct io_req **done)
{
	struct libaio_data *a = w->engine_data;
	if (a->npending) {
		int rc = submit_pending(a, 1);
		if (rc < 0)
			return rc;
	}
	unsigned n = 0;
	while (n < min) {
		long got = aio_getevents(a->ctx, (long)(min - n), (long)(max - n), a->events);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return n ? (int)n : -errno;
		}
		for (long i = 0; i < got; i++) {
			struct io_req *r = (struct io_req *)(uintptr_t)a->events[i].data;
			r->res = a->events[i].res;
			done[n++] = r;
		}
	}
	return (int)n;
}

static void libaio_cleanup(struct io_worker *w)
{
	struct libaio_data *a = w->engine_data;
	if (!a)
		return;
	if (a->ctx_ok)
		aio_destroy(a->ctx); /* waits for what is still in flight */
	free(a->iocbs);
	free(a->pending);
	free(a->events);
	free(a);
	w->engine_data = NULL;
}

/* fio's libaio options (cmdprio_* are the front end's: IO_ENGINE_CMDPRIO); the struct is at
 * the top. */
static const struct io_engine_option libaio_options[] = {
	{ "nowait", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, IO_EOPT_OFF(struct libaio_opts, nowait),
	  "libaio_opts.nowait (RWF_NOWAIT on each read and write)", 0 },
	{ 0 },
};

/* fio's libaio options */
static const struct io_engine_fio_option libaio_fio_options[] = {
	{ "userspace_reap", 1 }, { "cmdprio_percentage", 0 }, { "cmdprio_class", 0 }, { "cmdprio", 0 },
	{ "cmdprio_bssplit", 0 }, { "nowait", 0 }, { 0 },
};

const struct io_engine_ops io_libaio_ops = {
	.name = "libaio",
	.fio_options = libaio_fio_options,
	.caps = IO_ENGINE_TRIM | IO_ENGINE_CMDPRIO,
	.options = libaio_options,
	.options_size = sizeof(struct libaio_opts),
	.available = libaio_available,
	.setup = libaio_setup,
	.queue = libaio_queue,
	.submit = libaio_submit,
	.reap = libaio_reap,
	.cleanup = libaio_cleanup,
};
