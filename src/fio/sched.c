/* The job scheduler (see sched.h).  All its state is in struct fio_sched, so two plans could
 * run side by side and the status reports can look at it from another thread. */
#include "fio/sched.h"
#include "util/cleanup.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

int fio_sched_open(struct fio_sched *s, const struct fio_plan *p)
{
	memset(s, 0, sizeof *s);
	s->plan = p;
	s->runs = calloc(p->njobs ? p->njobs : 1, sizeof *s->runs);
	s->done = calloc(p->njobs ? p->njobs : 1, 1);
	if (!s->runs || !s->done)
		abort();
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_runner *r = &s->runs[i];
		char err[768];
		int st = IO_OK;
		r->sched = s;
		r->idx = i;
		r->res = calloc(p->jobs[i].io.numjobs, sizeof *r->res);
		if (!r->res)
			abort();
		r->session = io_session_open(&p->jobs[i].io, &st, err, sizeof err);
		if (!r->session) {
			nm_error("job '%s': %s", p->jobs[i].name, err);
			return st == IO_BAD_JOB ? NM_EXIT_USAGE : st == IO_INTERRUPTED ? NM_EXIT_INTERRUPTED : NM_EXIT_FAILED;
		}
		for (const char *const *n = io_session_notes(r->session); n && *n; n++)
			nm_warn("job '%s': %s", p->jobs[i].name, *n);
	}
	return NM_EXIT_OK;
}

/* stonewall: every earlier job; wait_for: that one.  Called under the lock. */
static int ready(const struct fio_sched *s, size_t i)
{
	const struct fio_plan *p = s->plan;
	const struct fio_job *j = &p->jobs[i];
	for (size_t k = 0; k < i; k++) {
		if (s->done[k])
			continue;
		if (j->stonewall || (j->wait_for && strcmp(p->jobs[k].name, j->wait_for) == 0))
			return 0;
	}
	return 1;
}

/* fio's startdelay: the job starts that long after it could (the engine does not wait). */
static int start_delay(uint64_t ns)
{
	const uint64_t step = 50000000ull; /* poll for Ctrl-C this often */
	while (ns && !cleanup_interrupted()) {
		uint64_t t = ns < step ? ns : step;
		struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };
		nanosleep(&ts, NULL);
		ns -= t;
	}
	return cleanup_interrupted() ? -1 : 0;
}

/* cpuio's exit_on_io_done: the job stops once no job that does I/O is running or waiting
 * (fio's engines that move data; cpuio and exec do not). Polled by the session ~10 times a
 * second. */
static int io_jobs_done(const struct io_progress *prog, void *arg)
{
	(void)prog;
	struct fio_runner *r = arg;
	struct fio_sched *s = r->sched;
	int pending = 0;
	pthread_mutex_lock(&s->lock);
	for (size_t k = 0; k < s->plan->njobs; k++)
		if (!s->done[k] && !(io_engine_caps(s->plan->jobs[k].io.engine) & IO_ENGINE_NO_DATA))
			pending = 1;
	pthread_mutex_unlock(&s->lock);
	return !pending;
}

static void *run_one(void *arg)
{
	struct fio_runner *r = arg;
	struct fio_sched *s = r->sched;
	pthread_mutex_lock(&s->lock);
	while (!ready(s, r->idx))
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (start_delay(s->plan->jobs[r->idx].io.startdelay_ns) < 0)
		r->status = IO_INTERRUPTED;
	else
		r->status = io_session_run(r->session, &s->plan->jobs[r->idx].io, r->res,
					   s->plan->jobs[r->idx].io.eng.exit_on_io_done ? io_jobs_done : NULL, r, r->err,
					   sizeof r->err);
	pthread_mutex_lock(&s->lock);
	s->done[r->idx] = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

void fio_sched_start(struct fio_sched *s)
{
	for (size_t i = 0; i < s->plan->njobs; i++) {
		if (pthread_create(&s->runs[i].tid, NULL, run_one, &s->runs[i]) != 0) {
			nm_error("cannot start a thread for job '%s'", s->plan->jobs[i].name);
			abort();
		}
		s->runs[i].started = 1;
	}
}

int fio_sched_wait(struct fio_sched *s, const struct timespec *deadline)
{
	int all_done, timed_out = 0;
	pthread_mutex_lock(&s->lock);
	for (;;) {
		all_done = 1;
		for (size_t i = 0; i < s->plan->njobs; i++)
			all_done &= s->done[i];
		if (all_done || timed_out)
			break;
		timed_out = pthread_cond_timedwait(&s->cond, &s->lock, deadline) != 0;
	}
	pthread_mutex_unlock(&s->lock);
	return all_done;
}

int fio_sched_job_done(struct fio_sched *s, size_t i)
{
	pthread_mutex_lock(&s->lock);
	int d = s->done[i];
	pthread_mutex_unlock(&s->lock);
	return d;
}

void fio_sched_join(struct fio_sched *s)
{
	for (size_t i = 0; i < s->plan->njobs; i++)
		if (s->runs[i].started)
			pthread_join(s->runs[i].tid, NULL);
}

int fio_sched_status(const struct fio_sched *s)
{
	int rc = NM_EXIT_OK;
	for (size_t i = 0; i < s->plan->njobs; i++) {
		const struct fio_runner *r = &s->runs[i];
		if (r->status == IO_OK)
			continue;
		if (r->status == IO_INTERRUPTED) {
			rc = NM_EXIT_INTERRUPTED;
		} else {
			nm_error("job '%s': %s", s->plan->jobs[i].name, r->err);
			if (rc == NM_EXIT_OK)
				rc = r->status == IO_BAD_JOB ? NM_EXIT_USAGE : NM_EXIT_FAILED;
		}
	}
	return rc;
}

void fio_sched_close(struct fio_sched *s)
{
	const struct fio_plan *p = s->plan;
	for (size_t i = p ? p->njobs : 0; i-- > 0;) {
		struct fio_runner *r = &s->runs[i];
		if (r->session)
			io_session_close(r->session);
		if (r->res && r->started)
			for (unsigned t = 0; t < p->jobs[i].io.numjobs; t++)
				io_result_free(&r->res[t]);
		free(r->res);
	}
	free(s->runs);
	free(s->done);
	if (p) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
	}
	memset(s, 0, sizeof *s);
}

const char *fio_engine_name(const struct fio_runner *r, const struct fio_job *j)
{
	if (j->ioengine)
		return j->ioengine;
	const char *ours = io_session_engine(r->session, 0);
	return strcmp(ours, "uring") == 0 ? "io_uring" : ours;
}
