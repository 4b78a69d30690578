/* fio's pacing options onto io_job's (the engine's io/rate.c does the pacing): rate, rate_iops,
 * rate_min, rate_iops_min as READ[,WRITE[,TRIM]] (one value: both directions), thinktime and
 * thinktime_spin in microseconds unless a unit is given, thinktime_blocks. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"
#include "util/parse.h"

#include <stdlib.h>
#include <string.h>

/* v's ','-separated parts into out[read], out[write], out[trim] (one value: all three, as fio);
 * sizes (kb_base) when size, else plain counts. An empty part leaves that direction. */
static int per_dir(struct fio_job *j, const char *v, int size, uint64_t out[DIR_COUNT], char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	int one = !strchr(v, ',');
	const char *s = v;
	for (int d = 0; d < DIR_COUNT && s; d++) {
		const char *c = strchr(s, ',');
		char *part = xstrndup(s, c ? (size_t)(c - s) : strlen(s));
		uint64_t n = 0;
		int rc = !*part ? 0 : size ? fio_size(j, part, &n, err, errlen) : fio_count(part, 0, UINT32_MAX, &n, err, errlen);
		int given = *part != 0;
		free(part);
		if (rc < 0)
			return -1;
		if (given)
			out[d] = n;
		if (one)
			out[DIR_WRITE] = out[DIR_TRIM] = n;
		s = c ? c + 1 : NULL;
	}
	if (s)
		return nm_errf(err, errlen, "\"%s\": at most three values (read,write,trim)", fio_q(v, qb, sizeof qb));
	return 0;
}

FIO_APPLY(rate) { return per_dir(j, v, 1, j->io.pace.rate_bps, err, errlen); }
FIO_APPLY(rate_iops) { return per_dir(j, v, 0, j->io.pace.rate_iops, err, errlen); }
FIO_APPLY(rate_min) { return per_dir(j, v, 1, j->io.pace.rate_min_bps, err, errlen); }
FIO_APPLY(rate_iops_min) { return per_dir(j, v, 0, j->io.pace.rate_min_iops, err, errlen); }

/* fio's think times: a bare number is microseconds. */
static int usec_time(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return parse_duration(v, 1000ull, ns, err, errlen);
}

FIO_APPLY(thinktime) { return usec_time(v, &j->io.pace.thinktime_ns, err, errlen); }
FIO_APPLY(thinktime_spin) { return usec_time(v, &j->io.pace.thinktime_spin_ns, err, errlen); }

FIO_APPLY(thinktime_blocks)
{
	uint64_t n;
	if (fio_count(v, 1, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.pace.thinktime_blocks = (unsigned)n;
	return 0;
}

FIO_APPLY(rate_process)
{
	char qb[64];
	if (v && !strcmp(v, "linear"))
		return 0;
	return nm_errf(err, errlen, "\"%s\": linear only (poisson is not implemented)", fio_q(v, qb, sizeof qb));
}
