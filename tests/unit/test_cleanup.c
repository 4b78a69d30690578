/* util/cleanup.c's second signal (a program slow to stop): what a run was writing when it came (a
 * private directory with its test files still in it) goes, not only the empty directories. */
#include "test.h"
#include "util/cleanup.h"
#include "util/workdir.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		(void)!write(fd, "data", 4);
		close(fd);
	}
}

TEST(cleanup_second_signal_removes_a_whole_tree)
{
	char dir[4096], err[256], sub[4200], f1[4200], f2[4300], outside[4200], link[4200];
	CHECK(workdir_create(test_tmpdir(), dir, sizeof dir, err, sizeof err) == 0);
	cleanup_forget(dir); /* the child registers its own copy */
	snprintf(sub, sizeof sub, "%s/sub", dir);
	snprintf(f1, sizeof f1, "%s/testfile.0.0", dir);
	snprintf(f2, sizeof f2, "%s/deeper", sub);
	snprintf(outside, sizeof outside, "%s/keep-me", test_tmpdir());
	snprintf(link, sizeof link, "%s/link", dir);
	CHECK(mkdir(sub, 0700) == 0);
	make_file(f1);
	make_file(f2);
	make_file(outside);
	CHECK(symlink(test_tmpdir(), link) == 0); /* a link out of the tree: removed, not followed */
	pid_t pid = fork();
	if (pid == 0) {
		cleanup_init();
		cleanup_stop_at_safe_points();
		cleanup_add(dir);
		raise(SIGINT);
		if (cleanup_interrupted() != SIGINT)
			_exit(3);
		raise(SIGHUP); /* the second: the handler removes the tree and exits */
		_exit(4);
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ_INT(WEXITSTATUS(status), 130);
	struct stat st;
	CHECK(lstat(dir, &st) < 0);
	CHECK(stat(outside, &st) == 0);
}
