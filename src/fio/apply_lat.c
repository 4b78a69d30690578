/* fio's latency target onto io_job's (the engine's io/lattarget.c searches the depth):
 * latency_target and latency_window (microseconds unless a unit is given), latency_percentile
 * (0 to 100, fio's default 100) and latency_run. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"
#include "util/parse.h"

/* fio's times here: a bare number is microseconds. */
static int usec_time(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0 || parse_duration(v, 1000ull, ns, err, errlen) < 0)
		return -1;
	*ns -= *ns % 1000; /* fio keeps whole microseconds (so 500ns is no target, as in fio) */
	return 0;
}

FIO_APPLY(latency_target) { return usec_time(v, &j->io.pace.lat_target_ns, err, errlen); }
FIO_APPLY(latency_window) { return usec_time(v, &j->io.pace.lat_window_ns, err, errlen); }

FIO_APPLY(latency_percentile)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return parse_percent(v, &j->io.pace.lat_percentile, err, errlen);
}

FIO_APPLY(latency_run)
{
	return fio_parse_bool(v, &j->io.pace.lat_run, err, errlen);
}
