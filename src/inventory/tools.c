/* Running zfs, zpool and dmsetup for the inventory: a child with a pipe on stdout and a
 * deadline, so a tool that hangs (a pool with a dead disk) cannot hang `nodemark info`. */
#include "inventory/tools.h"
#include "inventory/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define TOOL_TIMEOUT_MS 5000

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int tool_is_root(const char *root)
{
	return *root || geteuid() == 0;
}

int tool_run(const char *root, char *const argv[], char *out, size_t len)
{
	char path[PATH_MAX];
	int fd[2];
	out[0] = '\0';
	if (!argv[0] || strchr(argv[0], '/'))
		return -1;
	if (*root && (sysfs_path(path, sizeof path, root, "/usr/sbin/%s", argv[0]) < 0 || access(path, X_OK) < 0))
		return -1;
	if (pipe2(fd, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int err = *root ? posix_spawn(&pid, path, &fa, NULL, argv, environ)
			: posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (err) {
		close(fd[0]);
		return -1;
	}
	size_t got = 0;
	long long deadline = now_ms() + TOOL_TIMEOUT_MS;
	int timed_out = 0;
	for (;;) {
		long long left = deadline - now_ms();
		struct pollfd p = { .fd = fd[0], .events = POLLIN };
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		int r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			timed_out = 1;
			break;
		}
		char tmp[4096];
		ssize_t n = read(fd[0], tmp, sizeof tmp);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t keep = (size_t)n < len - 1 - got ? (size_t)n : len - 1 - got;
		memcpy(out + got, tmp, keep);
		got += keep;
	}
	close(fd[0]);
	out[got] = '\0';
	if (timed_out)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
