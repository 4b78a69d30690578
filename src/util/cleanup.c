#include "util/cleanup.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_PATHS 256

static char *paths[MAX_PATHS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t interrupted;    /* the first signal */
static volatile sig_atomic_t safe_points;    /* the command polls cleanup_interrupted() */
static volatile sig_atomic_t removed_since;  /* paths removed since that signal */
static int initialised;

void cleanup_stop_at_safe_points(void) { safe_points = 1; }

int cleanup_interrupted(void) { return interrupted; }

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int rm_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	/* FTW_PHYS: never follow a symlink out of our own tree. */
	if (nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0)
		return -1;
	return rmdir(path) < 0 && errno != ENOENT ? -1 : 0;
}

int cleanup_add(const char *path)
{
	int rc = -1;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_PATHS; i++)
		if (!paths[i]) {
			paths[i] = strdup(path);
			rc = paths[i] ? 0 : -1;
			break;
		}
	pthread_mutex_unlock(&lock);
	return rc;
}

void cleanup_forget(const char *path)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_PATHS; i++)
		if (paths[i] && strcmp(paths[i], path) == 0) {
			free(paths[i]);
			paths[i] = NULL;
		}
	pthread_mutex_unlock(&lock);
}

static void say_stopped(int sig, int again, unsigned removed, const char *then);

void cleanup_now(const char *path)
{
	rm_tree(path);
	if (interrupted)
		removed_since++;
	cleanup_forget(path);
}

void cleanup_all(void)
{
	pthread_mutex_lock(&lock);
	/* Newest first: a temp file inside a registered directory goes before the directory. The
	 * path stays registered while it is removed: a second signal meanwhile finishes the job. */
	for (int i = MAX_PATHS - 1; i >= 0; i--)
		if (paths[i]) {
			rm_tree(paths[i]);
			char *p = paths[i];
			paths[i] = NULL;
			free(p);
			if (interrupted)
				removed_since++;
		}
	pthread_mutex_unlock(&lock);
	/* The command has said what it saved; this says what went. */
	if (interrupted && safe_points) {
		say_stopped(interrupted, 0, (unsigned)removed_since, "");
		safe_points = 0; /* said once */
	}
}

void cleanup_hold(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void cleanup_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int cleanup_exit_code(int rc)
{
	/* Done (0), or an input that "could not be read" (2: an open or read cut short by the
	 * signal), is an interrupted run. A failure (1) stays one, and track's command's own status
	 * (it passes the signal on) stays its own. */
	return interrupted && (rc == 0 || rc == 2) ? 130 : rc;
}

/* A reader that went away (`nodemark ... | head`) must not kill us before the cleanup runs:
 * the write fails with EPIPE instead. A handler, not SIG_IGN, so that commands nodemark
 * starts get the default action back at exec. */
static void on_sigpipe(int sig)
{
	(void)sig;
}

/* rm_tree for a signal handler: openat, getdents64, unlinkat and close only (no allocation, no
 * stdio), never following a link and never leaving the file system it started on. Depth-limited:
 * our directories are shallow. */
#define SIGNAL_RM_DEPTH 16

struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static void rm_at_signal_safe(int dirfd, const char *name, dev_t dev, int depth)
{
	if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
		return;
	struct stat st;
	if (depth >= SIGNAL_RM_DEPTH || fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISDIR(st.st_mode) || (depth > 0 && st.st_dev != dev))
		return;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[2048];
	/* Removing entries while reading the directory may skip some: read it again from the start
	 * until it is empty (bounded, in case something cannot be removed). */
	for (int round = 0; round < 4; round++) {
		int removed = 0;
		lseek(fd, 0, SEEK_SET);
		for (long n; (n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
			for (long off = 0; off < n;) {
				struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
				off += d->reclen;
				if (d->name[0] == '.' && (!d->name[1] || (d->name[1] == '.' && !d->name[2])))
					continue;
				rm_at_signal_safe(fd, d->name, st.st_dev, depth + 1);
				removed = 1;
			}
		if (!removed)
			break;
	}
	close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void say(const char *msg)
{
	ssize_t n = write(STDERR_FILENO, msg, strlen(msg));
	(void)n;
}

/* "nodemark: CMD: stopped by SIG: <what was removed><then>" (or "stopped at once by a second
 * signal (SIG)"), built without stdio or allocation: the signal handler says it too. */
static void say_stopped(int sig, int again, unsigned removed, const char *then)
{
	char msg[512], num[16];
	const char *cmd = nm_command();
	int k = (int)sizeof num - 1;
	num[k] = 0;
	do
		num[--k] = (char)('0' + removed % 10);
	while ((removed /= 10) && k > 0);
	const char *parts[] = {
		"nodemark: ", cmd ? cmd : "", cmd ? ": " : "", again ? "stopped at once by a second signal (" : "stopped by ",
		sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal", again ? "): " : ": ",
		num[k] == '0' ? "it had written nothing to remove" : "removed what it had written (",
		num[k] == '0' ? "" : num + k, num[k] == '0' ? "" : strcmp(num + k, "1") ? " files or trees)" : " file or tree)",
		then, "\n",
	};
	size_t len = 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		size_t l = strlen(parts[i]);
		if (len + l >= sizeof msg)
			break;
		memcpy(msg + len, parts[i], l);
		len += l;
	}
	msg[len] = 0;
	say(msg);
}

/* Remove every registered path from the handler, say so, and leave. */
static void quit_now(int sig, int again, const char *then)
{
	unsigned n = (unsigned)removed_since;
	for (int i = MAX_PATHS - 1; i >= 0; i--) {
		const char *p = paths[i];
		if (p) {
			rm_at_signal_safe(AT_FDCWD, p, 0, 0);
			n++;
		}
	}
	say_stopped(sig, again, n, then);
	_exit(130);
}

/* One policy for every command. A command whose long loops poll cleanup_interrupted() says so
 * (cleanup_stop_at_safe_points): the first signal only sets the flag, and the command stops at
 * its next safe point, saves what finished and returns; its registered files go at exit. Any
 * other command has no safe point to reach: the first signal removes what it registered and
 * exits 130 here, which also ends any blocking read. A second signal while a command stops
 * means "now": the handler removes what is registered and exits, saving nothing more. */
static void on_signal(int sig)
{
	if (!interrupted) {
		interrupted = sig;
		if (safe_points)
			return;
		quit_now(sig, 0, "");
	}
	quit_now(sig, 1, "; what was not saved by now is lost");
}

void cleanup_init(void)
{
	struct sigaction sa;
	if (initialised)
		return;
	initialised = 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* One handler at a time: a SIGTERM during the SIGINT handler waits for it. */
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigpipe;
	sigaction(SIGPIPE, &sa, NULL);
	atexit(cleanup_all);
}
