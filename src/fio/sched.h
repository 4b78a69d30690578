/* Running a plan's jobs in fio's order: every job's files are laid out first (so no layout
 * lands in another job's time; a create_serialize=0 job's by its own thread when it starts), then one starter thread starts the jobs as fio's does, each
 * on its own thread: in the order given, a job with startdelay not before that long after the
 * run began, a stonewall job (and every job after it) only once nothing runs, a wait_for job
 * once that job is done.  With exitall, a job's end stops others (exit_what: its group, what
 * runs, or all), and a job stopped before it started never runs. */
#ifndef NM_FIO_SCHED_H
#define NM_FIO_SCHED_H

#include <pthread.h>
#include <time.h>
#include "fio/plan.h"
#include "fio/steadystate.h"
#include "io/engine.h"

struct fio_sched;

struct fio_runner {
	struct fio_sched *sched;
	size_t idx;
	struct io_session *session;     /* set under the lock (a create_serialize=0 job's once it starts) */
	struct io_job_result *res;      /* the job's numjobs results */
	/* steady state judges (fio/steadystate.h), as fio 3.33's: one per thread, or with
	 * group_reporting one for the group's sum, held by the group's last such job; nss 0: none */
	struct fio_ss *ss;
	unsigned nss;
	int status;                     /* IO_OK, IO_INTERRUPTED, ... */
	char err[512];
	pthread_t tid;
	int started;
	struct io_progress progress;    /* under the lock: the engine's last report (status line) */
	int has_progress;
};

struct fio_sched {
	const struct fio_plan *plan;
	struct fio_runner *runs;        /* one per job */
	unsigned char *done;            /* under lock: ended, or stopped before it started */
	unsigned char *terminate;       /* under lock: exitall stops the job (or keeps it from starting) */
	int exitall;                    /* some job has exitall (fio: then every job's end stops others) */
	uint64_t genesis_ns;            /* when the starter began (startdelay counts from there) */
	pthread_t starter;
	int starter_started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_mutex_t layout_lock;    /* create_serialize=0 jobs that share a file lay out one at a time */
};

/* Opens every job's session (laying its files out), but a create_serialize=0 job's, which its
 * thread opens when it starts. Returns an NM_EXIT_* code; on failure the
 * job and the reason are said on stderr.  fio_sched_close must be called either way. */
int fio_sched_open(struct fio_sched *s, const struct fio_plan *p);
void fio_sched_start(struct fio_sched *s);
/* Waits until every job is done (returns 1) or the deadline passes (0). */
int fio_sched_wait(struct fio_sched *s, const struct timespec *deadline);
int fio_sched_job_done(struct fio_sched *s, size_t i);
/* Job i's session, or NULL while a create_serialize=0 job has not opened it. */
struct io_session *fio_sched_session(struct fio_sched *s, size_t i);
void fio_sched_join(struct fio_sched *s);
/* The jobs' outcome as an NM_EXIT_* code; failures are said on stderr. */
int fio_sched_status(const struct fio_sched *s);
void fio_sched_close(struct fio_sched *s);

/* fio's name for the engine that ran (the one typed, else the engine's first fio name). */
const char *fio_engine_name(const struct fio_runner *r, const struct fio_job *j);

#endif
