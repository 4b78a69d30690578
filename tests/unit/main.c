/* Runs every registered unit test in a child process; argv[1] (optional) filters by substring. */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/engine.h"
#include "util/cleanup.h"

struct test {
	const char *file, *name;
	void (*fn)(void);
};

static struct test tests[4096];
static int ntests;
static int failed_here;
static char tmpdir[256];

void test_register(const char *file, const char *name, void (*fn)(void))
{
	if (ntests < (int)(sizeof tests / sizeof tests[0]))
		tests[ntests++] = (struct test){ file, name, fn };
}

void test_failed(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	failed_here = 1;
	fprintf(stderr, "    %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *test_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(tmpdir, sizeof tmpdir, "%s/nm-unit-XXXXXX", base ? base : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(3);
		}
	}
	return tmpdir;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

int main(int argc, char **argv)
{
	int pass = 0, fail = 0;
	const char *filter = argc > 1 ? argv[1] : NULL;
	for (int i = 0; i < ntests; i++) {
		struct test *t = &tests[i];
		if (filter && !strstr(t->name, filter) && !strstr(t->file, filter))
			continue;
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			t->fn();
			if (tmpdir[0])
				rm_tree(tmpdir);
			exit(failed_here ? 1 : 0);
		}
		int status = 0;
		waitpid(pid, &status, 0);
		int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (ok) {
			printf("PASS: %s: %s\n", base(t->file), t->name);
			pass++;
		} else {
			if (WIFSIGNALED(status))
				printf("FAIL: %s: %s: killed by signal %d\n", base(t->file), t->name, WTERMSIG(status));
			else
				printf("FAIL: %s: %s (exit %d)\n", base(t->file), t->name, WEXITSTATUS(status));
			fail++;
		}
	}
	printf("unit: %d passed, %d failed\n", pass, fail);
	return fail ? 1 : 0;
}

const struct io_engine_ops *test_engine(const char *name)
{
	const struct io_engine_ops *e;
	if (io_engine_parse(name, &e) < 0 || !e) {
		fprintf(stderr, "no engine named %s\n", name);
		abort();
	}
	return e;
}
