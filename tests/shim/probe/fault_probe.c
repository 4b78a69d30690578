/* fault_probe: performs the file operations named on its command line and says how each went,
 * so test_faults_shim.sh can check that faults.so fails exactly the calls its rules pick.
 *
 *   fault_probe STEP...     STEP is one of
 *     write:FILE:N  pwrite:FILE:N   N bytes in 4 KiB calls (stops at the first failure)
 *     fsync:FILE  fdatasync:FILE  rename:OLD:NEW  open:FILE  mkdir:DIR
 *     uring:FILE:N  uring-fixed:FILE:N   N bytes as 4 KiB io_uring writes (plain or registered fd)
 *     uring-fsync:FILE
 *   prints "STEP ok BYTES" or "STEP ERRNAME BYTES" per step; exit 0 unless it could not run. */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case 0: return "ok";
	case ENOSPC: return "ENOSPC";
	case EIO: return "EIO";
	case EDQUOT: return "EDQUOT";
	case EINVAL: return "EINVAL";
	case EROFS: return "EROFS";
	case EACCES: return "EACCES";
	default: return strerror(e);
	}
}

static int open_w(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		fprintf(stderr, "fault_probe: %s: %s\n", path, strerror(errno));
		exit(3);
	}
	return fd;
}

static int plain_writes(const char *path, long n, int positional, long *done)
{
	static char buf[4096];
	int fd = open_w(path), e = 0;
	for (*done = 0; *done < n;) {
		size_t len = n - *done < 4096 ? (size_t)(n - *done) : 4096;
		ssize_t w = positional ? pwrite(fd, buf, len, *done) : write(fd, buf, len);
		if (w < 0) {
			e = errno;
			break;
		}
		*done += w;
	}
	close(fd);
	return e;
}

static int uring_writes(const char *path, long n, int fixed, int do_fsync, long *done)
{
	static char buf[4096];
	struct io_uring ring;
	int fd = open_w(path), e = 0;
	if (io_uring_queue_init(8, &ring, 0) < 0) {
		fprintf(stderr, "fault_probe: no io_uring here\n");
		exit(4);
	}
	if (fixed && io_uring_register_files(&ring, &fd, 1) < 0)
		exit(4);
	*done = 0;
	for (long off = 0; off < n || do_fsync; off += 4096) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		if (do_fsync)
			io_uring_prep_fsync(sqe, fixed ? 0 : fd, 0);
		else
			io_uring_prep_write(sqe, fixed ? 0 : fd, buf, n - off < 4096 ? (unsigned)(n - off) : 4096, off);
		if (fixed)
			sqe->flags |= IOSQE_FIXED_FILE;
		sqe->user_data = 42;
		io_uring_submit(&ring);
		struct io_uring_cqe *cqe;
		if (io_uring_wait_cqe(&ring, &cqe) < 0)
			exit(4);
		if (cqe->user_data != 42)
			exit(5); /* the shim must keep the program's user_data */
		int res = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
		if (res < 0) {
			e = -res;
			break;
		}
		*done += res;
		if (do_fsync)
			break;
	}
	io_uring_queue_exit(&ring);
	close(fd);
	return e;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char step[4096], *a, *b;
		snprintf(step, sizeof step, "%s", argv[i]);
		char *op = strtok_r(step, ":", &b);
		a = strtok_r(NULL, ":", &b);
		char *c = strtok_r(NULL, ":", &b);
		long done = 0, n = c ? atol(c) : 0;
		int e = 0, fd;
		if (!op || !a) {
			fprintf(stderr, "fault_probe: bad step %s\n", argv[i]);
			return 2;
		}
		if (!strcmp(op, "write") || !strcmp(op, "pwrite")) {
			e = plain_writes(a, n, op[0] == 'p', &done);
		} else if (!strcmp(op, "fsync") || !strcmp(op, "fdatasync")) {
			fd = open_w(a);
			e = (op[1] == 's' ? fsync(fd) : fdatasync(fd)) < 0 ? errno : 0;
			close(fd);
		} else if (!strcmp(op, "rename")) {
			e = rename(a, c) < 0 ? errno : 0;
		} else if (!strcmp(op, "open")) {
			fd = open(a, O_WRONLY | O_CREAT, 0644);
			e = fd < 0 ? errno : 0;
			if (fd >= 0)
				close(fd);
		} else if (!strcmp(op, "mkdir")) {
			e = mkdir(a, 0755) < 0 ? errno : 0;
		} else if (!strcmp(op, "uring") || !strcmp(op, "uring-fixed")) {
			e = uring_writes(a, n, op[5] == '-', 0, &done);
		} else if (!strcmp(op, "uring-fsync")) {
			e = uring_writes(a, 0, 0, 1, &done);
		} else {
			fprintf(stderr, "fault_probe: unknown step %s\n", op);
			return 2;
		}
		printf("%s %s %ld\n", argv[i], ename(e), done);
	}
	return 0;
}
