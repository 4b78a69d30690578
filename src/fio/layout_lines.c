/* Which threads will have files laid out before the run (see layout_lines.h): read from the
 * targets as they are before the session lays anything out. */
#include "fio/layout_lines.h"
#include "io/engine.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A file's size once an earlier thread (or job) has laid it out; else what is on disk now. */
struct seen_file {
	const char *path;
	uint64_t size;
};

struct seen {
	struct seen_file *f;
	size_t n;
};

static uint64_t size_now(struct seen *s, const char *path, int *is_file)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->f[i].path, path) == 0) {
			*is_file = 1;
			return s->f[i].size;
		}
	struct stat st;
	if (stat(path, &st) < 0) {
		*is_file = 1; /* missing: created as a regular file */
		return 0;
	}
	*is_file = S_ISREG(st.st_mode);
	return (uint64_t)st.st_size;
}

static void remember(struct seen *s, const char *path, uint64_t size)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->f[i].path, path) == 0) {
			s->f[i].size = size;
			return;
		}
	struct seen_file *f = realloc(s->f, (s->n + 1) * sizeof *f);
	if (!f)
		abort();
	s->f = f;
	s->f[s->n++] = (struct seen_file){ path, size };
}

static void add_line(struct fio_layout_line **out, size_t *n, const char *job, unsigned nfiles, uint64_t bytes)
{
	struct fio_layout_line *l = realloc(*out, (*n + 1) * sizeof *l);
	if (!l)
		abort();
	*out = l;
	l[(*n)++] = (struct fio_layout_line){ job, nfiles, bytes };
}

/* Thread t of a job on file targets: each of its files shorter than the region gets laid out
 * (fio's need_extend), counted once across threads and jobs that share it. */
static void file_thread(const struct fio_job *j, unsigned t, struct seen *s, struct fio_layout_line **out, size_t *n)
{
	const struct io_job *io = &j->io;
	uint64_t len = io->filesize ? io->filesize : io->size / (io->nrfiles ? io->nrfiles : 1);
	uint64_t need = io->offset + (io->size && !io->files.all_targets ? io->size : len);
	unsigned nfiles = 0;
	uint64_t bytes = 0;
	for (unsigned k = 0; k < io->ntargets; k++) {
		if (!io->files.all_targets && k != t % io->ntargets)
			continue;
		int is_file;
		uint64_t have = size_now(s, io->targets[k], &is_file);
		if (!is_file || have >= need)
			continue;
		nfiles++;
		bytes += need;
		remember(s, io->targets[k], need);
	}
	if (nfiles)
		add_line(out, n, j->name, nfiles, bytes);
}

size_t fio_layout_lines(const struct fio_plan *p, struct fio_layout_line **out)
{
	struct seen s = { 0 };
	size_t n = 0;
	*out = NULL;
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		const struct io_job *io = &j->io;
		if ((io_engine_caps(io->engine) & (IO_ENGINE_DISKLESS | IO_ENGINE_NO_LAYOUT)) || !io->ntargets)
			continue;
		for (unsigned t = 0; t < io->numjobs; t++) {
			if (!j->dir_targets) {
				file_thread(j, t, &s, out, &n);
				continue;
			}
			/* a directory: nodemark's private subdirectory, so every thread's files are new
			 * (one set per directory when the threads share them) */
			if (io->files.shared_file && t >= io->ntargets)
				break;
			unsigned nf = io->nrfiles ? io->nrfiles : 1;
			uint64_t len = io->filesize ? io->filesize : io->size / nf;
			add_line(out, &n, j->name, nf, len * nf + (uint64_t)io->files.files_longer * io->files.longer_by);
		}
	}
	free(s.f);
	return n;
}
