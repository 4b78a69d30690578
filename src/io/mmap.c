/* The mmap engine: the file is mapped once per thread and an I/O is a memcpy to or from the
 * mapping, without a system call (fio's mmap engine; the fastest way to read a buffered
 * memory-backed file). Buffered only. */
#include "io/internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static int mmap_setup(struct io_worker *w)
{
	int prot = PROT_READ | (io_job_writes(w->job) ? PROT_WRITE : 0);
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];
		/* MAP_POPULATE: the page-table work happens here, before the clock starts, not as
		 * a page fault inside the first pass. */
		void *p = mmap(NULL, f->size, prot, MAP_SHARED | MAP_POPULATE, f->fd, 0);
		if (p == MAP_FAILED) {
			int e = errno;
			snprintf(w->err, sizeof w->err, "%s: mmap: %s", f->path, strerror(e));
			return -e;
		}
		f->map = p;
	}
	return 0;
}

static int mmap_queue(struct io_worker *w, struct io_req *r)
{
	struct io_file *f = &w->files[r->file];
	if (r->offset + r->len > f->size) {
		r->res = -EINVAL;
		return 1;
	}
	if (r->dir == DIR_READ)
		memcpy(r->buf, f->map + r->offset, r->len);
	else
		memcpy(f->map + r->offset, r->buf, r->len);
	r->res = r->len;
	return 1;
}

static void mmap_cleanup(struct io_worker *w)
{
	for (unsigned i = 0; i < w->nfiles; i++)
		if (w->files[i].map) {
			munmap(w->files[i].map, w->files[i].size);
			w->files[i].map = NULL;
		}
}

/* fio's mmap options (none of them done here) */
static const struct io_engine_fio_option mmap_fio_options[] = {
	{ "thp", 0 }, { 0 },
};

const struct io_engine_ops io_mmap_ops = {
	.name = "mmap",
	.fio_options = mmap_fio_options,
	.caps = IO_ENGINE_SYNC | IO_ENGINE_NO_DIRECT | IO_ENGINE_NO_EXTEND,
	.setup = mmap_setup,
	.queue = mmap_queue,
	.cleanup = mmap_cleanup,
};
