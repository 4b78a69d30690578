/* fio's falloc engine: an I/O allocates its range of the file instead of moving data: a write
 * is fallocate(mode 0), which may grow the file, a read fallocate(FALLOC_FL_KEEP_SIZE). fio's
 * trims punch holes; nodemark has no trim direction yet (rw=trim and randtrim are refused). */
#include "io/internal.h"

#include <errno.h>
#include <fcntl.h>

static int falloc_setup(struct io_worker *w)
{
	(void)w;
	return 0;
}

static int falloc_queue(struct io_worker *w, struct io_req *r)
{
	int mode = r->dir == DIR_READ ? FALLOC_FL_KEEP_SIZE : 0;
	r->res = fallocate(w->files[r->file].fd, mode, (off_t)r->offset, (off_t)r->len) < 0 ? -errno : (int64_t)r->len;
	return 1;
}

static void falloc_cleanup(struct io_worker *w)
{
	(void)w;
}

const struct io_engine_ops io_falloc_ops = {
	.name = "falloc",
	.caps = IO_ENGINE_SYNC,
	.setup = falloc_setup,
	.queue = falloc_queue,
	.cleanup = falloc_cleanup,
};
