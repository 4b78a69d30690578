/* Trims (DIR_TRIM requests), as fio 3.33 does them: every engine but falloc discards the range
 * of a block device (ioctl BLKDISCARD, fio's os_trim), synchronously, also under io_uring and
 * libaio; falloc punches a hole (io/falloc.c). fio's BLKDISCARD on a regular file fails with
 * ENOTTY at the first trim; nodemark refuses such a job before it runs (io_trim_check). */
#include "io/internal.h"
#include "util/error.h"

#include <errno.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

void io_trim_discard(struct io_worker *w, struct io_req *r)
{
	uint64_t range[2] = { r->offset, r->len };
	r->res = ioctl(w->files[r->file].fd, BLKDISCARD, range) < 0 ? -errno : (int64_t)r->len;
}

int io_trim_check(const struct io_job *job, const struct io_target *t, char *err, size_t errlen)
{
	if (!io_job_trims(job) || t->kind == TARGET_BLOCK || t->kind == TARGET_NONE)
		return IO_OK;
	if (io_engine_caps(job->engine) & IO_ENGINE_TRIM_FILES)
		return IO_OK;
	return nm_errf(err, errlen,
		       "%s: rw=%s on a file: fio's %s trims are block-device discards (BLKDISCARD), which a file "
		       "refuses; ioengine=falloc punches holes in files",
		       t->path, io_rw_name(job->rw), job->engine ? io_engine_name(job->engine) : "psync and io_uring"),
	       IO_BAD_JOB;
}
