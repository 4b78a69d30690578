/* faults.so: an LD_PRELOAD shim that makes file system calls fail, for the fault tests.
 *
 *   NM_FAULT='RULE[;RULE...]' LD_PRELOAD=build/shim/faults.so nodemark ...
 *
 *   RULE    OPS:ACTION[:after=N][:bytes=N][:times=N][:path=TEXT]
 *   OPS     one or more of, joined by '+':
 *             write      write, writev
 *             pwrite     pwrite, pwrite64, pwritev, pwritev2
 *             fsync      fsync          fdatasync  fdatasync
 *             rename     rename, renameat, renameat2
 *             open       open/openat/creat for writing or with O_CREAT
 *             mkdir      mkdir, mkdirat
 *             truncate   ftruncate      fallocate  fallocate, posix_fallocate
 *             uring      io_uring write SQEs (WRITE, WRITE_FIXED, WRITEV)
 *             uring_fsync io_uring FSYNC and SYNC_FILE_RANGE SQEs
 *             dropcache  posix_fadvise(POSIX_FADV_DONTNEED): a page-cache drop (other advice
 *                        passes; an errno action is returned, as posix_fadvise returns it)
 *           and the groups "anywrite" (write+pwrite+uring) and "sync" (fsync+fdatasync+uring_fsync).
 *   ACTION  an errno name (ENOSPC, EIO, EDQUOT, EROFS, EACCES, EPERM, EINTR, EAGAIN, ENOMEM) or
 *           number: the call fails with it; KILL: the process sends itself SIGKILL just before
 *           the call (a deterministic `kill -9` at an exact point); SHORT: write/pwrite write
 *           half of what was asked (at least 1 byte) and return that; DELAY: the call waits
 *           ms=N milliseconds (default 1000), then goes through (a stalled device).
 *   after=N the first N matching calls succeed (default 0: the first one fails)
 *   bytes=N instead of after: writes pass while they keep the total at or under N bytes
 *           (suffixes k, m, g = 1024^n), then fail, as a filling file system does
 *   times=N fail N times, then let calls through again (default: fail every later call)
 *   ms=N    with DELAY: how long the call waits
 *   path=T  only files whose absolute path contains T (e.g. path=.nodemark- or path=results.db)
 *
 * Only regular files and block devices are touched: writes to the terminal, pipes and
 * /dev/null always pass, so error messages still reach the test.
 *
 * NM_FAULT_LOG=FILE appends one line per injected fault ("nm-fault: pwrite /x/y: ENOSPC
 * (call 4)"), so a test can check that the fault really fired before it judges the outcome.
 * The shim removes itself from LD_PRELOAD, so children (nodemark time -- CMD) run unharmed;
 * NM_FAULT_INHERIT=1 keeps it.
 *
 * io_uring: submission goes through liburing's io_uring_submit*() (exported functions, so
 * LD_PRELOAD can wrap them) and completions are read straight from the shared ring, where no
 * shim can reach. So the shim acts at submission: it rewrites a doomed SQE, in place, into a
 * NOP that asks the kernel to complete it with -errno (IORING_NOP_INJECT_RESULT, Linux 6.10+;
 * older kernels reject the flag and complete it with -EINVAL, a failure all the same). The
 * user_data is kept, so the program sees a failed completion of its own write. Registered
 * files are tracked through io_uring_register_files*() to resolve paths.
 *
 * Not reachable: glibc's stdio and mkostemp call the kernel through internal aliases, so an
 * fwrite()/fflush() or a temp file's creation cannot be failed; fail the fsync or rename of
 * such a file instead (util/atomicfile.c does both). Nor can memory-mapped writes. */
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef IORING_NOP_INJECT_RESULT
#define IORING_NOP_INJECT_RESULT (1U << 0)
#endif

enum op {
	OP_WRITE = 1 << 0,
	OP_PWRITE = 1 << 1,
	OP_FSYNC = 1 << 2,
	OP_FDATASYNC = 1 << 3,
	OP_RENAME = 1 << 4,
	OP_OPEN = 1 << 5,
	OP_MKDIR = 1 << 6,
	OP_TRUNCATE = 1 << 7,
	OP_FALLOCATE = 1 << 8,
	OP_URING = 1 << 9,
	OP_URING_FSYNC = 1 << 10,
	OP_DROPCACHE = 1 << 11,
};

static const struct { const char *name; unsigned ops; } op_names[] = {
	{ "write", OP_WRITE }, { "pwrite", OP_PWRITE }, { "fsync", OP_FSYNC },
	{ "fdatasync", OP_FDATASYNC }, { "rename", OP_RENAME }, { "open", OP_OPEN },
	{ "mkdir", OP_MKDIR }, { "truncate", OP_TRUNCATE }, { "fallocate", OP_FALLOCATE },
	{ "uring", OP_URING }, { "uring_fsync", OP_URING_FSYNC }, { "dropcache", OP_DROPCACHE },
	{ "anywrite", OP_WRITE | OP_PWRITE | OP_URING },
	{ "sync", OP_FSYNC | OP_FDATASYNC | OP_URING_FSYNC },
};

static const struct { const char *name; int err; } errno_names[] = {
	{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "EDQUOT", EDQUOT }, { "EROFS", EROFS },
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "EINTR", EINTR }, { "EAGAIN", EAGAIN },
	{ "ENOMEM", ENOMEM }, { "EBADF", EBADF }, { "EINVAL", EINVAL }, { "EFBIG", EFBIG },
};

#define ACT_KILL (-1)
#define ACT_SHORT (-2)
#define ACT_DELAY (-3)
#define MAX_RULES 8

struct rule {
	unsigned ops;
	int action;        /* an errno > 0, or ACT_* */
	uint64_t after;    /* calls that pass first */
	uint64_t bytes;    /* byte budget, when has_bytes */
	int has_bytes;
	uint64_t times;    /* failures before calls pass again; 0 = no limit */
	uint64_t delay_ms; /* ACT_DELAY */
	char path[256];
	/* Updated from any thread. */
	uint64_t calls, written, fired;
};

static struct rule rules[MAX_RULES];
static int nrules;
static char log_path[PATH_MAX];

/* --- the real functions -------------------------------------------------------------- */

static void *real_fn(void **slot, const char *name)
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (!p) {
		p = dlsym(RTLD_NEXT, name);
		if (!p) {
			static const char msg[] = "nm-fault: a wrapped function is missing\n";
			syscall(SYS_write, 2, msg, sizeof msg - 1);
			abort();
		}
		__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	}
	return p;
}

/* REAL(write)(fd, buf, n): the next definition of the symbol (libc's, or ASan's wrapper). */
#define REAL(name)                                                          \
	({                                                                  \
		static void *slot_##name;                                   \
		(__typeof__(&name))real_fn(&slot_##name, #name);            \
	})

/* --- configuration ------------------------------------------------------------------- */

static __attribute__((noreturn)) void bad_config(const char *spec, const char *why)
{
	char msg[512];
	int n = snprintf(msg, sizeof msg, "nm-fault: NM_FAULT=\"%s\": %s\n", spec, why);
	syscall(SYS_write, 2, msg, n > 0 && n < (int)sizeof msg ? (size_t)n : sizeof msg - 1);
	_exit(97);
}

static int parse_u64(const char *s, uint64_t *out, int allow_suffix)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (allow_suffix && *end && !end[1]) {
		const char *p = strchr("kmg", *end | 0x20);
		if (!p)
			return -1;
		for (long i = 0; i <= p - "kmg"; i++)
			v <<= 10;
		end++;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static void parse_rule(char *text, const char *spec)
{
	if (nrules == MAX_RULES)
		bad_config(spec, "too many rules");
	struct rule *r = &rules[nrules++];
	char *save, *field = strtok_r(text, ":", &save);
	if (!field)
		bad_config(spec, "a rule is empty");

	char *osave, *opname = strtok_r(field, "+", &osave);
	for (; opname; opname = strtok_r(NULL, "+", &osave)) {
		size_t i;
		for (i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
			if (strcmp(opname, op_names[i].name) == 0)
				break;
		if (i == sizeof op_names / sizeof op_names[0])
			bad_config(spec, "unknown operation");
		r->ops |= op_names[i].ops;
	}

	char *act = strtok_r(NULL, ":", &save);
	if (!act)
		bad_config(spec, "no action (an errno name, KILL or SHORT)");
	if (strcmp(act, "KILL") == 0) {
		r->action = ACT_KILL;
	} else if (strcmp(act, "SHORT") == 0) {
		if (r->ops & ~(OP_WRITE | OP_PWRITE))
			bad_config(spec, "SHORT is for write and pwrite only");
		r->action = ACT_SHORT;
	} else if (strcmp(act, "DELAY") == 0) {
		r->action = ACT_DELAY;
		r->delay_ms = 1000;
	} else {
		uint64_t n;
		for (size_t i = 0; i < sizeof errno_names / sizeof errno_names[0]; i++)
			if (strcmp(act, errno_names[i].name) == 0)
				r->action = errno_names[i].err;
		if (!r->action && parse_u64(act, &n, 0) == 0 && n > 0 && n < 4096)
			r->action = (int)n;
		if (!r->action)
			bad_config(spec, "unknown action");
	}

	for (char *kv; (kv = strtok_r(NULL, ":", &save));) {
		if (strncmp(kv, "after=", 6) == 0) {
			if (parse_u64(kv + 6, &r->after, 0) < 0)
				bad_config(spec, "after= wants a whole number");
		} else if (strncmp(kv, "bytes=", 6) == 0) {
			if (parse_u64(kv + 6, &r->bytes, 1) < 0)
				bad_config(spec, "bytes= wants a size");
			r->has_bytes = 1;
		} else if (strncmp(kv, "ms=", 3) == 0) {
			if (r->action != ACT_DELAY || parse_u64(kv + 3, &r->delay_ms, 0) < 0)
				bad_config(spec, "ms= wants DELAY and a number");
		} else if (strncmp(kv, "times=", 6) == 0) {
			if (parse_u64(kv + 6, &r->times, 0) < 0 || r->times == 0)
				bad_config(spec, "times= wants a number above 0");
		} else if (strncmp(kv, "path=", 5) == 0) {
			if (!kv[5] || strlen(kv + 5) >= sizeof r->path)
				bad_config(spec, "path= wants some text");
			strcpy(r->path, kv + 5);
		} else {
			bad_config(spec, "unknown key (after=, bytes=, times=, path=)");
		}
	}
}

/* Drop this library from LD_PRELOAD so the programs nodemark starts run normally. */
static void unpreload_self(void)
{
	Dl_info info;
	const char *pre = getenv("LD_PRELOAD");
	if (!pre || getenv("NM_FAULT_INHERIT") || !dladdr((void *)unpreload_self, &info) || !info.dli_fname)
		return;
	char kept[4096] = "", copy[4096], *save;
	snprintf(copy, sizeof copy, "%s", pre);
	for (char *t = strtok_r(copy, " :", &save); t; t = strtok_r(NULL, " :", &save)) {
		if (strcmp(t, info.dli_fname) == 0 || strstr(t, "faults.so"))
			continue;
		if (strlen(kept) + strlen(t) + 2 < sizeof kept) {
			if (kept[0])
				strcat(kept, ":");
			strcat(kept, t);
		}
	}
	if (kept[0])
		setenv("LD_PRELOAD", kept, 1);
	else
		unsetenv("LD_PRELOAD");
}

__attribute__((constructor)) static void faults_init(void)
{
	const char *spec = getenv("NM_FAULT");
	const char *lp = getenv("NM_FAULT_LOG");
	if (lp)
		snprintf(log_path, sizeof log_path, "%s", lp);
	unpreload_self();
	if (!spec || !*spec)
		return;
	char copy[2048], *save;
	if (strlen(spec) >= sizeof copy)
		bad_config(spec, "too long");
	strcpy(copy, spec);
	for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save))
		parse_rule(t, spec);
}

/* --- deciding ------------------------------------------------------------------------ */

static const char *op_name(unsigned op)
{
	for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
		if (op_names[i].ops == op)
			return op_names[i].name;
	return "?";
}

static const char *action_name(int action, char *buf, size_t len)
{
	if (action == ACT_KILL)
		return "KILL";
	if (action == ACT_SHORT)
		return "SHORT";
	if (action == ACT_DELAY)
		return "DELAY";
	for (size_t i = 0; i < sizeof errno_names / sizeof errno_names[0]; i++)
		if (errno_names[i].err == action)
			return errno_names[i].name;
	snprintf(buf, len, "errno %d", action);
	return buf;
}

static void log_fault(unsigned op, const char *path, int action, uint64_t call)
{
	char line[PATH_MAX + 128], abuf[32];
	if (!log_path[0])
		return;
	int n = snprintf(line, sizeof line, "nm-fault: %s %s: %s (call %llu)\n", op_name(op),
			 path && *path ? path : "?", action_name(action, abuf, sizeof abuf),
			 (unsigned long long)call);
	int fd = (int)syscall(SYS_openat, AT_FDCWD, log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	syscall(SYS_write, fd, line, n > 0 && n < (int)sizeof line ? (size_t)n : sizeof line - 1);
	syscall(SYS_close, fd);
}

static void fd_path(int fd, char *out, size_t len)
{
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, out, len - 1);
	out[n > 0 ? n : 0] = '\0';
}

/* dirfd + name as an absolute path (for rename, open, mkdir), without resolving symlinks. */
static void at_path(int dirfd, const char *name, char *out, size_t len)
{
	char base[PATH_MAX];
	if (name[0] == '/') {
		snprintf(out, len, "%s", name);
		return;
	}
	if (dirfd == AT_FDCWD) {
		if (!getcwd(base, sizeof base))
			base[0] = '\0';
	} else {
		fd_path(dirfd, base, sizeof base);
	}
	snprintf(out, len, "%s/%s", base, name);
}

static int fd_is_file(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
}

/* The action for this call, or 0 to let it through. path may be NULL (then fd gives it);
 * path2 is rename's second name. */
static int decide(unsigned op, int fd, const char *path, const char *path2, uint64_t len)
{
	char fdbuf[PATH_MAX];
	int checked_fd = 0;
	if (!nrules)
		return 0;
	for (int i = 0; i < nrules; i++) {
		struct rule *r = &rules[i];
		if (!(r->ops & op))
			continue;
		if (!path && !checked_fd) {
			if (!fd_is_file(fd))
				return 0;
			fd_path(fd, fdbuf, sizeof fdbuf);
			checked_fd = 1;
		}
		const char *p = path ? path : fdbuf;
		if (r->path[0] && !strstr(p, r->path) && !(path2 && strstr(path2, r->path)))
			continue;
		uint64_t call = __atomic_add_fetch(&r->calls, 1, __ATOMIC_RELAXED);
		int fire;
		if (r->has_bytes)
			fire = __atomic_add_fetch(&r->written, len, __ATOMIC_RELAXED) > r->bytes;
		else
			fire = call > r->after;
		if (!fire)
			continue;
		if (r->times && __atomic_add_fetch(&r->fired, 1, __ATOMIC_RELAXED) > r->times)
			continue;
		log_fault(op, p, r->action, call);
		if (r->action == ACT_KILL)
			kill(getpid(), SIGKILL);
		if (r->action == ACT_DELAY) {
			struct timespec ts = { (time_t)(r->delay_ms / 1000), (long)(r->delay_ms % 1000) * 1000000L };
			int saved = errno;
			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
			errno = saved;
			return 0;
		}
		return r->action;
	}
	return 0;
}

#define FAIL_WITH(action, ret) \
	do {                   \
		errno = (action); \
		return (ret);  \
	} while (0)

/* --- plain system calls -------------------------------------------------------------- */

ssize_t write(int fd, const void *buf, size_t n)
{
	int a = decide(OP_WRITE, fd, NULL, NULL, n);
	if (a == ACT_SHORT)
		return REAL(write)(fd, buf, n > 1 ? n / 2 : n);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(write)(fd, buf, n);
}

static uint64_t iov_bytes(const struct iovec *iov, int cnt)
{
	uint64_t t = 0;
	for (int i = 0; i < cnt; i++)
		t += iov[i].iov_len;
	return t;
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	int a = decide(OP_WRITE, fd, NULL, NULL, iov_bytes(iov, cnt));
	if (a)
		FAIL_WITH(a, -1);
	return REAL(writev)(fd, iov, cnt);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	int a = decide(OP_PWRITE, fd, NULL, NULL, n);
	if (a == ACT_SHORT)
		return REAL(pwrite)(fd, buf, n > 1 ? n / 2 : n, off);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(pwrite)(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	int a = decide(OP_PWRITE, fd, NULL, NULL, n);
	if (a == ACT_SHORT)
		return REAL(pwrite64)(fd, buf, n > 1 ? n / 2 : n, off);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(pwrite64)(fd, buf, n, off);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	int a = decide(OP_PWRITE, fd, NULL, NULL, iov_bytes(iov, cnt));
	if (a)
		FAIL_WITH(a, -1);
	return REAL(pwritev)(fd, iov, cnt, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
	int a = decide(OP_PWRITE, fd, NULL, NULL, iov_bytes(iov, cnt));
	if (a)
		FAIL_WITH(a, -1);
	return REAL(pwritev64)(fd, iov, cnt, off);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	int a = decide(OP_PWRITE, fd, NULL, NULL, iov_bytes(iov, cnt));
	if (a)
		FAIL_WITH(a, -1);
	return REAL(pwritev2)(fd, iov, cnt, off, flags);
}

int fsync(int fd)
{
	int a = decide(OP_FSYNC, fd, NULL, NULL, 0);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(fsync)(fd);
}

int fdatasync(int fd)
{
	int a = decide(OP_FDATASYNC, fd, NULL, NULL, 0);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(fdatasync)(fd);
}

int ftruncate(int fd, off_t len)
{
	int a = decide(OP_TRUNCATE, fd, NULL, NULL, 0);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(ftruncate)(fd, len);
}

int ftruncate64(int fd, off64_t len)
{
	int a = decide(OP_TRUNCATE, fd, NULL, NULL, 0);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(ftruncate64)(fd, len);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	int a = decide(OP_FALLOCATE, fd, NULL, NULL, (uint64_t)len);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(fallocate)(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off64_t off, off64_t len)
{
	int a = decide(OP_FALLOCATE, fd, NULL, NULL, (uint64_t)len);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(fallocate64)(fd, mode, off, len);
}

/* posix_fallocate returns the error instead of setting errno. */
int posix_fallocate(int fd, off_t off, off_t len)
{
	int a = decide(OP_FALLOCATE, fd, NULL, NULL, (uint64_t)len);
	return a ? a : REAL(posix_fallocate)(fd, off, len);
}

int posix_fallocate64(int fd, off64_t off, off64_t len)
{
	int a = decide(OP_FALLOCATE, fd, NULL, NULL, (uint64_t)len);
	return a ? a : REAL(posix_fallocate64)(fd, off, len);
}

/* posix_fadvise returns the error too; only a drop (DONTNEED) is a fault point. */
int posix_fadvise(int fd, off_t off, off_t len, int advice)
{
	int a = advice == POSIX_FADV_DONTNEED ? decide(OP_DROPCACHE, fd, NULL, NULL, 0) : 0;
	return a > 0 ? a : REAL(posix_fadvise)(fd, off, len, advice);
}

int posix_fadvise64(int fd, off64_t off, off64_t len, int advice)
{
	int a = advice == POSIX_FADV_DONTNEED ? decide(OP_DROPCACHE, fd, NULL, NULL, 0) : 0;
	return a > 0 ? a : REAL(posix_fadvise64)(fd, off, len, advice);
}

static int rename_fault(int olddirfd, const char *oldp, int newdirfd, const char *newp)
{
	char a[PATH_MAX], b[PATH_MAX];
	if (!nrules)
		return 0;
	at_path(olddirfd, oldp, a, sizeof a);
	at_path(newdirfd, newp, b, sizeof b);
	return decide(OP_RENAME, -1, a, b, 0);
}

int rename(const char *oldp, const char *newp)
{
	int a = rename_fault(AT_FDCWD, oldp, AT_FDCWD, newp);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(rename)(oldp, newp);
}

int renameat(int od, const char *oldp, int nd, const char *newp)
{
	int a = rename_fault(od, oldp, nd, newp);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(renameat)(od, oldp, nd, newp);
}

int renameat2(int od, const char *oldp, int nd, const char *newp, unsigned flags)
{
	int a = rename_fault(od, oldp, nd, newp);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(renameat2)(od, oldp, nd, newp, flags);
}

/* Opening for writing, or creating: the path must not be an existing non-file (a tty...). */
static int open_fault(int dirfd, const char *name, int flags)
{
	char p[PATH_MAX];
	struct stat st;
	if (!nrules || (!(flags & O_CREAT) && (flags & O_ACCMODE) == O_RDONLY))
		return 0;
	at_path(dirfd, name, p, sizeof p);
	if (stat(p, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return 0;
	return decide(OP_OPEN, -1, p, NULL, 0);
}

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *p, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	int a = open_fault(AT_FDCWD, p, flags);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(open)(p, flags, mode);
}

int open64(const char *p, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	int a = open_fault(AT_FDCWD, p, flags);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(open64)(p, flags, mode);
}

int openat(int dirfd, const char *p, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	int a = open_fault(dirfd, p, flags);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(openat)(dirfd, p, flags, mode);
}

int openat64(int dirfd, const char *p, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	int a = open_fault(dirfd, p, flags);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(openat64)(dirfd, p, flags, mode);
}

int creat(const char *p, mode_t mode)
{
	int a = open_fault(AT_FDCWD, p, O_CREAT | O_WRONLY);
	if (a)
		FAIL_WITH(a, -1);
	return REAL(creat)(p, mode);
}

int mkdir(const char *p, mode_t mode)
{
	char abs[PATH_MAX];
	int a = 0;
	if (nrules) {
		at_path(AT_FDCWD, p, abs, sizeof abs);
		a = decide(OP_MKDIR, -1, abs, NULL, 0);
	}
	if (a)
		FAIL_WITH(a, -1);
	return REAL(mkdir)(p, mode);
}

int mkdirat(int dirfd, const char *p, mode_t mode)
{
	char abs[PATH_MAX];
	int a = 0;
	if (nrules) {
		at_path(dirfd, p, abs, sizeof abs);
		a = decide(OP_MKDIR, -1, abs, NULL, 0);
	}
	if (a)
		FAIL_WITH(a, -1);
	return REAL(mkdirat)(dirfd, p, mode);
}

/* --- io_uring ------------------------------------------------------------------------ */

/* Registered file tables, per ring, so a fixed-file SQE's index can be turned into a path. */
#define MAX_RINGS 64
#define MAX_FIXED 4096
static struct fixed_files {
	struct io_uring *ring;
	int fds[MAX_FIXED];
	unsigned n;
} fixed[MAX_RINGS];
static int fixed_lock;

static void lock_fixed(void)
{
	while (__atomic_exchange_n(&fixed_lock, 1, __ATOMIC_ACQUIRE))
		;
}
static void unlock_fixed(void) { __atomic_store_n(&fixed_lock, 0, __ATOMIC_RELEASE); }

static struct fixed_files *fixed_for(struct io_uring *ring, int create)
{
	struct fixed_files *freeslot = NULL;
	for (int i = 0; i < MAX_RINGS; i++) {
		if (fixed[i].ring == ring)
			return &fixed[i];
		if (!fixed[i].ring && !freeslot)
			freeslot = &fixed[i];
	}
	if (create && freeslot) {
		freeslot->ring = ring;
		freeslot->n = 0;
	}
	return create ? freeslot : NULL;
}

static void remember_files(struct io_uring *ring, unsigned off, const int *fds, unsigned n)
{
	lock_fixed();
	struct fixed_files *f = fixed_for(ring, 1);
	for (unsigned i = 0; f && fds && i < n && off + i < MAX_FIXED; i++) {
		f->fds[off + i] = fds[i];
		if (off + i + 1 > f->n)
			f->n = off + i + 1;
	}
	unlock_fixed();
}

int io_uring_register_files(struct io_uring *ring, const int *files, unsigned nr)
{
	int rc = REAL(io_uring_register_files)(ring, files, nr);
	if (rc == 0)
		remember_files(ring, 0, files, nr);
	return rc;
}

int io_uring_register_files_tags(struct io_uring *ring, const int *files, const __u64 *tags, unsigned nr)
{
	int rc = REAL(io_uring_register_files_tags)(ring, files, tags, nr);
	if (rc == 0)
		remember_files(ring, 0, files, nr);
	return rc;
}

int io_uring_register_files_update(struct io_uring *ring, unsigned off, const int *files, unsigned nr)
{
	int rc = REAL(io_uring_register_files_update)(ring, off, files, nr);
	if (rc > 0)
		remember_files(ring, off, files, (unsigned)rc);
	return rc;
}

int io_uring_unregister_files(struct io_uring *ring)
{
	lock_fixed();
	struct fixed_files *f = fixed_for(ring, 0);
	if (f)
		f->ring = NULL;
	unlock_fixed();
	return REAL(io_uring_unregister_files)(ring);
}

static int sqe_fd(struct io_uring *ring, const struct io_uring_sqe *sqe)
{
	if (!(sqe->flags & IOSQE_FIXED_FILE))
		return sqe->fd;
	int fd = -1;
	lock_fixed();
	struct fixed_files *f = fixed_for(ring, 0);
	if (f && sqe->fd >= 0 && (unsigned)sqe->fd < f->n)
		fd = f->fds[sqe->fd];
	unlock_fixed();
	return fd;
}

/* Make the kernel complete this SQE with -err: a NOP with an injected result. */
static void sqe_make_failing_nop(struct io_uring_sqe *sqe, int err)
{
	__u64 user_data = sqe->user_data;
	__u8 flags = sqe->flags & ~(IOSQE_FIXED_FILE | IOSQE_BUFFER_SELECT);
	__u16 personality = sqe->personality;
	memset(sqe, 0, sizeof *sqe);
	sqe->opcode = IORING_OP_NOP;
	sqe->flags = flags;
	sqe->fd = -1;
	sqe->rw_flags = IORING_NOP_INJECT_RESULT;
	sqe->len = (__u32)-err;
	sqe->user_data = user_data;
	sqe->personality = personality;
}

/* Walk the SQEs the program queued since the last submit and doom the ones a rule picks. */
static void uring_inject(struct io_uring *ring)
{
	if (!nrules)
		return;
	struct io_uring_sq *sq = &ring->sq;
	unsigned shift = (ring->flags & IORING_SETUP_SQE128) ? 1 : 0;
	for (unsigned i = sq->sqe_head; i != sq->sqe_tail; i++) {
		struct io_uring_sqe *sqe = &sq->sqes[(i & sq->ring_mask) << shift];
		unsigned op;
		uint64_t len = 0;
		switch (sqe->opcode) {
		case IORING_OP_WRITE:
		case IORING_OP_WRITE_FIXED:
			op = OP_URING;
			len = sqe->len;
			break;
		case IORING_OP_WRITEV:
			op = OP_URING;
			len = iov_bytes((const struct iovec *)(uintptr_t)sqe->addr, (int)sqe->len);
			break;
		case IORING_OP_FSYNC:
		case IORING_OP_SYNC_FILE_RANGE:
			op = OP_URING_FSYNC;
			break;
		default:
			continue;
		}
		int fd = sqe_fd(ring, sqe);
		if (fd < 0)
			continue;
		int a = decide(op, fd, NULL, NULL, len);
		if (a > 0)
			sqe_make_failing_nop(sqe, a);
	}
}

int io_uring_submit(struct io_uring *ring)
{
	uring_inject(ring);
	return REAL(io_uring_submit)(ring);
}

int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)
{
	uring_inject(ring);
	return REAL(io_uring_submit_and_wait)(ring, wait_nr);
}

int io_uring_submit_and_wait_timeout(struct io_uring *ring, struct io_uring_cqe **cqe_ptr, unsigned wait_nr,
				     struct __kernel_timespec *ts, sigset_t *sigmask)
{
	uring_inject(ring);
	return REAL(io_uring_submit_and_wait_timeout)(ring, cqe_ptr, wait_nr, ts, sigmask);
}

int io_uring_submit_and_get_events(struct io_uring *ring)
{
	uring_inject(ring);
	return REAL(io_uring_submit_and_get_events)(ring);
}
