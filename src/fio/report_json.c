/* fio's JSON and json+ output: the same keys in the same order, the same types and units, and
 * fio's layout ("key" : value, two-space indent, %f for reals), so diffing against fio is easy. */
#include "fio/report_figures.h"
#include "fio/report.h"
#include "fio/steadystate.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct jw {
	FILE *f;
	int depth;
	int first; /* nothing written yet at this level */
};

static void indent(struct jw *w)
{
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c < 0x20)
			fprintf(f, "\\u%04x", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

/* The separator and indentation before a member; key NULL inside arrays. */
static void member(struct jw *w, const char *key)
{
	if (!w->first)
		fputc(',', w->f);
	fputc('\n', w->f);
	w->first = 0;
	indent(w);
	if (key) {
		put_string(w->f, key);
		fputs(" : ", w->f);
	}
}

static void open_obj(struct jw *w, const char *key)
{
	member(w, key);
	fputc('{', w->f);
	w->depth++;
	w->first = 1;
}

static void open_arr(struct jw *w, const char *key)
{
	member(w, key);
	fputc('[', w->f);
	w->depth++;
	w->first = 1;
}

static void close_any(struct jw *w, char c)
{
	w->depth--;
	fputc('\n', w->f);
	indent(w);
	fputc(c, w->f);
	w->first = 0;
}

static void kv_u64(struct jw *w, const char *key, uint64_t v)
{
	member(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

static void kv_int(struct jw *w, const char *key, long long v)
{
	member(w, key);
	fprintf(w->f, "%lld", v);
}

static void kv_real(struct jw *w, const char *key, double v)
{
	member(w, key);
	fprintf(w->f, "%f", v);
}

static void kv_str(struct jw *w, const char *key, const char *v)
{
	member(w, key);
	put_string(w->f, v ? v : "");
}

static void options(struct jw *w, const char *key, const struct fio_kv *kv, size_t n)
{
	open_obj(w, key);
	for (size_t i = 0; i < n; i++)
		if (kv[i].value) /* fio lists only options given with a value */
			kv_str(w, kv[i].key, kv[i].value);
	close_any(w, '}');
}

/* One of slat_ns, clat_ns, lat_ns: summary, then percentiles and (json+) bins when asked. */
static void lat_obj(struct jw *w, const char *key, const struct hist *h, int percentiles,
		    const struct fio_report_entry *e, int plus)
{
	open_obj(w, key);
	kv_u64(w, "min", h->n ? h->min : 0);
	kv_u64(w, "max", h->n ? h->max : 0);
	kv_real(w, "mean", hist_mean(h));
	kv_real(w, "stddev", hist_stddev(h));
	kv_u64(w, "N", h->n);
	if (percentiles && h->n) {
		const double *p;
		size_t np;
		uint64_t vals[32];
		char name[32];
		fio_percentile_list(e, &p, &np);
		hist_percentiles(h, p, np, vals);
		open_obj(w, "percentile");
		for (size_t i = 0; i < np; i++) {
			snprintf(name, sizeof name, "%f", p[i]);
			kv_u64(w, name, vals[i]);
		}
		close_any(w, '}');
		if (plus) {
			open_obj(w, "bins");
			for (unsigned i = 0; i < HIST_NR; i++)
				if (h->bucket[i]) {
					snprintf(name, sizeof name, "%" PRIu64, hist_bucket_value(i));
					kv_u64(w, name, h->bucket[i]);
				}
			close_any(w, '}');
		}
	}
	close_any(w, '}');
}

static void per_second(struct jw *w, const struct io_dir_result *d, uint64_t group_agg_bw)
{
	double mean_kib = d->bw_mean / 1024.0;
	kv_u64(w, "bw_min", d->bw_samples ? d->bw_min / 1024 : 0);
	kv_u64(w, "bw_max", d->bw_samples ? d->bw_max / 1024 : 0);
	/* fio's bw_agg: this job's mean bandwidth as a percentage of its group's */
	kv_real(w, "bw_agg", d->bw_samples && group_agg_bw ? mean_kib * 100.0 / ((double)group_agg_bw / 1024.0) : 0);
	kv_real(w, "bw_mean", d->bw_samples ? mean_kib : 0);
	kv_real(w, "bw_dev", d->bw_samples ? d->bw_dev / 1024.0 : 0);
	kv_u64(w, "bw_samples", d->bw_samples);
	kv_u64(w, "iops_min", d->iops_samples ? d->iops_min : 0);
	kv_u64(w, "iops_max", d->iops_samples ? d->iops_max : 0);
	kv_real(w, "iops_mean", d->iops_samples ? d->iops_mean : 0);
	kv_real(w, "iops_stddev", d->iops_samples ? d->iops_dev : 0);
	kv_u64(w, "iops_samples", d->iops_samples);
}

/* fio's "prios": each priority with I/Os, when two or more have some (cmdprio_*, or a group
 * of jobs at different priorities). */
static void prios_arr(struct jw *w, const struct fio_report_entry *e, int d, int plus)
{
	const struct io_prio_stats *ps = e->res.prios;
	if (fio_prios_with_ios(&e->res, d) < 2)
		return;
	open_arr(w, "prios");
	for (unsigned i = 0; i < ps->n[d]; i++) {
		const struct io_prio_stat *st = &ps->s[d][i];
		if (!st->lat.n)
			continue;
		open_obj(w, NULL);
		kv_u64(w, "prioclass", st->prio >> 13);
		kv_u64(w, "prio", st->prio & 7);
		lat_obj(w, e->lat_percentiles ? "lat_ns" : "clat_ns", &st->lat, e->clat_percentiles || e->lat_percentiles,
			e, plus);
		close_any(w, '}');
	}
	close_any(w, ']');
}

static void dir_obj(struct jw *w, const char *key, const struct fio_report_entry *e, int d,
		    const struct fio_group_figures *g, int plus)
{
	const struct io_dir_result *dr = &e->res.dir[d];
	struct fio_dir_figures f;
	fio_dir_figures(&e->res, d, &f);
	open_obj(w, key);
	kv_u64(w, "io_bytes", dr->bytes);
	kv_u64(w, "io_kbytes", dr->bytes / 1024);
	kv_u64(w, "bw_bytes", f.bw_bytes);
	kv_u64(w, "bw", f.bw_kib);
	kv_real(w, "iops", f.iops);
	kv_u64(w, "runtime", f.runtime_ms);
	kv_u64(w, "total_ios", dr->ios);
	kv_u64(w, "short_ios", dr->short_ios);
	kv_u64(w, "drop_ios", dr->drop_ios);
	lat_obj(w, "slat_ns", &dr->slat, e->slat_percentiles, e, plus);
	lat_obj(w, "clat_ns", &dr->clat, e->clat_percentiles, e, plus);
	lat_obj(w, "lat_ns", &dr->lat, e->lat_percentiles, e, plus);
	prios_arr(w, e, d, plus);
	per_second(w, dr, g->agg_bw[d]);
	close_any(w, '}');
}

static void levels(struct jw *w, const char *key, const char *const *names, const double *v, size_t n)
{
	open_obj(w, key);
	for (size_t i = 0; i < n; i++)
		kv_real(w, names[i], v[i]);
	close_any(w, '}');
}

static void u64_array(struct jw *w, const char *key, const uint64_t *v, unsigned n)
{
	open_arr(w, key);
	for (unsigned i = 0; i < n; i++) {
		member(w, NULL);
		fprintf(w->f, "%" PRIu64, v[i]);
	}
	close_any(w, ']');
}

/* fio's "steadystate": the criterion, whether it was met, and the last window (B/s, I/Os/s). */
static void steadystate_obj(struct jw *w, const struct fio_ss *ss)
{
	char buf[96];
	open_obj(w, "steadystate");
	fio_ss_describe(ss, buf, sizeof buf);
	kv_str(w, "ss", buf);
	kv_int(w, "duration", (long long)(ss->o.dur_us / 1000000));
	kv_int(w, "attained", ss->attained);
	snprintf(buf, sizeof buf, "%f%s", (float)ss->criterion, ss->o.pct ? "%" : "");
	kv_str(w, "criterion", buf);
	kv_real(w, "max_deviation", ss->deviation);
	kv_real(w, "slope", ss->slope);
	open_obj(w, "data");
	kv_u64(w, "bw_mean", fio_ss_bw_mean(ss));
	kv_u64(w, "iops_mean", fio_ss_iops_mean(ss));
	uint64_t *bw = xcalloc(ss->n, sizeof *bw), *iops = xcalloc(ss->n, sizeof *iops);
	fio_ss_window(ss, bw, iops);
	u64_array(w, "iops", iops, ss->n);
	u64_array(w, "bw", bw, ss->n);
	free(bw);
	free(iops);
	close_any(w, '}');
	close_any(w, '}');
}

/* rep and e: mixed reporting's entries folded (fio_report_unify); both: the same with both's
 * folded too, for its "mixed" object after "sync". */
static void job_obj(struct jw *w, const struct fio_report *rep, const struct fio_report_entry *e,
		    const struct fio_report *both, const struct fio_report_entry *eb, int plus)
{
	static const char *const depth_names[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const sub_names[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	static const char *const lat_names[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
						 "2000", ">=2000" };
	const struct io_job_result *r = &e->res;
	struct fio_group_figures g;
	fio_group_figures(rep, e->groupid, &g);

	open_obj(w, NULL);
	kv_str(w, "jobname", e->name);
	kv_int(w, "groupid", e->groupid);
	kv_int(w, "error", r->error);
	kv_int(w, "eta", 0);
	/* fio's elapsed counts the whole job: start delay and ramp included */
	uint64_t wall = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : r->runtime_ns;
	if (e->io)
		wall += e->io->ramp_ns + e->startdelay_ns;
	kv_u64(w, "elapsed", (wall + 999999999) / 1000000000);
	if (e->nopts) /* fio leaves the key out for a job with no options of its own */
		options(w, "job options", e->opts, e->nopts);
	if (e->unified == FIO_UNIFIED_MIXED) { /* fio's one object, and no "sync" */
		dir_obj(w, "mixed", e, DIR_READ, &g, plus);
	} else {
		dir_obj(w, "read", e, DIR_READ, &g, plus);
		dir_obj(w, "write", e, DIR_WRITE, &g, plus);
		dir_obj(w, "trim", e, DIR_TRIM, &g, plus);

		open_obj(w, "sync");
		kv_u64(w, "total_ios", r->sync_ios);
		lat_obj(w, "lat_ns", &r->sync_lat, 1, e, 0);
		close_any(w, '}');
	}
	if (e->unified == FIO_UNIFIED_BOTH) {
		struct fio_group_figures gb;
		fio_group_figures(both, eb->groupid, &gb);
		dir_obj(w, "mixed", eb, DIR_READ, &gb, plus);
	}

	uint64_t job_ms = (e->job_runtime_ns + 500000) / 1000000;
	kv_u64(w, "job_runtime", job_ms);
	kv_real(w, "usr_cpu", e->job_runtime_ns ? (double)r->usr_cpu_ns * 100.0 / (double)e->job_runtime_ns : 0);
	kv_real(w, "sys_cpu", e->job_runtime_ns ? (double)r->sys_cpu_ns * 100.0 / (double)e->job_runtime_ns : 0);
	kv_u64(w, "ctx", r->ctx_voluntary + r->ctx_involuntary);
	kv_u64(w, "majf", r->majf);
	kv_u64(w, "minf", r->minf);

	double depth[7], sub[7], com[7];
	fio_depth_levels(r, depth);
	levels(w, "iodepth_level", depth_names, depth, 7);
	fio_call_levels(r, sub, com);
	levels(w, "iodepth_submit", sub_names, sub, 7);
	levels(w, "iodepth_complete", sub_names, com, 7);

	double ns[10], us[10], ms[12];
	fio_latency_levels(r, ns, us, ms);
	levels(w, "latency_ns", lat_names, ns, 10);
	levels(w, "latency_us", lat_names, us, 10);
	levels(w, "latency_ms", lat_names, ms, 12);
	/* fio's: the depth its latency target's search ended at (else iodepth), the target in ns,
	 * the window in microseconds */
	kv_u64(w, "latency_depth", r->latency_depth ? r->latency_depth : e->io ? e->io->iodepth : 1);
	kv_u64(w, "latency_target", e->io ? e->io->pace.lat_target_ns : 0);
	kv_real(w, "latency_percentile", e->io ? e->io->pace.lat_percentile : 100.0);
	kv_u64(w, "latency_window", e->io ? e->io->pace.lat_window_ns / 1000 : 0);
	if (e->description && *e->description)
		kv_str(w, "desc", e->description);
	if (e->ss)
		steadystate_obj(w, e->ss);
	close_any(w, '}');
}

/* fio's "disk_util": one object per device, with "aggr_*" for a device with slaves (fio spells
 * one of them "aggr_write_merge", and so must we). */
static void disk_util(struct jw *w, const struct disk_activity *a)
{
	open_arr(w, "disk_util");
	for (size_t i = 0; i < a->n; i++) {
		const struct disk_activity_dev *d = &a->dev[i];
		struct fio_disk_aggr ag;
		open_obj(w, NULL);
		kv_str(w, "name", d->name);
		kv_u64(w, "read_ios", d->delta.ios[0]);
		kv_u64(w, "write_ios", d->delta.ios[1]);
		kv_u64(w, "read_merges", d->delta.merges[0]);
		kv_u64(w, "write_merges", d->delta.merges[1]);
		kv_u64(w, "read_ticks", d->delta.ticks[0]);
		kv_u64(w, "write_ticks", d->delta.ticks[1]);
		kv_u64(w, "in_queue", d->delta.in_queue);
		kv_real(w, "util", d->util);
		if (fio_disk_aggr(a, i, &ag)) {
			kv_u64(w, "aggr_read_ios", ag.c.ios[0]);
			kv_u64(w, "aggr_write_ios", ag.c.ios[1]);
			kv_u64(w, "aggr_read_merges", ag.c.merges[0]);
			kv_u64(w, "aggr_write_merge", ag.c.merges[1]);
			kv_u64(w, "aggr_read_ticks", ag.c.ticks[0]);
			kv_u64(w, "aggr_write_ticks", ag.c.ticks[1]);
			kv_u64(w, "aggr_in_queue", ag.c.in_queue);
			kv_real(w, "aggr_util", ag.max_util);
		}
		close_any(w, '}');
	}
	close_any(w, ']');
}

void fio_write_json(FILE *f, const struct fio_report *r, int plus)
{
	struct jw w = { .f = f, .depth = 0, .first = 1 };
	time_t t = (time_t)(r->time_ms / 1000);
	char when[64];
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);

	fputc('{', f);
	w.depth = 1;
	kv_str(&w, "fio version", r->version);
	kv_int(&w, "timestamp", (long long)t);
	kv_int(&w, "timestamp_ms", (long long)r->time_ms);
	kv_str(&w, "time", when);
	if (r->nglobals)
		options(&w, "global options", r->globals, r->nglobals);
	struct fio_report m, b;
	int own_m = fio_report_unify(r, &m, 0), own_b = fio_report_unify(r, &b, 1);
	open_arr(&w, "jobs");
	for (size_t i = 0; i < r->nentries; i++)
		job_obj(&w, &m, &m.entries[i], &b, &b.entries[i], plus);
	close_any(&w, ']');
	if (own_m)
		free(m.entries);
	if (own_b)
		free(b.entries);
	if (r->disks && r->disks->n)
		disk_util(&w, r->disks);
	close_any(&w, '}');
	fputc('\n', f);
}
