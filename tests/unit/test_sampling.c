#include "test.h"
#include "suite/phase.h"
#include "stats/verdict.h"
#include "results/history.h"

#include <string.h>

static double history_floor_3pct(void *arg, const char *bench, const char *metric, double default_pct, int *runs)
{
	int *calls = arg;
	++*calls;
	*runs = strcmp(bench, "hash/blake3/1t") == 0 && strcmp(metric, "bytes_per_sec") == 0 ? 7 : 0;
	return *runs ? 3.0 : default_pct;
}

static void run_sampler_with(enum suite_mode mode, double budget, const double *values, size_t nvalues,
			     size_t *taken, const char **stopped, int *floor_calls, json_t **saved)
{
	struct suite_opts o = { .dir = "/tmp", .mode = mode };
	if (floor_calls) {
		o.floor_pct = history_floor_3pct;
		o.floor_arg = floor_calls;
	}
	char *argv[] = { "run" };
	struct record *r = record_new("run", 1, argv);
	struct suite_ctx c = { .opts = &o, .rec = r, .phase = "hash" };
	struct bench *b = suite_bench(&c, "hash/blake3/1t");
	struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	struct suite_sampler s;
	suite_sampler_start(&c, &s, b->name, budget);
	size_t i = 0;
	while (suite_sampler_more(&s, m))
		metric_add(m, values[i++ % nvalues]);
	*taken = m->nsamples;
	*stopped = s.stopped;
	if (saved) {
		suite_sampler_save(&c, b, &s, m);
		*saved = json_deep_copy(json_object_get(json_object_get(r->extra, "sampling"), b->name));
	}
	record_free(r);
}

static void run_sampler(enum suite_mode mode, double budget, const double *values, size_t nvalues,
			size_t *taken, const char **stopped)
{
	run_sampler_with(mode, budget, values, nvalues, taken, stopped, NULL, NULL);
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

TEST(sampling_target_comes_from_the_history_floor_when_there_is_one)
{
	/* +-2% around 100: within the default target (half the 35% floor) after 6, not within history's 1.5% */
	static const double spread[] = { 100, 102, 98, 101, 99, 100.5 };
	size_t n;
	const char *why;
	json_t *saved = NULL;
	run_sampler_with(SUITE_QUICK, 1e6, spread, 6, &n, &why, NULL, &saved);
	CHECK_EQ_INT(n, VERDICT_MIN_SAMPLES);
	CHECK_EQ_STR(json_string_value(json_object_get(saved, "target_from")), "default");
	CHECK_NEAR(json_number_value(json_object_get(saved, "target_pct")), HISTORY_DEFAULT_PCT / 2, 0);
	json_decref(saved);

	int calls = 0;
	run_sampler_with(SUITE_QUICK, 1e6, spread, 6, &n, &why, &calls, &saved);
	CHECK(calls >= 1);
	CHECK_EQ_INT(n, 10); /* the history's tighter target wants more: up to the quick mode's most */
	CHECK_EQ_STR(why, "max");
	CHECK_EQ_STR(json_string_value(json_object_get(saved, "target_from")), "history");
	CHECK_EQ_INT(json_integer_value(json_object_get(saved, "floor_runs")), 7);
	CHECK_NEAR(json_number_value(json_object_get(saved, "target_pct")), 1.5, 0);
	json_decref(saved);
}
