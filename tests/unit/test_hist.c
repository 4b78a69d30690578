#include "test.h"
#include "stats/hist.h"

#include <stdlib.h>

TEST(hist_small_values_exact)
{
	for (uint64_t v = 0; v < 128; v++) {
		CHECK_EQ_U64(hist_index(v), v);
		CHECK_EQ_U64(hist_bucket_value(hist_index(v)), v);
	}
}

TEST(hist_matches_fio_bucket_scheme)
{
	/* 128 = 2^7: msb 7, error_bits 1, base (2<<6) = 128, offset (128>>1)&63 = 0 */
	CHECK_EQ_U64(hist_index(128), 128);
	CHECK_EQ_U64(hist_index(129), 128);
	CHECK_EQ_U64(hist_index(130), 129);
	CHECK_EQ_U64(hist_bucket_value(128), 129); /* 128 + 0.5*2 */
	/* 1000 ns: msb 9, error_bits 3, base 4<<6 = 256, offset (1000>>3)&63 = 125&63 = 61 */
	CHECK_EQ_U64(hist_index(1000), 256 + 61);
	CHECK_EQ_U64(hist_bucket_value(256 + 61), 512 + (uint64_t)(61.5 * 8));
	CHECK_EQ_U64(hist_index(UINT64_MAX), HIST_NR - 1);
}

TEST(hist_relative_error_bounded)
{
	srand(7);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = ((uint64_t)rand() << 20 | (uint64_t)rand()) >> (rand() % 40);
		if (v < 128)
			continue;
		unsigned idx = hist_index(v);
		if (idx == HIST_NR - 1)
			continue;
		double mid = (double)hist_bucket_value(idx);
		CHECK(fabs(mid - (double)v) / (double)v <= 1.0 / 128 + 1e-12);
	}
}

TEST(hist_percentiles_first_bucket_reaching_count)
{
	static struct hist h;
	hist_init(&h);
	for (uint64_t v = 1; v <= 100; v++)
		hist_add(&h, v);
	double p[] = { 1, 50, 90, 99, 100 };
	uint64_t out[5];
	hist_percentiles(&h, p, 5, out);
	CHECK_EQ_U64(out[0], 1);
	CHECK_EQ_U64(out[1], 50);
	CHECK_EQ_U64(out[2], 90);
	CHECK_EQ_U64(out[3], 99);
	CHECK_EQ_U64(out[4], 100);
	CHECK_EQ_U64(h.min, 1);
	CHECK_EQ_U64(h.max, 100);
	CHECK_NEAR(hist_mean(&h), 50.5, 1e-9);
	CHECK_NEAR(hist_stddev(&h), 29.011491975882016, 1e-9);
}

TEST(hist_merge_adds_counts)
{
	static struct hist a, b;
	hist_init(&a);
	hist_init(&b);
	hist_add(&a, 10);
	hist_add(&b, 5000);
	hist_add(&b, 7);
	hist_merge(&a, &b);
	CHECK_EQ_U64(a.n, 3);
	CHECK_EQ_U64(a.min, 7);
	CHECK_EQ_U64(a.max, 5000);
	CHECK_EQ_U64(hist_percentile(&a, 50), 10);
}

TEST(hist_empty)
{
	static struct hist h;
	hist_init(&h);
	CHECK_EQ_U64(hist_percentile(&h, 99), 0);
	CHECK_NEAR(hist_mean(&h), 0, 0);
	CHECK_NEAR(hist_stddev(&h), 0, 0);
}
