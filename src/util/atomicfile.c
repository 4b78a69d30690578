#include "util/atomicfile.h"
#include "util/cleanup.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

int afile_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (strcmp(path, "-") == 0)
		return 0;
	if (!*path)
		return nm_errf(err, errlen, "\"\": empty file name");
	if (strlen(path) + sizeof ".tmp-XXXXXX" > sizeof ((struct atomic_file *)0)->tmp)
		return nm_errf(err, errlen, "\"%.40s...\": path too long", path);
	if (path[strlen(path) - 1] == '/')
		return nm_errf(err, errlen, "\"%s\": names a directory, not a file", path);
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return nm_errf(err, errlen, "\"%s\": is a directory", path);
		if (S_ISBLK(st.st_mode))
			return nm_errf(err, errlen, "\"%s\": is a block device", path);
		if (!S_ISREG(st.st_mode)) /* a character device or FIFO: written in place */
			return access(path, W_OK) == 0 ? 0 : nm_errf(err, errlen, "\"%s\": not writable: %s",
								      path, strerror(errno));
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	const char *d = dirname(dir);
	if (stat(d, &st) < 0) {
		if (errno == ENOENT)
			return nm_errf(err, errlen, "\"%s\": directory \"%s\" does not exist", path, d);
		return nm_errf(err, errlen, "\"%s\": directory \"%s\": %s", path, d, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return nm_errf(err, errlen, "\"%s\": \"%s\" is not a directory", path, d);
	/* root passes the permission bits, but not a read-only file system */
	if (access(d, W_OK | X_OK) < 0)
		return nm_errf(err, errlen, "\"%s\": directory \"%s\" is not writable: %s", path, d,
			       strerror(errno));
	return 0;
}

/* fp's writes go straight to write(2) (no glibc internals), so a failure keeps its errno
 * (ENOSPC says "No space left on device") and the fault shim can reach them. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
	struct atomic_file *af = cookie;
	size_t done = 0;
	while (done < n) {
		ssize_t k = write(af->fd, buf + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (!af->write_errno)
				af->write_errno = k < 0 ? errno : ENOSPC;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)k;
	}
	return (ssize_t)n;
}

static int cookie_close(void *cookie)
{
	struct atomic_file *af = cookie;
	int rc = af->fd >= 0 ? close(af->fd) : 0;
	if (rc < 0 && !af->write_errno)
		af->write_errno = errno;
	af->fd = -1;
	return rc;
}

static FILE *open_fd_stream(struct atomic_file *af, int fd)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	af->fd = fd;
	af->write_errno = 0;
	return fopencookie(af, "w", io);
}

/* The errno of a failed stream: the write's own, else what the call left. */
static int stream_errno(const struct atomic_file *af, int e)
{
	return af->write_errno ? af->write_errno : e ? e : EIO;
}

/* Not a regular file: a character device or FIFO is written in place, since renaming a temp
 * file over /dev/null would replace the device; a directory or block device is refused. */
static FILE *open_special(struct atomic_file *af, const char *path, const struct stat *st, char *err,
			  size_t errlen)
{
	if (S_ISDIR(st->st_mode) || S_ISBLK(st->st_mode)) {
		nm_errf(err, errlen, "cannot write %s: %s", path,
			S_ISDIR(st->st_mode) ? "is a directory" : "is a block device");
		return NULL;
	}
	/* O_NONBLOCK: a FIFO with no reader fails with ENXIO instead of blocking for ever. */
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		nm_errf(err, errlen, "cannot write %s: %s", path,
			errno == ENXIO && S_ISFIFO(st->st_mode) ? "a named pipe that no one reads" : strerror(errno));
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (!(af->fp = open_fd_stream(af, fd))) {
		nm_errf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	af->is_direct = 1;
	return af->fp;
}

FILE *afile_open(struct atomic_file *af, const char *path, char *err, size_t errlen)
{
	memset(af, 0, sizeof *af);
	if (strcmp(path, "-") == 0) {
		af->is_stdout = 1;
		af->fp = stdout;
		return af->fp;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(af->path, sizeof af->path, "%s", path);
		return open_special(af, path, &st, err, errlen);
	}
	if ((size_t)snprintf(af->path, sizeof af->path, "%s", path) >= sizeof af->path ||
	    (size_t)snprintf(af->tmp, sizeof af->tmp, "%s.tmp-XXXXXX", path) >= sizeof af->tmp) {
		nm_errf(err, errlen, "%s: path too long", path);
		return NULL;
	}
	sigset_t held;
	cleanup_hold(&held);
	int fd = mkostemp(af->tmp, O_CLOEXEC);
	if (fd >= 0)
		cleanup_add(af->tmp);
	cleanup_release(&held);
	if (fd < 0) {
		nm_errf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return NULL;
	}
	fchmod(fd, 0644);
	af->fp = open_fd_stream(af, fd);
	if (!af->fp) {
		nm_errf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		cleanup_now(af->tmp);
		return NULL;
	}
	return af->fp;
}

/* Copies the open regular file fd onto af's stream. */
static int copy_into(struct atomic_file *af, int fd)
{
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fwrite(buf, 1, (size_t)n, af->fp) != (size_t)n)
			return -1;
	}
	return 0;
}

FILE *afile_open_append(struct atomic_file *af, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 && errno == ELOOP) {
		nm_errf(err, errlen, "cannot append to %s: a symbolic link (not followed)", path);
		return NULL;
	}
	if (fd < 0 && errno != ENOENT) {
		nm_errf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd); /* not a regular file: afile_open writes it in place, or refuses it */
		fd = -1;
	}
	if (!afile_open(af, path, err, errlen)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (fd >= 0) {
		int bad = copy_into(af, fd), e = stream_errno(af, errno);
		close(fd);
		if (bad < 0) {
			afile_abort(af);
			nm_errf(err, errlen, "cannot append to %s: %s", path, strerror(e));
			return NULL;
		}
	}
	return af->fp;
}

int afile_commit(struct atomic_file *af, char *err, size_t errlen)
{
	if (af->is_stdout) {
		if (fflush(stdout) != 0)
			return nm_errf(err, errlen, "writing to standard output: %s", strerror(errno));
		return 0;
	}
	if (af->is_direct) {
		int bad = ferror(af->fp);
		int closed = fclose(af->fp), e = errno;
		af->fp = NULL;
		if (bad || closed != 0)
			return nm_errf(err, errlen, "cannot write %s: %s", af->path, strerror(stream_errno(af, e)));
		return 0;
	}
	int bad = ferror(af->fp);
	if (fflush(af->fp) != 0 || bad || ferror(af->fp) || fsync(af->fd) < 0) {
		int e = stream_errno(af, errno);
		fclose(af->fp);
		af->fp = NULL;
		cleanup_now(af->tmp);
		return nm_errf(err, errlen, "cannot write %s: %s", af->path, strerror(e));
	}
	if (fclose(af->fp) != 0) {
		int e = stream_errno(af, errno);
		af->fp = NULL;
		cleanup_now(af->tmp);
		return nm_errf(err, errlen, "cannot write %s: %s", af->path, strerror(e));
	}
	af->fp = NULL;
	if (rename(af->tmp, af->path) < 0) {
		int e = errno;
		cleanup_now(af->tmp);
		return nm_errf(err, errlen, "cannot rename %s into place: %s", af->path, strerror(e));
	}
	cleanup_forget(af->tmp);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", af->path);
	int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

void afile_abort(struct atomic_file *af)
{
	if (af->is_stdout || !af->fp)
		return;
	fclose(af->fp);
	af->fp = NULL;
	if (!af->is_direct)
		cleanup_now(af->tmp);
}

int afile_write_all(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	struct atomic_file af;
	if (!afile_open(&af, path, err, errlen))
		return -1;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		int e = stream_errno(&af, errno);
		afile_abort(&af);
		return nm_errf(err, errlen, "cannot write %s: %s", path, strerror(e));
	}
	return afile_commit(&af, err, errlen);
}
