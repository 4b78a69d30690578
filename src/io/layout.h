/* The files a session lays out on its directory targets: written once with the job's buffer
 * contents as fio lays files out (random bytes by default: a sparse file would read zeros for
 * free), fsynced, remembered so a later job of the session
 * reuses them (growing them when it needs more), and removed when the session closes. */
#ifndef NM_IO_LAYOUT_H
#define NM_IO_LAYOUT_H

#include "io/internal.h"
#include "io/target.h"

#include <stddef.h>
#include <stdint.h>

struct io_laid_file {
	char *path;
	uint64_t size;
};

struct io_layout {
	struct io_laid_file *files;
	unsigned n, cap;
	unsigned *slots;            /* a hash of the paths: files index + 1, 0 empty; 2 x cap of
	                             * them, so nrfiles files are found without a scan each */
};

/* The size of each of a job's files: filesize, else size spread over nrfiles. */
uint64_t io_layout_file_len(const struct io_job *job);
/* File k's size: that, and longer_by more for the first files_longer files. */
uint64_t io_layout_nth_len(const struct io_job *job, unsigned k);
/* The bytes of one thread's files on a directory target. */
uint64_t io_layout_files_len(const struct io_job *job);
/* The path of file k of thread `thread` on directory target t (fio's NAME.THREAD.K). */
void io_layout_path(const struct io_job *job, const struct io_target *t, unsigned thread, unsigned k, char *out,
		    size_t len);
/* Write [from, size) of path and fsync it (create: a new file, O_EXCL): what fio's layout
 * writes for job (its buffer_pattern, zero_buffers, compress and dedupe settings; random bytes
 * otherwise, and for a NULL job), thread its thread (the dedupe patterns' seeds). IO_OK, or
 * IO_FAILED / IO_INTERRUPTED with a message naming the file. */
int io_layout_write(const struct io_job *job, unsigned thread, const char *path, uint64_t from, uint64_t size,
		    int create, char *err, size_t errlen);
/* Make path size bytes long as fio's layout makes a file it extends (io_files_spec.fio_setup):
 * unlinked (a job that reads or writes, but a write job with file_append), created with
 * nodemark's mark, allocated as
 * job->files.fallocate says; a job that reads, or writes with overwrite (or on an engine that
 * cannot grow files), then truncated to size and written as io_layout_write writes. Only for
 * a path nodemark may remove. IO_OK, or IO_FAILED / IO_INTERRUPTED with err. */
int io_layout_make(const struct io_job *job, unsigned thread, const char *path, uint64_t size, char *err,
		   size_t errlen);
/* The file laid out at path, or NULL. */
struct io_laid_file *io_layout_find(struct io_layout *l, const char *path);
/* Every file thread `thread` of job needs on target t, laid out (an engine that makes its own
 * files, filecreate, gets their names only).  IO_OK, or IO_FAILED / IO_INTERRUPTED with err. */
int io_layout_ensure(struct io_layout *l, const struct io_job *job, struct io_target *t, unsigned thread, char *err,
		     size_t errlen);
/* Remove every file laid out, and forget them. */
void io_layout_remove_all(struct io_layout *l);

#endif
