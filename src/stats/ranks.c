#include "stats/ranks.h"

#include <string.h>

static double own_rate(const struct rank_interval *w)
{
	double d = w->end_s - w->start_s;
	return d > 0 ? w->amount / d : 0;
}

void ranks_aggregate(const struct rank_interval *w, unsigned n, struct rank_aggregate *a)
{
	memset(a, 0, sizeof *a);
	if (!n)
		return;
	a->earliest_start = w[0].start_s;
	a->latest_end = a->first_end = w[0].end_s;
	a->slowest_rate = a->fastest_rate = own_rate(&w[0]);
	for (unsigned i = 0; i < n; i++) {
		double r = own_rate(&w[i]);
		a->total += w[i].amount;
		if (w[i].start_s < a->earliest_start)
			a->earliest_start = w[i].start_s;
		if (w[i].end_s > a->latest_end)
			a->latest_end = w[i].end_s;
		if (w[i].end_s < a->first_end)
			a->first_end = w[i].end_s;
		if (r < a->slowest_rate)
			a->slowest_rate = r, a->slowest = i;
		if (r > a->fastest_rate)
			a->fastest_rate = r, a->fastest = i;
	}
	double span = a->latest_end - a->earliest_start;
	a->rate = span > 0 ? a->total / span : 0;

	double upto = 0;
	for (unsigned i = 0; i < n; i++) {
		double d = w[i].end_s - w[i].start_s;
		if (d <= 0 || w[i].end_s <= a->first_end) {
			upto += w[i].end_s <= a->first_end ? w[i].amount : 0;
			continue;
		}
		double share = (a->first_end - w[i].start_s) / d;
		if (share > 0)
			upto += w[i].amount * share;
	}
	double first_span = a->first_end - a->earliest_start;
	a->first_done_rate = first_span > 0 ? upto / first_span : 0;
}
