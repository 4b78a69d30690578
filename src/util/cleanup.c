#include "util/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static void on_signal(int sig)
{
	if (interrupted) {
		/* Second signal: the program did not stop in time. Remove files (best effort,
		 * unlink/rmdir only, which are async-signal-safe) and leave. */
		for (int i = MAX_PATHS - 1; i >= 0; i--)
			if (paths[i] && unlink(paths[i]) < 0)
				rmdir(paths[i]);
		_exit(130);
	}
	interrupted = sig;
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
