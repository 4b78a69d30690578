/* How a job ends besides its size and runtime: exitall, exit_what, number_ios, and fio's
 * steady state. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "fio/steadystate.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How a job ends besides its size and runtime: fio's exitall and exit_what (one job's end stops
 * others; the scheduler in sched.c does it), exitall_on_error, and number_ios (the engine's). */

/* fio turns exitall on whatever the value (exitall=0 too): so does nodemark, once it is valid */
FIO_APPLY(exitall)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->exitall = 1;
	return 0;
}

FIO_APPLY(exitall_on_error)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->exitall_on_error = b;
	return 0;
}

FIO_APPLY(exit_what)
{
	static const struct { const char *name; enum fio_exit_what what; } whats[] = {
		{ "group", FIO_EXIT_GROUP }, { "stonewall", FIO_EXIT_STONEWALL }, { "all", FIO_EXIT_ALL },
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof whats / sizeof whats[0]; i++)
		if (strcmp(v, whats[i].name) == 0) {
			j->exit_what = whats[i].what;
			return 0;
		}
	return nm_errf(err, errlen, "\"%s\": expected group, stonewall or all", fio_q(v, qb, sizeof qb));
}

/* fio counts the I/Os of each thread, both directions, and ends the pass at N (0: no limit);
 * a time_based job runs to its runtime anyway (plan.c clears it there). */
FIO_APPLY(number_ios)
{
	return fio_size(j, v, &j->io.number_ios, err, errlen);
}

/* fio's steady state options onto fio_job.ss (fio/steadystate.c judges): steadystate=CRIT:LIMIT
 * (iops, iops_slope, bw, bw_slope; LIMIT a number -- a bw one a size per second -- or N%),
 * steadystate_duration, steadystate_ramp_time, steadystate_check_interval; and fio's rule that
 * the jobs of a reporting group agree on them. */

void fio_job_ss_defaults(struct fio_ss_opts *o)
{
	memset(o, 0, sizeof *o);
	o->iops = o->slope = o->pct = 1; /* fio's default: iops_slope:0.01% */
	o->limit = 0.01;
	o->interval_us = 1000000;
}

static int limit_of(struct fio_job *j, const char *lim, char *err, size_t errlen)
{
	char qb[64], *end;
	const char *pct = strchr(lim, '%');
	if (pct || j->ss.iops) {
		char *num = xstrndup(lim, pct ? (size_t)(pct - lim) : strlen(lim));
		double v = strtod(num, &end);
		int bad = end == num || *end || !isfinite(v) || v < 0 || (pct && pct[1]);
		free(num);
		if (bad)
			return nm_errf(err, errlen, "\"%s\": the limit is a number or N%%", fio_q(lim, qb, sizeof qb));
		j->ss.pct = pct != NULL;
		j->ss.limit = v;
		return 0;
	}
	uint64_t bps;
	if (fio_size(j, lim, &bps, err, errlen) < 0) /* a bw limit is a size (per second) */
		return -1;
	j->ss.pct = 0;
	j->ss.limit = (double)bps;
	return 0;
}

FIO_APPLY(steadystate)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	static const struct { const char *name; int iops, slope; } crit[] = {
		{ "iops", 1, 0 }, { "iops_slope", 1, 1 }, { "bw", 0, 0 }, { "bw_slope", 0, 1 },
	};
	size_t k;
	for (k = 0; k < sizeof crit / sizeof crit[0]; k++)
		if (fio_word_is(v, crit[k].name))
			break;
	if (k == sizeof crit / sizeof crit[0]) {
		if (fio_word_is(v, "lat") || fio_word_is(v, "lat_slope"))
			return nm_errf(err, errlen, "\"%s\": latency criteria are newer fio's, not 3.33's (iops, iops_slope, bw, bw_slope)",
				       fio_q(v, qb, sizeof qb));
		return nm_errf(err, errlen, "\"%s\": expected iops, iops_slope, bw or bw_slope, then :LIMIT",
			       fio_q(v, qb, sizeof qb));
	}
	const char *colon = strchr(v, ':');
	if (!colon || !colon[1])
		return nm_errf(err, errlen, "\"%s\": a limit must follow the criterion (iops:10%%)", fio_q(v, qb, sizeof qb));
	j->ss.iops = crit[k].iops;
	j->ss.slope = crit[k].slope;
	return limit_of(j, colon + 1, err, errlen);
}

static int ss_time(const char *v, uint64_t *us, char *err, size_t errlen)
{
	uint64_t ns;
	if (fio_duration(v, &ns, err, errlen) < 0)
		return -1;
	*us = ns / 1000;
	return 0;
}

FIO_APPLY(steadystate_duration) { return ss_time(v, &j->ss.dur_us, err, errlen); }
FIO_APPLY(steadystate_ramp_time) { return ss_time(v, &j->ss.ramp_us, err, errlen); }

FIO_APPLY(steadystate_check_interval)
{
	char qb[64];
	if (ss_time(v, &j->ss.interval_us, err, errlen) < 0)
		return -1;
	if (j->ss.interval_us < 1000000)
		return nm_errf(err, errlen, "\"%s\": at least 1s (samples are whole seconds apart)", fio_q(v, qb, sizeof qb));
	return 0;
}

/* What fio compares between the jobs of a group: duration, ramp, criterion and limit. */
static int same_ss(const struct fio_job *a, const struct fio_job *b)
{
	int on_a = fio_ss_wanted(&a->ss), on_b = fio_ss_wanted(&b->ss);
	if (!on_a || !on_b)
		return on_a == on_b;
	return a->ss.dur_us / 1000000 == b->ss.dur_us / 1000000 && a->ss.ramp_us == b->ss.ramp_us &&
	       a->ss.iops == b->ss.iops && a->ss.slope == b->ss.slope && a->ss.pct == b->ss.pct &&
	       a->ss.limit == b->ss.limit && a->ss.interval_us / 1000000 == b->ss.interval_us / 1000000;
}

int fio_ss_check_groups(const struct fio_plan *p, char *err, size_t errlen)
{
	char qb[64];
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		if (j->ss.dur_us >= 1000000 && !fio_ss_wanted(&j->ss))
			return nm_errf(err, errlen, "job '%s': steadystate_duration is shorter than steadystate_check_interval",
				       fio_q(j->name, qb, sizeof qb));
		for (size_t k = 0; k < i; k++)
			if (p->jobs[k].io.report.group == j->io.report.group && !same_ss(&p->jobs[k], j))
				return nm_errf(err, errlen, "job '%s': steadystate options must be the same for every job of "
					       "a reporting group (as fio requires)", fio_q(j->name, qb, sizeof qb));
	}
	return 0;
}
