#include "disk/report.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
static const char *const pct_names[] = { "p50", "p90", "p99", "p99.9", "p99.99" };
#define NPCTS (sizeof pcts / sizeof pcts[0])

void disk_report_init(struct disk_report *r, const struct disk_plan *p)
{
	const struct io_job *b = &p->base;
	*r = (struct disk_report){
		.profile = p->profile ? p->profile->name : NULL,
		.targets = disk_plan_targets(p),
		.ntargets = disk_plan_ntargets(p),
		.tests = p->tests,
		.ntests = p->ntests,
		.file_size = b->size ? b->size : b->filesize,
		.runtime_ns = b->runtime_ns,
		.interval_ns = p->interval_ns,
		.passes = p->passes,
	};
}

/* --- text -------------------------------------------------------------------------------- */

/* Whether test t is in the report: it ran, and it finished when the run was interrupted. */
static int shown(const struct disk_report *r, const struct disk_test *t)
{
	return t->npasses && (!r->finished_only || t->complete);
}

static const char *mode_text(int direct)
{
	return direct == 1 ? "O_DIRECT" : direct == 0 ? "buffered" : "mixed O_DIRECT/buffered";
}

/* The figures of a test by the unit policy every output follows (util/units.h), so that disk's
 * "18.0 MB/s" is the figure show, compare and report print of the saved run. */
struct shown {
	char bw[32], iops[32], lat[32], p99[32], cpu[32], best[32];
};

static void shown_of(const struct disk_test *t, struct shown *x)
{
	struct disk_figures m, b;
	disk_test_medians(t, &m);
	disk_pass_figures(&t->total[t->best], &b);
	units_figure(m.bytes_per_sec, "bytes_per_sec", "B/s", x->bw, sizeof x->bw);
	units_figure(m.iops, "iops", "op/s", x->iops, sizeof x->iops);
	units_figure(m.lat_mean_ns, "lat_mean_ns", "ns", x->lat, sizeof x->lat);
	units_figure(m.lat_p99_ns, "lat_p99_ns", "ns", x->p99, sizeof x->p99);
	units_figure(m.cpu_ns_per_io, "cpu_ns_per_io", "ns", x->cpu, sizeof x->cpu);
	units_figure(b.bytes_per_sec, "bytes_per_sec", "B/s", x->best, sizeof x->best);
}

void disk_print_table(FILE *out, const struct disk_report *r)
{
	char a[32], b[32];
	fprintf(out, "nodemark disk --profile %s: %u target%s, %s file, %u pass%s of %s\n", r->profile, r->ntargets,
		r->ntargets == 1 ? "" : "s", units_bytes_iec(r->file_size, a, sizeof a), r->passes,
		r->passes == 1 ? "" : "es", units_duration(r->runtime_ns, b, sizeof b));
	for (unsigned i = 0; i < r->ntargets; i++)
		fprintf(out, "  %s\n", r->targets[i]);
	/* the median of the passes, as show, compare and report print the saved run, headed as
	 * they head it (units_header: the metric in words, the units its cells show); the best
	 * pass (CrystalDiskMark's score) beside it, named */
	enum { NCOLS = 6 };
	static const char *const metric[NCOLS] = { "bytes_per_sec", "iops", "lat_mean_ns", "lat_p99_ns", "best",
						    "spread" };
	char units[NCOLS][64] = { "" }, head[NCOLS][96];
	int w[NCOLS] = { 0 };
	unsigned unstable = 0;
	for (int pass = 0; pass < 2; pass++) { /* the heads and widths, then the rows */
		if (pass == 1) {
			fputc('\n', out);
			text_put(out, "test (median of passes)", 24, 0);
			for (unsigned k = 0; k < NCOLS; k++) {
				fputs("   ", out);
				text_put(out, head[k], (size_t)w[k], 1);
			}
			fputs("   engine\n", out);
		}
		for (unsigned i = 0; i < r->ntests; i++) {
			const struct disk_test *t = &r->tests[i];
			if (!shown(r, t))
				continue;
			struct shown x;
			shown_of(t, &x);
			double med, spread;
			char sp[16];
			disk_test_spread(t, &med, &spread);
			if (disk_test_unstable(t))
				snprintf(sp, sizeof sp, "unstable");
			else
				snprintf(sp, sizeof sp, "%.0f%%", spread);
			const char *cells[NCOLS] = { x.bw, x.iops, x.lat, x.p99, x.best, sp };
			if (pass == 0) {
				for (unsigned k = 0; k < NCOLS - 1; k++) /* spread: a percentage */
					units_shown_add(units[k], sizeof units[k], cells[k]);
				for (unsigned k = 0; k < NCOLS; k++)
					if ((int)text_width(cells[k]) > w[k])
						w[k] = (int)text_width(cells[k]);
				continue;
			}
			unstable += disk_test_unstable(t) != 0;
			text_put(out, t->name, 24, 0);
			for (unsigned k = 0; k < NCOLS; k++) {
				fputs("   ", out);
				text_put(out, cells[k], (size_t)w[k], 1);
			}
			fprintf(out, "   %s %s\n", t->engine, mode_text(t->direct));
		}
		for (unsigned k = 0; pass == 0 && k < NCOLS; k++) {
			units_header(metric[k], units[k], head[k], sizeof head[k]);
			if ((int)text_width(head[k]) > w[k])
				w[k] = (int)text_width(head[k]);
		}
	}
	fprintf(out, "\nThe median of each test's passes: what show, compare and report print of this run.\n"
		     "best = the best pass's bandwidth (CrystalDiskMark's score); spread = the farthest\n"
		     "pass from the median. MB/s = 10^6 bytes/s.\n");
	if (unstable)
		fprintf(out, "unstable: the passes spread past 100%% of their median, so no percentage is given:\n");
	for (unsigned i = 0; unstable && i < r->ntests; i++) {
		const struct disk_test *t = &r->tests[i];
		char text[160];
		if (shown(r, t) && disk_test_unstable(t))
			fprintf(out, "  %s: %s\n", t->name, disk_test_spread_text(t, text, sizeof text));
	}
}

static void print_result(FILE *out, const char *indent, const struct io_job_result *r)
{
	char a[32], b[32], c[32], d[32];
	struct hist h;
	disk_result_lat(r, &h);
	uint64_t ios = disk_result_ios(r);
	double secs = (double)r->runtime_ns / 1e9;
	fprintf(out, "%sIOPS %s, %.2f MB/s, %.2f MiB/s (%s in %.2f s", indent, units_count(io_result_iops(r), a, sizeof a),
		io_result_bytes_per_sec(r) / 1e6, io_result_bytes_per_sec(r) / 1048576.0,
		units_bytes_iec(r->dir[DIR_READ].bytes + r->dir[DIR_WRITE].bytes, b, sizeof b), secs);
	if (r->dir[DIR_READ].ios && r->dir[DIR_WRITE].ios)
		fprintf(out, "; %.0f%% reads", 100.0 * (double)r->dir[DIR_READ].ios / (double)ios);
	fprintf(out, ")\n");
	fprintf(out, "%slatency min %s, mean %s, max %s, stddev %s\n", indent, units_duration(h.n ? h.min : 0, a, sizeof a),
		units_duration((uint64_t)hist_mean(&h), b, sizeof b), units_duration(h.max, c, sizeof c),
		units_duration((uint64_t)hist_stddev(&h), d, sizeof d));
	uint64_t p[NPCTS];
	hist_percentiles(&h, pcts, NPCTS, p);
	fprintf(out, "%s       ", indent);
	for (unsigned i = 0; i < NPCTS; i++)
		fprintf(out, " %s %s%s", pct_names[i], units_duration(p[i], a, sizeof a), i + 1 < NPCTS ? "," : "\n");
	if (ios)
		fprintf(out, "%sCPU usr %s, sys %s, %s per I/O; %llu context switches\n", indent,
			units_duration(r->usr_cpu_ns, a, sizeof a), units_duration(r->sys_cpu_ns, b, sizeof b),
			units_duration((r->usr_cpu_ns + r->sys_cpu_ns) / ios, c, sizeof c),
			(unsigned long long)(r->ctx_voluntary + r->ctx_involuntary));
	if (r->sync_ios)
		fprintf(out, "%ssync %llu calls, mean %s\n", indent, (unsigned long long)r->sync_ios,
			units_duration((uint64_t)hist_mean(&r->sync_lat), a, sizeof a));
}

void disk_print_full(FILE *out, const struct disk_report *r)
{
	for (unsigned i = 0; i < r->ntests; i++) {
		const struct disk_test *t = &r->tests[i];
		if (!shown(r, t))
			continue;
		fprintf(out, "%s: %s, %s\n", t->name, t->engine, mode_text(t->direct));
		/* the one statistic: the median of the passes, as show, compare and report print it */
		struct shown x;
		shown_of(t, &x);
		fprintf(out, "  median of %u pass%s: %s, %s, latency mean %s, p99 %s; CPU %s per I/O", t->npasses,
			t->npasses == 1 ? "" : "es", x.bw, x.iops, x.lat, x.p99, x.cpu);
		if (t->npasses > 1) {
			char text[160]; /* "spread 12%", or "unstable: MED, range LO to HI" past 100% */
			if (disk_test_unstable(t))
				fprintf(out, "; %s\n", disk_test_spread_text(t, text, sizeof text));
			else {
				double med, spread;
				disk_test_spread(t, &med, &spread);
				fprintf(out, "; spread %.0f%%\n", spread);
			}
			fprintf(out, "  best pass %s (CrystalDiskMark's score), in detail:\n", x.best);
		} else {
			fprintf(out, "\n  the pass in detail:\n");
		}
		const struct io_job_result *best = &t->total[t->best];
		print_result(out, "    ", best);
		if (r->ntargets > 1)
			for (unsigned k = 0; k < r->ntargets; k++) {
				const struct io_job_result *tr = &t->targets[t->best * r->ntargets + k];
				if (!tr->job)
					continue;
				fprintf(out, "    %s:\n", r->targets[k]);
				print_result(out, "      ", tr);
			}
	}
}

/* --- JSON -------------------------------------------------------------------------------- */

static json_t *hist_json(const struct hist *h)
{
	uint64_t p[NPCTS];
	json_t *o = json_object();
	hist_percentiles(h, pcts, NPCTS, p);
	json_object_set_new(o, "min", json_integer(h->n ? (json_int_t)h->min : 0));
	json_object_set_new(o, "mean", json_real(hist_mean(h)));
	json_object_set_new(o, "max", json_integer((json_int_t)h->max));
	json_object_set_new(o, "stddev", json_real(hist_stddev(h)));
	json_object_set_new(o, "n", json_integer((json_int_t)h->n));
	for (unsigned i = 0; i < NPCTS; i++)
		json_object_set_new(o, pct_names[i], json_integer((json_int_t)p[i]));
	return o;
}

static json_t *dir_json(const struct io_dir_result *d, double runtime_s)
{
	json_t *o = json_object();
	json_object_set_new(o, "ios", json_integer((json_int_t)d->ios));
	json_object_set_new(o, "io_bytes", json_integer((json_int_t)d->bytes));
	json_object_set_new(o, "iops", json_real(runtime_s > 0 ? (double)d->ios / runtime_s : 0));
	json_object_set_new(o, "bytes_per_sec", json_real(runtime_s > 0 ? (double)d->bytes / runtime_s : 0));
	json_object_set_new(o, "short_ios", json_integer((json_int_t)d->short_ios));
	json_object_set_new(o, "lat_ns", hist_json(&d->lat));
	json_object_set_new(o, "clat_ns", hist_json(&d->clat));
	json_object_set_new(o, "slat_ns", hist_json(&d->slat));
	return o;
}

static json_t *result_json(const struct io_job_result *r)
{
	json_t *o = json_object();
	struct hist h;
	double secs = (double)r->runtime_ns / 1e9;
	uint64_t ios = disk_result_ios(r);
	disk_result_lat(r, &h);
	json_object_set_new(o, "iops", json_real(io_result_iops(r)));
	json_object_set_new(o, "bytes_per_sec", json_real(io_result_bytes_per_sec(r)));
	json_object_set_new(o, "io_bytes", json_integer((json_int_t)(r->dir[DIR_READ].bytes + r->dir[DIR_WRITE].bytes)));
	json_object_set_new(o, "ios", json_integer((json_int_t)ios));
	json_object_set_new(o, "runtime_ns", json_integer((json_int_t)r->runtime_ns));
	json_object_set_new(o, "lat_ns", hist_json(&h));
	json_object_set_new(o, "usr_cpu_ns", json_integer((json_int_t)r->usr_cpu_ns));
	json_object_set_new(o, "sys_cpu_ns", json_integer((json_int_t)r->sys_cpu_ns));
	json_object_set_new(o, "cpu_ns_per_io",
			    json_real(ios ? (double)(r->usr_cpu_ns + r->sys_cpu_ns) / (double)ios : 0));
	json_object_set_new(o, "ctx_switches", json_integer((json_int_t)(r->ctx_voluntary + r->ctx_involuntary)));
	json_object_set_new(o, "engine", json_string(r->engine_used));
	json_object_set_new(o, "direct", r->direct_used < 0 ? json_null() : json_boolean(r->direct_used));
	if (r->dir[DIR_READ].ios)
		json_object_set_new(o, "read", dir_json(&r->dir[DIR_READ], secs));
	if (r->dir[DIR_WRITE].ios)
		json_object_set_new(o, "write", dir_json(&r->dir[DIR_WRITE], secs));
	if (r->sync_ios) {
		json_object_set_new(o, "sync_ios", json_integer((json_int_t)r->sync_ios));
		json_object_set_new(o, "sync_lat_ns", hist_json(&r->sync_lat));
	}
	if (r->error)
		json_object_set_new(o, "error", json_string(r->errmsg));
	return o;
}

static json_t *test_json(const struct disk_report *r, const struct disk_test *t)
{
	json_t *o = json_object();
	const struct io_job *j = &t->job;
	json_object_set_new(o, "name", json_string(t->name));
	json_object_set_new(o, "rw", json_string(io_rw_name(j->rw)));
	if (j->rw == IO_RW || j->rw == IO_RANDRW)
		json_object_set_new(o, "rwmix_read", json_integer(j->rwmix_read));
	json_object_set_new(o, "bs", json_integer((json_int_t)j->bs[j->rw == IO_WRITE || j->rw == IO_RANDWRITE]));
	json_object_set_new(o, "iodepth", json_integer(j->iodepth));
	json_object_set_new(o, "numjobs", json_integer(j->numjobs));
	json_object_set_new(o, "engine", json_string(t->engine));
	json_object_set_new(o, "direct", t->direct < 0 ? json_null() : json_boolean(t->direct));
	json_t *passes = json_array();
	for (unsigned p = 0; p < t->npasses; p++)
		json_array_append_new(passes, result_json(&t->total[p]));
	json_object_set_new(o, "passes", passes);
	json_object_set_new(o, "best_pass", json_integer(t->best));
	if (t->npasses) {
		double med, spread;
		disk_test_spread(t, &med, &spread);
		json_object_set_new(o, "median_bytes_per_sec", json_real(med));
		json_object_set_new(o, "spread_pct", json_real(spread));
		/* the figures of the saved run: each one's median over the passes */
		struct disk_figures m;
		disk_test_medians(t, &m);
		json_object_set_new(o, "median", json_pack("{s:f,s:f,s:f,s:f,s:f}", "bytes_per_sec", m.bytes_per_sec, "iops",
							   m.iops, "lat_mean_ns", m.lat_mean_ns, "lat_p99_ns",
							   m.lat_p99_ns, "cpu_ns_per_io", m.cpu_ns_per_io));
		if (disk_test_unstable(t))
			json_object_set_new(o, "unstable", json_true());
		json_object_set_new(o, "total", result_json(&t->total[t->best]));
		json_t *tg = json_array();
		for (unsigned k = 0; k < r->ntargets; k++) {
			json_t *x = result_json(&t->targets[t->best * r->ntargets + k]);
			json_object_set_new(x, "target", json_string(r->targets[k]));
			json_array_append_new(tg, x);
		}
		json_object_set_new(o, "targets", tg);
		json_t *jobs = json_array();
		for (unsigned k = 0; k < j->numjobs; k++) {
			json_t *x = result_json(&t->jobs[k]);
			json_object_set_new(x, "job", json_integer(k));
			json_object_set_new(x, "target", json_string(r->targets[t->jobs[k].target_index % r->ntargets]));
			json_array_append_new(jobs, x);
		}
		json_object_set_new(o, "jobs", jobs);
	}
	return o;
}

json_t *disk_json(const struct disk_report *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "profile", r->profile ? json_string(r->profile) : json_null());
	json_t *tg = json_array();
	for (unsigned i = 0; i < r->ntargets; i++)
		json_array_append_new(tg, json_string(r->targets[i]));
	json_object_set_new(o, "targets", tg);
	json_object_set_new(o, "file_size", json_integer((json_int_t)r->file_size));
	json_object_set_new(o, "passes", json_integer(r->passes));
	json_t *tests = json_array();
	for (unsigned i = 0; i < r->ntests; i++)
		if (!r->finished_only || shown(r, &r->tests[i]))
			json_array_append_new(tests, test_json(r, &r->tests[i]));
	json_object_set_new(o, "tests", tests);
	return o;
}
