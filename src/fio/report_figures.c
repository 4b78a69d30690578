/* The figures every fio output format derives from a result, computed one way for all of them:
 * runtime in ms, bandwidth, IOPS, latency distribution buckets, depth levels, group totals. */
#include "fio/report_figures.h"
#include "io/engine.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <string.h>

const double fio_default_percentiles[17] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

void fio_percentile_list(const struct fio_report_entry *e, const double **p, size_t *n)
{
	if (e->io && e->io->report.npercentiles) {
		*p = e->io->report.percentiles;
		*n = e->io->report.npercentiles;
	} else {
		*p = fio_default_percentiles;
		*n = sizeof fio_default_percentiles / sizeof fio_default_percentiles[0];
	}
}

/* The time a direction was active; a result that does not say per direction has the job's. */
static uint64_t dir_runtime_ns(const struct io_job_result *r, int d)
{
	const struct io_dir_result *dr = &r->dir[d];
	if (!dr->ios)
		return 0;
	return dr->runtime_ns ? dr->runtime_ns : r->runtime_ns;
}

void fio_dir_figures(const struct io_job_result *r, int d, struct fio_dir_figures *f)
{
	const struct io_dir_result *dr = &r->dir[d];
	uint64_t ns = dir_runtime_ns(r, d);
	memset(f, 0, sizeof *f);
	f->runtime_ns = ns;
	f->runtime_ms = (ns + 500000) / 1000000;
	if (ns) {
		f->bw_bytes = (uint64_t)((double)dr->bytes * 1e9 / (double)ns);
		f->iops = (double)dr->ios * 1e9 / (double)ns;
	}
	f->bw_kib = f->bw_bytes / 1024;
}

/* fio's io_u_lat_n/u/m: how many I/Os took < 2, 2-3, 4-9, 10-19, ... of each unit, in percent
 * of all I/Os.  Taken from the completion-latency histograms (bucket midpoints), as fio's
 * (it books each completion's clat there; slat is not part of them). */
void fio_latency_levels(const struct io_job_result *r, double ns[10], double us[10], double ms[12])
{
	static const uint64_t edge[11] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	uint64_t total = r->dir[DIR_READ].clat.n + r->dir[DIR_WRITE].clat.n + r->dir[DIR_TRIM].clat.n;
	memset(ns, 0, 10 * sizeof *ns);
	memset(us, 0, 10 * sizeof *us);
	memset(ms, 0, 12 * sizeof *ms);
	if (!total)
		return;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct hist *h = &r->dir[d].clat;
		for (unsigned i = 0; i < HIST_NR; i++) {
			if (!h->bucket[i])
				continue;
			uint64_t v = hist_bucket_value(i);
			double pct = (double)h->bucket[i] * 100.0 / (double)total;
			double *row = ns;
			int nedges = 10, last = 9;
			if (v >= 1000000) {
				v /= 1000000;
				row = ms;
				nedges = 11;
				last = 11;
			} else if (v >= 1000) {
				v /= 1000;
				row = us;
			}
			int k = last;
			for (int e = 0; e < nedges; e++)
				if (v < edge[e]) {
					k = e;
					break;
				}
			row[k] += pct;
		}
	}
}

/* fio's stat_calc_dist: percent of the total; a bucket with any count shows at least 0.1. */
static void calc_dist(const uint64_t map[7], double out[7])
{
	uint64_t sum = 0;
	for (int i = 0; i < 7; i++)
		sum += map[i];
	for (int i = 0; i < 7; i++) {
		out[i] = sum ? (double)map[i] * 100.0 / (double)sum : 0;
		if (map[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

void fio_depth_levels(const struct io_job_result *r, double out[7])
{
	calc_dist(r->iodepth_level, out);
}

void fio_call_levels(const struct io_job_result *r, double submit[7], double complete[7])
{
	calc_dist(r->submit_level, submit);
	calc_dist(r->complete_level, complete);
}

void fio_group_figures(const struct fio_report *rep, int groupid, struct fio_group_figures *g)
{
	memset(g, 0, sizeof *g);
	for (int d = 0; d < DIR_COUNT; d++) {
		g->min_run_ns[d] = UINT64_MAX;
		g->min_bw[d] = UINT64_MAX;
	}
	for (size_t i = 0; i < rep->nentries; i++) {
		const struct fio_report_entry *e = &rep->entries[i];
		if (e->groupid != groupid)
			continue;
		g->nentries++;
		if (g->nentries == 1) {
			g->kb_base = e->kb_base;
			g->unit_base = e->unit_base;
		}
		for (int d = 0; d < DIR_COUNT; d++) {
			struct fio_dir_figures f;
			fio_dir_figures(&e->res, d, &f);
			if (!e->res.dir[d].ios)
				continue;
			g->bytes[d] += e->res.dir[d].bytes;
			if (f.runtime_ns > g->max_run_ns[d])
				g->max_run_ns[d] = f.runtime_ns;
			if (f.runtime_ns < g->min_run_ns[d])
				g->min_run_ns[d] = f.runtime_ns;
			if (f.bw_bytes > g->max_bw[d])
				g->max_bw[d] = f.bw_bytes;
			if (f.bw_bytes < g->min_bw[d])
				g->min_bw[d] = f.bw_bytes;
		}
	}
	for (int d = 0; d < DIR_COUNT; d++) {
		if (g->min_run_ns[d] == UINT64_MAX)
			g->min_run_ns[d] = 0;
		if (g->min_bw[d] == UINT64_MAX)
			g->min_bw[d] = 0;
		/* fio: group bandwidth = the group's bytes / its slowest job's runtime */
		if (g->max_run_ns[d])
			g->agg_bw[d] = (uint64_t)((double)g->bytes[d] * 1e9 / (double)g->max_run_ns[d]);
	}
}

int fio_report_unify(const struct fio_report *r, struct fio_report *out, int all)
{
	*out = *r;
	int any = 0;
	for (size_t i = 0; i < r->nentries; i++)
		any |= r->entries[i].unified == FIO_UNIFIED_MIXED || (all && r->entries[i].unified == FIO_UNIFIED_BOTH);
	if (!any) /* the entries as they are: no copy */
		return 0;
	out->entries = xcalloc(r->nentries ? r->nentries : 1, sizeof *out->entries);
	for (size_t i = 0; i < r->nentries; i++) {
		struct fio_report_entry *e = &out->entries[i];
		*e = r->entries[i]; /* a shallow copy: read only, nothing of it is freed */
		if (e->unified != FIO_UNIFIED_MIXED && !(all && e->unified == FIO_UNIFIED_BOTH))
			continue;
		for (int d = 1; d < DIR_COUNT; d++) {
			/* as fio's sum_thread_stats with mixed reporting: counts and latencies add
			 * up, the runtime is the longer, the rates add up */
			io_dir_merge(&e->res.dir[DIR_READ], &e->res.dir[d]);
			memset(&e->res.dir[d], 0, sizeof e->res.dir[d]);
			hist_init(&e->res.dir[d].slat);
			hist_init(&e->res.dir[d].clat);
			hist_init(&e->res.dir[d].lat);
		}
		e->res.prios = NULL; /* per-priority lines are not folded */
	}
	return 1;
}

const char *fio_num2str(uint64_t num, int maxlen, int pow2, const char *units, char *buf, size_t len)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const unsigned thousand = pow2 ? 1024 : 1000;
	char digits[32];
	unsigned idx = 0;
	uint64_t rem = 0;
	int divided = 0;

	/* divide until the whole part fits; the remainder of the last step gives the decimals */
	for (;;) {
		snprintf(digits, sizeof digits, "%llu", (unsigned long long)num);
		if ((int)strlen(digits) <= maxlen || idx == 6)
			break;
		rem = num % thousand;
		num /= thousand;
		idx++;
		divided = 1;
	}
	const char *prefix = pow2 ? iec[idx] : si[idx];
	int decimals = maxlen - (int)strlen(digits) - 1;
	if (!divided || decimals < 1) {
		if (divided && rem * 2 >= thousand) /* no room for decimals: round */
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix, units);
		return buf;
	}
	char frac[32];
	snprintf(frac, sizeof frac, "%.*f", decimals, (double)rem / (double)thousand);
	if (frac[0] == '1') { /* the decimals rounded up to a whole one: fio keeps ".0" */
		num++;
		snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix, units);
		return buf;
	}
	snprintf(buf, len, "%llu%s%s%s", (unsigned long long)num, frac + 1, prefix, units);
	return buf;
}

int fio_disk_aggr(const struct disk_activity *a, size_t dev, struct fio_disk_aggr *out)
{
	const struct disk_activity_dev *d = &a->dev[dev];
	memset(out, 0, sizeof *out);
	if (!d->nslaves)
		return 0;
	for (unsigned i = 0; i < d->nslaves; i++) {
		const struct disk_activity_dev *s = &a->dev[d->slave[i]];
		for (int k = 0; k < 2; k++) {
			out->c.ios[k] += s->delta.ios[k];
			out->c.merges[k] += s->delta.merges[k];
			out->c.ticks[k] += s->delta.ticks[k];
		}
		out->c.in_queue += s->delta.in_queue;
		if (s->util > out->max_util)
			out->max_util = s->util;
	}
	for (int k = 0; k < 2; k++) {
		out->c.ios[k] /= d->nslaves;
		out->c.merges[k] /= d->nslaves;
		out->c.ticks[k] /= d->nslaves;
	}
	out->c.in_queue /= d->nslaves;
	return 1;
}

unsigned fio_prios_with_ios(const struct io_job_result *r, int d)
{
	unsigned n = 0;
	for (unsigned i = 0; r->prios && i < r->prios->n[d]; i++)
		n += r->prios->s[d][i].lat.n > 0;
	return n;
}
