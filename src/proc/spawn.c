#include "proc/spawn.h"
#include "proc/spawner.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *spawn_resolve(const char *name, char *err, size_t errlen)
{
	if (!*name) {
		nm_errf(err, errlen, "empty command");
		return NULL;
	}
	if (strchr(name, '/')) {
		if (!executable(name)) {
			nm_errf(err, errlen, "'%s': %s", name, access(name, F_OK) == 0 ? "not an executable file" : strerror(errno));
			return NULL;
		}
		return strdup(name);
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	size_t nlen = strlen(name);
	for (const char *p = path;;) {
		const char *colon = strchrnul(p, ':');
		size_t dlen = (size_t)(colon - p);
		char *cand = malloc(dlen + nlen + 3);
		if (!cand)
			abort();
		if (dlen == 0)
			sprintf(cand, "./%s", name);
		else
			sprintf(cand, "%.*s/%s", (int)dlen, p, name);
		if (executable(cand))
			return cand;
		free(cand);
		if (!*colon)
			break;
		p = colon + 1;
	}
	nm_errf(err, errlen, "'%s': command not found", name);
	return NULL;
}

/* One /dev/null descriptor for the whole process: opening it per run would cost a syscall
 * pair per run for nothing. */
static int devnull_fd(void)
{
	static int fd = -1;
	if (fd < 0)
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	return fd;
}

/* The descriptors the child gets as 0, 1 and 2. */
static void child_fds(const struct spawn_spec *spec, int dn, int fds[3])
{
	fds[0] = spec->in == SPAWN_IO_NULL ? dn : spec->in == SPAWN_IO_FD ? spec->in_fd : 0;
	for (int i = 1; i < 3; i++)
		fds[i] = spec->out_fd >= 0 ? spec->out_fd : spec->out == SPAWN_IO_NULL ? dn : i;
}

/* posix_spawn from nodemark itself: when there is no spawner (NODEMARK_SPAWNER=off, or it could
 * not be started). The child's peak memory then starts at nodemark's. */
static pid_t spawn_directly(const struct spawn_spec *spec, const int fds[3], uint64_t *t0, char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	if (spec->in != SPAWN_IO_INHERIT)
		posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
	if (spec->out_fd >= 0 || spec->out != SPAWN_IO_INHERIT)
		for (int i = 1; i < 3; i++)
			posix_spawn_file_actions_adddup2(&fa, fds[i], i);
	/* nodemark blocks no signal and its handlers are reset by exec, so the child starts
	 * with default dispositions without a sigprocmask in the measured path. */
	posix_spawnattr_init(&attr);

	*t0 = clock_now_ns();
	int rc = posix_spawn(&pid, spec->argv[0], &fa, &attr, spec->argv, spec->envp ? spec->envp : environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc != 0) {
		nm_errf(err, errlen, "cannot run '%s': %s", spec->argv[0], strerror(rc));
		return -1;
	}
	return pid;
}

pid_t spawn_start(const struct spawn_spec *spec, uint64_t *t0, char *err, size_t errlen)
{
	int fds[3];
	int dn = devnull_fd();
	pid_t pid;

	if (dn < 0 && (spec->in == SPAWN_IO_NULL || (spec->out == SPAWN_IO_NULL && spec->out_fd < 0))) {
		nm_errf(err, errlen, "/dev/null: %s", strerror(errno));
		return -1;
	}
	child_fds(spec, dn, fds);
	if (spawner_start() == 0) {
		int rc = spawner_spawn(spec->argv, spec->envp ? spec->envp : environ, fds, &pid, t0);
		if (rc == 0)
			return pid;
		if (rc > 0) {
			nm_errf(err, errlen, "cannot run '%s': %s", spec->argv[0], strerror(rc));
			return -1;
		}
	}
	return spawn_directly(spec, fds, t0, err, errlen);
}

int spawn_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

void spawn_parse_proc_io(const char *text, struct spawn_sample *s)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "rchar: ", offsetof(struct spawn_sample, rchar) },
		{ "wchar: ", offsetof(struct spawn_sample, wchar) },
		{ "read_bytes: ", offsetof(struct spawn_sample, read_bytes) },
		{ "write_bytes: ", offsetof(struct spawn_sample, write_bytes) },
	};
	int found = 0;
	for (const char *line = text; line && *line;) {
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			size_t kl = strlen(keys[k].key);
			if (strncmp(line, keys[k].key, kl) == 0) {
				*(uint64_t *)((char *)s + keys[k].off) = strtoull(line + kl, NULL, 10);
				found++;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	s->io_ok = found == 4;
}

static void read_proc_io(pid_t pid, struct spawn_sample *s)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/io", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	s->io_ok = 0;
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	spawn_parse_proc_io(buf, s);
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

/* A signal that reached nodemark is passed on to the child, once per run. */
static void forward_signal(pid_t pid, int *forwarded)
{
	int sig = cleanup_interrupted();
	if (sig && !*forwarded) {
		kill(pid, sig);
		*forwarded = 1;
	}
}

/* Wait (as a zombie is left in place) until the child exits or the timeout passes.
 * Returns 1 when it exited, 0 on timeout, -1 on error. */
static int wait_exit(pid_t pid, uint64_t t0, uint64_t timeout_ns, int *forwarded)
{
	siginfo_t si;
	int pidfd = -1;

	if (timeout_ns) {
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (pidfd < 0)
			return -1;
	}
	for (;;) {
		if (pidfd >= 0) {
			uint64_t now = clock_now_ns(), end = t0 + timeout_ns;
			if (now >= end) {
				close(pidfd);
				return 0;
			}
			struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
			int ms = (int)((end - now + 999999) / 1000000);
			int r = poll(&pfd, 1, ms);
			if (r < 0 && errno != EINTR) {
				close(pidfd);
				return -1;
			}
			forward_signal(pid, forwarded);
			if (r <= 0)
				continue;
		}
		memset(&si, 0, sizeof si);
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) == 0)
			break;
		if (errno != EINTR) {
			if (pidfd >= 0)
				close(pidfd);
			return -1;
		}
		forward_signal(pid, forwarded);
	}
	if (pidfd >= 0)
		close(pidfd);
	return 1;
}

int spawn_finish(pid_t pid, uint64_t t0, uint64_t timeout_ns, struct spawn_sample *s, char *err, size_t errlen)
{
	struct rusage ru;
	int status = 0, forwarded = 0;

	memset(s, 0, sizeof *s);
	s->energy_j = NAN;
	int w = wait_exit(pid, t0, timeout_ns, &forwarded);
	uint64_t t1 = clock_now_ns();
	if (w == 0) {
		kill(pid, SIGKILL);
		s->timed_out = 1;
	}
	s->wall_ns = t1 - t0;
	if (w > 0)
		read_proc_io(pid, s);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			nm_errf(err, errlen, "waiting for child %d: %s", (int)pid, strerror(errno));
			return -1;
		}
		forward_signal(pid, &forwarded);
	}
	if (w < 0) {
		nm_errf(err, errlen, "waiting for child %d: %s", (int)pid, strerror(errno));
		return -1;
	}
	s->status = status;
	s->exit_code = spawn_exit_code(status);
	s->user_ns = tv_ns(ru.ru_utime);
	s->sys_ns = tv_ns(ru.ru_stime);
	s->max_rss = (uint64_t)ru.ru_maxrss * 1024;
	s->majflt = (uint64_t)ru.ru_majflt;
	s->minflt = (uint64_t)ru.ru_minflt;
	s->nvcsw = (uint64_t)ru.ru_nvcsw;
	s->nivcsw = (uint64_t)ru.ru_nivcsw;
	return 0;
}

int spawn_measure(const struct spawn_spec *spec, struct spawn_sample *s, char *err, size_t errlen)
{
	uint64_t t0;
	pid_t pid = spawn_start(spec, &t0, err, errlen);
	if (pid < 0)
		return -1;
	return spawn_finish(pid, t0, spec->timeout_ns, s, err, errlen);
}
