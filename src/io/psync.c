/* The psync engine: pread/pwrite, one system call per I/O. On buffered memory-backed files
 * this beats io_uring (docs/design.md: peak I/O). fio's sync: read/write at the file's
 * position, after an lseek where the I/O starts elsewhere. And fio's pvsync2:
 * preadv2/pwritev2, whose flags carry its options (a polled I/O, one that must not block). */
#include "io/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

static int psync_setup(struct io_worker *w)
{
	(void)w;
	return 0;
}

static int psync_queue(struct io_worker *w, struct io_req *r)
{
	if (__builtin_expect(r->dir == DIR_TRIM, 0)) {
		io_trim_discard(w, r);
		return 1;
	}
	int fd = w->files[r->file].fd;
	ssize_t n = r->dir == DIR_READ ? pread(fd, r->buf, r->len, (off_t)r->offset)
				       : pwrite(fd, r->buf, r->len, (off_t)r->offset);
	r->res = n < 0 ? -errno : n;
	return 1;
}

static void psync_cleanup(struct io_worker *w)
{
	(void)w;
}

const struct io_engine_ops io_psync_ops = {
	.name = "psync",
	.aliases = { "pvsync", NULL },
	.fio_names = { "psync", "pvsync", "vsync", NULL },
	.caps = IO_ENGINE_SYNC | IO_ENGINE_TRIM | IO_ENGINE_FIO_DEFAULT,
	.setup = psync_setup,
	.queue = psync_queue,
	.cleanup = psync_cleanup,
};

/* fio 3.33's sync engine (engines/sync.c): the I/O goes where the file's position is, after
 * an lseek(SEEK_SET) only where it does not start where the last one ended (a new
 * descriptor is at 0): sequential I/O seeks once, random I/O before each. The position is
 * where the last transfer ended, short or not; after a failed one fio seeks again. */
static int sync_queue(struct io_worker *w, struct io_req *r)
{
	if (__builtin_expect(r->dir == DIR_TRIM, 0)) {
		io_trim_discard(w, r);
		return 1;
	}
	struct io_file *f = &w->files[r->file];
	if (f->fd_pos != r->offset) {
		if (lseek(f->fd, (off_t)r->offset, SEEK_SET) < 0) {
			r->res = -errno;
			f->fd_pos = UINT64_MAX;
			return 1;
		}
		f->fd_pos = r->offset;
	}
	ssize_t n = r->dir == DIR_READ ? read(f->fd, r->buf, r->len) : write(f->fd, r->buf, r->len);
	r->res = n < 0 ? -errno : n;
	f->fd_pos = n < 0 ? UINT64_MAX : r->offset + (uint64_t)n;
	return 1;
}

const struct io_engine_ops io_sync_ops = {
	.name = "sync",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_TRIM,
	.setup = psync_setup,
	.queue = sync_queue,
	.cleanup = psync_cleanup,
};

/* fio's pvsync2 options (the table is below) */
struct pvsync2_opts {
	int hipri;                  /* RWF_HIPRI: polled completion where the device polls */
	unsigned hipri_percentage;  /* the share of I/Os with it */
	int nowait;                 /* RWF_NOWAIT: EAGAIN rather than block */
};
IO_ENGINE_OPTS_FIT(struct pvsync2_opts);

/* Each thread's draws for hipri_percentage, apart from the offsets' generator. */
static int pvsync2_setup(struct io_worker *w)
{
	uint64_t *draws = malloc(sizeof *draws);
	if (!draws)
		return -ENOMEM;
	*draws = w->rng ^ 0x9e3779b97f4a7c15ull;
	w->engine_data = draws;
	return 0;
}

static int pvsync2_queue(struct io_worker *w, struct io_req *r)
{
	if (__builtin_expect(r->dir == DIR_TRIM, 0)) {
		io_trim_discard(w, r);
		return 1;
	}
	const struct pvsync2_opts *o = IO_WORKER_OPTS(w, struct pvsync2_opts);
	int flags = o->nowait ? RWF_NOWAIT : 0;
	if (o->hipri && (o->hipri_percentage >= 100 || prng_below(w->engine_data, 100) < o->hipri_percentage))
		flags |= RWF_HIPRI;
	struct iovec iov = { r->buf, r->len };
	int fd = w->files[r->file].fd;
	ssize_t n = r->dir == DIR_READ ? preadv2(fd, &iov, 1, (off_t)r->offset, flags)
				       : pwritev2(fd, &iov, 1, (off_t)r->offset, flags);
	r->res = n < 0 ? -errno : n;
	return 1;
}

static void pvsync2_cleanup(struct io_worker *w)
{
	free(w->engine_data);
	w->engine_data = NULL;
}

#define OFF(field) IO_EOPT_OFF(struct pvsync2_opts, field)
static const struct io_engine_option pvsync2_options[] = {
	{ "hipri", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, OFF(hipri), "pvsync2_opts.hipri (RWF_HIPRI on each I/O)", 0 },
	{ "hipri_percentage", NULL, IO_EOPT_UINT, "100", 0, 100, NULL, OFF(hipri_percentage),
	  "pvsync2_opts.hipri_percentage (the share of I/Os with RWF_HIPRI)", 100 },
	{ "nowait", NULL, IO_EOPT_BOOL, "0", 0, 0, NULL, OFF(nowait), "pvsync2_opts.nowait (RWF_NOWAIT on each I/O)", 0 },
	{ 0 },
};

/* fio's pvsync2 options (uncached: fio 3.33's flag 0x40 is RWF_ATOMIC since Linux 6.11) */
static const struct io_engine_fio_option pvsync2_fio_options[] = {
	{ "hipri", 1 }, { "hipri_percentage", 0 }, { "uncached", 0 }, { "nowait", 0 }, { 0 },
};

const struct io_engine_ops io_pvsync2_ops = {
	.name = "pvsync2",
	.fio_options = pvsync2_fio_options,
	.caps = IO_ENGINE_SYNC | IO_ENGINE_TRIM,
	.options = pvsync2_options,
	.options_size = sizeof(struct pvsync2_opts),
	.setup = pvsync2_setup,
	.queue = pvsync2_queue,
	.cleanup = pvsync2_cleanup,
};
