/* nodemark hash: hashing throughput per algorithm and thread count. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/run_opts.h"
#include "stats/verdict.h"
#include "hash/bench.h"
#include "hash/cpufeat.h"
#include "hash/record.h"
#include "proc/noise.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/units.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LIST 16

struct hash_opts {
	enum hash_algo algos[MAX_LIST];
	unsigned nalgos;
	unsigned threads[MAX_LIST];
	unsigned nthreads;
	uint64_t size, block, runs;
	const char *file, *output;
	int json;
};

static void parse_algos(const struct opt_iter *it, void *opts)
{
	struct hash_opts *o = opts;
	char err[256];
	int n;
	char **v = opt_list(it, MAX_LIST, "hashes", &n);
	o->nalgos = 0;
	for (int i = 0; i < n; i++) {
		enum hash_algo a;
		if (hash_algo_parse(v[i], &a) < 0) {
			snprintf(err, sizeof err, "\"%s\": expected blake3, sha256 or none", v[i]);
			free_strv(v);
			opt_bad_value(it, err);
		}
		o->algos[o->nalgos++] = a;
	}
	free_strv(v);
}

static void parse_threads(const struct opt_iter *it, void *opts)
{
	struct hash_opts *o = opts;
	char err[256];
	int n;
	char **v = opt_list(it, MAX_LIST, "thread counts", &n);
	o->nthreads = 0;
	for (int i = 0; i < n; i++) {
		uint64_t t;
		if (parse_count(v[i], 1, 1024, &t, err, sizeof err) < 0) {
			free_strv(v);
			opt_bad_value(it, err);
		}
		o->threads[o->nthreads++] = (unsigned)t;
	}
	free_strv(v);
}

static struct hash_opts opts;
static struct run_opts run_opts;

static const struct cli_option options[] = {
	CLI_CALL("algo", parse_algos, &opts,
		 CLI_HELP("LIST", "hashes to measure: blake3, sha256, none (default blake3,sha256)")),
	/* At most 1TiB: hours of hashing, and sums that must not wrap. */
	CLI_SIZE("size", &opts.size, .min = 1, .max = 1ull << 40,
		 CLI_HELP("SIZE", "bytes hashed per measurement, split over the threads (default 256MiB)")),
	CLI_SIZE("block", &opts.block, .min = 1, .max = 1ull << 30,
		 CLI_HELP("SIZE", "bytes per update call (default 256KiB)")),
	CLI_CALL("threads", parse_threads, &opts,
		 CLI_HELP("LIST", "thread counts, e.g. 1,2,4 (default 1 and the number of CPUs)")),
	CLI_STRING("file", &opts.file,
		   CLI_HELP("FILE", "hash this file (mapped) instead of random bytes in memory;\n"
				    "--size defaults to its length; with 1 thread the digest is printed")),
	CLI_COUNT("runs", &opts.runs, 1, 1000,
		  CLI_HELP("N", "measurements per algorithm and thread count; the median is shown\n"
				"(default 6: the fewest with which compare can call a change)")),
	CLI_FLAG("json", &opts.json,
		 CLI_HELP(NULL, "print JSON: {\"results\":[{\"algo\", \"threads\", \"block\", \"bytes\",\n"
				"\"seconds\", \"bytes_per_sec\", \"cycles_per_byte\", \"cpu_seconds\",\n"
				"\"impl\"}, ...]}")),
	CLI_OUTPUT("output", &opts.output, .alias = "o", .seen = &opts.json,
		   CLI_HELP("FILE", "write the JSON to FILE instead of stdout (implies --json)")),
	CLI_RUN_OPTIONS(&run_opts),
	CLI_END,
};

const struct cli_help cmd_hash_help = {
	.usage = "usage: nodemark hash [options]\n"
		 "\n"
		 "Measure hashing throughput: each thread hashes its own stream in --block updates, as\n"
		 "storage nodes hash pieces while they are written. Reports MB/s (10^6 B/s), cycles per\n"
		 "byte (x86 TSC reference cycles; \"n/a\" where the CPU has no readable counter) and the\n"
		 "CPU features each hash uses (AVX-512, AVX2, SHA-NI, ...).\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"Example:\n"
		"  nodemark hash --algo blake3,sha256 --size 1GiB --threads 1,2\n",
};

/* The defaults (one thread and every CPU), then the command line. */
static void parse_args(int argc, char **argv)
{
	opts = (struct hash_opts){
		.algos = { HASH_BLAKE3, HASH_SHA256 }, .nalgos = 2, .threads = { 1 }, .nthreads = 1,
		.block = 256 << 10, .runs = VERDICT_MIN_SAMPLES,
	};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > 1)
		opts.threads[opts.nthreads++] = (unsigned)(ncpu > 1024 ? 1024 : ncpu);
	cli_parse("hash", argc, argv, options, NULL, NULL);
	cli_outputs_check(options, &opts.file, opts.file ? 1 : 0, run_opts.db);
}

/* The file to hash, mapped read-only. Exits 2 when it cannot be read (it is input). */
static void *map_file(const char *path, size_t *len)
{
	/* O_NONBLOCK: a FIFO with no writer must be refused, not waited on. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		nm_usage_fail("--file: %s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		nm_usage_fail("--file: %s: expected a regular file that is not empty", path);
	/* Populated in one call: a page fault per 64 KiB would cost more than hashing it. */
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		nm_usage_fail("--file: %s: cannot map it: %s", path, strerror(errno));
	madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	*len = (size_t)st.st_size;
	return p;
}

static int cmp_rate(const void *a, const void *b)
{
	double x = ((const struct hash_bench_result *)a)->bytes_per_sec;
	double y = ((const struct hash_bench_result *)b)->bytes_per_sec;
	return (x > y) - (x < y);
}

/* The bench of one algorithm and thread count, with its settings. */
static struct bench *plan_bench(struct record *rec, const struct hash_bench_plan *plan)
{
	char name[64];
	hash_bench_name(plan, name, sizeof name);
	struct bench *b = record_add_bench(rec, name);
	hash_settings(b->settings, plan);
	bench_set(b, "bytes", json_integer((json_int_t)plan->size));
	return b;
}

/* --runs measurements of one plan into runs[] and the bench's metrics; an exit code. */
static int measure(struct record *rec, const struct hash_bench_plan *plan, struct bench *b,
		   struct hash_bench_result *runs)
{
	char err[512];
	struct metric *mrate = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	struct metric *mcpb = cycles_readable() ? bench_metric(b, "cycles_per_byte", "cycles/B", LOWER_IS_BETTER)
						: NULL;
	for (uint64_t i = 0; i < opts.runs; i++) {
		if (cleanup_interrupted())
			return NM_EXIT_INTERRUPTED;
		if (hash_bench(plan, &runs[i], err, sizeof err) < 0) {
			nm_error("%s: %s", hash_algo_name(plan->algo), err);
			return NM_EXIT_FAILED;
		}
		metric_add(mrate, runs[i].bytes_per_sec);
		record_add_cpu_sample(rec, b->name, mrate->name, plan->threads, runs[i].seconds, runs[i].cpu_seconds);
		if (mcpb)
			metric_add(mcpb, runs[i].cycles_per_byte);
	}
	return NM_EXIT_OK;
}

/* The median measurement m of a plan: a JSON result, and a table row unless --json. */
static void show_median(const struct hash_bench_plan *plan, const struct hash_bench_result *m, json_t *results)
{
	/* The digest says what was hashed only when one stream covered the file once. */
	int show_digest = opts.file && plan->threads == 1 && plan->size == plan->data_len && plan->algo != HASH_NONE;
	char hex[2 * HASH_MAX_DIGEST + 1], buf[64];
	hash_hex(m->digest, hash_digest_size(plan->algo), hex);
	json_t *j = json_pack("{s:s, s:I, s:I, s:I, s:f, s:f, s:s}", "algo", hash_algo_name(plan->algo), "threads",
			      (json_int_t)plan->threads, "block", (json_int_t)plan->block, "bytes",
			      (json_int_t)m->bytes, "seconds", m->seconds, "bytes_per_sec", m->bytes_per_sec, "impl",
			      hash_impl_name(plan->algo));
	json_object_set_new(j, "cpu_seconds", json_real(m->cpu_seconds));
	json_object_set_new(j, "cycles_per_byte", m->cycles_per_byte >= 0 ? json_real(m->cycles_per_byte) : json_null());
	if (show_digest)
		json_object_set_new(j, "digest", json_string(hex));
	json_array_append_new(results, j);
	if (opts.json)
		return;
	char cpb[32] = "n/a";
	if (m->cycles_per_byte >= 0)
		snprintf(cpb, sizeof cpb, "%.2f", m->cycles_per_byte);
	printf("%-8s %-8s %7u %10s %12.1f %10s\n", hash_algo_name(plan->algo), hash_impl_name(plan->algo),
	       plan->threads, units_bytes_iec(plan->block, buf, sizeof buf), m->bytes_per_sec / 1e6, cpb);
	if (show_digest)
		printf("  %s  %s\n", hex, opts.file);
}

/* Every algorithm at every thread count, into the record and results; an exit code. */
static int measure_all(struct record *rec, json_t *results, const void *data, size_t data_len)
{
	int rc = NM_EXIT_OK;
	struct hash_bench_result *runs = calloc(opts.runs, sizeof *runs);
	if (!runs)
		abort();
	for (unsigned a = 0; a < opts.nalgos && rc == NM_EXIT_OK; a++) {
		for (unsigned t = 0; t < opts.nthreads && rc == NM_EXIT_OK; t++) {
			struct hash_bench_plan plan = {
				.algo = opts.algos[a], .size = opts.size, .block = (size_t)opts.block,
				.threads = opts.threads[t], .data = data, .data_len = data_len,
			};
			rc = measure(rec, &plan, plan_bench(rec, &plan), runs);
			if (rc != NM_EXIT_OK)
				break;
			qsort(runs, opts.runs, sizeof *runs, cmp_rate);
			show_median(&plan, &runs[(opts.runs - 1) / 2], results);
		}
	}
	free(runs);
	return rc;
}

/* After the table, what its figures are; or the JSON document.  An exit code. */
static int finish_output(const char *feat, json_t *results)
{
	char buf[64];
	if (!opts.json) {
		printf("%s, %s per measurement%s\n",
		       cycles_readable() ? "cycles: TSC reference cycles per byte on one thread"
					 : "cycles/B: n/a, this CPU has no readable cycle counter",
		       units_bytes_iec(opts.size, buf, sizeof buf), opts.runs > 1 ? ", median of the runs" : "");
		json_decref(results);
		return NM_EXIT_OK;
	}
	json_t *top = json_pack("{s:s, s:s, s:o}", "cpu_features", feat, "cycle_counter",
				cycles_readable() ? "tsc" : "none", "results", results);
	int rc = cli_output_json(opts.output, top, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) < 0 ? NM_EXIT_FAILED
												  : NM_EXIT_OK;
	json_decref(top);
	return rc;
}

int cmd_hash(int argc, char **argv)
{
	cleanup_stop_at_safe_points(); /* its loops poll cleanup_interrupted() */
	parse_args(argc, argv);
	void *data = NULL;
	size_t data_len = 0;
	if (opts.file) {
		data = map_file(opts.file, &data_len);
		if (!opts.size)
			opts.size = data_len;
	}
	if (!opts.size)
		opts.size = 256ull << 20;

	struct record *rec = record_new("hash", argc, argv);
	char feat[128];
	cpu_features_list(feat, sizeof feat);
	json_object_set_new(rec->extra, "cpu_features", json_string(feat));
	if (!opts.json) {
		printf("CPU features: %s\n", feat);
		printf("%-8s %-8s %7s %10s %12s %10s\n", "algo", "impl", "threads", "block", "MB/s", "cycles/B");
	}
	json_t *results = json_array();
	/* how quiet the machine was over the measurements (extra.noise.hash, as run's hash phase):
	 * compare then treats a busy run as it treats a busy phase of run */
	struct noise_monitor nm;
	struct noise_figures nf;
	noise_start(&nm, noise_procroot(), 1000);
	int rc = measure_all(rec, results, data, data_len);
	if (noise_stop(&nm, &nf) == 0)
		noise_record(rec, "hash", &nf);
	if (rc == NM_EXIT_OK)
		rc = finish_output(feat, results);
	else
		json_decref(results);
	if (rc == NM_EXIT_OK) {
		run_opts_apply(&run_opts, rec, NULL);
		if (run_save(&run_opts, rec) < 0)
			rc = NM_EXIT_FAILED;
	}
	record_free(rec);
	run_opts_free(&run_opts);
	if (data)
		munmap(data, data_len);
	return rc;
}
