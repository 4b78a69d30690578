/* Running one child command and taking the kernel's own accounting of it.
 *
 * The measured interval is as short as the kernel allows: the clock is read just before the
 * vfork-style clone (in the spawner, proc/spawner.h, so the child's peak memory is its own; by
 * posix_spawn here when there is none) and just after waitid() reports the exit.  The child is
 * left a zombie (WNOWAIT) so /proc/PID/io can still be read, then reaped with wait4() for its
 * rusage; neither step lands inside the measured wall time. */
#ifndef NM_PROC_SPAWN_H
#define NM_PROC_SPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What one run of a command cost. */
struct spawn_sample {
	uint64_t wall_ns;
	uint64_t user_ns, sys_ns;       /* the child and the descendants it waited for */
	uint64_t max_rss;               /* bytes */
	uint64_t majflt, minflt;
	uint64_t nvcsw, nivcsw;         /* voluntary / involuntary context switches */
	uint64_t read_bytes, write_bytes; /* /proc/PID/io: what reached the storage layer */
	uint64_t rchar, wchar;          /* /proc/PID/io: what passed through read/write calls */
	int io_ok;                      /* the /proc/PID/io figures are valid */
	double energy_j;                /* RAPL, NAN when not readable */
	int status;                     /* raw wait status */
	int exit_code;                  /* exit code, or 128 + signal */
	int timed_out;
};

/* Where the child's standard streams go. */
enum spawn_stdio {
	SPAWN_IO_NULL,      /* /dev/null */
	SPAWN_IO_INHERIT,   /* ours */
	SPAWN_IO_FD,        /* stdin only: spawn_spec.in_fd */
};

struct spawn_spec {
	char *const *argv;          /* argv[0] as resolved by spawn_resolve() (a path) */
	enum spawn_stdio in, out;     /* out covers stdout and stderr */
	int out_fd;                 /* >= 0: stdout and stderr go to this fd instead (a pipe) */
	int in_fd;                  /* with in == SPAWN_IO_FD: stdin reads this fd */
	uint64_t timeout_ns;        /* 0: none; else the child is killed (SIGKILL) after it */
	char *const *envp;          /* the child's environment; NULL: ours.  A variable for one
				     * child goes here, never through setenv (threads may be running) */
};

/* Find a program on $PATH once, so the search never lands in the measured time.
 * Returns a malloc'd path, or NULL with a message ("'nosuch': command not found"). */
char *spawn_resolve(const char *name, char *err, size_t errlen);

/* Start the child; returns its pid, or -1 with a message. *t0 gets the clock just before. */
pid_t spawn_start(const struct spawn_spec *spec, uint64_t *t0, char *err, size_t errlen);

/* Wait for the child started at t0 and fill *s. While waiting, a SIGINT/SIGTERM/SIGHUP that
 * reached nodemark (util/cleanup.h) is passed on to the child once.  Returns 0, or -1 with a
 * message (the child is then reaped). */
int spawn_finish(pid_t pid, uint64_t t0, uint64_t timeout_ns, struct spawn_sample *s, char *err, size_t errlen);

/* spawn_start + spawn_finish. */
int spawn_measure(const struct spawn_spec *spec, struct spawn_sample *s, char *err, size_t errlen);

/* Parse the text of /proc/PID/io into *s (sets io_ok). Exposed for tests. */
void spawn_parse_proc_io(const char *text, struct spawn_sample *s);

/* The exit code a shell would show for a wait status: the code, or 128 + signal. */
int spawn_exit_code(int status);

#endif
