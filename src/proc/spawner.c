#include "proc/spawner.h"
#include "proc/spawner_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

static int sock = -1;
static pid_t spawner_pid = -1;
static int tried; /* started once: never again (later, nodemark may be big) */

/* The static helper, embedded by spawner_blob.c. */
extern const char nm_spawner_helper[], nm_spawner_helper_end[];

/* The helper as an anonymous executable file. Returns its descriptor, or -1. */
static int helper_file(void)
{
	size_t n = (size_t)(nm_spawner_helper_end - nm_spawner_helper);
	int fd = memfd_create("nodemark-spawn", MFD_CLOEXEC | MFD_EXEC);
	if (fd < 0 && errno == EINVAL) /* before Linux 6.3, which knows no MFD_EXEC */
		fd = memfd_create("nodemark-spawn", MFD_CLOEXEC);
	if (fd < 0 || n == 0)
		goto fail;
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, nm_spawner_helper + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		done += (size_t)w;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

/* In the fork: become the helper (a fresh, small address space); where it cannot be executed
 * (a memfd_noexec policy), serve from this copy of nodemark instead. */
static _Noreturn void become_spawner(int exe, int fd)
{
	if (fd <= 2)
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (exe >= 0 && fcntl(fd, F_SETFD, 0) == 0) {
		char num[16], name[] = "nodemark-spawn", *argv[] = { name, num, NULL }, *envp[] = { NULL };
		snprintf(num, sizeof num, "%d", fd);
		fexecve(exe, argv, envp);
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	spawner_serve(fd, 1);
}

/* For the tests: NODEMARK_TEST_BALLAST_MIB=N makes nodemark hold N MiB (touched) from the
 * spawner's start on, to show that its children's peak memory does not include it. */
static void hold_ballast(void)
{
	static char *ballast;
	const char *mib = getenv("NODEMARK_TEST_BALLAST_MIB");
	size_t n = mib ? (size_t)strtoul(mib, NULL, 10) << 20 : 0;
	if (n && !ballast && (ballast = malloc(n)))
		memset(ballast, 1, n);
}

static int start(void)
{
	int sv[2];
	const char *mode = getenv("NODEMARK_SPAWNER");

	if (mode && strcmp(mode, "off") == 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	int exe = mode && strcmp(mode, "fork") == 0 ? -1 : helper_file();
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		become_spawner(exe, sv[1]);
	}
	if (exe >= 0)
		close(exe);
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -1;
	}
	sock = sv[0];
	spawner_pid = pid;
	atexit(spawner_stop);
	return 0;
}

int spawner_start(void)
{
	if (tried)
		return sock >= 0 ? 0 : -1;
	tried = 1;
	int rc = start();
	hold_ballast();
	return rc;
}

void spawner_stop(void)
{
	if (sock < 0)
		return;
	close(sock);
	sock = -1;
	kill(spawner_pid, SIGKILL); /* it would go at EOF; this also covers a stopped one */
	while (waitpid(spawner_pid, NULL, 0) < 0 && errno == EINTR)
		;
	spawner_pid = -1;
}

/* 0 sent; 1 not sent (a descriptor of ours is closed); -1 the spawner is gone. */
static int send_request(char *const argv[], char *const envp[], const int fds[3])
{
	struct spawn_request h = { 0 };
	size_t len = 0;
	for (; argv[h.argc]; h.argc++)
		len += strlen(argv[h.argc]) + 1;
	for (; envp[h.envc]; h.envc++)
		len += strlen(envp[h.envc]) + 1;
	h.len = len;
	char *body = malloc(len ? len : 1), *p = body;
	if (!body)
		abort();
	for (uint32_t i = 0; i < h.argc; i++)
		p = stpcpy(p, argv[i]) + 1;
	for (uint32_t i = 0; i < h.envc; i++)
		p = stpcpy(p, envp[i]) + 1;

	union {
		char buf[CMSG_SPACE(3 * sizeof(int))];
		struct cmsghdr align;
	} cm;
	memset(&cm, 0, sizeof cm);
	struct iovec iov = { &h, sizeof h };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.buf,
			      .msg_controllen = sizeof cm.buf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(3 * sizeof(int));
	memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
	ssize_t w;
	while ((w = sendmsg(sock, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	int rc = w < 0 ? (errno == EBADF ? 1 : -1) : 0; /* EBADF: one of ours is closed; nothing sent */
	if (rc == 0 && (size_t)w < sizeof h)
		rc = spawner_write_full(sock, (char *)&h + w, sizeof h - (size_t)w);
	if (rc == 0)
		rc = spawner_write_full(sock, body, len);
	free(body);
	return rc;
}

int spawner_spawn(char *const argv[], char *const envp[], const int fds[3], pid_t *pid, uint64_t *t0)
{
	struct spawn_reply rep;
	if (sock < 0)
		return -1;
	int sent = send_request(argv, envp, fds);
	if (sent > 0)
		return -1;
	if (sent < 0 || spawner_read_full(sock, &rep, sizeof rep) < 0) {
		/* the spawner is gone (or the descriptors could not be passed): spawn directly */
		spawner_stop();
		return -1;
	}
	if (rep.pid < 0)
		return rep.err ? rep.err : EAGAIN;
	if (rep.err) {
		while (waitpid(rep.pid, NULL, 0) < 0 && errno == EINTR)
			;
		return rep.err;
	}
	*pid = rep.pid;
	*t0 = rep.t0;
	return 0;
}
