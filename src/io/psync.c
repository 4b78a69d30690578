/* The psync engine: pread/pwrite, one system call per I/O. On buffered memory-backed files
 * this beats io_uring (docs/design.md: peak I/O). */
#include "io/internal.h"

#include <errno.h>
#include <unistd.h>

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
	.aliases = { "sync", "pvsync", NULL },
	.fio_names = { "psync", "sync", "pvsync", "pvsync2", "vsync", NULL },
	.caps = IO_ENGINE_SYNC | IO_ENGINE_TRIM | IO_ENGINE_FIO_DEFAULT,
	.setup = psync_setup,
	.queue = psync_queue,
	.cleanup = psync_cleanup,
};
