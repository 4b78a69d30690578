/* fio's falloc engine: an I/O allocates its range of the file instead of moving data: a write
 * is fallocate(mode 0), which may grow the file, a read fallocate(FALLOC_FL_KEEP_SIZE), a trim
 * punches a hole (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE): the blocks are freed. */
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
	static const int modes[DIR_COUNT] = { [DIR_READ] = FALLOC_FL_KEEP_SIZE, [DIR_WRITE] = 0,
					      [DIR_TRIM] = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE };
	int mode = modes[r->dir];
	r->res = fallocate(w->files[r->file].fd, mode, (off_t)r->offset, (off_t)r->len) < 0 ? -errno : (int64_t)r->len;
	return 1;
}

static void falloc_cleanup(struct io_worker *w)
{
	(void)w;
}

const struct io_engine_ops io_falloc_ops = {
	.name = "falloc",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_TRIM | IO_ENGINE_TRIM_FILES | IO_ENGINE_NO_PAYLOAD,
	.setup = falloc_setup,
	.queue = falloc_queue,
	.cleanup = falloc_cleanup,
};
