/* Aggregating work done in parallel by many workers (MPI ranks), as IOR and elbencho do.
 *
 * Each worker reports how much it did (bytes or operations) and when it started and ended,
 * in seconds relative to a common event it saw on its own clock (the barrier that started the
 * phase), so no two machines' clocks are ever compared.
 *
 *   aggregate rate   = total / (latest end - earliest start)                   (IOR)
 *   first-done rate  = work done by all while every worker was still busy
 *                      / (first end - earliest start)                          (elbencho)
 * A worker's work up to the first end is taken as spread evenly over its own interval. */
#ifndef NM_STATS_RANKS_H
#define NM_STATS_RANKS_H

struct rank_interval {
	double amount;          /* bytes or operations */
	double start_s, end_s;  /* relative to the barrier exit, on the worker's own clock */
};

struct rank_aggregate {
	double total;
	double earliest_start, latest_end, first_end;
	double rate;            /* total / (latest_end - earliest_start); 0 when that is 0 */
	double first_done_rate;
	unsigned slowest, fastest; /* index of the lowest and highest amount / own duration */
	double slowest_rate, fastest_rate;
};

/* n >= 1. */
void ranks_aggregate(const struct rank_interval *w, unsigned n, struct rank_aggregate *out);

#endif
