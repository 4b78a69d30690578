/* The spawner's loop (see spawner.h): one clone per request, the clock read just before it. */
#include "proc/spawner_proto.h"
#include "util/clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

struct job {
	char **argv, **envp;
	int fd[3];
	volatile int err; /* written by the child before it gives up (shared memory until exec) */
};

/* The command, in the spawner's address space until exec. */
static int child_main(void *arg)
{
	struct job *j = arg;
	sigset_t none;
	for (int i = 0; i < 3; i++)
		if (dup2(j->fd[i], i) < 0)
			goto fail;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(j->argv[0], j->argv, j->envp);
fail:
	j->err = errno;
	_exit(127);
}

int spawner_read_full(int fd, void *buf, size_t n)
{
	for (size_t done = 0; done < n;) {
		ssize_t r = read(fd, (char *)buf + done, n - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	return 0;
}

int spawner_write_full(int fd, const void *buf, size_t n)
{
	for (size_t done = 0; done < n;) {
		ssize_t w = send(fd, (const char *)buf + done, n - done, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

/* The header and its three descriptors. Returns 0, or -1 at EOF or on a malformed request. */
static int receive_header(int fd, struct spawn_request *h, int fds[3])
{
	union {
		char buf[CMSG_SPACE(3 * sizeof(int))];
		struct cmsghdr align;
	} cm;
	struct iovec iov = { h, sizeof *h };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.buf,
			      .msg_controllen = sizeof cm.buf };
	ssize_t r;
	while ((r = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (r <= 0)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(3 * sizeof(int)) || (msg.msg_flags & MSG_CTRUNC))
		return -1;
	memcpy(fds, CMSG_DATA(c), 3 * sizeof(int));
	if ((size_t)r < sizeof *h && spawner_read_full(fd, (char *)h + r, sizeof *h - (size_t)r) < 0)
		return -1;
	return 0;
}

/* Point argv and envp into the strings of the request body. Returns 0, or -1 if malformed. */
static int split_body(char *body, uint64_t len, uint32_t argc, uint32_t envc, char **ptrs)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < len && n < (uint64_t)argc + envc; n++) {
		ptrs[n + (n >= argc)] = body + i; /* a NULL slot ends argv */
		const char *end = memchr(body + i, 0, len - i);
		if (!end)
			return -1;
		i = (uint64_t)(end - body) + 1;
	}
	if (n != (uint64_t)argc + envc || argc == 0)
		return -1;
	ptrs[argc] = NULL;
	ptrs[argc + 1 + envc] = NULL;
	return 0;
}

/* Descriptors marked close-on-exec would vanish at every exec anyway; the spawner must not keep
 * them open (a pipe's write end held here would keep nodemark's reader from seeing EOF). */
static void close_if_cloexec(int fd)
{
	int flags = fcntl(fd, F_GETFD);
	if (flags >= 0 && (flags & FD_CLOEXEC))
		close(fd);
}

static void close_cloexec_fds(int keep)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d) {
		for (int fd = 3; fd < 1024; fd++)
			if (fd != keep)
				close_if_cloexec(fd);
		return;
	}
	int self = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] != '.' && fd > 2 && fd != keep && fd != self)
			close_if_cloexec(fd);
	}
	closedir(d);
}

static void reset_handlers(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN && sa.sa_handler != SIG_DFL) {
			sa.sa_handler = SIG_DFL;
			sa.sa_flags = 0;
			sigaction(sig, &sa, NULL);
		}
	}
}

_Noreturn void spawner_serve(int fd, int forked)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	sigset_t all;
	char *body = NULL, **ptrs = NULL;
	uint64_t body_cap = 0, ptrs_cap = 0;

	/* Signals: none interrupts the spawner (it goes when nodemark does), and nodemark's
	 * handlers must not run in a child before its exec. Ignored ones stay ignored, as
	 * posix_spawn would leave them. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (forked)
		reset_handlers();
	prctl(PR_SET_NAME, "nodemark-spawn");
	/* Every request brings the child's own 0, 1, 2; ours are /dev/null, so the descriptors
	 * received are never 0-2 (child_main's dup2s cannot overwrite one another). */
	int dn = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (dn < 0)
		_exit(1); /* nodemark then spawns directly */
	for (int i = 0; i < 3; i++)
		if (dn != i && dup2(dn, i) < 0)
			_exit(1);
	if (forked)
		close_cloexec_fds(fd);

	for (;;) {
		struct spawn_request h;
		struct job j = { 0 };
		if (receive_header(fd, &h, j.fd) < 0 || h.argc > (1u << 24) || h.envc > (1u << 24))
			_exit(0);
		if (h.len > body_cap && !(body = realloc(body, body_cap = h.len)))
			_exit(1);
		if ((uint64_t)h.argc + h.envc + 2 > ptrs_cap &&
		    !(ptrs = realloc(ptrs, (ptrs_cap = (uint64_t)h.argc + h.envc + 2) * sizeof *ptrs)))
			_exit(1);
		if (spawner_read_full(fd, body, h.len) < 0 || split_body(body, h.len, h.argc, h.envc, ptrs) < 0)
			_exit(1);
		j.argv = ptrs;
		j.envp = ptrs + h.argc + 1;

		struct spawn_reply rep = { .t0 = clock_now_ns() };
		rep.pid = clone(child_main, stack + sizeof stack, CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD, &j);
		rep.err = rep.pid < 0 ? errno : j.err;
		for (int i = 0; i < 3; i++)
			close(j.fd[i]);
		if (spawner_write_full(fd, &rep, sizeof rep) < 0)
			_exit(0);
	}
}
