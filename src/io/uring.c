/* The io_uring engine (liburing): one ring per thread, registered files and fixed buffers,
 * each I/O submitted when it is prepared (fio's iodepth_batch_submit=1, the job may batch more),
 * a wait for the worker's min of completions (fio's default: 1), then up to its max of those
 * there reaped.
 * Ring flags follow fio's t/io_uring: SINGLE_ISSUER + DEFER_TASKRUN where the kernel has
 * them (completions run when we ask, no interrupts), else COOP_TASKRUN; SQPOLL and IOPOLL
 * on request. */
#include "io/internal.h"
#include "io/target.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* fio's io_uring options (nodemark disk sets sqpoll and hipri from its own flags, uring_flags);
 * the tables are at the end. */
struct uring_opts {
	int fixedbufs, registerfiles, sqpoll, hipri;
};
IO_ENGINE_OPTS_FIT(struct uring_opts);

struct uring_data {
	struct io_uring ring;
	int ring_ok;
	int fixed_files, fixed_bufs;
	unsigned pending; /* SQEs filled, not yet handed to the kernel */
	int get_events;   /* the submitting call runs the ring's pending completion work */
};

static int ring_init(struct uring_data *u, struct io_worker *w)
{
	const struct uring_opts *o = IO_WORKER_OPTS(w, struct uring_opts);
	unsigned entries = w->depth;
	struct io_uring_params p;
	unsigned base = 0;
	if (o->hipri)
		base |= IORING_SETUP_IOPOLL;
	if (o->sqpoll) {
		memset(&p, 0, sizeof p);
		p.flags = base | IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000;
		return io_uring_queue_init_params(entries, &u->ring, &p);
	}
	/* Newest flags first; older kernels say EINVAL and we try the next set. */
	const unsigned sets[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int rc = -EINVAL;
	for (unsigned i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		memset(&p, 0, sizeof p);
		p.flags = base | sets[i];
		rc = io_uring_queue_init_params(entries, &u->ring, &p);
		if (rc != -EINVAL)
			break;
	}
	return rc;
}

static int uring_setup(struct io_worker *w)
{
	struct uring_data *u = calloc(1, sizeof *u);
	if (!u) {
		snprintf(w->err, sizeof w->err, "out of memory");
		return -ENOMEM;
	}
	w->engine_data = u;
	const struct uring_opts *o = IO_WORKER_OPTS(w, struct uring_opts);
	int rc = ring_init(u, w);
	if (rc < 0) {
		snprintf(w->err, sizeof w->err, "%s: io_uring setup: %s", w->target->path, strerror(-rc));
		return rc;
	}
	u->ring_ok = 1;
	u->get_events = !o->sqpoll; /* SQPOLL: the kernel thread submits, no call to add it to */
	/* The ring's fd registered with this thread (kernel 5.18+; older: the plain fd, same calls):
	 * each io_uring_enter then skips looking the fd up and taking a reference on it, which in a
	 * process with several threads is an atomic pair per call (fget + fput: ~1% of the CPU of
	 * a QD32 O_DIRECT read here). The calls and the I/O they carry stay the same. */
	(void)io_uring_register_ring_fd(&u->ring);

	if (o->registerfiles && w->nfiles) {
		int fds[64];
		unsigned n = w->nfiles < 64 ? w->nfiles : 0; /* many files: plain fds */
		for (unsigned i = 0; i < n; i++)
			fds[i] = w->files[i].fd;
		u->fixed_files = n && io_uring_register_files(&u->ring, fds, n) == 0;
	}
	if (o->fixedbufs) {
		/* May fail on RLIMIT_MEMLOCK with big buffers: then plain buffers, same I/O. */
		struct iovec *iov = calloc(w->depth, sizeof *iov);
		if (iov) {
			for (unsigned i = 0; i < w->depth; i++) {
				iov[i].iov_base = w->reqs[i].buf;
				iov[i].iov_len = w->buf_size;
			}
			u->fixed_bufs = io_uring_register_buffers(&u->ring, iov, w->depth) == 0;
			free(iov);
		}
	}
	return 0;
}

static int uring_queue(struct io_worker *w, struct io_req *r)
{
	struct uring_data *u = w->engine_data;
	if (__builtin_expect(r->dir == DIR_TRIM, 0)) { /* synchronous, as fio's io_uring engine */
		io_trim_discard(w, r);
		return 1;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	if (!sqe && !u->get_events) {
		/* SQPOLL: an entry is free only once the kernel thread has taken it, which may be
		 * after its I/O completed (a buffered write at QD1 failed here with EBUSY, where fio
		 * runs): wait for the thread to make room */
		io_uring_sqring_wait(&u->ring);
		sqe = io_uring_get_sqe(&u->ring);
	}
	if (!sqe)
		return -EBUSY; /* cannot happen: the ring has at least depth entries */
	int fd = u->fixed_files ? (int)r->file : w->files[r->file].fd;
	if (u->fixed_bufs) {
		if (r->dir == DIR_READ)
			io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->offset, (int)r->index);
		else
			io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->offset, (int)r->index);
	} else {
		if (r->dir == DIR_READ)
			io_uring_prep_read(sqe, fd, r->buf, r->len, r->offset);
		else
			io_uring_prep_write(sqe, fd, r->buf, r->len, r->offset);
	}
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->ioprio = r->prio;
	io_uring_sqe_set_data(sqe, r);
	u->pending++;
	return 0;
}

/* Submission is its own system call, apart from the wait, so the worker can stamp the moment
 * the kernel has the I/Os: completion latency then starts where fio's does (its io_uring
 * engine stamps issue_time after io_uring_enter returns). Folding submit into the wait saves a
 * call per round but puts the submission (on a VM, the device doorbell's exit) into clat:
 * +20-30 us at QD1 on virtio. The call asks for events with a minimum of 0, as fio's commit
 * does (IORING_ENTER_GETEVENTS): with DEFER_TASKRUN that runs the completion work already
 * pending (a buffered read's retry once its pages are in) before the new I/Os, without waiting
 * and without taking the completions, which the next reap collects. Without it, buffered
 * sequential reads met the page cache in another order than fio's: p50 0.4 us against fio's
 * 1-5 ms on the same ext4 file. */
static int uring_submit(struct io_worker *w)
{
	struct uring_data *u = w->engine_data;
	unsigned submitted = 0;
	while (u->pending) {
		int rc = u->get_events ? io_uring_submit_and_get_events(&u->ring) : io_uring_submit(&u->ring);
		if (rc == -EINTR || rc == -EAGAIN || rc == -EBUSY) {
			if (submitted)
				break; /* the ring is busy: reap first, the rest goes with the wait */
			continue;
		}
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		u->pending = (unsigned)rc >= u->pending ? 0 : u->pending - (unsigned)rc;
		submitted += (unsigned)rc;
	}
	return (int)submitted;
}

/* Wait until min completions are there (counting those already in the ring), then take them,
 * and any more that are there, up to max: fio's iodepth_batch_complete_min and _max. */
static int uring_reap(struct io_worker *w, unsigned min, unsigned max, struct io_req **done)
{
	struct uring_data *u = w->engine_data;
	struct io_uring *ring = &u->ring;
	unsigned n = 0;
	for (;;) {
		unsigned ready = io_uring_cq_ready(ring);
		if (u->pending || n + ready < min) {
			int rc = io_uring_submit_and_wait(ring, n + ready >= min ? 0 : min - n);
			if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY && rc != -ETIME)
				return n ? (int)n : rc;
			if (rc >= 0) {
				u->pending = (unsigned)rc >= u->pending ? 0 : u->pending - (unsigned)rc;
			}
		}
		unsigned head, got = 0;
		struct io_uring_cqe *cqe;
		io_uring_for_each_cqe(ring, head, cqe)
		{
			if (n == max)
				break;
			struct io_req *r = io_uring_cqe_get_data(cqe);
			r->res = cqe->res;
			done[n++] = r;
			got++;
		}
		io_uring_cq_advance(ring, got);
		if (n >= min || (n > 0 && n == max))
			return (int)n;
	}
}

static void uring_cleanup(struct io_worker *w)
{
	struct uring_data *u = w->engine_data;
	if (!u)
		return;
	if (u->ring_ok)
		io_uring_queue_exit(&u->ring);
	free(u);
	w->engine_data = NULL;
}

/* Polled I/O fails on every request of a device without poll queues: say why. */
static const char *uring_fail_hint(const struct io_worker *w, int err)
{
	return err == EOPNOTSUPP && IO_WORKER_OPTS(w, struct uring_opts)->hipri
		? " (--hipri needs O_DIRECT on a device with poll queues, e.g. nvme.poll_queues=N;"
		  " see /sys/block/DEV/queue/io_poll)" : NULL;
}

/* nodemark registers files and buffers unless told not to (cheaper per I/O, the same requests
 * reach the device); fio does not. */
#define OFF(field) IO_EOPT_OFF(struct uring_opts, field)
static const struct io_engine_option uring_options[] = {
	{ "fixedbufs", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, OFF(fixedbufs), "uring_opts.fixedbufs", 1 },
	{ "registerfiles", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, OFF(registerfiles), "uring_opts.registerfiles", 1 },
	{ "sqthread_poll", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, OFF(sqpoll), "uring_opts.sqpoll", 0 },
	{ "hipri", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, OFF(hipri), "uring_opts.hipri", 0 },
	{ 0 },
};
/* nodemark disk's --sqpoll and --hipri */
static const struct io_engine_flag uring_flags[] = {
	{ "sqpoll", "sqthread_poll", "io_uring: a kernel thread polls the submission queue" },
	{ "hipri", "hipri", "io_uring: polled completions (needs poll queues)" },
	{ 0 },
};

/* fio's io_uring options (cmdprio_* are the front end's: IO_ENGINE_CMDPRIO) */
static const struct io_engine_fio_option uring_fio_options[] = {
	{ "hipri", 1 }, { "cmdprio_percentage", 0 }, { "cmdprio_class", 0 }, { "cmdprio", 0 },
	{ "cmdprio_bssplit", 0 }, { "fixedbufs", 1 }, { "registerfiles", 1 }, { "sqthread_poll", 1 },
	{ "sqthread_poll_cpu", 0 }, { "nonvectored", 0 }, { "uncached", 0 }, { "nowait", 0 },
	{ "force_async", 0 }, { "cmd_type", 0 }, { 0 },
};

const struct io_engine_ops io_uring_ops = {
	.name = "uring",
	.aliases = { "io_uring", NULL },
	.fio_names = { "io_uring", "posixaio", NULL },
	.fio_options = uring_fio_options,
	.caps = IO_ENGINE_TRIM | IO_ENGINE_CMDPRIO,
	.options = uring_options,
	.options_size = sizeof(struct uring_opts),
	.flags = uring_flags,
	.available = target_uring_available,
	.setup = uring_setup,
	.queue = uring_queue,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
	.fail_hint = uring_fail_hint,
};
