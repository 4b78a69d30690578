/* fio's text outputs: the normal summary (per job or group, then "Run status group" lines) and
 * terse version 3 (one ';'-separated line per entry). */
#include "fio/report_figures.h"
#include "fio/report.h"
#include "fio/steadystate.h"
#include "io/engine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N2S_LEN 32

static const char *const dir_name[DIR_COUNT] = { "read", "write", "trim" };

static const char *rw_name(enum io_rw rw)
{
	const char *s = io_rw_name(rw);
	return s ? s : "?";
}

/* A rate or size in the entry's units: bytes or bits, by 1024 or 1000 (kb_base). */
static const char *size_str(uint64_t bytes, int pow2, unsigned unit_base, char *buf)
{
	if (unit_base == 1)
		return fio_num2str(bytes * 8, 4, pow2, "bit", buf, N2S_LEN);
	return fio_num2str(bytes, 4, pow2, "B", buf, N2S_LEN);
}

/* A direction's smallest and largest block sizes (bsrange, bssplit, else bs). */
static void bs_range(const struct io_job *io, int d, uint64_t *lo, uint64_t *hi)
{
	*lo = io->pattern.bs_min[d] ? io->pattern.bs_min[d] : io->bs[d];
	*hi = io->bs[d];
	for (unsigned i = 0; i < io->pattern.nbssplit[d]; i++) {
		if (io->pattern.bssplit[d][i].bs < *lo)
			*lo = io->pattern.bssplit[d][i].bs;
		if (io->pattern.bssplit[d][i].bs > *hi)
			*hi = io->pattern.bssplit[d][i].bs;
	}
}

/* "bs=(R) 4096B-4096B, (W) 64.0KiB-64.0KiB, (T) ...": fio's 4 significant figures, by the
 * job's kb_base. */
static void header_bs(FILE *f, const struct fio_report_entry *e)
{
	static const char *const tag[] = { "R", "W", "T" };
	int pow2 = e->kb_base != 1000;
	fputs("bs=", f);
	for (int k = 0; k < 3; k++) {
		uint64_t lo, hi;
		char a[N2S_LEN], b[N2S_LEN];
		bs_range(e->io, k, &lo, &hi);
		fprintf(f, "%s(%s) %s-%s", k ? ", " : "", tag[k], fio_num2str(lo, 4, pow2, "B", a, sizeof a),
			fio_num2str(hi, 4, pow2, "B", b, sizeof b));
	}
}

void fio_write_normal_header(FILE *f, const struct fio_report *r)
{
	unsigned threads = 0, processes = 0;
	for (size_t i = 0; i < r->nentries; i++) {
		const struct fio_report_entry *e = &r->entries[i];
		const struct io_job *io = e->io;
		*(e->thread ? &threads : &processes) += e->nthreads;
		if (!(io_engine_caps(io->engine) & IO_ENGINE_NO_DATA)) { /* fio has no line for cpuio, exec */
			fprintf(f, "%s: (g=%d): rw=%s, ", e->name, e->groupid, rw_name(io->rw));
			header_bs(f, e);
			fprintf(f, ", ioengine=%s, iodepth=%u\n", e->ioengine, io->iodepth);
		}
		if (e->nthreads > 1) /* fio's mark for a job's clones (numjobs) */
			fputs("...\n", f);
	}
	/* fio's words for the job as configured (thread= or not), so scripts that read them work:
	 * nodemark's workers are threads either way (docs/fio-compat.md) */
	fprintf(f, "%s\nStarting ", r->version);
	if (threads)
		fprintf(f, "%u thread%s", threads, threads == 1 ? "" : "s");
	if (processes)
		fprintf(f, "%s%u process%s", threads ? " and " : "", processes, processes == 1 ? "" : "es");
	fputc('\n', f);
}

void fio_write_layout_lines(FILE *f, const struct fio_layout_line *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int many = l[i].nfiles > 1;
		fprintf(f, "%s: Laying out IO file%s (%u file%s / %s%" PRIu64 "MiB)\n", l[i].job, many ? "s" : "", l[i].nfiles,
			many ? "s" : "", many ? "total " : "", l[i].bytes >> 20);
	}
}

/* fio scales a latency line to usec or msec only when all of min, max and the spread are large. */
static const char *lat_scale(uint64_t min, uint64_t max, double dev, double *div)
{
	if (min > 2000000 && max > 99999999ull && dev > 1000000.0) {
		*div = 1e6;
		return "msec";
	}
	if (min > 2000 && max > 99999 && dev > 1000.0) {
		*div = 1e3;
		return "usec";
	}
	*div = 1;
	return "nsec";
}

static void lat_line(FILE *f, const char *what, const struct hist *h)
{
	if (!h->n)
		return;
	double div, mean = hist_mean(h), dev = hist_stddev(h);
	const char *unit = lat_scale(h->min, h->max, dev, &div);
	char a[N2S_LEN], b[N2S_LEN];
	fio_num2str((uint64_t)((double)h->min / div), 6, 0, "", a, sizeof a);
	fio_num2str((uint64_t)((double)h->max / div), 6, 0, "", b, sizeof b);
	fprintf(f, "%s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", what, unit, a, b, mean / div, dev / div);
}

static void percentile_block(FILE *f, const char *what, const struct hist *h, const struct fio_report_entry *e)
{
	const double *p;
	size_t np;
	uint64_t v[32];
	if (!h->n)
		return;
	fio_percentile_list(e, &p, &np);
	hist_percentiles(h, p, np, v);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < np; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	uint64_t div = 1;
	const char *unit = "nsec";
	if (lo > 2000000 && hi > 99999999ull) {
		div = 1000000;
		unit = "msec";
	} else if (lo > 2000 && hi > 99999) {
		div = 1000;
		unit = "usec";
	}
	char tmp[32];
	int width = snprintf(tmp, sizeof tmp, "%" PRIu64, hi / div);
	if (width < 5)
		width = 5;
	int per_line = (80 - 7) / (2 + 10 + width);
	fprintf(f, "    %s percentiles (%s):\n", what, unit);
	for (size_t i = 0; i < np; i++) {
		if (i % (size_t)per_line == 0)
			fputs("     |", f);
		fprintf(f, " %5.2fth=[%*" PRIu64 "]", p[i], width, v[i] / div);
		if (i + 1 == np)
			fputc('\n', f);
		else if ((i + 1) % (size_t)per_line == 0)
			fputs(",\n", f);
		else
			fputc(',', f);
	}
}

/* fio's per-priority lines, when two or more priorities have I/Os: "clat prio 1/0 (usec): ..."
 * after the latencies, or (percentiles) "clat prio 1/0 (30.12% of IOs) percentiles (usec):". */
static void prio_lines(FILE *f, const struct fio_report_entry *e, int d, int percentiles)
{
	const struct io_prio_stats *ps = e->res.prios;
	const char *type = e->lat_percentiles ? "lat" : "clat";
	uint64_t all = e->lat_percentiles ? e->res.dir[d].lat.n : e->res.dir[d].clat.n;
	if (fio_prios_with_ios(&e->res, d) < 2)
		return;
	for (unsigned i = 0; i < ps->n[d]; i++) {
		const struct io_prio_stat *st = &ps->s[d][i];
		char what[96];
		if (!st->lat.n)
			continue;
		if (percentiles) {
			snprintf(what, sizeof what, "%s prio %u/%u (%.2f%% of IOs)", type, st->prio >> 13, st->prio & 7u,
				 all ? 100.0 * (double)st->lat.n / (double)all : 0);
			percentile_block(f, what, &st->lat, e);
		} else {
			snprintf(what, sizeof what, "    %s prio %u/%u", type, st->prio >> 13, st->prio & 7u);
			lat_line(f, what, &st->lat);
		}
	}
}

static void dir_block(FILE *f, const struct fio_report_entry *e, int d, const struct fio_group_figures *g,
		      const char *name)
{
	const struct io_dir_result *dr = &e->res.dir[d];
	struct fio_dir_figures fig;
	char iops[N2S_LEN], bw1[N2S_LEN], bw2[N2S_LEN], io[N2S_LEN];
	if (!dr->ios)
		return;
	fio_dir_figures(&e->res, d, &fig);
	int pow2_first = e->kb_base != 1000;
	fio_num2str((uint64_t)fig.iops, 4, 0, "", iops, sizeof iops);
	size_str(fig.bw_bytes, pow2_first, e->unit_base, bw1);
	size_str(fig.bw_bytes, !pow2_first, e->unit_base, bw2);
	fio_num2str(dr->bytes, 4, pow2_first, "B", io, sizeof io);
	fprintf(f, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%" PRIu64 "msec)%s\n", name, iops, bw1, bw2, io,
		fig.runtime_ms, d == DIR_WRITE ? "; 0 zone resets" : "");
	lat_line(f, "    slat", &dr->slat);
	lat_line(f, "    clat", &dr->clat);
	lat_line(f, "     lat", &dr->lat);
	prio_lines(f, e, d, 0);
	if (e->slat_percentiles)
		percentile_block(f, "slat", &dr->slat, e);
	if (e->clat_percentiles)
		percentile_block(f, "clat", &dr->clat, e);
	if (e->lat_percentiles)
		percentile_block(f, " lat", &dr->lat, e);
	if (e->clat_percentiles || e->lat_percentiles)
		prio_lines(f, e, d, 1);
	if (dr->bw_samples)
		fprintf(f, "   bw (  KiB/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
			dr->bw_min / 1024, dr->bw_max / 1024, g->agg_bw[d] ? dr->bw_mean * 100.0 / (double)g->agg_bw[d] : 0,
			dr->bw_mean / 1024.0, dr->bw_dev / 1024.0, dr->bw_samples);
	if (dr->iops_samples)
		fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
			dr->iops_min, dr->iops_max, dr->iops_mean, dr->iops_dev, dr->iops_samples);
}

static void lat_levels_line(FILE *f, const char *unit, const double *v, const char *const *names, int n)
{
	int on_line = 0, shown = 0;
	for (int i = 0; i < n; i++) {
		if (v[i] <= 0)
			continue;
		if (on_line == 0)
			fprintf(f, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s=%3.2f%%", names[i], v[i]);
		shown = 1;
		if (++on_line == 5)
			on_line = 0;
	}
	if (shown)
		fputc('\n', f);
}

/* fio's "steadystate  :" line: met or not, the window's means, and the last judgement. */
static void steadystate_line(FILE *f, const struct fio_report_entry *e)
{
	const struct fio_ss *ss = e->ss;
	char bw1[N2S_LEN], bw2[N2S_LEN], iops[N2S_LEN];
	/* fio prints the mean's kb_base units in both forms, the same number: 2001KiB/s (2001kB/s) */
	uint64_t k = fio_ss_bw_mean(ss) / (e->kb_base ? e->kb_base : 1024);
	int pow2_first = e->kb_base != 1000;
	size_str(k * (pow2_first ? 1024 : 1000), pow2_first, e->unit_base, bw1);
	size_str(k * (pow2_first ? 1000 : 1024), !pow2_first, e->unit_base, bw2);
	fio_num2str(fio_ss_iops_mean(ss), 4, 0, "", iops, sizeof iops);
	fprintf(f, "  steadystate  : attained=%s, bw=%s/s (%s/s), iops=%s, %s%s=%.3f%s\n", ss->attained ? "yes" : "no",
		bw1, bw2, iops, ss->o.iops ? "iops" : "bw", ss->o.slope ? " slope" : " mean dev", ss->criterion,
		ss->o.pct ? "%" : "");
}

/* r and e as job_obj's (report_json.c): mixed reporting's folded; both and eb, both's too. */
static void entry_block(FILE *f, const struct fio_report *r, const struct fio_report_entry *e,
			const struct fio_report *both, const struct fio_report_entry *eb)
{
	static const char *const lat_names[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
						 "2000", ">=2000" };
	const struct io_job_result *res = &e->res;
	time_t t = (time_t)(r->time_ms / 1000);
	char when[64];
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
	fprintf(f, "%s: (groupid=%d, jobs=%u): err=%2d: pid=%ld: %s\n", e->name, e->groupid, e->nthreads, res->error,
		r->pid, when);
	if (res->error && res->errmsg[0])
		fprintf(f, "  error: %s\n", res->errmsg);
	if (e->description && *e->description)
		fprintf(f, "  Description  : [%s]\n", e->description);
	struct fio_group_figures g;
	fio_group_figures(r, e->groupid, &g);
	for (int d = 0; d < DIR_COUNT; d++)
		dir_block(f, e, d, &g, e->unified == FIO_UNIFIED_MIXED ? "mixed" : dir_name[d]);
	if (e->unified == FIO_UNIFIED_BOTH) {
		struct fio_group_figures gb;
		fio_group_figures(both, eb->groupid, &gb);
		dir_block(f, eb, DIR_READ, &gb, "mixed");
	}

	double ns[10], us[10], ms[12];
	fio_latency_levels(res, ns, us, ms);
	lat_levels_line(f, "nsec", ns, lat_names, 10);
	lat_levels_line(f, "usec", us, lat_names, 10);
	lat_levels_line(f, "msec", ms, lat_names, 12);
	if (res->sync_ios) {
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		lat_line(f, "    sync", &res->sync_lat);
	}
	double usr = e->job_runtime_ns ? (double)res->usr_cpu_ns * 100.0 / (double)e->job_runtime_ns : 0;
	double sys = e->job_runtime_ns ? (double)res->sys_cpu_ns * 100.0 / (double)e->job_runtime_ns : 0;
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64 ", minf=%" PRIu64 "\n",
		usr, sys, res->ctx_voluntary + res->ctx_involuntary, res->majf, res->minf);
	double depth[7];
	fio_depth_levels(res, depth);
	fprintf(f, "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, >=64=%3.1f%%\n",
		depth[0], depth[1], depth[2], depth[3], depth[4], depth[5], depth[6]);
	double sub[7], com[7];
	fio_call_levels(res, sub, com);
	fprintf(f, "     submit    : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n",
		sub[0], sub[1], sub[2], sub[3], sub[4], sub[5], sub[6]);
	fprintf(f, "     complete  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n",
		com[0], com[1], com[2], com[3], com[4], com[5], com[6]);
	const struct io_dir_result *dr = res->dir;
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 short=%" PRIu64 ",%" PRIu64 ",%" PRIu64
		   ",0 dropped=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0\n",
		dr[0].ios, dr[1].ios, dr[2].ios, dr[0].short_ios, dr[1].short_ios, dr[2].short_ios, dr[0].drop_ios,
		dr[1].drop_ios, dr[2].drop_ios);
	const struct io_job *io = e->io;
	fprintf(f, "     latency   : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, depth=%u\n",
		io ? io->pace.lat_target_ns : 0, io ? io->pace.lat_window_ns / 1000 : 0, io ? io->pace.lat_percentile : 100.0,
		res->latency_depth ? res->latency_depth : io ? io->iodepth : 1);
	if (e->ss)
		steadystate_line(f, e);
}

/* One "READ:" ... line of a group's; label NULL: the direction's. */
static void group_line(FILE *f, const struct fio_group_figures *g, int d, const char *label)
{
	static const char *const labels[DIR_COUNT] = { "   READ", "  WRITE", "   TRIM" };
	int p2 = g->kb_base != 1000;
	char agg1[N2S_LEN], agg2[N2S_LEN], lo1[N2S_LEN], hi1[N2S_LEN], lo2[N2S_LEN], hi2[N2S_LEN];
	char io1[N2S_LEN], io2[N2S_LEN];
	size_str(g->agg_bw[d], p2, g->unit_base, agg1);
	size_str(g->agg_bw[d], !p2, g->unit_base, agg2);
	size_str(g->min_bw[d], p2, g->unit_base, lo1);
	size_str(g->max_bw[d], p2, g->unit_base, hi1);
	size_str(g->min_bw[d], !p2, g->unit_base, lo2);
	size_str(g->max_bw[d], !p2, g->unit_base, hi2);
	fio_num2str(g->bytes[d], 4, p2, "B", io1, sizeof io1);
	fio_num2str(g->bytes[d], 4, !p2, "B", io2, sizeof io2);
	fprintf(f, "%s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), io=%s (%s), run=%" PRIu64 "-%" PRIu64 "msec\n",
		label ? label : labels[d], agg1, agg2, lo1, hi1, lo2, hi2, io1, io2,
		(g->min_run_ns[d] + 500000) / 1000000, (g->max_run_ns[d] + 500000) / 1000000);
}

/* fio's group lines: with mixed reporting in the group, one "MIXED:" line in READ's place;
 * with both, one after the others (r mixed's folded, both both's too). */
static void group_lines(FILE *f, const struct fio_report *r, const struct fio_report *both, int groupid)
{
	struct fio_group_figures g;
	fio_group_figures(r, groupid, &g);
	int mixed = 0, with_both = 0;
	for (size_t i = 0; i < r->nentries; i++)
		if (r->entries[i].groupid == groupid) {
			mixed |= r->entries[i].unified == FIO_UNIFIED_MIXED;
			with_both |= r->entries[i].unified == FIO_UNIFIED_BOTH;
		}
	fprintf(f, "\nRun status group %d (all jobs):\n", groupid);
	for (int d = 0; d < DIR_COUNT; d++)
		if (g.bytes[d])
			group_line(f, &g, d, mixed && d == DIR_READ ? "  MIXED" : NULL);
	if (with_both) {
		fio_group_figures(both, groupid, &g);
		if (g.bytes[DIR_READ])
			group_line(f, &g, DIR_READ, "  MIXED");
	}
}

/* "Disk stats (read/write):", one line per device; a stacked device (dm, md) is indented once
 * more and ends with its slaves' averaged "aggr" figures, as fio prints them. */
static void disk_lines(FILE *f, const struct disk_activity *a)
{
	fputs("\nDisk stats (read/write):\n", f);
	for (size_t i = 0; i < a->n; i++) {
		const struct disk_activity_dev *d = &a->dev[i];
		struct fio_disk_aggr ag;
		int stacked = fio_disk_aggr(a, i, &ag);
		fprintf(f, "%s  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64 "/%" PRIu64
			   ", in_queue=%" PRIu64 ", util=%3.2f%%",
			stacked ? "  " : "", d->name, d->delta.ios[0], d->delta.ios[1], d->delta.merges[0],
			d->delta.merges[1], d->delta.ticks[0], d->delta.ticks[1], d->delta.in_queue, d->util);
		if (stacked)
			fprintf(f, ", aggrios=%" PRIu64 "/%" PRIu64 ", aggrmerge=%" PRIu64 "/%" PRIu64 ", aggrticks=%" PRIu64
				   "/%" PRIu64 ", aggrin_queue=%" PRIu64 ", aggrutil=%3.2f%%",
				ag.c.ios[0], ag.c.ios[1], ag.c.merges[0], ag.c.merges[1], ag.c.ticks[0], ag.c.ticks[1],
				ag.c.in_queue, ag.max_util);
		fputc('\n', f);
	}
}

void fio_write_normal(FILE *f, const struct fio_report *given)
{
	struct fio_report m, b;
	const struct fio_report *r = &m;
	int own_m = fio_report_unify(given, &m, 0), own_b = fio_report_unify(given, &b, 1);
	int last_group = -1;
	fputc('\n', f);
	for (size_t i = 0; i < r->nentries; i++) {
		entry_block(f, r, &r->entries[i], &b, &b.entries[i]);
		if (r->entries[i].groupid > last_group)
			last_group = r->entries[i].groupid;
	}
	for (int g = 0; g <= last_group; g++) {
		int any = 0;
		for (size_t i = 0; i < r->nentries; i++)
			any |= r->entries[i].groupid == g;
		if (any)
			group_lines(f, r, &b, g);
	}
	if (r->disks && r->disks->n)
		disk_lines(f, r->disks);
	if (own_m)
		free(m.entries);
	if (own_b)
		free(b.entries);
}

/* --- terse versions 2 to 5 ---------------------------------------------------------------------- */

/* fio appends every device's figures to each terse line: 9 fields, and 9 more ("slaves" and
 * the averaged aggr figures) for a stacked device. */
static void terse_disks(FILE *f, const struct disk_activity *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct disk_activity_dev *d = &a->dev[i];
		struct fio_disk_aggr ag;
		fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%3.2f%%",
			d->name, d->delta.ios[0], d->delta.ios[1], d->delta.merges[0], d->delta.merges[1],
			d->delta.ticks[0], d->delta.ticks[1], d->delta.in_queue, d->util);
		if (fio_disk_aggr(a, i, &ag))
			fprintf(f, ";slaves;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
				   ";%3.2f%%",
				ag.c.ios[0], ag.c.ios[1], ag.c.merges[0], ag.c.merges[1], ag.c.ticks[0], ag.c.ticks[1],
				ag.c.in_queue, ag.max_util);
	}
}

static void terse_lat(FILE *f, const struct hist *h)
{
	/* terse v3 gives latencies in usec */
	if (!h->n) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", h->min / 1000, h->max / 1000, hist_mean(h) / 1000.0,
		hist_stddev(h) / 1000.0);
}

/* One direction's fields. Version 5 adds the bw samples and the iops statistics. */
static void terse_dir(FILE *f, const struct fio_report_entry *e, int d, const struct fio_group_figures *g, int ver)
{
	const struct io_dir_result *dr = &e->res.dir[d];
	struct fio_dir_figures fig;
	fio_dir_figures(&e->res, d, &fig);
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, dr->bytes / 1024, fig.bw_kib, (uint64_t)fig.iops,
		fig.runtime_ms);
	terse_lat(f, &dr->slat);
	terse_lat(f, &dr->clat);
	const double *p;
	size_t np, i;
	uint64_t v[32];
	fio_percentile_list(e, &p, &np);
	hist_percentiles(&dr->clat, p, np, v);
	for (i = 0; i < np && i < 20; i++) {
		if (dr->clat.n)
			fprintf(f, ";%f%%=%" PRIu64, p[i], v[i] / 1000);
		else
			fputs(";0%=0", f);
	}
	for (; i < 20; i++)
		fputs(";0%=0", f);
	terse_lat(f, &dr->lat);
	double mean_kib = dr->bw_mean / 1024.0;
	uint64_t agg_bw = g->agg_bw[d];
	double agg = dr->bw_samples && agg_bw ? mean_kib * 100.0 / ((double)agg_bw / 1024.0) : 0;
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", dr->bw_samples ? dr->bw_min / 1024 : 0,
		dr->bw_samples ? dr->bw_max / 1024 : 0, agg, dr->bw_samples ? mean_kib : 0,
		dr->bw_samples ? dr->bw_dev / 1024.0 : 0);
	if (ver == 5) {
		fprintf(f, ";%" PRIu64, dr->bw_samples);
		if (dr->iops_samples)
			fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64, dr->iops_min, dr->iops_max, dr->iops_mean,
				dr->iops_dev, dr->iops_samples);
		else
			fputs(";0;0;0.000000;0.000000;0", f);
	}
}

void fio_write_terse(FILE *f, const struct fio_report *given)
{
	struct fio_report m, b;
	const struct fio_report *r = &m;
	int own_m = fio_report_unify(given, &m, 0), own_b = fio_report_unify(given, &b, 1);
	for (size_t i = 0; i < r->nentries; i++) {
		const struct fio_report_entry *e = &r->entries[i];
		const struct io_job_result *res = &e->res;
		struct fio_group_figures g;
		fio_group_figures(r, e->groupid, &g);
		int ver = r->terse_version ? r->terse_version : 3;
		if (ver == 2)
			fprintf(f, "2;%s;%d;%d", e->name, e->groupid, res->error);
		else
			fprintf(f, "%d;%s;%s;%d;%d", ver, r->version, e->name, e->groupid, res->error);
		terse_dir(f, e, DIR_READ, &g, ver); /* mixed reporting: the sum, and no other */
		if (e->unified != FIO_UNIFIED_MIXED) {
			terse_dir(f, e, DIR_WRITE, &g, ver);
			if (ver != 3) /* 2, 4 and 5 have fio's trim figures too */
				terse_dir(f, e, DIR_TRIM, &g, ver);
		}
		if (e->unified == FIO_UNIFIED_BOTH) {
			struct fio_group_figures gb;
			fio_group_figures(&b, e->groupid, &gb);
			terse_dir(f, &b.entries[i], DIR_READ, &gb, ver);
		}
		double usr = e->job_runtime_ns ? (double)res->usr_cpu_ns * 100.0 / (double)e->job_runtime_ns : 0;
		double sys = e->job_runtime_ns ? (double)res->sys_cpu_ns * 100.0 / (double)e->job_runtime_ns : 0;
		fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64, usr, sys,
			res->ctx_voluntary + res->ctx_involuntary, res->majf, res->minf);
		double depth[7], ns[10], us[10], ms[12];
		fio_depth_levels(res, depth);
		for (int k = 0; k < 7; k++)
			fprintf(f, ";%3.1f%%", depth[k]);
		fio_latency_levels(res, ns, us, ms);
		/* terse v3 has no nanosecond row: those I/Os count as "<= 2 usec" */
		for (int k = 0; k < 10; k++)
			us[0] += ns[k];
		for (int k = 0; k < 10; k++)
			fprintf(f, ";%3.2f%%", us[k]);
		for (int k = 0; k < 12; k++)
			fprintf(f, ";%3.2f%%", ms[k]);
		if (r->disks && ver >= 3)
			terse_disks(f, r->disks);
		if (e->description && *e->description) /* fio's field after the disks (2: on a line of its own) */
			fprintf(f, "%s;%s", ver == 2 ? "\n" : "", e->description);
		fputc('\n', f);
	}
	if (own_m)
		free(m.entries);
	if (own_b)
		free(b.entries);
}
