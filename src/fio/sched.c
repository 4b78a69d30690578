/* The job scheduler (see sched.h).  All its state is in struct fio_sched, so two plans could
 * run side by side and the status reports can look at it from another thread. */
#include "fio/sched.h"
#include "io/flow.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* The weight of job i's threads in their flow: on (sign 1) before any job runs, as fio adds
 * every job's when it reads the job file; off (-1) once the job is done or will not run. */
static void flow_weigh(const struct fio_sched *s, size_t i, int sign)
{
	const struct io_job *io = &s->plan->jobs[i].io;
	if (io->pace.flow)
		io_flow_weigh(io->pace.flow, sign * (int64_t)io->pace.flow_weight * io->numjobs);
}

/* Whether job k's threads are summed in group g's steady state (fio: group_reporting). */
static int judged_with_group(const struct fio_plan *p, size_t k, int g)
{
	return p->jobs[k].group_reporting && p->jobs[k].io.report.group == g && fio_ss_wanted(&p->jobs[k].ss);
}

/* fio's judges: each thread its own; with group_reporting the group's last job judges the sum. */
static void ss_judges(struct fio_runner *r, const struct fio_plan *p, size_t i)
{
	const struct fio_job *j = &p->jobs[i];
	if (!fio_ss_wanted(&j->ss))
		return;
	unsigned n = j->io.numjobs;
	if (j->group_reporting) {
		n = 1;
		for (size_t k = i + 1; k < p->njobs; k++)
			if (judged_with_group(p, k, j->io.report.group))
				n = 0; /* a later job of the group judges */
	}
	if (!n)
		return;
	r->nss = n;
	r->ss = xcalloc(n, sizeof *r->ss);
	for (unsigned t = 0; t < n; t++)
		fio_ss_init(&r->ss[t], &j->ss);
}

/* Opens job i's session, laying its files out, and says its notes.  IO_OK, or a status with
 * the reason in err. */
static int open_session(struct fio_sched *s, size_t i, char *err, size_t errlen)
{
	const struct fio_job *j = &s->plan->jobs[i];
	int st = IO_OK;
	struct io_session *ss = io_session_open(&j->io, &st, err, errlen);
	if (!ss)
		return st;
	pthread_mutex_lock(&s->lock); /* the reports look at it from another thread */
	s->runs[i].session = ss;
	pthread_mutex_unlock(&s->lock);
	for (const char *const *n = io_session_notes(ss); n && *n; n++)
		nm_warn("job '%s': %s", j->name, *n);
	return IO_OK;
}

int fio_sched_open(struct fio_sched *s, const struct fio_plan *p)
{
	memset(s, 0, sizeof *s);
	s->plan = p;
	s->runs = calloc(p->njobs ? p->njobs : 1, sizeof *s->runs);
	s->done = calloc(p->njobs ? p->njobs : 1, 1);
	s->terminate = calloc(p->njobs ? p->njobs : 1, 1);
	if (!s->runs || !s->done || !s->terminate)
		abort();
	for (size_t i = 0; i < p->njobs; i++)
		s->exitall |= p->jobs[i].exitall;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_mutex_init(&s->layout_lock, NULL);
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_runner *r = &s->runs[i];
		char err[768];
		r->sched = s;
		r->idx = i;
		r->res = calloc(p->jobs[i].io.numjobs, sizeof *r->res);
		if (!r->res)
			abort();
		for (unsigned t = 0; t < p->jobs[i].io.numjobs; t++) /* a job that never runs reports zeros */
			io_result_init(&r->res[t]);
		ss_judges(r, p, i);
		if (!p->jobs[i].create_serialize)
			continue; /* fio's create_serialize=0: its thread lays its files out (run_one) */
		int st = open_session(s, i, err, sizeof err);
		if (st != IO_OK) {
			nm_error("job '%s': %s", p->jobs[i].name, err);
			return st == IO_BAD_JOB ? NM_EXIT_USAGE : st == IO_INTERRUPTED ? NM_EXIT_INTERRUPTED : NM_EXIT_FAILED;
		}
	}
	for (size_t i = 0; i < p->njobs; i++)
		flow_weigh(s, i, 1);
	return NM_EXIT_OK;
}

struct io_session *fio_sched_session(struct fio_sched *s, size_t i)
{
	pthread_mutex_lock(&s->lock);
	struct io_session *ss = s->runs[i].session;
	pthread_mutex_unlock(&s->lock);
	return ss;
}

/* Whether job i names a file or directory another job names too: two threads laying it out
 * at once would both find it missing. */
static int shares_target(const struct fio_plan *p, size_t i)
{
	const struct io_job *a = &p->jobs[i].io;
	for (size_t k = 0; k < p->njobs; k++) {
		const struct io_job *b = &p->jobs[k].io;
		for (unsigned x = 0; k != i && x < a->ntargets; x++)
			for (unsigned y = 0; y < b->ntargets; y++)
				if (strcmp(a->targets[x], b->targets[y]) == 0)
					return 1;
	}
	return 0;
}

/* fio's create_serialize=0: the job's files laid out by its own thread as it starts, beside
 * those of the jobs starting with it (one at a time where they share a file). */
static int lay_out_at_start(struct fio_sched *s, size_t i, char *err, size_t errlen)
{
	int shared = shares_target(s->plan, i);
	if (shared)
		pthread_mutex_lock(&s->layout_lock);
	int st = open_session(s, i, err, errlen);
	if (shared)
		pthread_mutex_unlock(&s->layout_lock);
	return st;
}

/* exitall: the end of job i stops the jobs its exit_what names (fio's cascade follows: each
 * stopped job's end stops those its own exit_what names).  Called under the lock. */
static void terminate_after(struct fio_sched *s, size_t i)
{
	const struct fio_plan *p = s->plan;
	const struct fio_job *j = &p->jobs[i];
	if (!(s->exitall || (j->exitall_on_error && s->runs[i].status != IO_OK)))
		return;
	for (size_t k = 0; k < p->njobs; k++) {
		int stop = j->exit_what == FIO_EXIT_ALL ||
			   (j->exit_what == FIO_EXIT_GROUP && p->jobs[k].io.report.group == j->io.report.group) ||
			   (j->exit_what == FIO_EXIT_STONEWALL && s->runs[k].started);
		if (stop)
			s->terminate[k] = 1;
	}
}

/* cpuio's exit_on_io_done: the job stops once no job that does I/O is running or waiting
 * (fio's engines that move data; cpuio and exec do not).  Called under the lock. */
static int io_jobs_done(const struct fio_sched *s)
{
	for (size_t k = 0; k < s->plan->njobs; k++)
		if (!s->done[k] && !(io_engine_caps(s->plan->jobs[k].io.engine) & IO_ENGINE_NO_DATA))
			return 0;
	return 1;
}

/* Without group_reporting each running thread is judged on its own figures, and one that
 * attains steady state stops alone, as in fio 3.33. */
static void judge_threads(struct fio_runner *r, const struct io_progress *pr, uint64_t at_ns)
{
	for (unsigned t = 0; t < pr->nthreads && t < r->nss; t++) {
		struct io_thread_progress *th = &pr->threads[t];
		if (!th->done && fio_ss_update(&r->ss[t], at_ns, th->bytes, th->ios))
			th->stop = 1;
	}
}

/* With group_reporting the group's sum (every job's last progress) is judged, and attaining
 * it stops every job of the group, as in fio 3.33. Called under the lock. */
static void judge_group(struct fio_sched *s, struct fio_runner *r, uint64_t at_ns)
{
	const struct fio_plan *p = s->plan;
	int g = p->jobs[r->idx].io.report.group;
	uint64_t bytes = 0, ios = 0;
	for (size_t k = 0; k < p->njobs; k++)
		if (judged_with_group(p, k, g)) {
			bytes += s->runs[k].progress.bytes;
			ios += s->runs[k].progress.ios;
		}
	if (!fio_ss_update(r->ss, at_ns, bytes, ios))
		return;
	for (size_t k = 0; k < p->njobs; k++)
		if (judged_with_group(p, k, g))
			s->terminate[k] = 1;
}

/* The engine's progress callback (~10 times a second): judges steady state (only this thread
 * touches r->ss while it runs), and a nonzero return stops the job as if it had reached its
 * end -- its group attained steady state or exitall stopped it, or exit_on_io_done and no I/O
 * job is left. */
static int stop_requested(const struct io_progress *pr, void *arg)
{
	struct fio_runner *r = arg;
	struct fio_sched *s = r->sched;
	const struct fio_job *j = &s->plan->jobs[r->idx];
	uint64_t at_ns = pr->elapsed_ns - j->io.ramp_ns; /* fio's clock restarts after ramp_time */
	if (r->nss && !pr->ramping && !j->group_reporting)
		judge_threads(r, pr, at_ns);
	pthread_mutex_lock(&s->lock);
	r->progress = *pr;
	r->progress.threads = NULL; /* valid during this call only */
	r->progress.nthreads = 0;
	r->has_progress = 1;
	if (r->nss && !pr->ramping && j->group_reporting)
		judge_group(s, r, at_ns);
	int stop = s->terminate[r->idx] || (io_job_ends_with_data_jobs(&j->io) && io_jobs_done(s));
	pthread_mutex_unlock(&s->lock);
	return stop;
}

static void *run_one(void *arg)
{
	struct fio_runner *r = arg;
	struct fio_sched *s = r->sched;
	if (!s->plan->jobs[r->idx].create_serialize)
		r->status = lay_out_at_start(s, r->idx, r->err, sizeof r->err);
	if (r->status == IO_OK)
		r->status = io_session_run(r->session, &s->plan->jobs[r->idx].io, r->res, stop_requested, r, r->err,
					   sizeof r->err);
	flow_weigh(s, r->idx, -1);
	pthread_mutex_lock(&s->lock);
	s->done[r->idx] = 1;
	terminate_after(s, r->idx);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static int any_running(const struct fio_sched *s)
{
	for (size_t k = 0; k < s->plan->njobs; k++)
		if (s->runs[k].started && !s->done[k])
			return 1;
	return 0;
}

static int waitee_done(const struct fio_sched *s, const struct fio_job *j)
{
	for (size_t k = 0; k < s->plan->njobs; k++)
		if (&s->plan->jobs[k] != j && strcmp(s->plan->jobs[k].name, j->wait_for) == 0 && !s->done[k])
			return 0;
	return 1;
}

/* One pass over the jobs not started yet, in order, as fio's: returns 1 when some are left
 * waiting (*wake_ns: the earliest startdelay among them, 0 none).  Called under the lock. */
static int start_ready(struct fio_sched *s, uint64_t now, uint64_t *wake_ns)
{
	const struct fio_plan *p = s->plan;
	int waiting = 0;
	*wake_ns = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_runner *r = &s->runs[i];
		const struct fio_job *j = &p->jobs[i];
		if (r->started || s->done[i])
			continue;
		if (s->terminate[i] || cleanup_interrupted()) { /* stopped before it began: never runs */
			r->status = s->terminate[i] ? IO_OK : IO_INTERRUPTED;
			s->done[i] = 1;
			flow_weigh(s, i, -1);
			pthread_cond_broadcast(&s->cond);
			continue;
		}
		waiting = 1;
		uint64_t at = s->genesis_ns + j->startdelay_ns;
		if (j->startdelay_ns && now < at) {
			if (!*wake_ns || at < *wake_ns)
				*wake_ns = at;
			continue;
		}
		if (j->stonewall && any_running(s))
			break; /* nothing after it starts before it */
		if (j->wait_for && !waitee_done(s, j))
			continue;
		if (pthread_create(&r->tid, NULL, run_one, r) != 0) {
			nm_error("cannot start a thread for job '%s'", j->name);
			abort();
		}
		r->started = 1;
	}
	return waiting;
}

static void *starter(void *arg)
{
	struct fio_sched *s = arg;
	pthread_mutex_lock(&s->lock);
	for (;;) {
		uint64_t now = clock_now_ns(), wake;
		if (!start_ready(s, now, &wake))
			break;
		/* woken by a job's end; at the next startdelay; every 100 ms for Ctrl-C */
		uint64_t wait_ns = 100000000ull;
		now = clock_now_ns();
		if (wake && wake > now && wake - now < wait_ns)
			wait_ns = wake - now;
		else if (wake && wake <= now)
			continue;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t ns = (uint64_t)ts.tv_nsec + wait_ns;
		ts.tv_sec += (time_t)(ns / 1000000000ull);
		ts.tv_nsec = (long)(ns % 1000000000ull);
		pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

void fio_sched_start(struct fio_sched *s)
{
	s->genesis_ns = clock_now_ns();
	if (pthread_create(&s->starter, NULL, starter, s) != 0) {
		nm_error("cannot start the job starter thread");
		abort();
	}
	s->starter_started = 1;
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
	if (s->starter_started) /* once it has returned, no job starts any more */
		pthread_join(s->starter, NULL);
	s->starter_started = 0;
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
		for (unsigned t = 0; t < r->nss; t++)
			fio_ss_free(&r->ss[t]);
		free(r->ss);
	}
	free(s->runs);
	free(s->done);
	free(s->terminate);
	if (p) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->layout_lock);
	}
	memset(s, 0, sizeof *s);
}

const char *fio_engine_name(const struct fio_runner *r, const struct fio_job *j)
{
	if (j->ioengine)
		return j->ioengine;
	struct io_session *ss = fio_sched_session(r->sched, r->idx); /* NULL: not laid out yet */
	return io_engine_fio_name(ss ? io_session_engine(ss, 0) : j->io.engine);
}
