/* fio's log files from the threads' records (see logs.h). Columns as fio 3.33's iolog.c
 * prints them: per I/O "t, value, dir, bs[, offset], prio"; a window's line has bs, offset and
 * prio 0 and its mean (rounded) or maximum; a histogram line "t, dir, bs, counts" with fio's
 * 1856 buckets (stats/hist.h has the same ones) summed 2^log_hist_coarseness at a time. */
#include "fio/logs.h"
#include "fio/parse_util.h"
#include "io/iolog.h"
#include "util/atomicfile.h"
#include "util/clock.h"
#include "util/error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum log_type { T_LAT, T_SLAT, T_CLAT, T_BW, T_IOPS, T_HIST, T_COUNT };

static const struct {
	const char *name, *option;
	enum fio_log_kind kind;
} types[T_COUNT] = {
	{ "lat", "write_lat_log", FIO_LOG_LAT },   { "slat", "write_lat_log", FIO_LOG_LAT },
	{ "clat", "write_lat_log", FIO_LOG_LAT },  { "bw", "write_bw_log", FIO_LOG_BW },
	{ "iops", "write_iops_log", FIO_LOG_IOPS }, { "clat_hist", "write_hist_log", FIO_LOG_HIST },
};

/* fio's gen_log_name: PREFIX_TYPE.N.log, or PREFIX_TYPE.log without per_job_logs. A prefix
 * the option gives names a file, as --output does; without one the job's name is no path: its
 * '/' are made '_', as in the job's test file names, so --name=../../x or a [/etc/x] section
 * writes .._.._x_bw.1.log or _etc_x_bw.1.log here, never outside (fio's would). */
static void log_name(char *buf, size_t len, const struct fio_job *j, enum log_type ty, unsigned thread_no)
{
	const char *pre = j->logs.prefix[types[ty].kind];
	int derived = !pre || !*pre;
	if (j->logs.per_job)
		snprintf(buf, len, "%s_%s.%u.log", derived ? j->name : pre, types[ty].name, thread_no);
	else
		snprintf(buf, len, "%s_%s.log", derived ? j->name : pre, types[ty].name);
	for (size_t k = 0; derived && k < strlen(j->name) && buf[k]; k++)
		if (buf[k] == '/')
			buf[k] = '_';
}

int fio_logs_check(const struct fio_plan *p, char *err, size_t errlen)
{
	unsigned thread_no = 1;
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		for (int ty = 0; ty < T_COUNT; ty++) {
			char name[4096], msg[600], qb[64];
			if (!j->logs.prefix[types[ty].kind])
				continue;
			log_name(name, sizeof name, j, (enum log_type)ty, thread_no);
			if (afile_check(name, msg, sizeof msg) < 0)
				return nm_errf(err, errlen, "job '%s': %s: %s", fio_q(j->name, qb, sizeof qb), types[ty].option,
					       msg);
		}
		thread_no += j->io.numjobs;
	}
	return 0;
}

/* The threads whose lines go into one file (several with per_job_logs=0). */
struct log_source {
	size_t job;
	unsigned thread;
};

struct log_file {
	char *name;
	enum log_type type;
	int append; /* per_job_logs=0: added to what the file holds, as fio's */
	struct log_source *src;
	size_t nsrc;
};

static void add_source(struct log_file **files, size_t *nfiles, const char *name, enum log_type ty,
		       const struct fio_job *job, size_t job_no, unsigned thread)
{
	struct log_file *f = NULL;
	for (size_t i = 0; i < *nfiles && !f; i++)
		if (strcmp((*files)[i].name, name) == 0)
			f = &(*files)[i];
	if (!f) {
		*files = xrealloc(*files, (*nfiles + 1) * sizeof **files);
		f = &(*files)[(*nfiles)++];
		memset(f, 0, sizeof *f);
		f->name = xstrdup(name);
		f->type = ty;
		f->append = !job->logs.per_job;
	}
	f->src = xrealloc(f->src, (f->nsrc + 1) * sizeof *f->src);
	f->src[f->nsrc++] = (struct log_source){ job_no, thread };
}

static void put_line(FILE *out, const struct fio_log_opts *o, uint64_t t_ms, uint64_t v, int dir, uint64_t bs,
		     uint64_t offset, unsigned prio)
{
	fprintf(out, "%" PRIu64 ", %" PRIu64 ", %d, %" PRIu64, t_ms, v, dir, bs);
	if (o->offset)
		fprintf(out, ", %" PRIu64, offset);
	if (o->prio) /* the ioprio value; else whether its class is real-time (fio's 0 or 1) */
		fprintf(out, ", 0x%04x\n", prio);
	else
		fprintf(out, ", %u\n", (prio >> 13) == 1);
}

struct io_lines {
	FILE *out;
	const struct fio_log_opts *o;
	enum log_type ty;
	uint64_t epoch_ms;
};

static void io_line(const struct io_log_io *e, void *arg)
{
	const struct io_lines *a = arg;
	uint64_t v;
	switch (a->ty) {
	case T_LAT: v = e->lat_ns; break;
	case T_SLAT:
		if (e->slat_ns == IO_LOG_NO_SLAT)
			return;
		v = e->slat_ns;
		break;
	case T_CLAT: v = e->clat_ns; break;
	case T_BW: v = e->clat_ns ? (uint64_t)e->bs * 1000000ull / e->clat_ns : 0; break; /* fio's KB/s */
	default: v = 1; break; /* iops: one I/O */
	}
	put_line(a->out, a->o, e->t_ns / 1000000 + a->epoch_ms, v, e->dir, e->bs, e->offset, e->prio);
}

/* The per-I/O lines, read back from the thread's records (some on disk: io/iolog.h). */
static int io_lines(FILE *out, const struct fio_log_opts *o, const struct io_log *l, enum log_type ty,
		    uint64_t epoch_ms)
{
	struct io_lines a = { out, o, ty, epoch_ms };
	return io_log_each_io(l, io_line, &a);
}

static uint64_t mean_or_max(const struct fio_log_opts *o, double sum, uint64_t n, uint64_t max)
{
	return o->max_value ? max : (uint64_t)(sum / (double)n + 0.5);
}

static void window_lines(FILE *out, const struct fio_log_opts *o, const struct io_log *l, enum log_type ty,
			 uint64_t epoch_ms)
{
	for (size_t i = 0; i < l->windows.n; i++) {
		const struct io_log_window *w = io_log_chunks_at(&l->windows, i);
		double secs = (double)w->len_ns / 1e9;
		uint64_t v;
		if (w->last && (ty == T_BW || ty == T_IOPS))
			continue; /* fio samples rates at whole windows only */
		switch (ty) {
		case T_LAT: v = mean_or_max(o, w->lat_sum, w->ios, w->lat_max); break;
		case T_SLAT:
			if (!w->nslat)
				continue;
			v = mean_or_max(o, w->slat_sum, w->nslat, w->slat_max);
			break;
		case T_CLAT: v = mean_or_max(o, w->clat_sum, w->ios, w->clat_max); break;
		case T_BW: v = (uint64_t)((double)w->bytes / secs / 1024); break; /* KiB/s */
		default: v = (uint64_t)((double)w->ios / secs); break;
		}
		put_line(out, o, w->t_ns / 1000000 + epoch_ms, v, w->dir, 0, 0, 0);
	}
}

static void hist_lines(FILE *out, const struct fio_log_opts *o, const struct io_log *l, uint64_t epoch_ms)
{
	unsigned stride = 1u << o->hist_coarseness;
	uint64_t *dense = xcalloc(HIST_NR, sizeof *dense);
	for (size_t i = 0; i < l->hists.n; i++) {
		const struct io_log_hist *h = io_log_chunks_at(&l->hists, i);
		memset(dense, 0, HIST_NR * sizeof *dense);
		for (size_t k = 0; k < h->n; k++) {
			const struct io_log_bin *b = io_log_chunks_at(&l->bins, h->first + k);
			dense[b->idx] = b->count;
		}
		fprintf(out, "%" PRIu64 ", %u, %u, ", h->t_ns / 1000000 + epoch_ms, h->dir, h->bs);
		for (unsigned k = 0; k < HIST_NR; k += stride) {
			uint64_t sum = 0;
			for (unsigned s = 0; s < stride; s++)
				sum += dense[k + s];
			fprintf(out, "%" PRIu64 "%s", sum, k + stride < HIST_NR ? ", " : "\n");
		}
	}
	free(dense);
}

/* log_unix_epoch: the measured part's start as a Unix time in ms. */
static uint64_t unix_ms_at(uint64_t mono_ns)
{
	int64_t off_ms = clock_wall_ms() - (int64_t)(clock_now_ns() / 1000000);
	return (uint64_t)((int64_t)(mono_ns / 1000000) + off_ms);
}

static int thread_lines(FILE *out, const struct fio_job *j, const struct io_job_result *r, enum log_type ty)
{
	const struct io_log *l = r->log;
	if (!l)
		return 0;
	uint64_t epoch_ms = j->logs.unix_epoch ? unix_ms_at(r->start_ns) : 0;
	if (ty == T_HIST)
		hist_lines(out, &j->logs, l, epoch_ms);
	else if (l->spec.ios && l->spec.window_ns)
		window_lines(out, &j->logs, l, ty, epoch_ms);
	else if (l->spec.ios)
		return io_lines(out, &j->logs, l, ty, epoch_ms);
	return 0;
}

static int write_file(const struct fio_plan *p, struct io_job_result *const *res_of, const struct log_file *f,
		      char *err, size_t errlen)
{
	struct atomic_file af;
	FILE *out = f->append ? afile_open_append(&af, f->name, err, errlen) : afile_open(&af, f->name, err, errlen);
	if (!out)
		return -1;
	for (size_t s = 0; s < f->nsrc; s++)
		if (thread_lines(out, &p->jobs[f->src[s].job], &res_of[f->src[s].job][f->src[s].thread], f->type) < 0) {
			nm_errf(err, errlen, "%s: reading back the log records: %s", f->name, strerror(errno));
			afile_abort(&af);
			return -1;
		}
	return afile_commit(&af, err, errlen);
}

int fio_write_logs(const struct fio_plan *p, struct io_job_result *const *res_of, char *err, size_t errlen)
{
	struct log_file *files = NULL;
	size_t nfiles = 0;
	unsigned thread_no = 1;
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		for (unsigned t = 0; t < j->io.numjobs; t++, thread_no++) {
			const struct io_log *l = res_of[i][t].log;
			if (l && l->nospace)
				nm_warn("job '%s': thread %u's log records stopped: the file system of the current "
					"directory keeps its reserve free, as for test files", j->name, t + 1);
			else if (l && l->truncated)
				nm_warn("job '%s': thread %u's log records stopped at %zu MiB (log_avg_msec keeps them "
					"smaller)", j->name, t + 1, l->bytes >> 20);
			for (int ty = 0; ty < T_COUNT; ty++) {
				char name[4096];
				if (!j->logs.prefix[types[ty].kind])
					continue;
				log_name(name, sizeof name, j, (enum log_type)ty, thread_no);
				add_source(&files, &nfiles, name, (enum log_type)ty, j, i, t);
			}
		}
	}
	int rc = 0;
	for (size_t i = 0; i < nfiles; i++) {
		if (rc == 0 && write_file(p, res_of, &files[i], err, errlen) < 0)
			rc = -1;
		free(files[i].name);
		free(files[i].src);
	}
	free(files);
	return rc;
}

/* --- --bandwidth-log: the run's aggregate bandwidth (fio's agg-*_bw.log) ------------------ */

void fio_agg_log_begin(struct fio_agg_log *a, const struct fio_plan *p, uint64_t now_ns)
{
	memset(a, 0, sizeof *a);
	a->start_ns = a->prev_ns = now_ns;
	a->every_ns = UINT64_MAX;
	for (size_t i = 0; i < p->njobs; i++) { /* fio: the smallest bwavgtime of the jobs */
		uint64_t ns = p->jobs[i].io.report.sample_ns ? p->jobs[i].io.report.sample_ns : 500000000ull;
		if (ns < a->every_ns)
			a->every_ns = ns;
	}
}

static void agg_line(struct fio_agg_log *a, int d, uint64_t t_ms, uint64_t kib_s)
{
	char line[96];
	int n = snprintf(line, sizeof line, "%" PRIu64 ", %" PRIu64 ", %d, 0, 0\n", t_ms, kib_s, d);
	if (a->len[d] + (size_t)n + 1 > a->cap[d]) {
		a->cap[d] = a->cap[d] ? 2 * a->cap[d] + (size_t)n : 4096;
		a->lines[d] = xrealloc(a->lines[d], a->cap[d]);
	}
	memcpy(a->lines[d] + a->len[d], line, (size_t)n);
	a->len[d] += (size_t)n;
}

void fio_agg_log_sample(struct fio_agg_log *a, const uint64_t bytes[3], uint64_t now_ns)
{
	uint64_t ms = (now_ns - a->prev_ns) / 1000000;
	if (ms * 1000000 <= a->every_ns) /* fio samples once more than bwavgtime has passed */
		return;
	for (int d = 0; d < 3; d++) { /* fio's rate: whole KiB/s over whole ms, every direction */
		uint64_t diff = bytes[d] > a->prev_bytes[d] ? bytes[d] - a->prev_bytes[d] : 0;
		agg_line(a, d, (now_ns - a->start_ns) / 1000000, 1000 * diff / ms / 1024);
		a->prev_bytes[d] = bytes[d];
	}
	a->prev_ns = now_ns;
}

int fio_agg_log_write(struct fio_agg_log *a, char *err, size_t errlen)
{
	static const char *const names[3] = { "agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log" };
	int rc = 0;
	for (int d = 0; d < 3; d++) {
		if (rc == 0 && afile_write_all(names[d], a->lines[d] ? a->lines[d] : "", a->len[d], err, errlen) < 0)
			rc = -1;
		free(a->lines[d]);
		a->lines[d] = NULL;
	}
	return rc;
}
