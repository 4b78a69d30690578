#include "test.h"
#include "stats/ranks.h"

TEST(ranks_aggregate_as_ior)
{
	/* 3 workers: 100 in [0,1], 300 in [0.5,2.5], 200 in [0,4] */
	struct rank_interval w[] = { { 100, 0, 1 }, { 300, 0.5, 2.5 }, { 200, 0, 4 } };
	struct rank_aggregate a;
	ranks_aggregate(w, 3, &a);
	CHECK_NEAR(a.total, 600, 1e-9);
	CHECK_NEAR(a.rate, 600.0 / 4, 1e-9);
	CHECK_NEAR(a.first_end, 1, 1e-9);
	/* up to t=1: 100 + 300*(0.5/2) + 200*(1/4) = 100 + 75 + 50 = 225, over 1 s */
	CHECK_NEAR(a.first_done_rate, 225, 1e-9);
	CHECK_EQ_INT(a.slowest, 2); /* 50/s */
	CHECK_EQ_INT(a.fastest, 2 - 1); /* 150/s */
	CHECK_NEAR(a.slowest_rate, 50, 1e-9);
	CHECK_NEAR(a.fastest_rate, 150, 1e-9);
}

TEST(ranks_aggregate_one_worker_is_its_own_rate)
{
	struct rank_interval w = { 1000, 0.25, 2.25 };
	struct rank_aggregate a;
	ranks_aggregate(&w, 1, &a);
	CHECK_NEAR(a.rate, 500, 1e-9);
	CHECK_NEAR(a.first_done_rate, 500, 1e-9);
}

TEST(ranks_aggregate_empty_interval_is_zero_rate)
{
	struct rank_interval w[] = { { 0, 0, 0 }, { 0, 0, 0 } };
	struct rank_aggregate a;
	ranks_aggregate(w, 2, &a);
	CHECK_NEAR(a.rate, 0, 0);
	CHECK_NEAR(a.first_done_rate, 0, 0);
}
