/* What a pass tells the kernel about its file, as fio does each time it opens one:
 * drop the file's cached pages (fio's invalidate=1), so every buffered pass reads from the
 * device, and say how the file will be read (fio's fadvise_hint=1), so a random job gets no
 * read-ahead and a sequential one gets more. */
#include "io/internal.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

void io_file_drop_cache(struct io_worker *w, struct io_file *f)
{
	/* tmpfs/ramfs: the cache is the file, there is nothing to drop */
	if (w->job->files.keep_cache || f->fd < 0 || w->target->fs_in_memory)
		return;
	w->res->cache_drops++;
	/* A block device: flush its buffer cache as fio does (root only); else, as for a file,
	 * drop the clean pages (dirty ones are written back first, and stay until they are). */
	if (w->target->kind == TARGET_BLOCK && ioctl(f->fd, BLKFLSBUF, 0) == 0)
		return;
	posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
}

void io_file_hint(struct io_worker *w, struct io_file *f, int random)
{
	enum io_fadvise hint = w->job->files.fadvise;
	if (hint == FADVISE_NONE || f->fd < 0)
		return;
	if (hint != FADVISE_PATTERN)
		random = hint == FADVISE_RANDOM;
	posix_fadvise(f->fd, (off_t)f->region_start, (off_t)f->region_len,
		      random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	if (f->map)
		madvise(f->map, f->size, random ? MADV_RANDOM : MADV_SEQUENTIAL);
}
