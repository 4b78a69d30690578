/* fio's output formats from synthetic results (export/fio_json.c, fio_text.c, fio_figures.c). */
#include "test.h"

#include <jansson.h>
#include <stdlib.h>

#include "fio/eta.h"
#include "fio/report_figures.h"
#include "fio/report.h"

/* A read result: 256 I/Os of 4 KiB in exactly 1 s, clat 100..355 us, lat = clat + 1 us. */
static void synthetic(struct io_job *io, struct fio_report_entry *e, struct fio_kv *opts)
{
	memset(io, 0, sizeof *io);
	io->rw = IO_RANDREAD;
	io->bs[0] = io->bs[1] = io->bs[2] = 4096;
	io->iodepth = 1;
	io->numjobs = 1;
	memset(e, 0, sizeof *e);
	e->name = "j1";
	e->groupid = 0;
	opts[0] = (struct fio_kv){ .key = "rw", .value = "randread" };
	opts[1] = (struct fio_kv){ .key = "stonewall", .value = NULL };
	e->opts = opts;
	e->nopts = 2;
	e->io = io;
	e->ioengine = "psync";
	e->nthreads = 1;
	e->kb_base = 1024;
	e->unit_base = 8;
	e->clat_percentiles = 1;
	struct io_job_result *r = &e->res;
	for (int d = 0; d < DIR_COUNT; d++) {
		hist_init(&r->dir[d].slat);
		hist_init(&r->dir[d].clat);
		hist_init(&r->dir[d].lat);
	}
	hist_init(&r->sync_lat);
	for (int i = 0; i < 256; i++) {
		hist_add(&r->dir[0].clat, 100000 + (uint64_t)i * 1000);
		hist_add(&r->dir[0].lat, 101000 + (uint64_t)i * 1000);
	}
	r->dir[0].ios = 256;
	r->dir[0].bytes = 256 * 4096;
	r->dir[0].runtime_ns = 1000000000;
	r->runtime_ns = 1000000000;
	r->start_ns = 5;
	r->end_ns = 5 + 1000000000;
	r->usr_cpu_ns = 100000000;
	r->sys_cpu_ns = 250000000;
	r->ctx_voluntary = 7;
	r->ctx_involuntary = 3;
	r->iodepth_level[0] = 256;
	e->job_runtime_ns = 1000000000;
}

static char *render(void (*fn)(FILE *, const struct fio_report *), const struct fio_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, r);
	fclose(f);
	return buf;
}

static char *render_json(const struct fio_report *r, int plus)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fio_write_json(f, r, plus);
	fclose(f);
	return buf;
}

static void report_of(struct fio_report *rep, struct fio_report_entry *e, size_t n, struct fio_kv *globals)
{
	memset(rep, 0, sizeof *rep);
	rep->version = "nodemark-test";
	rep->entries = e;
	rep->nentries = n;
	rep->time_ms = 1700000000123;
	rep->pid = 42;
	globals[0] = (struct fio_kv){ .key = "size", .value = "1m" };
	globals[1] = (struct fio_kv){ .key = "group_reporting", .value = NULL };
	rep->globals = globals;
	rep->nglobals = 2;
}

TEST(fio_json_has_fios_keys_in_fios_order)
{
	struct io_job io;
	struct fio_report_entry e;
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e, opts);
	report_of(&rep, &e, 1, globals);
	char *text = render_json(&rep, 0);
	json_error_t jerr;
	json_t *j = json_loads(text, JSON_PRESERVE_ORDER, &jerr);
	CHECK(j != NULL);
	static const char *const top[] = { "fio version", "timestamp", "timestamp_ms", "time", "global options", "jobs" };
	size_t k = 0;
	const char *key;
	json_t *val;
	json_object_foreach(j, key, val) {
		CHECK(k < 6);
		CHECK_EQ_STR(key, top[k]);
		k++;
	}
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "timestamp_ms")), 1700000000123);
	/* only options with a value are listed, as fio does */
	CHECK_EQ_INT(json_object_size(json_object_get(j, "global options")), 1);
	json_t *job = json_array_get(json_object_get(j, "jobs"), 0);
	static const char *const jobkeys[] = { "jobname", "groupid", "error", "eta", "elapsed", "job options", "read",
					       "write", "trim", "sync", "job_runtime", "usr_cpu", "sys_cpu", "ctx",
					       "majf", "minf", "iodepth_level", "iodepth_submit", "iodepth_complete",
					       "latency_ns", "latency_us", "latency_ms", "latency_depth",
					       "latency_target", "latency_percentile", "latency_window" };
	k = 0;
	json_object_foreach(job, key, val) {
		CHECK(k < 26);
		CHECK_EQ_STR(key, jobkeys[k]);
		k++;
	}
	CHECK_EQ_INT(k, 26);
	CHECK_EQ_STR(json_string_value(json_object_get(job, "jobname")), "j1");
	CHECK_EQ_INT(json_integer_value(json_object_get(job, "ctx")), 10);
	CHECK_NEAR(json_real_value(json_object_get(job, "sys_cpu")), 25.0, 1e-6);
	CHECK_EQ_INT(json_integer_value(json_object_get(job, "elapsed")), 1);
	json_decref(j);
	free(text);
}

TEST(fio_json_units_bw_kib_runtime_ms_lat_ns)
{
	struct io_job io;
	struct fio_report_entry e;
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e, opts);
	report_of(&rep, &e, 1, globals);
	char *text = render_json(&rep, 0);
	json_t *j = json_loads(text, 0, NULL);
	CHECK(j != NULL);
	json_t *rd = json_object_get(json_array_get(json_object_get(j, "jobs"), 0), "read");
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "io_bytes")), 1048576);
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "io_kbytes")), 1024);
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "bw_bytes")), 1048576);
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "bw")), 1024);
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "runtime")), 1000);
	CHECK_NEAR(json_real_value(json_object_get(rd, "iops")), 256.0, 1e-9);
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "total_ios")), 256);
	json_t *clat = json_object_get(rd, "clat_ns");
	CHECK_EQ_INT(json_integer_value(json_object_get(clat, "min")), 100000);
	CHECK_EQ_INT(json_integer_value(json_object_get(clat, "max")), 355000);
	CHECK_NEAR(json_real_value(json_object_get(clat, "mean")), 227500.0, 1e-6);
	json_t *pct = json_object_get(clat, "percentile");
	CHECK_EQ_INT(json_object_size(pct), 17);
	json_t *p999 = json_object_get(pct, "99.900000");
	CHECK(p999 != NULL);
	CHECK_EQ_U64(json_integer_value(p999), hist_percentile(&e.res.dir[0].clat, 99.9));
	CHECK(json_object_get(json_object_get(json_object_get(json_array_get(json_object_get(j, "jobs"), 0), "write"),
					      "clat_ns"),
			      "percentile") == NULL); /* no samples, no percentiles */
	CHECK(json_object_get(clat, "bins") == NULL);
	json_decref(j);
	free(text);
}

TEST(fio_jsonplus_bins_are_keyed_by_bucket_value)
{
	struct io_job io;
	struct fio_report_entry e;
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e, opts);
	report_of(&rep, &e, 1, globals);
	char *text = render_json(&rep, 1);
	json_t *j = json_loads(text, 0, NULL);
	CHECK(j != NULL);
	json_t *bins = json_object_get(
		json_object_get(json_object_get(json_array_get(json_object_get(j, "jobs"), 0), "read"), "clat_ns"), "bins");
	CHECK(bins != NULL);
	uint64_t total = 0;
	const char *key;
	json_t *val;
	json_object_foreach(bins, key, val) {
		uint64_t v = strtoull(key, NULL, 10);
		CHECK_EQ_U64(hist_bucket_value(hist_index(v)), v); /* every key is a bucket's value */
		total += (uint64_t)json_integer_value(val);
	}
	CHECK_EQ_U64(total, 256);
	json_decref(j);
	free(text);
}

TEST(fio_percentile_list_changes_keys)
{
	struct io_job io;
	struct fio_report_entry e;
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e, opts);
	io.report.percentiles[0] = 50;
	io.report.percentiles[1] = 99.5;
	io.report.npercentiles = 2;
	report_of(&rep, &e, 1, globals);
	char *text = render_json(&rep, 0);
	json_t *j = json_loads(text, 0, NULL);
	CHECK(j != NULL);
	json_t *pct = json_object_get(
		json_object_get(json_object_get(json_array_get(json_object_get(j, "jobs"), 0), "read"), "clat_ns"),
		"percentile");
	CHECK_EQ_INT(json_object_size(pct), 2);
	CHECK(json_object_get(pct, "50.000000") != NULL);
	CHECK(json_object_get(pct, "99.500000") != NULL);
	json_decref(j);
	free(text);
}

TEST(fio_num2str_matches_fios_rounding)
{
	char b[32];
	/* examples from fio 3.33's own output */
	CHECK_EQ_STR(fio_num2str(7208960, 4, 1, "B", b, sizeof b), "7040KiB");
	CHECK_EQ_STR(fio_num2str(7208960, 4, 0, "B", b, sizeof b), "7209kB");
	CHECK_EQ_STR(fio_num2str(1015808, 4, 0, "B", b, sizeof b), "1016kB");
	CHECK_EQ_STR(fio_num2str(1081344, 4, 0, "B", b, sizeof b), "1081kB");
	CHECK_EQ_STR(fio_num2str(12200000, 4, 1, "B", b, sizeof b), "11.6MiB");
	CHECK_EQ_STR(fio_num2str(150000000, 4, 1, "B", b, sizeof b), "143MiB");
	CHECK_EQ_STR(fio_num2str(36600, 4, 0, "", b, sizeof b), "36.6k");
	CHECK_EQ_STR(fio_num2str(1760, 4, 0, "", b, sizeof b), "1760");
	CHECK_EQ_STR(fio_num2str(1048576, 4, 1, "B", b, sizeof b), "1024KiB");
	/* the decimals round up to a whole one: fio writes 16.0, not 16 (15.99 MiB/s) */
	CHECK_EQ_STR(fio_num2str(16776000, 4, 1, "B/s", b, sizeof b), "16.0MiB/s");
	CHECK_EQ_STR(fio_num2str(8721900, 6, 0, "", b, sizeof b), "8721.9k");
}

TEST(fio_group_bandwidth_is_bytes_over_slowest_runtime)
{
	struct io_job io;
	struct fio_report_entry e[2];
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e[0], opts);
	synthetic(&io, &e[1], opts);
	e[1].res.dir[0].runtime_ns = 2000000000; /* the slow one */
	report_of(&rep, e, 2, globals);
	struct fio_group_figures g;
	fio_group_figures(&rep, 0, &g);
	CHECK_EQ_U64(g.bytes[0], 2 << 20);
	CHECK_EQ_U64(g.agg_bw[0], 1 << 20); /* 2 MiB over 2 s */
	CHECK_EQ_U64(g.min_bw[0], 1 << 19);
	CHECK_EQ_U64(g.max_bw[0], 1 << 20);
	char *text = render(fio_write_normal, &rep);
	CHECK_CONTAINS(text, "Run status group 0 (all jobs):");
	CHECK_CONTAINS(text, "   READ: bw=1024KiB/s (1049kB/s), 512KiB/s-1024KiB/s (524kB/s-1049kB/s), io=2048KiB (2097kB), run=1000-2000msec");
	free(text);
}

TEST(fio_normal_output_has_fios_layout)
{
	struct io_job io;
	struct fio_report_entry e;
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e, opts);
	report_of(&rep, &e, 1, globals);
	char *text = render(fio_write_normal, &rep);
	CHECK_CONTAINS(text, "j1: (groupid=0, jobs=1): err= 0: pid=42: ");
	CHECK_CONTAINS(text, "  read: IOPS=256, BW=1024KiB/s (1049kB/s)(1024KiB/1000msec)\n");
	CHECK_CONTAINS(text, "    clat (usec): min=100, max=355, avg=227.50, stdev=");
	CHECK_CONTAINS(text, "    clat percentiles (usec):\n     |  1.00th=[  101],");
	CHECK_CONTAINS(text, "     | 99.99th=[  354]\n");
	/* the buckets count clat (100-355 us), as fio's; lat is 1 us more */
	CHECK_CONTAINS(text, "  lat (usec)   : 100=0.39%, 250=58.20%, 500=41.41%\n");
	CHECK_CONTAINS(text, "  cpu          : usr=10.00%, sys=25.00%, ctx=10, majf=0, minf=0\n");
	CHECK_CONTAINS(text, "  IO depths    : 1=100.0%, 2=0.0%");
	/* no calls counted: fio's rows all zero; 3 of 1000 reaps with 5-8 I/Os show as 0.3% */
	CHECK_CONTAINS(text, "\n     submit    : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
			     "     complete  : 0=0.0%, 4=0.0%,");
	CHECK_CONTAINS(text, "     issued rwts: total=256,0,0,0 short=0,0,0,0 dropped=0,0,0,0\n");
	CHECK(strstr(text, "write:") == NULL);
	free(text);

	e.res.submit_level[1] = 1000;
	e.res.complete_level[1] = 997;
	e.res.complete_level[2] = 3;
	e.res.iodepth_level[0] = 5000;
	e.res.iodepth_level[3] = 1; /* one in 5001: fio shows a bucket with any count as at least 0.1% */
	text = render(fio_write_normal, &rep);
	CHECK_CONTAINS(text, "  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.1%,");
	CHECK_CONTAINS(text, "     submit    : 0=0.0%, 4=100.0%, 8=0.0%,");
	CHECK_CONTAINS(text, "     complete  : 0=0.0%, 4=99.7%, 8=0.3%, 16=0.0%,");
	free(text);
	e.res.iodepth_level[0] = 256;
	e.res.iodepth_level[3] = 0;

	text = render(fio_write_normal_header, &rep);
	CHECK_CONTAINS(text, "j1: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n");
	CHECK_CONTAINS(text, "Starting 1 process\n"); /* fio's word without thread=1 */
	free(text);

	/* fio's 4 significant figures for sizes; thread=1 says "thread" */
	io.bs[1] = 65536;
	e.thread = 1;
	e.nthreads = 2;
	text = render(fio_write_normal_header, &rep);
	CHECK_CONTAINS(text, "bs=(R) 4096B-4096B, (W) 64.0KiB-64.0KiB, (T) 4096B-4096B,");
	CHECK_CONTAINS(text, "iodepth=1\n...\nnodemark");
	CHECK_CONTAINS(text, "Starting 2 threads\n");
	free(text);
}

TEST(fio_terse_v3_has_fios_field_count)
{
	struct io_job io;
	struct fio_report_entry e;
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e, opts);
	report_of(&rep, &e, 1, globals);
	char *text = render(fio_write_terse, &rep);
	size_t fields = 1;
	for (char *c = text; *c; c++)
		fields += *c == ';';
	CHECK_EQ_INT(fields, 121); /* fio 3.33's terse v3 without disk statistics */
	CHECK(strncmp(text, "3;nodemark-test;j1;0;0;1024;1024;256;1000;", 42) == 0);
	free(text);

	/* a dm device over one disk: 9 fields each, and 9 more for the dm device's aggr figures */
	struct disk_activity da;
	memset(&da, 0, sizeof da);
	da.n = 2;
	snprintf(da.dev[0].name, sizeof da.dev[0].name, "dm-0");
	da.dev[0].nslaves = 1;
	da.dev[0].slave[0] = 1;
	da.dev[0].delta.ios[0] = 7;
	da.dev[0].util = 12.5;
	snprintf(da.dev[1].name, sizeof da.dev[1].name, "nvme0n1");
	da.dev[1].delta.ios[0] = 9;
	da.dev[1].util = 40;
	rep.disks = &da;
	text = render(fio_write_terse, &rep);
	fields = 1;
	for (char *c = text; *c; c++)
		fields += *c == ';';
	CHECK_EQ_INT(fields, 121 + 9 + 9 + 9);
	CHECK_CONTAINS(text, ";dm-0;7;0;0;0;0;0;0;12.50%;slaves;9;0;0;0;0;0;0;40.00%;nvme0n1;9;0;0;0;0;0;0;40.00%\n");
	free(text);
}

TEST(fio_per_second_samples_make_bw_and_iops_lines)
{
	struct io_job io;
	struct fio_report_entry e;
	struct fio_kv opts[2], globals[2];
	struct fio_report rep;
	synthetic(&io, &e, opts);
	struct io_dir_result *d = &e.res.dir[0];
	d->bw_samples = d->iops_samples = 4;
	d->bw_min = 512 * 1024;
	d->bw_max = 2048 * 1024;
	d->bw_mean = 1024 * 1024; /* the group's bandwidth: 100% */
	d->bw_dev = 10 * 1024;
	d->iops_min = 128;
	d->iops_max = 512;
	d->iops_mean = 256;
	report_of(&rep, &e, 1, globals);
	char *text = render(fio_write_normal, &rep);
	CHECK_CONTAINS(text, "   bw (  KiB/s): min=  512, max= 2048, per=100.00%, avg=1024.00, stdev=10.00, samples=4\n");
	CHECK_CONTAINS(text, "   iops        : min=  128, max=  512, avg=256.00, stdev= 0.00, samples=4\n");
	free(text);
	text = render_json(&rep, 0);
	json_t *j = json_loads(text, 0, NULL);
	CHECK(j != NULL);
	json_t *rd = json_object_get(json_array_get(json_object_get(j, "jobs"), 0), "read");
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "bw_min")), 512);
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "bw_max")), 2048);
	CHECK_NEAR(json_real_value(json_object_get(rd, "bw_agg")), 100.0, 1e-6);
	CHECK_EQ_INT(json_integer_value(json_object_get(rd, "iops_samples")), 4);
	json_decref(j);
	free(text);
}

TEST(fio_layout_lines_have_fios_wording)
{
	const struct fio_layout_line l[] = { { "one", 1, 8u << 20 }, { "many", 3, (24u << 20) + 4096 }, { "tiny", 1, 4096 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fio_write_layout_lines(f, l, 3);
	fclose(f);
	/* fio's forms: singular, plural with "total", whole MiB rounded down */
	CHECK_EQ_STR(buf, "one: Laying out IO file (1 file / 8MiB)\n"
			  "many: Laying out IO files (3 files / total 24MiB)\n"
			  "tiny: Laying out IO file (1 file / 0MiB)\n");
	free(buf);
}

TEST(fio_eta_str_as_fios)
{
	char b[32];
	fio_eta_str(11, b, sizeof b);
	CHECK_EQ_STR(b, "00m:11s");
	fio_eta_str(3723, b, sizeof b);
	CHECK_EQ_STR(b, "01h:02m:03s");
	fio_eta_str(86405, b, sizeof b);
	CHECK_EQ_STR(b, "01d:00h:00m:05s");
}
