/* The null engine: no I/O at all, so what it measures is the harness itself. */
#include "io/internal.h"

static int null_setup(struct io_worker *w)
{
	(void)w;
	return 0;
}

static int null_queue(struct io_worker *w, struct io_req *r)
{
	(void)w;
	r->res = r->len;
	return 1;
}

static void null_cleanup(struct io_worker *w)
{
	(void)w;
}

const struct io_engine_ops io_null_ops = {
	.name = "null",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_DISKLESS | IO_ENGINE_TRIM | IO_ENGINE_TRIM_FILES,
	.setup = null_setup,
	.queue = null_queue,
	.cleanup = null_cleanup,
};
