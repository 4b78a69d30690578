#include "disk/test.h"
#include "stats/summary.h"
#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>

int disk_test_alloc(struct disk_test *t, unsigned passes, unsigned ntargets)
{
	t->total = calloc(passes, sizeof *t->total);
	t->targets = calloc((size_t)passes * ntargets, sizeof *t->targets);
	t->jobs = calloc(t->job.numjobs, sizeof *t->jobs);
	t->npasses = 0;
	t->maxpasses = passes;
	t->complete = 0;
	t->best = 0;
	t->direct = 0;
	t->engine[0] = '\0';
	return t->total && t->targets && t->jobs ? 0 : -1;
}

void disk_test_add_pass(struct disk_test *t, unsigned ntargets, struct io_job_result *res)
{
	if (t->npasses == t->maxpasses) { /* no room: the caller planned fewer */
		for (unsigned j = 0; j < t->job.numjobs; j++)
			io_result_free(&res[j]);
		return;
	}
	unsigned p = t->npasses++;
	struct io_job_result *tot = &t->total[p];
	io_result_init(tot);
	for (unsigned i = 0; i < ntargets; i++)
		io_result_init(&t->targets[p * ntargets + i]);
	for (unsigned j = 0; j < t->job.numjobs; j++) {
		io_result_merge(tot, &res[j]);
		io_result_merge(&t->targets[p * ntargets + res[j].target_index % ntargets], &res[j]);
	}
	snprintf(t->engine, sizeof t->engine, "%s", tot->engine_used);
	t->direct = tot->direct_used;
	int best = p == 0 || io_result_bytes_per_sec(tot) > io_result_bytes_per_sec(&t->total[t->best]);
	for (unsigned j = 0; j < t->job.numjobs; j++) {
		if (best) {
			io_result_free(&t->jobs[j]);
			t->jobs[j] = res[j];
			res[j].sec_iops = res[j].sec_bw = NULL;
			res[j].nsec = 0;
		} else {
			io_result_free(&res[j]);
		}
	}
	if (best)
		t->best = p;
}

void disk_test_free(struct disk_test *t, unsigned ntargets)
{
	for (unsigned p = 0; p < t->npasses; p++) {
		io_result_free(&t->total[p]);
		for (unsigned i = 0; i < ntargets; i++)
			io_result_free(&t->targets[p * ntargets + i]);
	}
	if (t->jobs)
		for (unsigned j = 0; j < t->job.numjobs; j++)
			io_result_free(&t->jobs[j]);
	free(t->total);
	free(t->targets);
	free(t->jobs);
	t->total = t->targets = t->jobs = NULL;
	t->npasses = t->maxpasses = 0;
}

void disk_result_lat(const struct io_job_result *r, struct hist *h)
{
	hist_init(h);
	hist_merge(h, &r->dir[DIR_READ].lat);
	hist_merge(h, &r->dir[DIR_WRITE].lat);
}

uint64_t disk_result_ios(const struct io_job_result *r)
{
	return r->dir[DIR_READ].ios + r->dir[DIR_WRITE].ios;
}

void disk_test_range(const struct disk_test *t, double *lo, double *hi)
{
	*lo = *hi = 0;
	for (unsigned i = 0; i < t->npasses; i++) {
		double v = io_result_bytes_per_sec(&t->total[i]);
		if (!i || v < *lo)
			*lo = v;
		if (!i || v > *hi)
			*hi = v;
	}
}

int disk_test_unstable(const struct disk_test *t)
{
	double med, spread, lo, hi;
	disk_test_spread(t, &med, &spread);
	disk_test_range(t, &lo, &hi);
	return t->npasses > 1 && stats_spread_unstable(med, lo, hi);
}

const char *disk_test_spread_text(const struct disk_test *t, char *buf, size_t len)
{
	double med, spread, lo, hi;
	char m[32], l[32], h[32], pct[16];
	disk_test_spread(t, &med, &spread);
	disk_test_range(t, &lo, &hi);
	/* the figures as the table's bandwidth column and show/compare print them */
	units_figure(med, "bytes_per_sec", "B/s", m, sizeof m);
	units_figure(lo, "bytes_per_sec", "B/s", l, sizeof l);
	units_figure(hi, "bytes_per_sec", "B/s", h, sizeof h);
	snprintf(pct, sizeof pct, "%.0f%%", spread);
	return stats_spread_text(buf, len, med, lo, hi, pct, m, l, h);
}

void disk_test_spread(const struct disk_test *t, double *median, double *spread)
{
	double v[256];
	unsigned n = t->npasses < 256 ? t->npasses : 256;
	*median = *spread = 0;
	if (!n)
		return;
	for (unsigned i = 0; i < n; i++)
		v[i] = io_result_bytes_per_sec(&t->total[i]);
	stats_sort(v, n);
	*median = stats_median_sorted(v, n);
	if (*median > 0) {
		double hi = v[n - 1] / *median - 1, lo = 1 - v[0] / *median;
		*spread = 100 * (hi > lo ? hi : lo);
	}
}

void disk_pass_figures(const struct io_job_result *r, struct disk_figures *f)
{
	struct hist h;
	disk_result_lat(r, &h);
	uint64_t ios = disk_result_ios(r);
	f->bytes_per_sec = io_result_bytes_per_sec(r);
	f->iops = io_result_iops(r);
	f->lat_mean_ns = hist_mean(&h);
	f->lat_p99_ns = (double)hist_percentile(&h, 99);
	f->cpu_ns_per_io = ios ? (double)(r->usr_cpu_ns + r->sys_cpu_ns) / (double)ios : 0;
}

void disk_test_medians(const struct disk_test *t, struct disk_figures *med)
{
	enum { NFIG = sizeof(struct disk_figures) / sizeof(double) };
	double *v = calloc((size_t)NFIG * (t->npasses ? t->npasses : 1), sizeof *v);
	if (!v)
		abort();
	for (unsigned p = 0; p < t->npasses; p++) {
		struct disk_figures f;
		disk_pass_figures(&t->total[p], &f);
		const double *x = &f.bytes_per_sec;
		for (unsigned k = 0; k < NFIG; k++)
			v[k * t->npasses + p] = x[k];
	}
	double *out = &med->bytes_per_sec;
	for (unsigned k = 0; k < NFIG; k++) {
		struct summary s;
		out[k] = summary_median(&v[k * t->npasses], t->npasses, 0.95, &s) == 0 ? s.center : 0;
	}
	free(v);
}
