/* fio's ftruncate engine: a write is an ftruncate of the file to the write's offset (its
 * length is not used), so a sequential job shrinks the file and grows it back block by block
 * and a random one sets it to random sizes.  Reads are refused as fio refuses them. */
#include "io/internal.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static int ftruncate_check(const struct io_job *job, const void *opts, char *err, size_t errlen)
{
	(void)opts;
	if (job->rw != IO_WRITE && job->rw != IO_RANDWRITE)
		return snprintf(err, errlen, "the ftruncate engine only writes (rw=write or randwrite)"), -1;
	return 0;
}

static int ftruncate_setup(struct io_worker *w)
{
	(void)w;
	return 0;
}

static int ftruncate_queue(struct io_worker *w, struct io_req *r)
{
	if (r->dir != DIR_WRITE) {
		r->res = -EINVAL;
		return 1;
	}
	r->res = ftruncate(w->files[r->file].fd, (off_t)r->offset) < 0 ? -errno : (int64_t)r->len;
	return 1;
}

static void ftruncate_cleanup(struct io_worker *w)
{
	(void)w;
}

const struct io_engine_ops io_ftruncate_ops = {
	.name = "ftruncate",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_PAYLOAD,
	.check = ftruncate_check,
	.setup = ftruncate_setup,
	.queue = ftruncate_queue,
	.cleanup = ftruncate_cleanup,
};
