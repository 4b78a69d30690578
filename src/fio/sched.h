/* Running a plan's jobs in fio's order: every job's files are laid out first (so no layout
 * lands in another job's time), then each job waits for what it must (stonewall: every
 * earlier job; wait_for: that one) and runs on its own thread. */
#ifndef NM_FIO_SCHED_H
#define NM_FIO_SCHED_H

#include <pthread.h>
#include <time.h>
#include "fio/plan.h"
#include "io/engine.h"

struct fio_sched;

struct fio_runner {
	struct fio_sched *sched;
	size_t idx;
	struct io_session *session;
	struct io_job_result *res;      /* the job's numjobs results */
	int status;                     /* IO_OK, IO_INTERRUPTED, ... */
	char err[512];
	pthread_t tid;
	int started;
};

struct fio_sched {
	const struct fio_plan *plan;
	struct fio_runner *runs;        /* one per job */
	unsigned char *done;            /* under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* Opens every job's session (laying its files out). Returns an NM_EXIT_* code; on failure the
 * job and the reason are said on stderr.  fio_sched_close must be called either way. */
int fio_sched_open(struct fio_sched *s, const struct fio_plan *p);
void fio_sched_start(struct fio_sched *s);
/* Waits until every job is done (returns 1) or the deadline passes (0). */
int fio_sched_wait(struct fio_sched *s, const struct timespec *deadline);
int fio_sched_job_done(struct fio_sched *s, size_t i);
void fio_sched_join(struct fio_sched *s);
/* The jobs' outcome as an NM_EXIT_* code; failures are said on stderr. */
int fio_sched_status(const struct fio_sched *s);
void fio_sched_close(struct fio_sched *s);

/* fio's name for the engine that ran ("io_uring" for ours "uring"). */
const char *fio_engine_name(const struct fio_runner *r, const struct fio_job *j);

#endif
