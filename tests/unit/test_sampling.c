#include "test.h"
#include "suite/phase.h"
#include "stats/verdict.h"

static void run_sampler(enum suite_mode mode, double budget, const double *values, size_t nvalues,
			size_t *taken, const char **stopped)
{
	struct suite_opts o = { .dir = "/tmp", .mode = mode };
	char *argv[] = { "run" };
	struct record *r = record_new("run", 1, argv);
	struct suite_ctx c = { .opts = &o, .rec = r, .phase = "hash" };
	struct bench *b = suite_bench(&c, "hash/blake3/1t");
	struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	struct suite_sampler s;
	suite_sampler_start(&c, &s, b, budget);
	size_t i = 0;
	while (suite_sampler_more(&s, m))
		metric_add(m, values[i++ % nvalues]);
	*taken = m->nsamples;
	*stopped = s.stopped;
	record_free(r);
}

TEST(sampling_stops_when_the_interval_is_narrow_enough)
{
	static const double steady[] = { 100, 100.5, 99.5, 100.2 };
	size_t n;
	const char *why;
	run_sampler(SUITE_QUICK, 1e6, steady, 4, &n, &why);
	CHECK_EQ_INT(n, VERDICT_MIN_SAMPLES); /* never fewer than a call needs */
	CHECK_EQ_STR(why, "interval");
}

TEST(sampling_takes_more_while_noisy_up_to_the_modes_most)
{
	static const double noisy[] = { 100, 150, 60, 120, 80 };
	size_t n;
	const char *why;
	run_sampler(SUITE_QUICK, 1e6, noisy, 5, &n, &why);
	CHECK_EQ_INT(n, 10);
	CHECK_EQ_STR(why, "max");
	run_sampler(SUITE_DEFAULT, 1e6, noisy, 5, &n, &why);
	CHECK_EQ_INT(n, 20);
}

TEST(sampling_says_when_the_budget_ran_out)
{
	static const double steady[] = { 100 };
	size_t n;
	const char *why;
	run_sampler(SUITE_QUICK, 0, steady, 1, &n, &why);
	CHECK_EQ_INT(n, 0);
	CHECK_EQ_STR(why, "budget");
}
