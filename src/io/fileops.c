/* fio's file-operation engines: an I/O is one operation on one of the job's files, and its
 * latency is the operation's (fio's filecreate, filestat and filedelete).  The worker opens
 * nothing (IO_ENGINE_NO_OPEN) and walks the files round-robin, so a pass of nrfiles x bs
 * bytes is one operation per file.  filecreate's files are not laid out first: the I/O makes
 * them; filestat's and filedelete's are laid out as for any job.  Every file is in the job's
 * own directory and is removed with it. */
#include "io/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static int fileops_setup(struct io_worker *w)
{
	(void)w;
	return 0;
}

static void fileops_cleanup(struct io_worker *w)
{
	(void)w;
}

/* fio keeps the created file open until the file's I/O is done; closing it at once is the
 * same with openfiles=1 (fio's example) and keeps the descriptors to one. */
static int create_queue(struct io_worker *w, struct io_req *r)
{
	int fd = open(w->files[r->file].path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		r->res = -errno;
		return 1;
	}
	close(fd);
	r->res = r->len;
	return 1;
}

static int stat_queue(struct io_worker *w, struct io_req *r)
{
	const char *path = w->files[r->file].path;
	int rc;
	if (w->job->eng.stat_type == STAT_LSTAT) {
		struct stat st;
		rc = lstat(path, &st);
	} else if (w->job->eng.stat_type == STAT_STATX) {
		struct statx stx;
		rc = statx(AT_FDCWD, path, 0, STATX_ALL, &stx);
	} else {
		struct stat st;
		rc = stat(path, &st);
	}
	r->res = rc < 0 ? -errno : (int64_t)r->len;
	return 1;
}

static int delete_queue(struct io_worker *w, struct io_req *r)
{
	r->res = unlink(w->files[r->file].path) < 0 ? -errno : (int64_t)r->len;
	return 1;
}

const struct io_engine_ops io_filecreate_ops = {
	.name = "filecreate",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_OPEN | IO_ENGINE_NO_LAYOUT,
	.setup = fileops_setup,
	.queue = create_queue,
	.cleanup = fileops_cleanup,
};

static const char *const stat_types[] = { [STAT_STAT] = "stat", [STAT_LSTAT] = "lstat", [STAT_STATX] = "statx", NULL };
static const struct io_engine_option filestat_options[] = {
	{ "stat_type", NULL, IO_EOPT_CHOICE, "stat", 0, 0, stat_types, IO_EOPT_OFF(stat_type),
	  "io_job.eng.stat_type (stat, lstat or statx)", 0 },
	{ 0 },
};

const struct io_engine_ops io_filestat_ops = {
	.name = "filestat",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_OPEN,
	.options = filestat_options,
	.setup = fileops_setup,
	.queue = stat_queue,
	.cleanup = fileops_cleanup,
};

const struct io_engine_ops io_filedelete_ops = {
	.name = "filedelete",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_OPEN,
	.setup = fileops_setup,
	.queue = delete_queue,
	.cleanup = fileops_cleanup,
};
