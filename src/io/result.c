/* Results: initialising, merging (group reporting, per-target and total figures), freeing. */
#include "io/engine.h"
#include "io/iolog.h"

#include <stdlib.h>
#include <string.h>

static void dir_init(struct io_dir_result *d)
{
	memset(d, 0, sizeof *d);
	hist_init(&d->slat);
	hist_init(&d->clat);
	hist_init(&d->lat);
}

void io_result_init(struct io_job_result *r)
{
	memset(r, 0, sizeof *r);
	for (int d = 0; d < DIR_COUNT; d++)
		dir_init(&r->dir[d]);
	hist_init(&r->sync_lat);
	r->job_index = ~0u;
}

static void add_series(double **dst, size_t *ndst, const double *src, size_t nsrc)
{
	if (nsrc > *ndst) {
		double *p = realloc(*dst, nsrc * sizeof *p);
		if (!p)
			return;
		for (size_t i = *ndst; i < nsrc; i++)
			p[i] = 0;
		*dst = p;
	}
	for (size_t i = 0; i < nsrc; i++)
		(*dst)[i] += src[i];
}

static void merge_rate(uint64_t *min, uint64_t *max, double *mean, double *dev, uint64_t *n, uint64_t smin,
		       uint64_t smax, double smean, double sdev, uint64_t sn, int sum)
{
	/* Rates of parallel jobs add up (fio's group bw line); the spread is the larger one. */
	if (!sn)
		return;
	if (!*n || sum) {
		*min = *n && sum ? *min + smin : smin;
		*max = *n && sum ? *max + smax : smax;
		*mean = *n && sum ? *mean + smean : smean;
	}
	if (sdev > *dev)
		*dev = sdev;
	if (sn > *n)
		*n = sn;
}

void io_dir_merge(struct io_dir_result *a, const struct io_dir_result *b)
{
	a->ios += b->ios;
	a->bytes += b->bytes;
	a->short_ios += b->short_ios;
	a->drop_ios += b->drop_ios;
	if (b->runtime_ns > a->runtime_ns)
		a->runtime_ns = b->runtime_ns;
	hist_merge(&a->slat, &b->slat);
	hist_merge(&a->clat, &b->clat);
	hist_merge(&a->lat, &b->lat);
	merge_rate(&a->bw_min, &a->bw_max, &a->bw_mean, &a->bw_dev, &a->bw_samples, b->bw_min, b->bw_max, b->bw_mean,
		   b->bw_dev, b->bw_samples, 1);
	merge_rate(&a->iops_min, &a->iops_max, &a->iops_mean, &a->iops_dev, &a->iops_samples, b->iops_min, b->iops_max,
		   b->iops_mean, b->iops_dev, b->iops_samples, 1);
}

void io_result_merge(struct io_job_result *dst, const struct io_job_result *src)
{
	int first = dst->job == NULL && dst->runtime_ns == 0 && !dst->engine_used[0];
	if (!dst->job)
		dst->job = src->job;
	dst->job_index = ~0u;
	if (first) {
		dst->target_index = src->target_index;
		memcpy(dst->engine_used, src->engine_used, sizeof dst->engine_used);
		dst->direct_used = src->direct_used;
		dst->start_ns = src->start_ns;
		dst->end_ns = src->end_ns;
	} else {
		if (dst->target_index != src->target_index)
			dst->target_index = ~0u;
		if (strcmp(dst->engine_used, src->engine_used) != 0)
			strcpy(dst->engine_used, "mixed");
		if (dst->direct_used != src->direct_used)
			dst->direct_used = -1;
		if (src->start_ns < dst->start_ns)
			dst->start_ns = src->start_ns;
		if (src->end_ns > dst->end_ns)
			dst->end_ns = src->end_ns;
	}
	for (int d = 0; d < DIR_COUNT; d++)
		io_dir_merge(&dst->dir[d], &src->dir[d]);
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->usr_cpu_ns += src->usr_cpu_ns;
	dst->sys_cpu_ns += src->sys_cpu_ns;
	dst->ctx_voluntary += src->ctx_voluntary;
	dst->ctx_involuntary += src->ctx_involuntary;
	dst->majf += src->majf;
	dst->minf += src->minf;
	for (int i = 0; i < 7; i++) {
		dst->iodepth_level[i] += src->iodepth_level[i];
		dst->submit_level[i] += src->submit_level[i];
		dst->complete_level[i] += src->complete_level[i];
	}
	if (src->depth_max > dst->depth_max)
		dst->depth_max = src->depth_max;
	uint64_t nd = dst->depth_samples + src->depth_samples;
	if (nd)
		dst->depth_mean = (dst->depth_mean * (double)dst->depth_samples +
				   src->depth_mean * (double)src->depth_samples) / (double)nd;
	dst->depth_samples = nd;
	if (src->latency_depth) /* fio's group shows its last thread's */
		dst->latency_depth = src->latency_depth;
	dst->cache_drops += src->cache_drops;
	dst->sync_ios += src->sync_ios;
	hist_merge(&dst->sync_lat, &src->sync_lat);
	size_t n = dst->nsec;
	add_series(&dst->sec_iops, &n, src->sec_iops, src->nsec);
	n = dst->nsec;
	add_series(&dst->sec_bw, &n, src->sec_bw, src->nsec);
	if (src->nsec > dst->nsec && dst->sec_iops && dst->sec_bw)
		dst->nsec = src->nsec;
	if (!dst->error && src->error) {
		dst->error = src->error;
		memcpy(dst->errmsg, src->errmsg, sizeof dst->errmsg);
	}
}

void io_result_free(struct io_job_result *r)
{
	free(r->sec_iops);
	free(r->sec_bw);
	r->sec_iops = r->sec_bw = NULL;
	r->nsec = 0;
	io_log_free(r->log);
	r->log = NULL;
	io_prio_stats_free(r->prios);
	r->prios = NULL;
	io_vstate_free(r->vstate);
	r->vstate = NULL;
}

double io_result_iops(const struct io_job_result *r)
{
	if (!r->runtime_ns)
		return 0;
	return (double)(r->dir[DIR_READ].ios + r->dir[DIR_WRITE].ios + r->dir[DIR_TRIM].ios) * 1e9 / (double)r->runtime_ns;
}

double io_result_bytes_per_sec(const struct io_job_result *r)
{
	if (!r->runtime_ns)
		return 0;
	return (double)(r->dir[DIR_READ].bytes + r->dir[DIR_WRITE].bytes + r->dir[DIR_TRIM].bytes) * 1e9 /
	       (double)r->runtime_ns;
}
