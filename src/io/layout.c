/* Laying out a job's files with real data (the job's buffer contents, as fio's), and
 * remembering them, so a later job of the same session reuses them and the session removes
 * them at its end (io/layout.h). */
#include "io/layout.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t io_layout_file_len(const struct io_job *job)
{
	if (job->filesize)
		return job->filesize;
	return job->size / job->nrfiles;
}

uint64_t io_layout_nth_len(const struct io_job *job, unsigned k)
{
	return io_layout_file_len(job) + (k < job->files.files_longer ? job->files.longer_by : 0);
}

uint64_t io_layout_files_len(const struct io_job *job)
{
	return io_layout_file_len(job) * job->nrfiles + (uint64_t)job->files.files_longer * job->files.longer_by;
}

/* Appends n bytes of s at *at in out (len bytes), cutting what does not fit. */
static void put(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + n >= len)
		n = *at + 1 < len ? len - 1 - *at : 0;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
}

void io_file_name(const struct io_job *job, unsigned thread, unsigned k, char *out, size_t len)
{
	const char *name = job->name[0] ? job->name : "nodemark";
	const char *fmt = job->files.name_format;
	if (!fmt || !*fmt) {
		snprintf(out, len, "%s.%u.%u", name, thread, k);
		return;
	}
	/* fio puts each keyword in, in this order, until none is left */
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	char buf[256], tmp[256], num[16];
	size_t n = 0;
	buf[0] = '\0';
	put(buf, sizeof buf, &n, fmt, strlen(fmt));
	for (unsigned key = 0; key < 4; key++) {
		char *at;
		for (int i = 0; i < 256 && (at = strcasestr(buf, keys[key])); i++) { /* a name holding $jobname */
			const char *with = key == 0 ? name : key == 3 ? "" : num;
			snprintf(num, sizeof num, "%u", key == 1 ? thread : k);
			size_t m = 0;
			tmp[0] = '\0';
			put(tmp, sizeof tmp, &m, buf, (size_t)(at - buf));
			put(tmp, sizeof tmp, &m, with, strlen(with));
			const char *rest = at + strlen(keys[key]);
			put(tmp, sizeof tmp, &m, rest, strlen(rest));
			memcpy(buf, tmp, m + 1);
		}
	}
	snprintf(out, len, "%s", buf);
}

void io_layout_path(const struct io_job *job, const struct io_target *t, unsigned thread, unsigned k, char *out,
		    size_t len)
{
	char name[256];
	io_file_name(job, job->files.shared_file ? 0 : thread, k, name, sizeof name);
	snprintf(out, len, "%s/%s", t->workdir, name);
}

static uint64_t path_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return h;
}

/* The slot of path: where it is, or the empty one it would go in. */
static unsigned *find_slot(const struct io_layout *l, const char *path)
{
	unsigned mask = 2 * l->cap - 1;
	for (unsigned i = (unsigned)path_hash(path) & mask;; i = (i + 1) & mask)
		if (!l->slots[i] || strcmp(l->files[l->slots[i] - 1].path, path) == 0)
			return &l->slots[i];
}

struct io_laid_file *io_layout_find(struct io_layout *l, const char *path)
{
	if (!l->n)
		return NULL;
	unsigned *s = find_slot(l, path);
	return *s ? &l->files[*s - 1] : NULL;
}

/* Room for one more file: the array and its hash doubled when full. */
static int grow(struct io_layout *l)
{
	unsigned cap = l->cap ? l->cap * 2 : 16;
	struct io_laid_file *f = realloc(l->files, cap * sizeof *f);
	if (!f)
		return -1;
	l->files = f;
	unsigned *slots = calloc(2 * (size_t)cap, sizeof *slots);
	if (!slots)
		return -1;
	free(l->slots);
	l->slots = slots;
	l->cap = cap;
	for (unsigned i = 0; i < l->n; i++)
		*find_slot(l, l->files[i].path) = i + 1;
	return 0;
}

static int remember(struct io_layout *l, const char *path, uint64_t size)
{
	if (l->n == l->cap && grow(l) < 0)
		return -1;
	char *p = strdup(path);
	if (!p)
		return -1;
	l->files[l->n].path = p;
	l->files[l->n].size = size;
	*find_slot(l, p) = ++l->n;
	return 0;
}

/* What a block of a laid-out file holds, as fio's extend_file fills its writes (fill_io_buffer):
 * fio's compress and dedupe patterns, else buffer_pattern from the block's start, else zeros
 * (zero_buffers, compression 100), else random bytes. */
enum layout_kind { LAYOUT_RANDOM, LAYOUT_CONTENT, LAYOUT_PATTERN, LAYOUT_ZERO };

static enum layout_kind layout_kind(const struct io_job *job)
{
	if (!job)
		return LAYOUT_RANDOM;
	if (job->buf.fill != FILL_ZERO && (job->buf.content.compress_pct || job->buf.content.dedupe_pct))
		return LAYOUT_CONTENT;
	if (job->buf.fill == FILL_PATTERN)
		return LAYOUT_PATTERN;
	return job->buf.fill == FILL_ZERO ? LAYOUT_ZERO : LAYOUT_RANDOM;
}

/* Write [from, size) of the open fd (path names it in errors) with what fio's layout writes,
 * and fsync it. */
static int fill(const struct io_job *job, unsigned thread, int fd, const char *path, uint64_t from, uint64_t size,
		char *err, size_t errlen)
{
	enum layout_kind kind = layout_kind(job);
	/* fio writes the job's largest write size at a time, each from the pattern's start:
	 * whole blocks of it in each chunk, blocks counted from where the layout starts */
	uint64_t bs = kind == LAYOUT_RANDOM || !job->bs[DIR_WRITE] ? 1 : job->bs[DIR_WRITE];
	size_t chunk = bs >= (1 << 20) ? (size_t)bs : (1 << 20) / bs * bs;
	char *buf = malloc((chunk + 7) / 8 * 8);
	struct io_content *content = kind == LAYOUT_CONTENT ? io_content_new(job, thread) : NULL;
	if (!buf || (kind == LAYOUT_CONTENT && !content)) {
		free(buf);
		return nm_errf(err, errlen, "out of memory"), IO_FAILED;
	}
	if (kind == LAYOUT_ZERO)
		memset(buf, 0, chunk);
	else if (kind == LAYOUT_PATTERN) /* each block's bytes are the same: filled once */
		for (size_t b = 0; b < chunk; b += bs)
			io_pattern_fill(buf + b, bs, job->buf.pattern, job->buf.pattern_len, 0);
	uint64_t seed = random_u64();
	int st = IO_OK;
	for (uint64_t off = from; off < size;) {
		if (cleanup_interrupted()) {
			st = IO_INTERRUPTED;
			nm_errf(err, errlen, "interrupted while laying out %s", path);
			break;
		}
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;
		if (kind == LAYOUT_RANDOM)
			for (size_t i = 0; i < n; i += 8) {
				uint64_t v = prng_next(&seed);
				memcpy(buf + i, &v, sizeof v); /* the buffer has room for the last 8 */
			}
		else if (kind == LAYOUT_CONTENT)
			for (size_t b = 0; b < n; b += bs)
				io_content_fill(content, job, buf + b, n - b < bs ? n - b : bs);
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w <= 0) {
			st = IO_FAILED;
			nm_errf(err, errlen, "%s: laying out: write at offset %llu: %s", path,
				(unsigned long long)off, w < 0 ? strerror(errno) : "no progress");
			break;
		}
		off += (uint64_t)w;
	}
	free(buf);
	io_content_free(content);
	if (st == IO_OK && fsync(fd) < 0) {
		st = IO_FAILED;
		nm_errf(err, errlen, "%s: fsync after laying out: %s", path, strerror(errno));
	}
	return st;
}

int io_layout_write(const struct io_job *job, unsigned thread, const char *path, uint64_t from, uint64_t size,
		    int create, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0), 0600);
	if (fd < 0)
		return nm_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno)), IO_FAILED;
	if (create)
		(void)file_mark(fd); /* nodemark's own: a later run may rewrite it (util/workdir.h) */
	int st = fill(job, thread, fd, path, from, size, err, errlen);
	close(fd);
	return st;
}

/* fio's directions by rw (its td_read, td_write): a mix has both whatever rwmixread says. */
static int rw_reads(enum io_rw rw)
{
	return rw == IO_READ || rw == IO_RANDREAD || rw == IO_RW || rw == IO_RANDRW;
}

static int rw_writes(enum io_rw rw)
{
	return rw == IO_WRITE || rw == IO_RANDWRITE || rw == IO_RW || rw == IO_RANDRW || rw == IO_TRIMWRITE ||
	       rw == IO_RANDTRIMWRITE;
}

/* The allocation fio's layout makes before any data (its fallocate_file): a failed native or
 * posix allocation is let go, as fio's (the file grows as written); keep and truncate fail the
 * job, as they fail fio's; fill_device makes none. */
static int allocate(const struct io_job *job, int fd, const char *path, uint64_t size, char *err, size_t errlen)
{
	if (job->files.fill) /* fio's fill_device: the job's writes take the space, none first */
		return IO_OK;
	switch (job->files.fallocate) {
	case IO_FALLOC_NATIVE:
		(void)fallocate(fd, 0, 0, (off_t)size);
		break;
	case IO_FALLOC_POSIX:
		(void)posix_fallocate(fd, 0, (off_t)size);
		break;
	case IO_FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)size) < 0)
			return nm_errf(err, errlen, "%s: fallocate (keep): %s", path, strerror(errno)), IO_FAILED;
		break;
	case IO_FALLOC_TRUNCATE:
		if (ftruncate(fd, (off_t)size) < 0)
			return nm_errf(err, errlen, "%s: ftruncate: %s", path, strerror(errno)), IO_FAILED;
		break;
	case IO_FALLOC_NONE:
		break;
	}
	return IO_OK;
}

int io_layout_make(const struct io_job *job, unsigned thread, const char *path, uint64_t size, char *err,
		   size_t errlen)
{
	int reads = rw_reads(job->rw), writes = rw_writes(job->rw);
	if (writes && job->files.create_on_open) { /* fio's job opens it with O_CREAT: no layout */
		int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return nm_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno)), IO_FAILED;
		(void)file_mark(fd);
		close(fd);
		return IO_OK;
	}
	/* file_append keeps what a write job appends to (fio neither removes nor rewrites it) */
	int keep = job->files.append;
	int data = reads || (writes && job->files.overwrite && !keep) ||
		   (writes && (io_engine_caps(job->engine) & IO_ENGINE_NO_EXTEND));
	int remove = data || (writes && !job->files.overwrite && !keep);
	if (remove && unlink(path) < 0 && errno != ENOENT)
		return nm_errf(err, errlen, "%s: cannot remove: %s", path, strerror(errno)), IO_FAILED;
	/* O_EXCL beside fio's flags: what is opened is the file just made, never one put there
	 * since (a file kept, a pure trim job's or an appending one's, is opened as it is) */
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (data ? O_TRUNC : 0) | (remove ? O_EXCL : 0), 0600);
	if (fd < 0)
		return nm_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno)), IO_FAILED;
	(void)file_mark(fd); /* nodemark's own: a later run may rewrite it (util/workdir.h) */
	int st = allocate(job, fd, path, size, err, errlen);
	if (st == IO_OK && data) {
		if (ftruncate(fd, (off_t)size) < 0)
			st = (nm_errf(err, errlen, "%s: ftruncate: %s", path, strerror(errno)), IO_FAILED);
		else
			st = fill(job, thread, fd, path, 0, size, err, errlen);
	}
	close(fd);
	return st;
}

int io_layout_ensure(struct io_layout *l, const struct io_job *job, struct io_target *t, unsigned thread, char *err,
		     size_t errlen)
{
	if (t->kind != TARGET_DIR)
		return IO_OK;
	for (unsigned k = 0; k < job->nrfiles; k++) {
		/* the thread's region starts at its offset, as fio's file is offset + its size */
		uint64_t len = io_job_offset(job, job->files.shared_file ? job->numjobs - 1 : thread) + io_layout_nth_len(job, k);
		char path[4352];
		io_layout_path(job, t, thread, k, path, sizeof path);
		struct io_laid_file *lf = io_layout_find(l, path);
		if (lf && lf->size >= len)
			continue;
		/* an engine that makes its files (filecreate) gets their names only; the work
		 * directory is nodemark's: fio's way remakes a short file */
		int st = (io_engine_caps(job->engine) & IO_ENGINE_NO_LAYOUT) ? IO_OK
			 : job->files.fio_setup ? io_layout_make(job, thread, path, len, err, errlen)
			 : io_layout_write(job, thread, path, lf ? lf->size : 0, len, !lf, err, errlen);
		if (st != IO_OK)
			return st;
		if (lf)
			lf->size = len;
		else if (remember(l, path, len) < 0)
			return nm_errf(err, errlen, "out of memory"), IO_FAILED;
	}
	return IO_OK;
}

void io_layout_remove_all(struct io_layout *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		unlink(l->files[i].path);
		free(l->files[i].path);
	}
	free(l->files);
	free(l->slots);
	l->files = NULL;
	l->slots = NULL;
	l->n = l->cap = 0;
}
