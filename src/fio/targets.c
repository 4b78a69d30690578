/* Targets (see targets.h). */
#include "fio/targets.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "util/error.h"
#include "util/workdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

static int add_target(struct fio_job *j, const char *dir, const char *name, size_t n, char *err, size_t errlen)
{
	if (!n)
		return nm_errf(err, errlen, "empty name in the list");
	if (j->io.ntargets == IO_MAX_TARGETS)
		return nm_errf(err, errlen, "at most %d names", IO_MAX_TARGETS);
	char *t;
	if (dir && name[0] != '/') {
		if (asprintf(&t, "%s/%.*s", dir, (int)n, name) < 0)
			abort();
	} else {
		t = xstrndup(name, n);
	}
	fio_strv_push(&j->strs, &j->nstrs, t);
	j->io.targets[j->io.ntargets++] = t;
	return 0;
}

/* "a:b:c" into targets, each under dir when dir is not NULL. */
static int add_list(struct fio_job *j, const char *dir, const char *list, char *err, size_t errlen)
{
	for (const char *s = list;;) {
		const char *e = strchr(s, ':');
		if (add_target(j, dir, s, e ? (size_t)(e - s) : strlen(s), err, errlen) < 0)
			return -1;
		if (!e)
			return 0;
		s = e + 1;
	}
}

/* fio's default: one file per thread in the current directory, named as fio names them. */
static int default_targets(struct fio_job *j, char *err, size_t errlen)
{
	j->default_target = 1;
	if (j->io.nrfiles > 1) {
		j->dir_targets = 1;
		return add_target(j, NULL, ".", 1, err, errlen);
	}
	if (j->io.numjobs > IO_MAX_TARGETS)
		return nm_errf(err, errlen, "numjobs above %d needs filename= or directory=", IO_MAX_TARGETS);
	for (unsigned t = 0; t < j->io.numjobs; t++) {
		char name[256];
		io_file_name(&j->io, t, 0, name, sizeof name);
		if (add_target(j, NULL, name, strlen(name), err, errlen) < 0)
			return -1;
	}
	return 0;
}

int fio_job_targets(struct fio_job *j, char *err, size_t errlen)
{
	j->io.ntargets = 0;
	j->dir_targets = j->default_target = 0;
	if (j->filename) {
		char *dir = NULL;
		if (j->directory) {
			const char *colon = strchr(j->directory, ':');
			dir = xstrndup(j->directory, colon ? (size_t)(colon - j->directory) : strlen(j->directory));
		}
		int rc = add_list(j, dir, j->filename, err, errlen);
		free(dir);
		return rc;
	}
	/* fio 3.33 gives threads whose names are the same (no $jobnum) no I/O after the first */
	const char *fmt = j->io.files.name_format;
	if (fmt && j->io.numjobs > 1 && !strcasestr(fmt, "$jobnum"))
		return nm_errf(err, errlen, "filename_format=%s without $jobnum and numjobs=%u: threads that share "
			       "a name (fio 3.33 runs the first alone) are not supported", fmt, j->io.numjobs);
	if (j->directory) {
		j->dir_targets = 1;
		return add_list(j, NULL, j->directory, err, errlen);
	}
	return default_targets(j, err, errlen);
}

/* The size in bytes of the filesystem that holds path (or, missing, its nearest existing
 * parent, as fio makes the directories); 0 when none can be asked. */
static uint64_t fs_size_at(const char *path)
{
	char *p = xstrdup(path);
	uint64_t size = 0;
	for (;;) {
		struct statvfs sv;
		if (statvfs(p, &sv) == 0) {
			size = (uint64_t)sv.f_blocks * (sv.f_frsize ? sv.f_frsize : sv.f_bsize);
			break;
		}
		char *slash = strrchr(p, '/');
		if (errno != ENOENT || !slash || !strcmp(p, "/"))
			break;
		if (slash == p)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	if (!size && !strchr(path, '/')) { /* a bare name: the current directory */
		struct statvfs sv;
		if (statvfs(".", &sv) == 0)
			size = (uint64_t)sv.f_blocks * (sv.f_frsize ? sv.f_frsize : sv.f_bsize);
	}
	free(p);
	return size;
}

int fio_job_fill(struct fio_job *j, char *err, size_t errlen)
{
	struct io_job *io = &j->io;
	if (!io->files.fill)
		return 0;
	char qn[64];
	const char *jn = fio_q(j->name, qn, sizeof qn);
	unsigned caps = io_engine_caps(io->engine);
	int reads = io->rw == IO_READ || io->rw == IO_RANDREAD || io->rw == IO_RW || io->rw == IO_RANDRW;
	if (reads || io_job_trims(io) || !io_job_writes(io))
		return nm_errf(err, errlen, "job '%s': fill_device with a job that reads or trims is not supported "
			       "(fio lays its files out until the filesystem is full, then runs it)", jn);
	if (io->files.overwrite || (caps & IO_ENGINE_NO_EXTEND))
		return nm_errf(err, errlen, "job '%s': fill_device with %s is not supported (fio lays the file out "
			       "until the filesystem is full first)", jn, io->files.overwrite ? "overwrite=1" : "an engine "
			       "whose writes cannot grow a file");
	if (io->size || io->filesize || j->io_size || (caps & IO_ENGINE_DISKLESS))
		return 0;
	/* fio's size is then unbounded and only ENOSPC ends the writes; a file's region is the
	 * filesystem's size and two blocks, so a write at or past its end comes before the
	 * region's, and the random map, the region's offsets stay of that size */
	if (io->rw == IO_RANDWRITE)
		return nm_errf(err, errlen, "job '%s': fill_device with random writes needs size= (fio 3.33's random map "
			       "of an unbounded file fails, and the job writes nothing)", jn);
	uint64_t most = 0;
	for (unsigned t = 0; t < io->ntargets; t++) {
		uint64_t fs = fs_size_at(io->targets[t]);
		if (fs > most)
			most = fs;
	}
	uint64_t bs = io->bs[DIR_WRITE] ? io->bs[DIR_WRITE] : 4096;
	if (!most)
		return nm_errf(err, errlen, "job '%s': fill_device without size=: cannot tell the filesystem's size "
			       "at %s", jn, io->ntargets ? io->targets[0] : ".");
	io->filesize = (most / bs + 2) * bs;
	return 0;
}

/* --- checks before a run ------------------------------------------------------------------- */

struct new_file {
	const char *path;
	char *parent;
	uint64_t need;
};

static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* A missing file the job will create: remembered once per path, with the most any job needs. */
static void note_new(struct new_file **v, size_t *n, const char *path, uint64_t need)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i].path, path) == 0) {
			if (need > (*v)[i].need)
				(*v)[i].need = need;
			return;
		}
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[*n] = (struct new_file){ path, parent_of(path), need };
	(*n)++;
}

static int named(const char *const *allow, unsigned nallow, const char *path)
{
	for (unsigned k = 0; k < nallow; k++)
		if (strcmp(allow[k], path) == 0)
			return 1;
	return 0;
}

/* One target of a job: 1 when it is missing (a new file), 2 an existing file or device, 0 a
 * directory, -1 refused. */
static int check_one(const struct fio_job *j, const char *path, const char *const *allow, unsigned nallow,
		     char *err, size_t errlen)
{
	char qn[64];
	const char *jn = fio_q(j->name, qn, sizeof qn);
	struct stat lst, st;
	if (lstat(path, &lst) < 0) {
		if (errno != ENOENT)
			return nm_errf(err, errlen, "job '%s': %s: %s", jn, path, strerror(errno));
		if (j->dir_targets)
			return nm_errf(err, errlen, "job '%s': directory=%s: no such directory", jn, path);
		return 1;
	}
	if (S_ISLNK(lst.st_mode) && stat(path, &st) < 0)
		return nm_errf(err, errlen, "job '%s': %s: a symbolic link to a missing file; nodemark does not "
			       "create files through links", jn, path);
	if (stat(path, &st) < 0)
		return nm_errf(err, errlen, "job '%s': %s: %s", jn, path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return 0;
	if (!io_job_writes(&j->io) || named(allow, nallow, path) || file_marked(path))
		return 2;
	/* refused here, where the option is known, so the message can say how to allow it (the I/O
	 * session refuses it too, as disk's does) */
	if (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))
		return nm_errf(err, errlen, "job '%s': %s: %s is only read unless named again in --allow-write=%s",
			       jn, path, S_ISBLK(st.st_mode) ? "a block device" : "a file nodemark did not create",
			       path);
	return 2;
}

/* mem=mmap*:PATH: the buffers rewrite the file (mmap's ftruncate, a shared mapping's writes),
 * so one that is there is the user's to allow, as a target's; a missing one is made and removed. */
static int check_mem_file(const struct fio_job *j, const char *const *allow, unsigned nallow, char *err,
			  size_t errlen)
{
	char qn[64];
	const char *path = j->io.buf.mem_file;
	struct stat st;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : nm_errf(err, errlen, "job '%s': mem=%s: %s", fio_q(j->name, qn, sizeof qn),
						     path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return nm_errf(err, errlen, "job '%s': mem=%s: not a regular file", fio_q(j->name, qn, sizeof qn), path);
	if (named(allow, nallow, path) || file_marked(path))
		return 0;
	return nm_errf(err, errlen, "job '%s': mem=...:%s: the I/O buffers rewrite this file nodemark did not create; "
		       "name it again in --allow-write=%s", fio_q(j->name, qn, sizeof qn), path, path);
}

static uint64_t new_file_size(const struct io_job *io)
{
	return io->offset + (io->size && !io->files.all_targets ? io->size : io->filesize);
}

int fio_check_targets(struct fio_plan *p, const char *const *allow, unsigned nallow, char *err, size_t errlen)
{
	struct new_file *nf = NULL;
	size_t nnf = 0;
	int rc = 0;
	for (size_t i = 0; i < p->njobs && rc == 0; i++) {
		struct fio_job *j = &p->jobs[i];
		int all_named = 1;
		for (unsigned t = 0; t < j->io.ntargets && rc == 0; t++) {
			const char *path = j->io.targets[t];
			int c = (io_engine_caps(j->io.engine) & IO_ENGINE_DISKLESS) ? 0 : check_one(j, path, allow, nallow, err, errlen);
			if (c < 0)
				rc = -1;
			else if (c == 1 && !j->io.files.fill) /* fill_device writes until it is full */
				note_new(&nf, &nnf, path, new_file_size(&j->io));
			else if (c == 2)
				/* a file an earlier run created and kept carries nodemark's mark: its own to rewrite */
				all_named &= named(allow, nallow, path) || file_marked(path);
		}
		j->io.files.allow_write_blockdev = all_named;
		j->io.files.create_targets = 1; /* fio creates a missing filename= */
		if (rc == 0 && j->io.buf.mem_file)
			rc = check_mem_file(j, allow, nallow, err, errlen);
	}
	/* the new files of one directory must fit in it together */
	for (size_t i = 0; i < nnf && rc == 0; i++) {
		uint64_t need = 0;
		int first = 1;
		for (size_t k = 0; k < nnf; k++) {
			if (strcmp(nf[k].parent, nf[i].parent) != 0)
				continue;
			first &= k >= i;
			need += nf[k].need;
		}
		char why[256];
		if (first && space_check(nf[i].parent, need, why, sizeof why) < 0)
			rc = nm_errf(err, errlen, "%s: %s", nf[i].path, why);
	}
	for (size_t i = 0; i < nnf; i++)
		free(nf[i].parent);
	free(nf);
	return rc;
}
