/* iotrace.so: an LD_PRELOAD shim that records what nodemark tells the kernel about the files
 * it measures, for the fidelity tests: how each file is opened and every hint given on it.
 *
 *   NM_IOTRACE=LOG LD_PRELOAD=build/shim/iotrace.so nodemark ...
 *
 * One line per call, appended to LOG:
 *   open PATH direct=0|1 flags=0xN        open, open64, openat, openat64
 *   fadvise PATH ADVICE OFFSET LEN         posix_fadvise(64): ADVICE is normal, random,
 *                                          sequential, willneed, dontneed or noreuse
 *   ioctl PATH BLKFLSBUF                   a block device's buffer cache flushed
 *   pread|pwrite PATH bufoff=N             with NM_IOTRACE_RW=1 only: where the buffer of
 *                                          each pread/pwrite(64) starts past a page boundary
 * PATH is the file's absolute path (the fd resolved through /proc/self/fd). Calls pass
 * through unchanged. Nothing but regular files and block devices is logged. */
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void logf_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void logf_line(const char *fmt, ...)
{
	const char *path = getenv("NM_IOTRACE");
	if (!path)
		return;
	char line[4608];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof line)
		n = sizeof line - 1;
	/* the raw system call: no interposed open, one write per line (O_APPEND keeps lines whole) */
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	ssize_t w = write(fd, line, (size_t)n);
	(void)w;
	close(fd);
}

/* The path of fd when it is a regular file or a block device, else NULL. */
static const char *fd_path(int fd, char *buf, size_t len)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return NULL;
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, buf, len - 1);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static void log_open(int fd, int flags)
{
	char p[4096];
	if (fd >= 0 && fd_path(fd, p, sizeof p))
		logf_line("open %s direct=%d flags=0x%x\n", p, (flags & O_DIRECT) != 0, (unsigned)flags);
}

#define OPEN_LIKE(name)                                                               \
	int name(const char *path, int flags, ...)                                    \
	{                                                                             \
		static int (*fn)(const char *, int, ...);                             \
		if (!fn)                                                              \
			fn = (int (*)(const char *, int, ...))real(#name);            \
		mode_t mode = 0;                                                      \
		if (flags & (O_CREAT | O_TMPFILE)) {                                  \
			va_list ap;                                                   \
			va_start(ap, flags);                                          \
			mode = va_arg(ap, mode_t);                                    \
			va_end(ap);                                                   \
		}                                                                     \
		int fd = fn(path, flags, mode);                                       \
		log_open(fd, flags);                                                  \
		return fd;                                                            \
	}
OPEN_LIKE(open)
OPEN_LIKE(open64)

#define OPENAT_LIKE(name)                                                             \
	int name(int dirfd, const char *path, int flags, ...)                         \
	{                                                                             \
		static int (*fn)(int, const char *, int, ...);                        \
		if (!fn)                                                              \
			fn = (int (*)(int, const char *, int, ...))real(#name);       \
		mode_t mode = 0;                                                      \
		if (flags & (O_CREAT | O_TMPFILE)) {                                  \
			va_list ap;                                                   \
			va_start(ap, flags);                                          \
			mode = va_arg(ap, mode_t);                                    \
			va_end(ap);                                                   \
		}                                                                     \
		int fd = fn(dirfd, path, flags, mode);                                \
		log_open(fd, flags);                                                  \
		return fd;                                                            \
	}
OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)

static const char *advice_name(int a)
{
	switch (a) {
	case POSIX_FADV_NORMAL: return "normal";
	case POSIX_FADV_RANDOM: return "random";
	case POSIX_FADV_SEQUENTIAL: return "sequential";
	case POSIX_FADV_WILLNEED: return "willneed";
	case POSIX_FADV_DONTNEED: return "dontneed";
	case POSIX_FADV_NOREUSE: return "noreuse";
	}
	return "?";
}

#define FADVISE_LIKE(name)                                                            \
	int name(int fd, off_t off, off_t len, int advice)                            \
	{                                                                             \
		static int (*fn)(int, off_t, off_t, int);                             \
		if (!fn)                                                              \
			fn = (int (*)(int, off_t, off_t, int))real(#name);            \
		char p[4096];                                                         \
		if (fd_path(fd, p, sizeof p))                                         \
			logf_line("fadvise %s %s %lld %lld\n", p, advice_name(advice), \
				  (long long)off, (long long)len);                    \
		return fn(fd, off, len, advice);                                      \
	}
FADVISE_LIKE(posix_fadvise)
FADVISE_LIKE(posix_fadvise64)

int ioctl(int fd, unsigned long req, ...)
{
	static int (*fn)(int, unsigned long, ...);
	if (!fn)
		fn = (int (*)(int, unsigned long, ...))real("ioctl");
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	char p[4096];
	if (req == BLKFLSBUF && fd_path(fd, p, sizeof p))
		logf_line("ioctl %s BLKFLSBUF\n", p);
	return fn(fd, req, arg);
}

#define RW_LIKE(name, kind, bufty)                                                    \
	ssize_t name(int fd, bufty buf, size_t n, off_t off)                          \
	{                                                                             \
		static ssize_t (*fn)(int, bufty, size_t, off_t);                      \
		if (!fn)                                                              \
			fn = (ssize_t (*)(int, bufty, size_t, off_t))real(#name);     \
		char p[4096];                                                         \
		const char *rw = getenv("NM_IOTRACE_RW");                             \
		if (rw && *rw == '1' && fd_path(fd, p, sizeof p))                     \
			logf_line(kind " %s bufoff=%lu\n", p,                         \
				  (unsigned long)((uintptr_t)buf % 4096));            \
		return fn(fd, buf, n, off);                                           \
	}
RW_LIKE(pread, "pread", void *)
RW_LIKE(pread64, "pread", void *)
RW_LIKE(pwrite, "pwrite", const void *)
RW_LIKE(pwrite64, "pwrite", const void *)
