/* fio's file-operation engines: an I/O is one operation on one of the job's files, and its
 * latency is the operation's (fio's filecreate, filestat and filedelete).  The worker opens
 * nothing (IO_ENGINE_NO_OPEN) and walks the files round-robin.  filecreate's files are not
 * laid out first: the I/O makes them; filestat's and filedelete's are laid out as for any job.
 * Every file is in the job's own directory and is removed with it.
 *
 * The work per I/O is fio 3.33's (engines/fileoperations.c): fio does the operation when it
 * opens a file, that is at the file's first I/O, and its other I/Os (a file of several blocks)
 * do nothing and have no latency; the file is "closed" once its bytes are done, so the next
 * pass (loops, time_based) does the operation again. The latency is the operation alone:
 * filecreate's open(O_CREAT) without its close, which comes when the file is done; filestat's
 * and filedelete's stat or unlink without what fio does after it, a posix_fadvise hint on the
 * file descriptor fio's open left at -1 (it fails with EBADF, but it is a system call of each
 * operation, so it is made here too, as fadvise_hint says). */
#include "io/internal.h"
#include "io/ticks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Per file: bytes of its current "open" still to do (0: closed, the next I/O does the
 * operation), and filecreate's descriptor (-1: none). */
/* filestat's option (fio's stat_type; the table is with its ops) */
enum io_stat_type { STAT_STAT = 0, STAT_LSTAT, STAT_STATX };
struct filestat_opts {
	int stat_type;              /* enum io_stat_type */
};
IO_ENGINE_OPTS_FIT(struct filestat_opts);

struct fileops_data {
	uint64_t *left;
	int *fd;
};

static int fileops_setup(struct io_worker *w)
{
	struct fileops_data *fo = calloc(1, sizeof *fo);
	unsigned n = w->nfiles ? w->nfiles : 1;
	if (fo) {
		fo->left = calloc(n, sizeof *fo->left);
		fo->fd = malloc(n * sizeof *fo->fd);
	}
	w->engine_data = fo;
	if (!fo || !fo->left || !fo->fd) {
		snprintf(w->err, sizeof w->err, "out of memory");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++)
		fo->fd[i] = -1;
	return 0;
}

static void fileops_cleanup(struct io_worker *w)
{
	struct fileops_data *fo = w->engine_data;
	if (!fo)
		return;
	for (unsigned i = 0; fo->fd && i < w->nfiles; i++)
		if (fo->fd[i] >= 0)
			close(fo->fd[i]);
	free(fo->left);
	free(fo->fd);
	free(fo);
	w->engine_data = NULL;
}

/* Whether r is its file's first I/O since the file was last done (the operation is due);
 * either way r's bytes are counted against the file. */
static int op_due(struct io_worker *w, struct io_req *r)
{
	struct fileops_data *fo = w->engine_data;
	uint64_t *left = &fo->left[r->file];
	int due = *left == 0;
	if (due) {
		uint64_t len = w->files[r->file].region_len;
		*left = len > r->len ? len : r->len;
	}
	*left -= *left > r->len ? r->len : *left;
	r->no_lat = (uint8_t)!due;
	r->res = r->len;
	return due;
}

/* Time spent in r's queue() since t (after its operation) is left out of its latency. */
static void untimed_since(struct io_req *r, uint64_t t)
{
	uint64_t d = ticks_now() - t;
	r->start_ns += d;
	r->issue_ns += d;
}

/* fio's hint on the file it "opened" (fd -1): EBADF, as in fio; outside the latency. */
static void fio_hint(struct io_worker *w, struct io_req *r)
{
	enum io_fadvise hint = w->job->files.fadvise;
	if (hint == FADVISE_NONE)
		return;
	int random = hint == FADVISE_PATTERN ? io_job_random(w->job) : hint == FADVISE_RANDOM;
	uint64_t t = ticks_now();
	const struct io_file *f = &w->files[r->file];
	(void)posix_fadvise(-1, (off_t)f->region_start, (off_t)f->region_len,
			    random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	untimed_since(r, t);
}

/* open(O_CREAT) at the file's first I/O, kept open until its bytes are done, then closed
 * (outside the latency), as fio's filecreate with its generic close. */
static int create_queue(struct io_worker *w, struct io_req *r)
{
	struct fileops_data *fo = w->engine_data;
	int *fd = &fo->fd[r->file];
	if (op_due(w, r)) {
		*fd = open(w->files[r->file].path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		if (*fd < 0) {
			r->res = -errno;
			fo->left[r->file] = 0;
			return 1;
		}
	}
	if (fo->left[r->file] == 0 && *fd >= 0) {
		uint64_t t = ticks_now();
		close(*fd);
		*fd = -1;
		untimed_since(r, t);
	}
	return 1;
}

static int stat_queue(struct io_worker *w, struct io_req *r)
{
	if (!op_due(w, r))
		return 1;
	const char *path = w->files[r->file].path;
	int rc;
	if (IO_WORKER_OPTS(w, struct filestat_opts)->stat_type == STAT_LSTAT) {
		struct stat st;
		rc = lstat(path, &st);
	} else if (IO_WORKER_OPTS(w, struct filestat_opts)->stat_type == STAT_STATX) {
		/* fio resolves the path first (realpath: getcwd, a readlink per component) and
		 * times that too */
		struct statx stx;
		char *abs = realpath(path, NULL);
		rc = abs ? statx(-1, abs, 0, STATX_ALL, &stx) : -1;
		free(abs);
	} else {
		struct stat st;
		rc = stat(path, &st);
	}
	if (rc < 0)
		r->res = -errno;
	else
		fio_hint(w, r);
	return 1;
}

static int delete_queue(struct io_worker *w, struct io_req *r)
{
	if (!op_due(w, r))
		return 1;
	if (unlink(w->files[r->file].path) < 0)
		r->res = -errno;
	else
		fio_hint(w, r);
	return 1;
}

const struct io_engine_ops io_filecreate_ops = {
	.name = "filecreate",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_OPEN | IO_ENGINE_NO_LAYOUT | IO_ENGINE_OP_LAT,
	.setup = fileops_setup,
	.queue = create_queue,
	.cleanup = fileops_cleanup,
};

static const char *const stat_types[] = { [STAT_STAT] = "stat", [STAT_LSTAT] = "lstat", [STAT_STATX] = "statx", NULL };
static const struct io_engine_option filestat_options[] = {
	{ "stat_type", NULL, IO_EOPT_CHOICE, "stat", 0, 0, stat_types, IO_EOPT_OFF(struct filestat_opts, stat_type),
	  "filestat_opts.stat_type (stat, lstat or statx)", 0 },
	{ 0 },
};

/* fio's filestat options */
static const struct io_engine_fio_option filestat_fio_options[] = {
	{ "stat_type", 0 }, { 0 },
};

const struct io_engine_ops io_filestat_ops = {
	.name = "filestat",
	.fio_options = filestat_fio_options,
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_OPEN | IO_ENGINE_OP_LAT,
	.options = filestat_options,
	.options_size = sizeof(struct filestat_opts),
	.setup = fileops_setup,
	.queue = stat_queue,
	.cleanup = fileops_cleanup,
};

const struct io_engine_ops io_filedelete_ops = {
	.name = "filedelete",
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_OPEN | IO_ENGINE_OP_LAT,
	.setup = fileops_setup,
	.queue = delete_queue,
	.cleanup = fileops_cleanup,
};
