#include "test.h"
#include "results/record.h"

TEST(record_builders)
{
	char *argv[] = { "disk", "--bs", "4k", "it's" };
	struct record *r = record_new("disk", 4, argv);
	CHECK_EQ_INT(strlen(r->id), 16);
	CHECK_EQ_STR(r->command, "disk");
	CHECK_EQ_STR(r->cmdline, "nodemark disk --bs 4k 'it'\\''s'");
	record_set_tag(r, "fs", "xfs");
	record_set_tag(r, "fs", "ext4");
	record_set_tag(r, "os", "debian");
	CHECK_EQ_INT(r->ntags, 2);
	CHECK_EQ_STR(record_tag(r, "fs"), "ext4");
	struct bench *b = record_add_bench(r, "RND4K Q1T1 read");
	struct metric *m = bench_metric(b, "iops", "op/s", HIGHER_IS_BETTER);
	metric_add(m, 3);
	metric_add(m, 1);
	metric_add(bench_metric(b, "iops", "op/s", HIGHER_IS_BETTER), 2);
	CHECK_EQ_INT(b->nmetrics, 1);
	CHECK_EQ_INT(m->nsamples, 3);
	CHECK_NEAR(metric_median(m), 2, 0);
	metric_add(m, 10);
	CHECK_NEAR(metric_median(m), 2.5, 0);
	for (int i = 0; i < 1000; i++)
		record_add_bench(r, "x");
	CHECK(record_find_bench(r, "RND4K Q1T1 read") == b);
	struct series *s = bench_series(b, "iops", "s", "op/s");
	for (int i = 0; i < 200; i++)
		series_add(s, i, i * 2);
	CHECK_EQ_INT(s->n, 200);
	CHECK_NEAR(s->y[199], 398, 0);
	uint64_t vals[] = { 100, 200 }, counts[] = { 5, 6 };
	struct histogram *h = bench_add_hist(b, "clat_read", vals, counts, 2);
	CHECK_EQ_U64(h->count[1], 6);
	record_free(r);
}

TEST(record_cpu_time_per_sample)
{
	char *argv[] = { "hash" };
	struct record *r = record_new("hash", 1, argv);
	struct bench *b = record_add_bench(r, "hash/blake3/2t");
	struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	double *v;
#define BASIS(m) cpu_time_basis(json_object_get(r->extra, "cpu_time"), b->name, (m)->name, (m)->samples, \
				(m)->nsamples, &v)
	CHECK_EQ_INT(BASIS(m), 0); /* no samples, no CPU time */
	metric_add(m, 2e9);
	record_add_cpu_sample(r, b->name, m->name, 2, 0.5, 0.8); /* 1 GB in 0.5 s on 0.8 CPU-s */
	metric_add(m, 1e9);
	record_add_cpu_sample(r, b->name, m->name, 2, 1.0, 0.8); /* waited for a CPU: same cost */
	CHECK_EQ_INT(BASIS(m), 2);
	CHECK_NEAR(v[0], 1.25e9, 1);
	CHECK_NEAR(v[1], 1.25e9, 1);
	free(v);
	json_t *o = json_object_get(json_object_get(r->extra, "cpu_time"), b->name);
	CHECK_EQ_INT(json_integer_value(json_object_get(o, "threads")), 2);
	CHECK_EQ_INT(json_array_size(json_object_get(o, "cpu_s")), 2);
	/* a sample without CPU time, another metric, a clock that did not move: no basis */
	metric_add(m, 1e9);
	CHECK_EQ_INT(BASIS(m), 0);
	CHECK(v == NULL);
	struct metric *o2 = bench_metric(b, "cycles_per_byte", "cycles/B", LOWER_IS_BETTER);
	metric_add(o2, 1);
	CHECK_EQ_INT(BASIS(o2), 0);
	record_add_cpu_sample(r, b->name, m->name, 2, 1.0, 0);
	CHECK_EQ_INT(BASIS(m), 0);
#undef BASIS
	record_free(r);
}
