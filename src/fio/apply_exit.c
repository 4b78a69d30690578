/* How a job ends besides its size and runtime: fio's exitall and exit_what (one job's end stops
 * others; the scheduler in sched.c does it), exitall_on_error, and number_ios (the engine's). */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <string.h>

#define APPLY(name) int fio_apply_##name(struct fio_job *j, const char *v, char *err, size_t errlen)

/* fio turns exitall on whatever the value (exitall=0 too): so does nodemark, once it is valid */
APPLY(exitall)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->exitall = 1;
	return 0;
}

APPLY(exitall_on_error)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->exitall_on_error = b;
	return 0;
}

APPLY(exit_what)
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
APPLY(number_ios)
{
	return fio_size(j, v, &j->io.number_ios, err, errlen);
}
