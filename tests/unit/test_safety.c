/* The safety machinery every writing command relies on: private work directories, the
 * free-space rule, removal on exit and signals, and atomic output files. */
#include "test.h"
#include "util/atomicfile.h"
#include "util/cleanup.h"
#include "util/opt.h"
#include "util/workdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int file_is(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strcmp(buf, text) == 0;
}

/* Entries in dir whose name starts with prefix. */
static int count_entries(const char *dir, const char *prefix)
{
	int n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

TEST(workdir_is_private_and_removed_by_cleanup)
{
	char dir[4096], err[256];
	const char *parent = test_tmpdir();
	CHECK(workdir_create(parent, dir, sizeof dir, err, sizeof err) == 0);
	CHECK(strncmp(dir, parent, strlen(parent)) == 0);
	CHECK_CONTAINS(dir + strlen(parent), "/.nodemark-");
	struct stat st;
	CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
	CHECK_EQ_INT(st.st_mode & 0777, 0700);
	char inner[4200];
	snprintf(inner, sizeof inner, "%s/sub", dir);
	CHECK(mkdir(inner, 0700) == 0);
	snprintf(inner, sizeof inner, "%s/sub/file", dir);
	write_file(inner, "x");
	cleanup_all();
	CHECK(!exists(dir));
	CHECK(exists(parent));
}

TEST(workdir_two_calls_give_two_directories)
{
	char a[4096], b[4096], err[256];
	CHECK(workdir_create(test_tmpdir(), a, sizeof a, err, sizeof err) == 0);
	CHECK(workdir_create(test_tmpdir(), b, sizeof b, err, sizeof err) == 0);
	CHECK(strcmp(a, b) != 0);
	CHECK_EQ_INT(count_entries(test_tmpdir(), ".nodemark-"), 2);
	cleanup_all();
	CHECK_EQ_INT(count_entries(test_tmpdir(), ".nodemark-"), 0);
}

TEST(workdir_refuses_a_file_or_a_missing_parent)
{
	char dir[4096], err[256], file[4096];
	snprintf(file, sizeof file, "%s/plain", test_tmpdir());
	write_file(file, "data");
	CHECK(workdir_create(file, dir, sizeof dir, err, sizeof err) < 0);
	CHECK_CONTAINS(err, file);
	CHECK_CONTAINS(err, "not a directory");
	CHECK(file_is(file, "data"));
	snprintf(file, sizeof file, "%s/missing", test_tmpdir());
	CHECK(workdir_create(file, dir, sizeof dir, err, sizeof err) < 0);
	CHECK_CONTAINS(err, file);
	CHECK(!exists(file));
}

TEST(space_reserve_is_five_percent_at_most_a_gib)
{
	CHECK_EQ_U64(space_reserve(100ull << 20), 5ull << 20);
	CHECK_EQ_U64(space_reserve(8ull << 20), (8ull << 20) / 20);
	CHECK_EQ_U64(space_reserve(20ull << 30), 1ull << 30);
	CHECK_EQ_U64(space_reserve(4ull << 40), 1ull << 30);
	CHECK_EQ_U64(space_reserve(0), 0);
}

TEST(space_check_refuses_with_the_amounts)
{
	char err[512] = "";
	CHECK(space_check(test_tmpdir(), 4096, err, sizeof err) == 0);
	CHECK(space_check(test_tmpdir(), 1ull << 62, err, sizeof err) < 0);
	CHECK_CONTAINS(err, test_tmpdir());
	CHECK_CONTAINS(err, "not enough free space");
	CHECK_CONTAINS(err, "needs 4.00 EiB");
	CHECK_CONTAINS(err, "kept free");
	CHECK(space_check("/nonexistent-dir-for-nodemark", 1, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "/nonexistent-dir-for-nodemark");
}

TEST(cleanup_never_follows_a_symlink_out)
{
	char dir[4096], err[256], outside[4096], link[4300];
	snprintf(outside, sizeof outside, "%s/precious", test_tmpdir());
	CHECK(mkdir(outside, 0755) == 0);
	snprintf(link, sizeof link, "%s/keep.txt", outside);
	write_file(link, "keep");
	CHECK(workdir_create(test_tmpdir(), dir, sizeof dir, err, sizeof err) == 0);
	snprintf(link, sizeof link, "%s/link", dir);
	CHECK(symlink(outside, link) == 0);
	cleanup_all();
	CHECK(!exists(dir));
	snprintf(link, sizeof link, "%s/keep.txt", outside);
	CHECK(file_is(link, "keep"));
}

TEST(cleanup_forget_keeps_a_path)
{
	char dir[4096], err[256];
	CHECK(workdir_create(test_tmpdir(), dir, sizeof dir, err, sizeof err) == 0);
	cleanup_forget(dir);
	cleanup_all();
	CHECK(exists(dir));
	CHECK(rm_tree(dir) == 0);
	CHECK(!exists(dir));
	CHECK(rm_tree(dir) == 0); /* gone already is fine */
}

/* A command that stops at safe points: the first signal only asks it to stop; a second one
 * removes the registered trees (files in subdirectories too) from the handler and exits 130. */
TEST(cleanup_second_signal_exits_130_and_removes)
{
	char dir[4096], err[256], tmp[4200], sub[4200], deep[4300];
	CHECK(workdir_create(test_tmpdir(), dir, sizeof dir, err, sizeof err) == 0);
	cleanup_forget(dir); /* the child registers its own copy */
	snprintf(tmp, sizeof tmp, "%s.partial", dir);
	snprintf(sub, sizeof sub, "%s/a", dir);
	snprintf(deep, sizeof deep, "%s/a/piece", dir);
	pid_t pid = fork();
	if (pid == 0) {
		cleanup_init();
		cleanup_stop_at_safe_points();
		cleanup_add(dir);
		mkdir(sub, 0755);
		write_file(deep, "data");
		write_file(tmp, "half");
		cleanup_add(tmp);
		raise(SIGTERM);
		if (cleanup_interrupted() != SIGTERM || !exists(deep))
			_exit(3); /* the first signal leaves the stopping to the program */
		if (cleanup_exit_code(0) != 130)
			_exit(5);
		raise(SIGHUP);
		_exit(4); /* not reached */
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ_INT(WEXITSTATUS(status), 130);
	CHECK(!exists(tmp));
	CHECK(!exists(dir));
}

/* A command with no safe point to reach is stopped by the first signal: what it registered is
 * removed and it exits 130 from the handler. */
TEST(cleanup_first_signal_stops_a_command_without_safe_points)
{
	char dir[4096], err[256], deep[4300];
	CHECK(workdir_create(test_tmpdir(), dir, sizeof dir, err, sizeof err) == 0);
	cleanup_forget(dir);
	snprintf(deep, sizeof deep, "%s/file", dir);
	pid_t pid = fork();
	if (pid == 0) {
		cleanup_init();
		cleanup_add(dir);
		write_file(deep, "data");
		raise(SIGTERM);
		_exit(4); /* not reached */
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ_INT(WEXITSTATUS(status), 130);
	CHECK(!exists(dir));
}

TEST(cleanup_runs_at_exit)
{
	char dir[4096], err[256];
	CHECK(workdir_create(test_tmpdir(), dir, sizeof dir, err, sizeof err) == 0);
	cleanup_forget(dir);
	pid_t pid = fork();
	if (pid == 0) {
		cleanup_init();
		cleanup_add(dir);
		exit(1); /* an error exit */
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	CHECK(!exists(dir));
}

TEST(atomicfile_commit_replaces_only_at_the_end)
{
	char path[4096], err[256];
	struct atomic_file af;
	snprintf(path, sizeof path, "%s/out.json", test_tmpdir());
	write_file(path, "old");
	FILE *f = afile_open(&af, path, err, sizeof err);
	CHECK(f != NULL);
	fputs("new", f);
	fflush(f);
	CHECK(file_is(path, "old")); /* readers see the old file until the commit */
	CHECK_EQ_INT(count_entries(test_tmpdir(), "out.json.tmp-"), 1);
	CHECK(afile_commit(&af, err, sizeof err) == 0);
	CHECK(file_is(path, "new"));
	CHECK_EQ_INT(count_entries(test_tmpdir(), "out.json.tmp-"), 0);
	struct stat st;
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0644);
}

TEST(atomicfile_abort_leaves_nothing)
{
	char path[4096], err[256];
	struct atomic_file af;
	snprintf(path, sizeof path, "%s/report.html", test_tmpdir());
	FILE *f = afile_open(&af, path, err, sizeof err);
	CHECK(f != NULL);
	fputs("<html>half", f);
	afile_abort(&af);
	CHECK(!exists(path));
	CHECK_EQ_INT(count_entries(test_tmpdir(), "report.html"), 0);
}

TEST(atomicfile_temp_is_removed_at_exit)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/exit.json", test_tmpdir());
	pid_t pid = fork();
	if (pid == 0) {
		char err[256];
		struct atomic_file af;
		cleanup_init();
		FILE *f = afile_open(&af, path, err, sizeof err);
		if (!f)
			_exit(3);
		fputs("{\"half\":", f);
		fflush(f);
		exit(1); /* dies before the commit */
	}
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	CHECK(!exists(path));
	CHECK_EQ_INT(count_entries(test_tmpdir(), "exit.json"), 0);
}

TEST(atomicfile_write_all_and_its_errors)
{
	char path[4096], err[256] = "";
	snprintf(path, sizeof path, "%s/all.txt", test_tmpdir());
	CHECK(afile_write_all(path, "hello", 5, err, sizeof err) == 0);
	CHECK(file_is(path, "hello"));
	snprintf(path, sizeof path, "%s/no/such/dir/all.txt", test_tmpdir());
	CHECK(afile_write_all(path, "x", 1, err, sizeof err) < 0);
	CHECK_CONTAINS(err, path);
	/* A directory where the file should go: the rename fails, nothing is left behind. */
	snprintf(path, sizeof path, "%s/adir", test_tmpdir());
	CHECK(mkdir(path, 0755) == 0);
	CHECK(afile_write_all(path, "x", 1, err, sizeof err) < 0);
	CHECK_CONTAINS(err, path);
	CHECK_EQ_INT(count_entries(test_tmpdir(), "adir.tmp-"), 0);
}

TEST(atomicfile_check_refuses_before_writing)
{
	char path[4096], err[512] = "";
	CHECK(afile_check("-", err, sizeof err) == 0);
	snprintf(path, sizeof path, "%s/ok.json", test_tmpdir());
	CHECK(afile_check(path, err, sizeof err) == 0);
	CHECK(afile_check("relative.json", err, sizeof err) == 0); /* the current directory */
	CHECK(afile_check("", err, sizeof err) < 0);
	snprintf(path, sizeof path, "%s/no/such/x.json", test_tmpdir());
	CHECK(afile_check(path, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "does not exist");
	CHECK_CONTAINS(err, "/no/such\"");
	CHECK(afile_check(test_tmpdir(), err, sizeof err) < 0);
	CHECK_CONTAINS(err, "is a directory");
	snprintf(path, sizeof path, "%s/plain", test_tmpdir());
	write_file(path, "x");
	snprintf(path, sizeof path, "%s/plain/x.json", test_tmpdir());
	CHECK(afile_check(path, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "is not a directory");
	/* nothing was created by checking */
	CHECK_EQ_INT(count_entries(test_tmpdir(), "ok.json"), 0);
}

TEST(atomicfile_writes_a_fifo_in_place)
{
	char path[4096], err[256] = "";
	snprintf(path, sizeof path, "%s/fifo", test_tmpdir());
	CHECK(mkfifo(path, 0600) == 0);
	CHECK(afile_check(path, err, sizeof err) == 0);
	int rfd = open(path, O_RDONLY | O_NONBLOCK); /* a reader, so the writer's open does not block */
	CHECK(rfd >= 0);
	CHECK(afile_write_all(path, "hello", 5, err, sizeof err) == 0);
	char buf[16] = "";
	CHECK(read(rfd, buf, sizeof buf) == 5);
	close(rfd);
	CHECK(strcmp(buf, "hello") == 0);
	struct stat st;
	CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode)); /* not replaced by a regular file */
	CHECK_EQ_INT(count_entries(test_tmpdir(), "fifo.tmp-"), 0);
}

/* opt_next in a child: returns the exit status (0 when it parsed) and the value it took. */
static int parse_in_child(char **argv, int argc, const char *want_value)
{
	static const struct opt_spec specs[] = { { "output", OPT_ARG, 1 }, { "n", OPT_ARG, 2 },
						 { "no-save", OPT_NOARG, 3 }, { 0 } };
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		struct opt_iter it;
		opt_init(&it, argc, argv);
		int id = opt_next(&it, specs);
		_exit((id == 1 || id == 2) && strcmp(it.arg, want_value) == 0 ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(opt_value_is_never_the_next_option)
{
	char *a1[] = { "x", "--output", "--no-save", NULL };
	CHECK_EQ_INT(parse_in_child(a1, 3, ""), 2);
	char *a2[] = { "x", "-n", "--", NULL };
	CHECK_EQ_INT(parse_in_child(a2, 3, ""), 2);
	char *a3[] = { "x", "--output=--odd", NULL };
	CHECK_EQ_INT(parse_in_child(a3, 2, "--odd"), 0);
	char *a4[] = { "x", "--output", "-", NULL };
	CHECK_EQ_INT(parse_in_child(a4, 3, "-"), 0);
	char *a5[] = { "x", "-n", "-1", NULL };
	CHECK_EQ_INT(parse_in_child(a5, 3, "-1"), 0);
	char *a6[] = { "x", "--output", "--1", NULL }; /* "--" and a digit: not an option name */
	CHECK_EQ_INT(parse_in_child(a6, 3, "--1"), 0);
	CHECK(opt_is_option_word("--no-save") && opt_is_option_word("--"));
	CHECK(!opt_is_option_word("-") && !opt_is_option_word("-x") && !opt_is_option_word("--9"));
}
