/* nodemark fio: fio's command lines and job files, run on nodemark's engine, reported in fio's
 * formats.  Parsing is cmd/fio_parse.c, the formats export/fio_*.c; this file runs the jobs in
 * fio's order (stonewall and wait_for), merges groups (group_reporting) and saves the run. */
#include "cmd/cmd.h"
#include "cmd/common.h"
#include "cmd/fio_parse.h"
#include "export/fio_report.h"
#include "io/engine.h"
#include "util/atomicfile.h"
#include "util/cleanup.h"
#include "util/error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

const char cmd_fio_usage[] =
	"usage: nodemark fio [fio options] [--name=JOB [job options]]... [JOBFILE...]\n"
	"\n"
	"Runs fio command lines and job files unchanged on nodemark's engine and prints fio's\n"
	"output formats. Options before the first --name are global; INI job files take\n"
	"[global] and [job] sections, ';' and '#' comments and 'include FILE'.\n"
	"\n"
	"fio's own switches:\n"
	"  --output=FILE            write the report to FILE (atomically) instead of stdout\n"
	"  --output-format=LIST     normal (default), json, json+, terse; comma-separated\n"
	"  --minimal                terse output; --terse-version=3 is the only version\n"
	"  --parse-only             check the options and job files, run nothing\n"
	"  --section=NAME           run only the named job (repeatable)\n"
	"  --readonly               refuse jobs that write\n"
	"  --status-interval=T      a full report of the figures so far every T (seconds, or 500ms)\n"
	"  --eta, --eta-newline     accepted, with a warning\n"
	"\n"
	"Job options (sizes in fio's units: 4k = 4096 unless kb_base=1000):\n"
	"  name rw|readwrite(:N for sequential) rwmixread rwmixwrite bs|blocksize(=R,W) iodepth\n"
	"  numjobs loops size filesize offset filename(a:b) directory(a:b) nrfiles runtime\n"
	"  time_based ramp_time startdelay direct buffered ioengine fixedbufs registerfiles\n"
	"  sqthread_poll hipri randrepeat randseed norandommap random_generator zero_buffers\n"
	"  refill_buffers end_fsync fsync fdatasync create_only thread cpus_allowed\n"
	"  percentile_list kb_base unit_base unlink stonewall new_group wait_for\n"
	"  group_reporting clat_percentiles lat_percentiles slat_percentiles description\n"
	"  ioengine: io_uring, libaio and posixaio run on nodemark's uring engine; psync, sync,\n"
	"  pvsync, pvsync2 and vsync on psync; mmap and null on the same; unset = auto\n"
	"  An option nodemark does not implement stops the run (exit 2); one that only touches\n"
	"  fio's bookkeeping is named in a warning. The lists: docs/fio-compat.md.\n"
	"\n"
	"nodemark's own options:\n"
	"  --allow-write=PATH       allow writing the block device PATH (repeatable); a mounted\n"
	"                           device is never written\n" RUN_OPT_USAGE
	"\n"
	"Files a job creates are removed at the end (unlike fio), also on Ctrl-C.\n"
	"\n"
	"Examples:\n"
	"  nodemark fio --name=rr --rw=randread --bs=4k --size=1g --directory=/mnt/x --output-format=json\n"
	"  nodemark fio --output-format=json+ jobs.fio > out.json && fio_jsonplus_clat2csv out.json lat.csv\n";

#define MAX_ALLOW_WRITE 64

struct fio_cmd {
	struct fio_plan plan;
	struct run_opts ro;
	const char *allow_write[MAX_ALLOW_WRITE];
	unsigned nallow_write;
	char **fio_argv;
	int fio_argc;
};

/* nodemark's own options out of argv; the rest is fio's. */
static void split_args(struct fio_cmd *c, int argc, char **argv)
{
	static const struct opt_spec specs[] = { RUN_OPT_SPECS, { "allow-write", OPT_ARG, 1 }, { 0 } };
	c->fio_argv = calloc((size_t)argc + 1, sizeof *c->fio_argv);
	if (!c->fio_argv)
		abort();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int mine = 0;
		for (const struct opt_spec *s = specs; s->name; s++) {
			size_t n = strlen(s->name);
			if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, s->name, n) != 0 ||
			    (a[2 + n] != '\0' && a[2 + n] != '='))
				continue;
			/* hand this one option (and its value) to the usual iterator */
			char *one[3] = { argv[0], argv[i], NULL };
			int take = s->has_arg == OPT_ARG && a[2 + n] == '\0' && i + 1 < argc;
			if (take)
				one[2] = argv[i + 1];
			struct opt_iter it;
			opt_init(&it, take ? 3 : 2, one);
			int id = opt_next(&it, specs);
			if (id == 1) {
				if (c->nallow_write == MAX_ALLOW_WRITE)
					nm_usage_fail("--allow-write: at most %d paths", MAX_ALLOW_WRITE);
				c->allow_write[c->nallow_write++] = it.arg;
			} else {
				run_opts_handle(&c->ro, id, &it);
			}
			i += take;
			mine = 1;
			break;
		}
		if (!mine)
			c->fio_argv[c->fio_argc++] = argv[i];
	}
}

/* fio writes whatever it is pointed at; nodemark never writes a file or device it did not
 * create unless it is named again in --allow-write (as `nodemark disk`): a benchmark must not
 * destroy data. Missing files are created (as fio does) and removed at the end. */
static void allow_writes(struct fio_cmd *c)
{
	for (size_t i = 0; i < c->plan.njobs; i++) {
		struct io_job *io = &c->plan.jobs[i].io;
		int ok = 1;
		for (unsigned t = 0; t < io->ntargets; t++) {
			struct stat st;
			if (stat(io->targets[t], &st) < 0 || S_ISDIR(st.st_mode))
				continue;
			int named = 0;
			for (unsigned k = 0; k < c->nallow_write; k++)
				named |= strcmp(c->allow_write[k], io->targets[t]) == 0;
			/* refused here, where the option is known, so the message can say how to allow it
			 * (the I/O session refuses it too, as disk's does) */
			if (!named && io_job_writes(io) && (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
				nm_usage_fail("job '%s': %s: %s is only read unless named again in --allow-write=%s",
					      c->plan.jobs[i].name, io->targets[t],
					      S_ISBLK(st.st_mode) ? "a block device" : "a file nodemark did not create",
					      io->targets[t]);
			ok &= named;
		}
		io->allow_write_blockdev = ok;
		io->create_targets = 1; /* fio creates a missing filename= */
	}
}

/* --- running, in fio's order ------------------------------------------------------------ */

struct runner {
	struct fio_cmd *c;
	size_t idx;
	struct io_session *session;
	struct io_job_result *res;
	int status;
	char err[512];
	pthread_t tid;
	int started;
};

static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static unsigned char *job_done;

/* stonewall: every earlier job; wait_for: that one. */
static int ready(const struct fio_plan *p, size_t i)
{
	const struct fio_job *j = &p->jobs[i];
	for (size_t k = 0; k < i; k++) {
		if (job_done[k])
			continue;
		if (j->stonewall || (j->wait_for && strcmp(p->jobs[k].name, j->wait_for) == 0))
			return 0;
	}
	return 1;
}

static void *run_one(void *arg)
{
	struct runner *r = arg;
	const struct fio_plan *p = &r->c->plan;
	pthread_mutex_lock(&done_lock);
	while (!ready(p, r->idx))
		pthread_cond_wait(&done_cond, &done_lock);
	pthread_mutex_unlock(&done_lock);
	if (cleanup_interrupted())
		r->status = IO_INTERRUPTED;
	else
		r->status = io_session_run(r->session, &p->jobs[r->idx].io, r->res, NULL, NULL, r->err, sizeof r->err);
	pthread_mutex_lock(&done_lock);
	job_done[r->idx] = 1;
	pthread_cond_broadcast(&done_cond);
	pthread_mutex_unlock(&done_lock);
	return NULL;
}

static const char *fio_engine_name(const char *ours)
{
	return strcmp(ours, "uring") == 0 ? "io_uring" : ours;
}

/* One entry per thread, or per group where group_reporting merges (fio's rule: a thread
 * with group_reporting joins the entry before it when that is of the same group).
 * res[i] holds job i's numjobs results. */
static void build_entries(struct fio_cmd *c, struct runner *runs, struct io_job_result *const *res_of,
			  struct fio_report *rep)
{
	const struct fio_plan *p = &c->plan;
	size_t cap = 0;
	for (size_t i = 0; i < p->njobs; i++)
		cap += p->jobs[i].io.numjobs;
	rep->entries = calloc(cap ? cap : 1, sizeof *rep->entries);
	if (!rep->entries)
		abort();
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		for (unsigned t = 0; t < j->io.numjobs; t++) {
			const struct io_job_result *res = &res_of[i][t];
			struct fio_report_entry *e = rep->nentries ? &rep->entries[rep->nentries - 1] : NULL;
			if (!(e && j->group_reporting && e->groupid == j->io.group)) {
				e = &rep->entries[rep->nentries++];
				e->name = j->name;
				e->groupid = j->io.group;
				e->io = &j->io;
				e->ioengine = j->ioengine ? j->ioengine : fio_engine_name(io_session_engine(runs[i].session, 0));
				e->kb_base = j->kb_base;
				e->unit_base = j->unit_base;
				e->slat_percentiles = j->slat_percentiles;
				e->clat_percentiles = j->clat_percentiles;
				e->lat_percentiles = j->lat_percentiles;
				io_result_init(&e->res);
			}
			/* fio shows the first job's name but the last merged job's options */
			e->opts = j->opts.kv;
			e->nopts = j->opts.n;
			io_result_merge(&e->res, res);
			e->nthreads++;
			e->job_runtime_ns += res->runtime_ns;
		}
	}
}

static void header_entries(struct fio_cmd *c, struct runner *runs, struct fio_report *rep)
{
	const struct fio_plan *p = &c->plan;
	rep->entries = calloc(p->njobs, sizeof *rep->entries);
	if (!rep->entries)
		abort();
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		struct fio_report_entry *e = &rep->entries[rep->nentries++];
		e->name = j->name;
		e->groupid = j->io.group;
		e->io = &j->io;
		e->ioengine = j->ioengine ? j->ioengine : fio_engine_name(io_session_engine(runs[i].session, 0));
		e->nthreads = j->io.numjobs;
	}
}

/* The saved run: one bench per reported entry, fio's figures as metrics. */
static struct record *make_record(int argc, char **argv, const struct fio_report *rep)
{
	static const char *const dname[DIR_COUNT] = { "read", "write" };
	struct record *rec = record_new("fio", argc, argv);
	for (size_t i = 0; i < rep->nentries; i++) {
		const struct fio_report_entry *e = &rep->entries[i];
		char name[160];
		snprintf(name, sizeof name, "%s (group %d, entry %zu)", e->name, e->groupid, i);
		struct bench *b = record_add_bench(rec, name);
		json_t *opts = json_object();
		for (size_t k = 0; k < e->nopts; k++)
			json_object_set_new(opts, e->opts[k].key, e->opts[k].value ? json_string(e->opts[k].value) : json_true());
		bench_set(b, "job_options", opts);
		bench_set(b, "groupid", json_integer(e->groupid));
		bench_set(b, "threads", json_integer(e->nthreads));
		bench_set(b, "engine", json_string(e->res.engine_used));
		for (int d = 0; d < DIR_COUNT; d++) {
			const struct io_dir_result *dr = &e->res.dir[d];
			if (!dr->ios)
				continue;
			uint64_t ns = dr->runtime_ns ? dr->runtime_ns : e->res.runtime_ns;
			char m[64];
			snprintf(m, sizeof m, "%s_iops", dname[d]);
			metric_add(bench_metric(b, m, "op/s", HIGHER_IS_BETTER), ns ? (double)dr->ios * 1e9 / (double)ns : 0);
			snprintf(m, sizeof m, "%s_bytes_per_sec", dname[d]);
			metric_add(bench_metric(b, m, "B/s", HIGHER_IS_BETTER), ns ? (double)dr->bytes * 1e9 / (double)ns : 0);
			snprintf(m, sizeof m, "%s_clat_mean_ns", dname[d]);
			metric_add(bench_metric(b, m, "ns", LOWER_IS_BETTER), hist_mean(&dr->clat));
			snprintf(m, sizeof m, "%s_clat_p99_ns", dname[d]);
			metric_add(bench_metric(b, m, "ns", LOWER_IS_BETTER), (double)hist_percentile(&dr->clat, 99));
			uint64_t vals[HIST_NR], counts[HIST_NR];
			size_t n = 0;
			for (unsigned k = 0; k < HIST_NR; k++)
				if (dr->clat.bucket[k]) {
					vals[n] = hist_bucket_value(k);
					counts[n++] = dr->clat.bucket[k];
				}
			snprintf(m, sizeof m, "clat_%s", dname[d]);
			bench_add_hist(b, m, vals, counts, n);
		}
	}
	return rec;
}

static int write_report(const struct fio_plan *p, FILE *out, const struct fio_report *rep)
{
	unsigned f = p->formats ? p->formats : FIO_OUT_NORMAL;
	if (f & FIO_OUT_TERSE)
		fio_write_terse(out, rep);
	if (f & (FIO_OUT_JSON | FIO_OUT_JSONPLUS))
		fio_write_json(out, rep, !!(f & FIO_OUT_JSONPLUS));
	if (f & FIO_OUT_NORMAL)
		fio_write_normal(out, rep);
	return 0;
}

/* --status-interval: while jobs run, a full report of the figures so far every interval
 * (cumulative from each job's start, as fio's). Finished jobs give their final figures, running
 * ones a snapshot, jobs still waiting (stonewall) zeros. */
static void status_report(struct fio_cmd *c, struct runner *runs, FILE *out, const struct fio_report *base)
{
	const struct fio_plan *p = &c->plan;
	struct io_job_result **res = calloc(p->njobs, sizeof *res);
	if (!res)
		abort();
	for (size_t i = 0; i < p->njobs; i++) {
		unsigned n = p->jobs[i].io.numjobs;
		if (!(res[i] = calloc(n, sizeof *res[i])))
			abort();
		pthread_mutex_lock(&done_lock);
		int done = job_done[i];
		pthread_mutex_unlock(&done_lock);
		if (!done && io_session_snapshot(runs[i].session, res[i], n, 1000) == 0) {
			/* not started yet, or it ended just now: then its final figures */
			pthread_mutex_lock(&done_lock);
			done = job_done[i];
			pthread_mutex_unlock(&done_lock);
		}
		if (done) {
			for (unsigned t = 0; t < n; t++) {
				res[i][t] = runs[i].res[t];
				res[i][t].sec_iops = res[i][t].sec_bw = NULL; /* owned by runs[i] */
				res[i][t].nsec = 0;
			}
		}
	}
	struct fio_report rep = *base;
	rep.entries = NULL;
	rep.nentries = 0;
	rep.disks = NULL; /* the disks' figures come with the final report */
	build_entries(c, runs, res, &rep);
	write_report(p, out, &rep);
	fflush(out);
	for (size_t i = 0; i < rep.nentries; i++)
		io_result_free(&rep.entries[i].res);
	free(rep.entries);
	for (size_t i = 0; i < p->njobs; i++)
		free(res[i]);
	free(res);
}

static void status_reports(struct fio_cmd *c, struct runner *runs, FILE *out, const struct fio_report *base)
{
	const struct fio_plan *p = &c->plan;
	struct timespec next;
	clock_gettime(CLOCK_REALTIME, &next);
	for (;;) {
		uint64_t ns = (uint64_t)next.tv_nsec + p->status_interval_ns;
		next.tv_sec += (time_t)(ns / 1000000000ull);
		next.tv_nsec = (long)(ns % 1000000000ull);
		int all_done = 1, timed_out = 0;
		pthread_mutex_lock(&done_lock);
		for (;;) {
			all_done = 1;
			for (size_t i = 0; i < p->njobs; i++)
				all_done &= job_done[i];
			if (all_done || timed_out)
				break;
			timed_out = pthread_cond_timedwait(&done_cond, &done_lock, &next) != 0;
		}
		pthread_mutex_unlock(&done_lock);
		if (all_done || cleanup_interrupted())
			return;
		status_report(c, runs, out, base);
	}
}

static int run_plan(struct fio_cmd *c, int argc, char **argv)
{
	struct fio_plan *p = &c->plan;
	char err[768];
	int rc = NM_EXIT_OK;
	struct runner *runs = calloc(p->njobs, sizeof *runs);
	job_done = calloc(p->njobs, 1);
	if (!runs || !job_done)
		abort();

	/* Lay every job's files out first, as fio does, so no job's layout lands in another's time. */
	for (size_t i = 0; i < p->njobs; i++) {
		int st = IO_OK;
		runs[i].c = c;
		runs[i].idx = i;
		runs[i].res = calloc(p->jobs[i].io.numjobs, sizeof *runs[i].res);
		if (!runs[i].res)
			abort();
		runs[i].session = io_session_open(&p->jobs[i].io, &st, err, sizeof err);
		if (!runs[i].session) {
			nm_error("job '%s': %s", p->jobs[i].name, err);
			rc = st == IO_BAD_JOB ? NM_EXIT_USAGE : st == IO_INTERRUPTED ? NM_EXIT_INTERRUPTED : NM_EXIT_FAILED;
			goto out;
		}
		for (const char *const *n = io_session_notes(runs[i].session); n && *n; n++)
			nm_warn("job '%s': %s", p->jobs[i].name, *n);
	}

	struct atomic_file af;
	FILE *out = afile_open(&af, p->output ? p->output : "-", err, sizeof err);
	if (!out) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
		goto out;
	}
	struct fio_report rep = { .version = "nodemark-" NODEMARK_VERSION, .globals = p->globals.kv,
				  .nglobals = p->globals.n, .pid = (long)getpid() };
	struct timeval tv;
	gettimeofday(&tv, NULL);
	rep.time_ms = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
	if (!p->formats || (p->formats & FIO_OUT_NORMAL)) {
		struct fio_report head = rep;
		header_entries(c, runs, &head);
		fio_write_normal_header(out, &head);
		free(head.entries);
		fflush(out);
	}

	/* fio's disk_util: the disks under every job's files, over the whole run */
	struct disk_activity *disks = calloc(1, sizeof *disks);
	if (!disks)
		abort();
	disk_activity_init(disks, NULL);
	for (size_t i = 0; i < p->njobs; i++)
		if (p->jobs[i].disk_util && p->jobs[i].io.engine != ENGINE_NULL)
			for (unsigned t = 0; t < p->jobs[i].io.ntargets; t++)
				disk_activity_watch_path(disks, p->jobs[i].io.targets[t]);
	disk_activity_begin(disks);
	rep.disks = disks;

	for (size_t i = 0; i < p->njobs; i++) {
		if (pthread_create(&runs[i].tid, NULL, run_one, &runs[i]) != 0) {
			nm_error("cannot start a thread for job '%s'", p->jobs[i].name);
			abort();
		}
		runs[i].started = 1;
	}
	if (p->status_interval_ns)
		status_reports(c, runs, out, &rep);
	for (size_t i = 0; i < p->njobs; i++)
		pthread_join(runs[i].tid, NULL);
	disk_activity_end(disks);

	for (size_t i = 0; i < p->njobs; i++) {
		if (runs[i].status == IO_OK)
			continue;
		if (runs[i].status == IO_INTERRUPTED) {
			rc = NM_EXIT_INTERRUPTED;
		} else {
			nm_error("job '%s': %s", p->jobs[i].name, runs[i].err);
			if (rc == NM_EXIT_OK)
				rc = runs[i].status == IO_BAD_JOB ? NM_EXIT_USAGE : NM_EXIT_FAILED;
		}
	}

	struct io_job_result **final = calloc(p->njobs, sizeof *final);
	if (!final)
		abort();
	for (size_t i = 0; i < p->njobs; i++)
		final[i] = runs[i].res;
	build_entries(c, runs, final, &rep);
	free(final);
	write_report(p, out, &rep);
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		rc = NM_EXIT_FAILED;
	}
	if (rc == NM_EXIT_OK || rc == NM_EXIT_INTERRUPTED) {
		struct record *rec = make_record(argc, argv, &rep);
		const char *where = p->jobs[0].io.ntargets ? p->jobs[0].io.targets[0] : NULL;
		struct stat st;
		run_opts_apply(&c->ro, rec, where && stat(where, &st) == 0 && S_ISDIR(st.st_mode) ? where : NULL);
		if (run_save(&c->ro, rec) < 0 && rc == NM_EXIT_OK)
			rc = NM_EXIT_FAILED;
		record_free(rec);
	}
	for (size_t i = 0; i < rep.nentries; i++)
		io_result_free(&rep.entries[i].res);
	free(rep.entries);
	free(disks);
out:
	for (size_t i = p->njobs; i-- > 0;) {
		if (runs[i].session)
			io_session_close(runs[i].session);
		if (runs[i].res)
			for (unsigned t = 0; t < p->jobs[i].io.numjobs; t++)
				if (runs[i].started)
					io_result_free(&runs[i].res[t]);
		free(runs[i].res);
	}
	free(runs);
	free(job_done);
	job_done = NULL;
	return rc;
}

int cmd_fio(int argc, char **argv)
{
	struct fio_cmd c;
	char err[768];
	memset(&c, 0, sizeof c);
	fio_plan_init(&c.plan);
	split_args(&c, argc, argv);
	if (fio_parse_args(&c.plan, c.fio_argc, c.fio_argv, err, sizeof err) < 0) {
		fio_plan_free(&c.plan);
		free(c.fio_argv);
		run_opts_free(&c.ro);
		nm_usage_fail("%s", err);
	}
	for (size_t i = 0; i < c.plan.nwarnings; i++)
		nm_warn("%s", c.plan.warnings[i]);
	for (size_t i = 0; i < c.plan.nnotes; i++)
		nm_warn("%s", c.plan.notes[i]);
	allow_writes(&c);

	int rc = NM_EXIT_OK;
	for (size_t i = 0; i < c.plan.njobs && rc == NM_EXIT_OK; i++)
		if (io_job_check(&c.plan.jobs[i].io, err, sizeof err) != IO_OK) {
			nm_error("job '%s': %s", c.plan.jobs[i].name, err);
			rc = NM_EXIT_USAGE;
		}
	if (rc == NM_EXIT_OK && !c.plan.parse_only)
		rc = run_plan(&c, argc, argv);
	fio_plan_free(&c.plan);
	free(c.fio_argv);
	run_opts_free(&c.ro);
	return rc;
}
