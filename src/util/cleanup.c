#include "util/cleanup.h"

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
static volatile sig_atomic_t interrupted;
static int initialised;

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

void cleanup_now(const char *path)
{
	rm_tree(path);
	cleanup_forget(path);
}

void cleanup_all(void)
{
	pthread_mutex_lock(&lock);
	/* Newest first: a temp file inside a registered directory goes before the directory. */
	for (int i = MAX_PATHS - 1; i >= 0; i--)
		if (paths[i]) {
			rm_tree(paths[i]);
			free(paths[i]);
			paths[i] = NULL;
		}
	pthread_mutex_unlock(&lock);
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

/* The first signal asks the program to stop: it stops its loops, saves what finished and
 * removes what it wrote. A second one while it does that must not cut it short (that left whole
 * stores behind and saved nothing): it is acknowledged only. A third one means the program is
 * stuck: remove every registered file and tree here, and leave at once. */
static void on_signal(int sig)
{
	static volatile sig_atomic_t count;
	count++;
	if (!interrupted) {
		interrupted = sig;
		return;
	}
	if (count == 2) {
		say("nodemark: stopping: removing what was written and saving what finished "
		    "(a third signal quits at once, saving nothing)\n");
		return;
	}
	for (int i = MAX_PATHS - 1; i >= 0; i--)
		if (paths[i])
			rm_at_signal_safe(AT_FDCWD, paths[i], 0, 0);
	_exit(130);
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
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigpipe;
	sigaction(SIGPIPE, &sa, NULL);
	atexit(cleanup_all);
}
