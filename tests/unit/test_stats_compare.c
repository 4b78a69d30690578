#include "test.h"
#include "export/compare_fmt.h"
#include "results/gobench.h"

static struct record *go(const char *text)
{
	char err[256];
	struct record *r = gobench_parse(text, strlen(text), err, sizeof err);
	if (!r)
		fprintf(stderr, "gobench_parse: %s\n", err);
	return r;
}

static int has_warn(const char *const *w, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(w[i], what))
			return 1;
	return 0;
}

TEST(gobench_parse_units_config_and_errors)
{
	char err[256];
	struct record *r = go("goos: linux\nnot config: x\nBenchmarkA-8 10 100 ns/op 5 MB/s\nBenchmarkA-8 10 200 ns/op 6 MB/s\n"
			      "Benchmarking is prose\nPASS\n");
	CHECK(r != NULL);
	CHECK_EQ_STR(record_tag(r, "goos"), "linux");
	CHECK(record_tag(r, "not config") == NULL);
	CHECK_EQ_INT(r->nbenches, 1);
	CHECK_EQ_STR(r->benches[0]->name, "A-8");
	struct metric *t = bench_find_metric(r->benches[0], "sec/op"), *b = bench_find_metric(r->benches[0], "B/s");
	CHECK(t && b);
	CHECK_EQ_INT(t->nsamples, 2);
	CHECK_NEAR(t->samples[1], 200e-9, 1e-18);
	CHECK_NEAR(b->samples[0], 5e6, 0);
	CHECK_EQ_INT(t->direction, LOWER_IS_BETTER);
	CHECK_EQ_INT(b->direction, HIGHER_IS_BETTER);
	record_free(r);

	CHECK(gobench_parse("BenchmarkA 1 2 ns/op 3\n", 23, err, sizeof err) == NULL);
	CHECK(strstr(err, "line 1:") && strstr(err, "5 fields"));
	CHECK(gobench_parse("BenchmarkA 1 x ns/op\n", 21, err, sizeof err) == NULL);
	CHECK(strstr(err, "\"x\": expected a number") != NULL);
	CHECK(gobench_parse("PASS\n", 5, err, sizeof err) == NULL);
	CHECK(strstr(err, "no benchmark lines") != NULL);
}

TEST(compare_geomean_and_warnings)
{
	/* base has A and B, the other only A and C: the benchmark sets differ */
	struct record *a = go("BenchmarkA 1 10 ns/op\nBenchmarkA 1 10 ns/op\nBenchmarkB 1 40 ns/op\n");
	struct record *b = go("BenchmarkA 1 10 ns/op\nBenchmarkA 1 10 ns/op\nBenchmarkC 1 90 ns/op\n");
	CHECK(a && b);
	struct ct_input in[] = { { a, "a" }, { b, "b" } };
	struct ct_opts o = { 0 };
	struct ct_result res;
	char err[256], buf[64];
	CHECK(ct_build(in, 2, &o, &res, err, sizeof err) == 0);
	CHECK_EQ_INT(res.ntables, 1);
	const struct ct_table *t = res.tables[0];
	CHECK_EQ_STR(t->unit, "sec/op");
	CHECK_EQ_INT(t->nrows, 3);
	const struct ct_cell *c = ct_cell_at(&res, t, 0, 1), *base = ct_cell_at(&res, t, 0, 0);
	CHECK(has_warn(c->warn, c->nwarn, "all samples are equal"));
	CHECK_NEAR(c->p, 1, 0);
	CHECK_EQ_STR(ct_delta(&res, base, c, buf, sizeof buf), "~");
	CHECK_EQ_STR(ct_pn(base, c, buf, sizeof buf), "p=1.000 n=2");
	CHECK(ct_cell_at(&res, t, 1, 1) == NULL); /* B only in a */
	/* the geomean is over the benchmarks every column has (A alone), never over two different
	 * sets (benchstat's would be sqrt(10 * 40) = 20 ns against sqrt(10 * 90) = 30 ns), and says
	 * how many it covers */
	CHECK_NEAR(t->sums[0].gm, 10e-9, 1e-15);
	CHECK_NEAR(t->sums[1].gm, 10e-9, 1e-15);
	CHECK(t->sums[1].has_ratio);
	CHECK_NEAR(t->sums[1].ratio, 1, 1e-12);
	CHECK_EQ_INT(t->sums[1].ncommon, 1);
	CHECK_EQ_INT(t->sums[1].nrows, 3);
	CHECK(has_warn(t->sums[1].warn, t->sums[1].nwarn, "geomean over the 1 of 3 benchmarks that every column has"));
	CHECK(isnan(ct_cell_at(&res, t, 2, 1)->ratio)); /* C: no base to be a ratio of */
	CHECK_NEAR(c->ratio, 1, 0);
	ct_free(&res);

	/* --row/--col by key, and a filter that leaves nothing */
	struct ct_filter f = { "name", "Z*", 0 };
	o.filters = &f;
	o.nfilters = 1;
	CHECK(ct_build(in, 2, &o, &res, err, sizeof err) < 0);
	CHECK(strstr(err, "no benchmarks") != NULL);
	record_free(a);
	record_free(b);
}

TEST(compare_delta_edge_cases)
{
	struct ct_result res = { .alpha = 0.05 };
	struct ct_cell base = { .n = 10, .sum = { .center = 0 } }, c = { .n = 8, .p = 0.01, .sum = { .center = 5 } };
	char buf[64];
	CHECK_EQ_STR(ct_delta(&res, &base, &c, buf, sizeof buf), "?");
	base.sum.center = 5;
	CHECK_EQ_STR(ct_delta(&res, &base, &c, buf, sizeof buf), "0.00%");
	base.sum.center = 4;
	CHECK_EQ_STR(ct_delta(&res, &base, &c, buf, sizeof buf), "+25.00%");
	CHECK_EQ_STR(ct_pn(&base, &c, buf, sizeof buf), "p=0.010 n=10+8");
	c.p = 0;
	CHECK_EQ_STR(ct_pn(&base, &c, buf, sizeof buf), "n=10+8");
}
