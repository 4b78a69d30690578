/* A plan from start to end (see run.h): the header lines, the jobs, --status-interval reports
 * while they run, the disks' activity, and the final report, written atomically. */
#include "fio/eta.h"
#include "fio/layout_lines.h"
#include "fio/logs.h"
#include "fio/run.h"
#include "fio/vstate.h"
#include "util/atomicfile.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static void write_report(const struct fio_plan *p, FILE *out, const struct fio_report *rep)
{
	unsigned f = p->formats ? p->formats : FIO_OUT_NORMAL;
	if (f & FIO_OUT_TERSE)
		fio_write_terse(out, rep);
	if (f & (FIO_OUT_JSON | FIO_OUT_JSONPLUS))
		fio_write_json(out, rep, !!(f & FIO_OUT_JSONPLUS));
	if (f & FIO_OUT_NORMAL)
		fio_write_normal(out, rep);
}

static void free_entries(struct fio_report *rep)
{
	for (size_t i = 0; i < rep->nentries; i++)
		io_result_free(&rep->entries[i].res);
	free(rep->entries);
	rep->entries = NULL;
	rep->nentries = 0;
}

/* One job's figures so far: final when it is done, a snapshot while it runs, zeros before. */
static void job_so_far(struct fio_sched *s, size_t i, struct io_job_result *res)
{
	struct fio_runner *r = &s->runs[i];
	unsigned n = s->plan->jobs[i].io.numjobs;
	int done = fio_sched_job_done(s, i);
	struct io_session *ss = done ? NULL : fio_sched_session(s, i); /* NULL: not opened yet */
	if (!done && (!ss || io_session_snapshot(ss, res, n, 1000) == 0))
		done = fio_sched_job_done(s, i); /* not started yet, or it ended just now */
	if (!done)
		return;
	for (unsigned t = 0; t < n; t++) {
		res[t] = r->res[t];
		res[t].sec_iops = res[t].sec_bw = NULL; /* owned by the runner */
		res[t].nsec = 0;
		res[t].log = NULL;
		res[t].prios = NULL;
	}
}

/* --status-interval: a full report of the figures so far (cumulative from each job's start,
 * as fio's). */
static void status_report(struct fio_sched *s, FILE *out, const struct fio_report *base)
{
	const struct fio_plan *p = s->plan;
	struct io_job_result **res = calloc(p->njobs, sizeof *res);
	if (!res)
		abort();
	for (size_t i = 0; i < p->njobs; i++) {
		if (!(res[i] = calloc(p->jobs[i].io.numjobs, sizeof *res[i])))
			abort();
		job_so_far(s, i, res[i]);
	}
	struct fio_report rep = *base;
	rep.entries = NULL;
	rep.nentries = 0;
	rep.disks = NULL; /* the disks' figures come with the final report */
	fio_build_entries(s, res, &rep);
	for (size_t i = 0; i < rep.nentries; i++)
		rep.entries[i].ss = NULL; /* still being judged: the final report has it */
	write_report(p, out, &rep);
	fflush(out);
	free_entries(&rep);
	for (size_t i = 0; i < p->njobs; i++)
		free(res[i]);
	free(res);
}

/* While the jobs run: fio's status line every --eta-interval (on stdout, see eta.h) and a full
 * report every --status-interval, whichever are on; the line is blanked before a report and
 * at the end, so reports start on a clean line. With --bandwidth-log and the line on, fio's
 * helper thread looks every 250 ms, and so does this loop, for agg's samples (logs.h). */
#define AGG_TICK_NS 250000000ull
static void watch_jobs(struct fio_sched *s, FILE *out, const struct fio_report *base, struct fio_agg_log *agg)
{
	const struct fio_plan *p = s->plan;
	int eta = fio_eta_wanted(p, isatty(STDOUT_FILENO));
	if (!eta && !p->status_interval_ns)
		return;
	uint64_t every = p->eta_interval_ns ? p->eta_interval_ns : 1000000000ull;
	struct fio_eta e;
	fio_eta_begin(&e);
	uint64_t now = clock_now_ns(), next_eta = now + every, next_status = now + p->status_interval_ns;
	uint64_t next_agg = eta && agg ? now + AGG_TICK_NS : UINT64_MAX;
	for (;;) {
		uint64_t due = p->status_interval_ns ? next_status : UINT64_MAX;
		if (eta && next_eta < due)
			due = next_eta;
		if (next_agg < due)
			due = next_agg;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t ns = (uint64_t)ts.tv_nsec + (due > now ? due - now : 0);
		ts.tv_sec += (time_t)(ns / 1000000000ull);
		ts.tv_nsec = (long)(ns % 1000000000ull);
		if (fio_sched_wait(s, &ts) || cleanup_interrupted())
			break;
		now = clock_now_ns();
		if (now >= next_agg) {
			uint64_t bytes[3];
			fio_eta_bytes(s, bytes);
			fio_agg_log_sample(agg, bytes, now);
			next_agg = now + AGG_TICK_NS;
		}
		if (p->status_interval_ns && now >= next_status) {
			if (eta)
				fio_eta_clear(&e, stdout);
			status_report(s, out, base);
			next_status += p->status_interval_ns;
		}
		if (eta && now >= next_eta) {
			fio_eta_show(&e, s, stdout);
			next_eta = now + every;
		}
	}
	if (eta)
		fio_eta_clear(&e, stdout);
}

/* fio's disk_util: the disks under every job's files, over the whole run. fio counts its
 * filecreate engine as diskless too (no disk_util), whose files are not laid out. */
#define DISKLESS_FOR_FIO (IO_ENGINE_DISKLESS | IO_ENGINE_NO_LAYOUT)
static struct disk_activity *watch_disks(const struct fio_plan *p)
{
	struct disk_activity *disks = calloc(1, sizeof *disks);
	if (!disks)
		abort();
	disk_activity_init(disks, NULL);
	for (size_t i = 0; i < p->njobs; i++)
		if (p->jobs[i].disk_util && !(io_engine_caps(p->jobs[i].io.engine) & DISKLESS_FOR_FIO))
			for (unsigned t = 0; t < p->jobs[i].io.ntargets; t++)
				disk_activity_watch_path(disks, p->jobs[i].io.targets[t]);
	disk_activity_begin(disks);
	return disks;
}

static void print_header(struct fio_sched *s, FILE *out, const struct fio_report *rep,
			 const struct fio_layout_line *lay, size_t nlay)
{
	const struct fio_plan *p = s->plan;
	if (p->formats && !(p->formats & FIO_OUT_NORMAL))
		return;
	struct fio_report head = *rep;
	fio_header_entries(s, &head);
	fio_write_normal_header(out, &head);
	fio_write_layout_lines(out, lay, nlay);
	free(head.entries);
	fflush(out);
}

/* The jobs run and the final report written; returns an NM_EXIT_* code. */
static int run_and_report(struct fio_sched *s, FILE *out, struct fio_report *rep)
{
	const struct fio_plan *p = s->plan;
	struct disk_activity *disks = watch_disks(p);
	rep->disks = disks;
	struct fio_agg_log agg;
	fio_agg_log_begin(&agg, p, clock_now_ns());
	fio_sched_start(s);
	watch_jobs(s, out, rep, p->bandwidth_log ? &agg : NULL);
	fio_sched_join(s);
	if (p->bandwidth_log && (p->formats & (FIO_OUT_JSON | FIO_OUT_JSONPLUS))) {
		uint64_t bytes[3]; /* fio's JSON report asks for the status line's figures: one more sample */
		fio_eta_bytes(s, bytes);
		fio_agg_log_sample(&agg, bytes, clock_now_ns());
	}
	disk_activity_end(disks);
	int rc = fio_sched_status(s);

	struct io_job_result **final = calloc(p->njobs, sizeof *final);
	if (!final)
		abort();
	for (size_t i = 0; i < p->njobs; i++)
		final[i] = s->runs[i].res;
	fio_build_entries(s, final, rep);
	char err[768];
	if (fio_write_logs(p, final, err, sizeof err) < 0) {
		nm_error("%s", err);
		if (rc == NM_EXIT_OK)
			rc = NM_EXIT_FAILED;
	}
	if (fio_vstate_write(p, final, err, sizeof err) < 0) {
		nm_error("%s", err);
		if (rc == NM_EXIT_OK)
			rc = NM_EXIT_FAILED;
	}
	free(final);
	if (p->bandwidth_log && fio_agg_log_write(&agg, err, sizeof err) < 0) {
		nm_error("%s", err);
		if (rc == NM_EXIT_OK)
			rc = NM_EXIT_FAILED;
	}
	write_report(p, out, rep);
	rep->disks = NULL;
	free(disks);
	return rc;
}

int fio_run_plan(const struct fio_plan *p, int argc, char **argv, struct record **rec)
{
	struct fio_sched s;
	char err[768];
	*rec = NULL;
	struct fio_layout_line *lay;
	size_t nlay = fio_layout_lines(p, &lay); /* before the sessions lay the files out */
	int rc = fio_sched_open(&s, p);
	if (rc != NM_EXIT_OK) {
		free(lay);
		fio_sched_close(&s);
		return rc;
	}
	struct atomic_file af;
	FILE *out = afile_open(&af, p->output ? p->output : "-", err, sizeof err);
	if (!out) {
		nm_error("%s", err);
		free(lay);
		fio_sched_close(&s);
		return NM_EXIT_FAILED;
	}
	struct fio_report rep = { .version = "nodemark-" NODEMARK_VERSION, .globals = p->globals.kv,
				  .nglobals = p->globals.n, .pid = (long)getpid(), .terse_version = p->terse_version };
	struct timeval tv;
	gettimeofday(&tv, NULL);
	rep.time_ms = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
	print_header(&s, out, &rep, lay, nlay);
	free(lay);
	rc = run_and_report(&s, out, &rep);
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
	}
	if (rc == NM_EXIT_OK || rc == NM_EXIT_INTERRUPTED)
		*rec = fio_make_record(argc, argv, &rep);
	free_entries(&rep);
	fio_sched_close(&s);
	return rc;
}
