/* Which file a worker with several files (nrfiles in a directory, or every target of fio's
 * filename=a:b) gives its next I/O, as fio's file_service_type: round robin or random, moving
 * on after file_service_nr I/Os on a file, or sequential (a file's whole region, then the next). */
#include "io/internal.h"
#include "io/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static unsigned pick(struct io_worker *w, uint64_t bs);
static unsigned lazy_open(struct io_worker *w, unsigned fi);

/* Files done in this pass (a file's end, io/loop.c) are passed by, as fio's: round robin and
 * sequential service step on, random service draws again. Where files open lazily (open_cap)
 * a closed file opens below the cap; at the cap random service draws again and the others take
 * the next open file, as fio's pick that finds the cap reached (-EBUSY) tries again. */
unsigned io_next_file(struct io_worker *w, uint64_t bs)
{
	unsigned fi = pick(w, bs);
	for (;;) {
		if (__builtin_expect(w->files_done != 0, 0) && w->files[fi].done) {
			w->file_left = 0;
			fi = pick(w, bs);
			continue;
		}
		if (__builtin_expect(w->open_cap != 0, 0) && w->files[fi].fd < 0) {
			if (w->nopen >= w->open_cap && w->nopen && w->job->files.file_service == FILES_RANDOM) {
				w->file_left = 0;
				fi = pick(w, bs);
				continue;
			}
			fi = lazy_open(w, fi);
		}
		return fi;
	}
}

/* The first open index above fi (the lowest when none): a binary search of open_idx. */
static unsigned open_after(const struct io_worker *w, unsigned fi)
{
	unsigned lo = 0, hi = w->nopen;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (w->open_idx[mid] <= fi)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->nopen ? lo : 0;
}

/* File fi is not open: open it below the cap (fio's open at a file's first I/O), else the next
 * open file takes the I/O, as fio passes by a file it may not open yet. A failed open fails the
 * worker, naming the file. */
static __attribute__((noinline)) unsigned lazy_open(struct io_worker *w, unsigned fi)
{
	if (w->nopen >= w->open_cap && w->nopen) {
		w->next_file = w->open_idx[open_after(w, fi)];
		return w->next_file;
	}
	struct io_file *f = &w->files[fi];
	f->fd = open(f->path, w->open_flags);
	f->fd_pos = 0;
	if (f->fd < 0) {
		int e = errno;
		io_worker_failf(w, e, "%s: cannot open: %s", f->path, strerror(e));
		return fi;
	}
	unsigned at = w->nopen && w->open_idx[w->nopen - 1] > fi ? open_after(w, fi) : w->nopen;
	memmove(&w->open_idx[at + 1], &w->open_idx[at], (w->nopen - at) * sizeof *w->open_idx);
	w->open_idx[at] = fi;
	w->nopen++;
	io_file_drop_cache(w, f);
	io_file_hint(w, f, io_job_random(w->job));
	return fi;
}

void io_file_done_close(struct io_worker *w, unsigned fi)
{
	struct io_file *f = &w->files[fi];
	if (f->fd < 0)
		return;
	close(f->fd);
	f->fd = -1;
	for (unsigned k = 0; k < w->nopen; k++)
		if (w->open_idx[k] == fi) {
			memmove(&w->open_idx[k], &w->open_idx[k + 1], (w->nopen - k - 1) * sizeof *w->open_idx);
			w->nopen--;
			break;
		}
}

static unsigned pick(struct io_worker *w, uint64_t bs)
{
	const struct io_job *job = w->job;
	if (w->file_chosen && w->file_left) {
		w->file_left--;
		return w->next_file;
	}
	if (job->files.file_service == FILES_RANDOM) /* fio's draw: nfiles x r / 2^32 */
		w->next_file = (unsigned)((double)w->nfiles * io_taus_unit(&w->file_taus, io_taus_next(&w->file_taus)));
	else if (w->file_chosen && ++w->next_file == w->nfiles)
		w->next_file = 0;
	w->file_chosen = 1;
	if (job->files.file_service == FILES_SEQUENTIAL) {
		uint64_t blocks = bs ? w->files[w->next_file].region_len / bs : 1;
		w->file_left = w->files_stay ? UINT64_MAX : blocks ? blocks - 1 : 0;
	} else {
		w->file_left = job->files.file_service_nr > 1 ? job->files.file_service_nr - 1 : 0;
	}
	return w->next_file;
}
