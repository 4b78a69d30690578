/* The measured window of a worker's loop, the part of the figures that is not per I/O: the
 * clocks, samplers and per-second series set up before the first I/O, the ramp's end (the
 * figures start over), each second closed into the series, interim copies for
 * io_session_snapshot, and at the end the runtime, CPU and rate summaries. The per-I/O loop
 * (io/loop.c) calls in here at most once per second, per snapshot request or per restart of
 * the figures (the ramp's end, the latency target's final run): none of it is on its hot path. */
#include "io/internal.h"
#include "io/iolog.h"
#include "io/loop.h"
#include "io/ticks.h"
#include "util/clock.h"

#include <stdlib.h>
#include <string.h>

static uint64_t total_bytes(const struct io_job_result *r)
{
	return r->dir[DIR_READ].bytes + r->dir[DIR_WRITE].bytes + r->dir[DIR_TRIM].bytes;
}

/* The latency target's search from depth 1 (at the loop's start and the ramp's end). */
static void lat_restart(struct io_worker *w, struct io_loop *ls, uint64_t now)
{
	io_lat_init(&ls->lat, w->job, now);
	ls->lat_unused = ls->lat.on ? io_lat_unused(&ls->lat, w->depth) : 0;
	w->res->latency_depth = ls->lat.on ? ls->lat.qd : 0;
}

/* The ramp is over: forget what was counted so far and start the clocks. */
void io_loop_start_measuring(struct io_worker *w, struct io_loop *ls, uint64_t now)
{
	struct io_job_result *r = w->res;
	for (int d = 0; d < DIR_COUNT; d++) {
		struct io_dir_result *dr = &r->dir[d];
		dr->ios = dr->bytes = dr->short_ios = dr->drop_ios = 0;
		hist_init(&dr->slat);
		hist_init(&dr->clat);
		hist_init(&dr->lat);
	}
	memset(r->iodepth_level, 0, sizeof r->iodepth_level);
	memset(r->submit_level, 0, sizeof r->submit_level);
	memset(r->complete_level, 0, sizeof r->complete_level);
	r->depth_max = 0;
	r->depth_samples = 0;
	ls->depth_sum = 0;
	if (w->vring)
		io_vstate_measuring(w->vring);
	io_sampler_restart(&ls->bw, now);
	io_sampler_restart(&ls->iops, now);
	r->sync_ios = 0;
	hist_init(&r->sync_lat);
	r->nsec = 0;
	if (r->log)
		io_log_start(r->log, now);
	io_prio_reset(r->prios);
	ls->measuring = 1;
	ls->ramp_end = 0;
	ls->t_measure = now;
	ls->sec_next = now + ls->sec_len;
	ls->sec_ios0 = ls->sec_bytes0 = 0;
	ls->mono_start = clock_now_ns();
	getrusage(RUSAGE_THREAD, &ls->ru0);
	io_loop_next_event(ls);
	if (ls->lat.on && !ls->lat.final_run) /* fio's search starts over after the ramp */
		lat_restart(w, ls, now);
}

/* The clocks of a loop whose direction and passes are set (io/worker.c's init_loop): the
 * per-second series and the samplers, the log, pacing and the latency target from the start,
 * then the ramp (measuring starts at its end) or measuring at once, and the deadline. */
void io_loop_start_clocks(struct io_worker *w, struct io_loop *ls)
{
	const struct io_job *job = w->job;
	ls->sec_len = ticks_from_ns(1000000000ull);
	uint64_t bw_ns = job->report.sample_ns ? job->report.sample_ns : 500000000ull;
	ls->bw.len = ticks_from_ns(bw_ns);
	ls->iops.len = ticks_from_ns(job->report.iops_sample_ns ? job->report.iops_sample_ns : bw_ns);
	ls->bw.bytes = 1;
	ls->bw.next = ls->iops.next = UINT64_MAX;
	ls->sec_cap = job->time_based ? job->runtime_ns / 1000000000ull + 2 : 64;
	w->res->sec_iops = malloc(ls->sec_cap * sizeof(double));
	w->res->sec_bw = malloc(ls->sec_cap * sizeof(double));
	if (!w->res->sec_iops || !w->res->sec_bw)
		ls->sec_cap = 0;

	w->res->log = io_log_new(&job->report.log); /* NULL: no log asked for */
	if (!w->res->prios)
		w->res->prios = io_prio_stats_new(job); /* NULL: no cmdprio shares */
	ls->t_start = ticks_now();
	io_pace_init(&ls->pace, job, ls->t_start);
	lat_restart(w, ls, ls->t_start);
	if (job->ramp_ns) {
		ls->ramp_end = ls->t_start + ticks_from_ns(job->ramp_ns);
		ls->mono_start = clock_now_ns();
		getrusage(RUSAGE_THREAD, &ls->ru0);
	} else {
		io_loop_start_measuring(w, ls, ls->t_start);
	}
	if (job->runtime_ns)
		ls->deadline = ls->t_start + ticks_from_ns(job->ramp_ns + job->runtime_ns * job->loops);
	w->deadline = ls->deadline;
	io_loop_next_event(ls);
}

/* A second is over: its I/Os and bytes into the per-second series (grown when full). */
void io_loop_close_second(struct io_worker *w, struct io_loop *ls)
{
	struct io_job_result *r = w->res;
	if (r->nsec == ls->sec_cap) {
		size_t cap = ls->sec_cap ? ls->sec_cap * 2 : 64;
		double *a = realloc(r->sec_iops, cap * sizeof *a), *b;
		if (!a)
			goto skip;
		r->sec_iops = a;
		b = realloc(r->sec_bw, cap * sizeof *b);
		if (!b)
			goto skip;
		r->sec_bw = b;
		ls->sec_cap = cap;
	}
	uint64_t ios = io_total_ios(r), bytes = total_bytes(r);
	r->sec_iops[r->nsec] = (double)(ios - ls->sec_ios0);
	r->sec_bw[r->nsec] = (double)(bytes - ls->sec_bytes0);
	r->nsec++;
	ls->sec_ios0 = ios;
	ls->sec_bytes0 = bytes;
skip:
	ls->sec_next += ls->sec_len;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

/* Time and CPU of the measured part up to end (ticks), into r: for the final result, and for
 * the interim copies a snapshot asks for. Called on the worker's own thread (RUSAGE_THREAD). */
static void fill_times(struct io_worker *w, struct io_loop *ls, struct io_job_result *r, uint64_t end)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	/* The measured time ends at the deadline, or later where an I/O that finished after it was
	 * counted (a stalled write, a slow cache drop, what io_uring had in flight at the deadline):
	 * fio's runtime runs to the end of its last I/O too; capping it would count the I/O without
	 * its time. */
	uint64_t stop = ls->deadline && end > ls->deadline ? ls->deadline : end;
	if (ls->last_done > stop && ls->last_done <= end)
		stop = ls->last_done;
	r->runtime_ns = ticks_to_ns(stop - ls->t_measure);
	r->start_ns = ls->mono_start;
	r->end_ns = ls->mono_start + r->runtime_ns;
	r->usr_cpu_ns = tv_ns(ru.ru_utime) - tv_ns(ls->ru0.ru_utime);
	r->sys_cpu_ns = tv_ns(ru.ru_stime) - tv_ns(ls->ru0.ru_stime);
	r->ctx_voluntary = (uint64_t)(ru.ru_nvcsw - ls->ru0.ru_nvcsw);
	r->ctx_involuntary = (uint64_t)(ru.ru_nivcsw - ls->ru0.ru_nivcsw);
	r->majf = (uint64_t)(ru.ru_majflt - ls->ru_thread0.ru_majflt);
	r->minf = (uint64_t)(ru.ru_minflt - ls->ru_thread0.ru_minflt);
	for (int d = 0; d < DIR_COUNT; d++) {
		struct io_dir_result *dr = &r->dir[d];
		if ((w->ops->caps & IO_ENGINE_SYNC))
			memcpy(&dr->lat, &dr->clat, sizeof dr->lat); /* no submission step: lat = clat */
		dr->runtime_ns = dr->ios ? r->runtime_ns : 0;
		if (ls->phased && dr->ios) /* verify: each direction's own phase, as fio's runtimes */
			dr->runtime_ns = ticks_to_ns(ls->phase_ticks[d]);
	}
}

/* A copy of the figures so far for io_session_snapshot: counts and histograms as they stand,
 * time and CPU up to now, no per-second series. Rare (once per status interval), so a plain
 * copy of the result is fine here. */
void io_loop_answer_snapshot(struct io_worker *w, struct io_loop *ls, uint64_t now, unsigned req)
{
	struct io_job_result *d = w->snap;
	w->snap_seen = req;
	if (!d)
		return; /* the requester had no room for this one */
	*d = *w->res;
	d->sec_iops = d->sec_bw = NULL;
	d->nsec = 0;
	d->log = NULL;
	d->prios = NULL;
	d->vstate = NULL;
	if (ls->measuring) {
		fill_times(w, ls, d, now);
		if ((w->ops->caps & IO_ENGINE_SYNC)) /* run_sync books its depth-1 count at the end */
			io_book_sync_levels(d);
	} else
		d->runtime_ns = 0; /* still ramping: nothing measured yet */
	atomic_store_explicit(&w->snap_ack, req, memory_order_release);
}

/* The loop is over: its runtime and CPU, the log's end, the mean depth and the bw/iops
 * sample summaries. */
void io_loop_finish(struct io_worker *w, struct io_loop *ls)
{
	struct io_job_result *r = w->res;
	uint64_t end = ticks_now();
	if (!ls->measuring) /* stopped during the ramp: nothing measured */
		io_loop_start_measuring(w, ls, end);
	fill_times(w, ls, r, end);
	if (r->log)
		io_log_end(r->log, r->runtime_ns);
	r->depth_mean = r->depth_samples ? ls->depth_sum / (double)r->depth_samples : 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		struct io_dir_result *dr = &r->dir[d];
		io_rate_out(&ls->bw.st[d], &dr->bw_min, &dr->bw_max, &dr->bw_mean, &dr->bw_dev, &dr->bw_samples);
		io_rate_out(&ls->iops.st[d], &dr->iops_min, &dr->iops_max, &dr->iops_mean, &dr->iops_dev,
			 &dr->iops_samples);
	}
}
