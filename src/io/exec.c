/* fio's exec engine: each thread runs program= with arguments= (split at spaces; %r becomes
 * the runtime in seconds, %n the job's name) at its first I/O, then checks on it every 50 ms
 * (fio's think time) until the runtime is over; then the program gets SIGTERM, grace_time
 * seconds to exit, and SIGKILL.  Without a runtime the job ends when the program exits.
 * With std_redirect=1 (fio's default) its output goes to NAME.stdout and NAME.stderr in the
 * current directory, where fio puts them: the user asked for them, so they stay; a program
 * that cannot be started then leaves its reason there and the job runs on, as fio's does
 * (without std_redirect it is the job's error).  No data moves (IO_ENGINE_NO_DATA). */
#include "io/internal.h"
#include "io/loop.h"
#include "io/ticks.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CHECK_EVERY_NS 50000000ull /* fio's 50 ms between looks at the program */

/* fio's exec options (the table is at the end) */
struct exec_opts {
	const char *program, *arguments; /* arguments: %r the runtime in s, %n the job's name */
	unsigned grace_time_s;           /* SIGTERM, then this long before SIGKILL; fio's default 1 */
	int std_redirect;                /* 1 (fio's default): NAME.stdout and NAME.stderr in the cwd */
};
IO_ENGINE_OPTS_FIT(struct exec_opts);

struct exec_state {
	pid_t pid;                 /* 0: not started; -1: exited and reaped */
};

static int exec_check(const struct io_job *job, const void *opts, char *err, size_t errlen)
{
	const struct exec_opts *o = opts;
	(void)job;
	if (!o->program || !*o->program)
		return snprintf(err, errlen, "the exec engine needs program="), -1;
	return 0;
}

static int exec_setup(struct io_worker *w)
{
	struct exec_state *st = calloc(1, sizeof *st);
	if (!st)
		return -ENOMEM;
	w->engine_data = st;
	return 0;
}

/* s with every %r and %n replaced; malloc'd. */
static char *expand(const struct io_job *job, const char *s)
{
	char runtime[24];
	snprintf(runtime, sizeof runtime, "%llu", (unsigned long long)(job->runtime_ns / 1000000000ull));
	size_t cap = strlen(s) * (sizeof runtime + sizeof job->name) + 1, n = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	for (const char *p = s; *p; p++) {
		const char *with = NULL;
		if (p[0] == '%' && p[1] == 'r')
			with = runtime;
		else if (p[0] == '%' && p[1] == 'n')
			with = job->name;
		if (with) {
			n += (size_t)snprintf(out + n, cap - n, "%s", with);
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = 0;
	return out;
}

/* "program arguments" split at spaces into argv (pointing into line, which is cut). */
static char **split_args(char *line)
{
	size_t cap = strlen(line) / 2 + 2, n = 0;
	char **argv = calloc(cap, sizeof *argv);
	if (!argv)
		return NULL;
	char *save = NULL;
	for (char *tok = strtok_r(line, " ", &save); tok && n + 1 < cap; tok = strtok_r(NULL, " ", &save))
		argv[n++] = tok;
	return argv;
}

/* NAME.stdout or NAME.stderr in the current directory, opened here rather than in the child
 * so that a refusal names the file. O_NOFOLLOW: a link planted under the name would truncate
 * whatever it points at. -1 with the job failed and why. */
static int open_output(struct io_worker *w, const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0)
		return fd;
	int e = errno;
	if (e == ELOOP)
		io_worker_failf(w, e,
				"%s is a symbolic link: nodemark does not write the program's output through a "
				"link (it would overwrite what the link points at); remove it or run elsewhere",
				path);
	else
		io_worker_failf(w, e, "%s: cannot open the program's output: %s", path, strerror(e));
	return -1;
}

static int start_program(struct io_worker *w, struct exec_state *st)
{
	const struct exec_opts *o = IO_WORKER_OPTS(w, struct exec_opts);
	int fo = -1, fe = -1;
	if (o->std_redirect) {
		char out[96], errf[96];
		snprintf(out, sizeof out, "%s.stdout", w->job->name);
		snprintf(errf, sizeof errf, "%s.stderr", w->job->name);
		if ((fo = open_output(w, out)) < 0 || (fe = open_output(w, errf)) < 0) {
			if (fo >= 0)
				close(fo);
			return -w->res->error;
		}
	}
	char *args = o->arguments ? expand(w->job, o->arguments) : strdup("");
	char *line = NULL;
	if (!args || asprintf(&line, "%s %s", o->program, args) < 0) {
		free(args);
		if (fo >= 0)
			close(fo), close(fe);
		return -ENOMEM;
	}
	free(args);
	char **argv = split_args(line);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (fo >= 0) {
		posix_spawn_file_actions_adddup2(&fa, fo, 1);
		posix_spawn_file_actions_adddup2(&fa, fe, 2);
	}
	int rc = argv && argv[0] ? posix_spawnp(&st->pid, argv[0], &fa, NULL, argv, environ) : EINVAL;
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	free(line);
	/* A program that cannot be started leaves what a shell would: an empty NAME.stdout and
	 * the reason in NAME.stderr, and fio's job runs on. */
	int noted = rc != 0 && fe >= 0 && dprintf(fe, "%s: cannot run: %s\n", o->program, strerror(rc)) > 0;
	if (fo >= 0)
		close(fo), close(fe);
	if (rc == 0)
		return 0;
	if (noted) {
		st->pid = -1;
		return 0;
	}
	io_worker_failf(w, rc, "%s: cannot run: %s", o->program, strerror(rc));
	return -rc;
}

/* Whether the program has exited (and reap it). */
static int program_gone(struct exec_state *st)
{
	int status;
	if (st->pid > 0 && waitpid(st->pid, &status, WNOHANG) == st->pid)
		st->pid = -1;
	return st->pid < 0;
}

static int exec_queue(struct io_worker *w, struct io_req *r)
{
	struct exec_state *st = w->engine_data;
	r->res = r->len;
	if (st->pid == 0) {
		int rc = start_program(w, st);
		if (rc < 0) {
			r->res = rc;
			return 1;
		}
	} else if (program_gone(st) && !w->job->runtime_ns) {
		return IO_QUEUE_LAST;
	}
	w->pause_ns = CHECK_EVERY_NS;
	return 1;
}

/* SIGTERM, grace_time seconds to go, then SIGKILL; the child is always reaped. */
static void exec_cleanup(struct io_worker *w)
{
	struct exec_state *st = w->engine_data;
	if (st && st->pid > 0 && !program_gone(st)) {
		kill(st->pid, SIGTERM);
		uint64_t end = ticks_now() + ticks_from_ns((uint64_t)IO_WORKER_OPTS(w, struct exec_opts)->grace_time_s * 1000000000ull);
		while (!program_gone(st) && ticks_now() < end) {
			struct timespec ts = { 0, 10000000 };
			nanosleep(&ts, NULL);
		}
		if (st->pid > 0) {
			kill(st->pid, SIGKILL);
			waitpid(st->pid, NULL, 0);
		}
	}
	free(st);
	w->engine_data = NULL;
}

static const struct io_engine_option exec_options[] = {
	{ "program", NULL, IO_EOPT_STR, NULL, 0, 0, NULL, IO_EOPT_OFF(struct exec_opts, program), "exec_opts.program", 0 },
	{ "arguments", NULL, IO_EOPT_STR, NULL, 0, 0, NULL, IO_EOPT_OFF(struct exec_opts, arguments),
	  "exec_opts.arguments (%r: the runtime in seconds, %n: the job's name)", 0 },
	{ "grace_time", NULL, IO_EOPT_UINT, "1", 0, 86400, NULL, IO_EOPT_OFF(struct exec_opts, grace_time_s),
	  "exec_opts.grace_time_s (SIGTERM to SIGKILL)", 1 },
	{ "std_redirect", NULL, IO_EOPT_BOOL, "1", 0, 0, NULL, IO_EOPT_OFF(struct exec_opts, std_redirect),
	  "exec_opts.std_redirect (NAME.stdout, NAME.stderr in the current directory)", 1 },
	{ 0 },
};

/* fio's exec options */
static const struct io_engine_fio_option exec_fio_options[] = {
	{ "program", 0 }, { "arguments", 0 }, { "grace_time", 0 }, { "std_redirect", 0 }, { 0 },
};

const struct io_engine_ops io_exec_ops = {
	.name = "exec",
	.fio_options = exec_fio_options,
	.caps = IO_ENGINE_SYNC | IO_ENGINE_DISKLESS | IO_ENGINE_NO_DATA,
	.options = exec_options,
	.options_size = sizeof(struct exec_opts),
	.check = exec_check,
	.setup = exec_setup,
	.queue = exec_queue,
	.cleanup = exec_cleanup,
};
