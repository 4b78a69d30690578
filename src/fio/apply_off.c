/* Options nodemark takes in the forms that ask for nothing it lacks: a value meaning "off"
 * (verify=0, rate=0, thinktime=0), a range or split of one block size (bsrange=4k-4k,
 * bssplit=4k/100), the default distribution.  Any other value is refused in one line that
 * says what is missing, so a job never runs as something it did not ask for. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

/* Every ','-separated part (read,write,trim) is 0 or empty. */
static int all_zero(const struct fio_job *j, const char *v)
{
	char e[128];
	for (const char *s = v; s;) {
		const char *c = strchr(s, ',');
		char *part = xstrndup(s, c ? (size_t)(c - s) : strlen(s));
		uint64_t n = 0;
		int zero = !*part || (fio_size(j, part, &n, e, sizeof e) == 0 && n == 0);
		free(part);
		if (!zero)
			return 0;
		s = c ? c + 1 : NULL;
	}
	return 1;
}

static int off_only(const struct fio_job *j, const char *v, const char *what, char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (all_zero(j, v))
		return 0;
	return nm_errf(err, errlen, "\"%s\": %s not implemented (0 is accepted: off)", fio_q(v, qb, sizeof qb), what);
}

FIO_APPLY(rate) { return off_only(j, v, "rate limits are", err, errlen); }
FIO_APPLY(thinktime) { return off_only(j, v, "think time is", err, errlen); }
FIO_APPLY(percentage_off) { return off_only(j, v, "this data pattern is", err, errlen); }

FIO_APPLY(verify)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (!strcmp(v, "0") || !strcmp(v, "null") || !strcmp(v, "none"))
		return 0;
	return nm_errf(err, errlen, "\"%s\": data verification is not implemented (verify=0 is accepted)",
		       fio_q(v, qb, sizeof qb));
}

/* do_verify only matters with verify=: checked for a bool, it changes nothing. */
FIO_APPLY(do_verify)
{
	int b;
	(void)j;
	return fio_parse_bool(v, &b, err, errlen);
}

/* One size for a direction, from "A-B" with A == B (or one size). */
static int one_size(const struct fio_job *j, const char *part, uint64_t *out, char *err, size_t errlen)
{
	char qb[64];
	const char *dash = strchr(part, '-');
	if (!dash)
		return fio_size(j, part, out, err, errlen);
	char *lo = xstrndup(part, (size_t)(dash - part));
	uint64_t a = 0, b = 0;
	int rc = fio_size(j, lo, &a, err, errlen);
	free(lo);
	if (rc < 0 || fio_size(j, dash + 1, &b, err, errlen) < 0)
		return -1;
	if (a != b)
		return nm_errf(err, errlen, "\"%s\": block-size ranges are not implemented (a range of one size "
			       "is accepted)", fio_q(part, qb, sizeof qb));
	*out = a;
	return 0;
}

/* bsrange=READ[,WRITE]: each a range of one size. */
FIO_APPLY(bsrange)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	const char *s = v;
	for (int d = 0; d < 3 && s; d++) {
		const char *c = strchr(s, ',');
		char *part = xstrndup(s, c ? (size_t)(c - s) : strlen(s));
		uint64_t b = 0;
		int rc = *part ? one_size(j, part, &b, err, errlen) : 0;
		free(part);
		if (rc < 0)
			return -1;
		if (b && d == 0 && !c)
			j->io.bs[DIR_READ] = j->io.bs[DIR_WRITE] = b;
		else if (b && d < DIR_COUNT)
			j->io.bs[d] = b;
		s = c ? c + 1 : NULL;
	}
	return 0;
}

/* bssplit=SIZE/PCT[:SIZE/PCT...]: a split of one size (4k/100, or 4k) is that block size. */
FIO_APPLY(bssplit)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (strchr(v, ':') || strchr(v, ','))
		return nm_errf(err, errlen, "\"%s\": block-size mixes are not implemented (one size, like 4k/100, "
			       "is accepted)", fio_q(v, qb, sizeof qb));
	const char *slash = strchr(v, '/');
	char *size = xstrndup(v, slash ? (size_t)(slash - v) : strlen(v));
	uint64_t b = 0;
	int rc = fio_size(j, size, &b, err, errlen);
	free(size);
	if (rc < 0)
		return -1;
	if (slash && strcmp(slash + 1, "100") != 0 && slash[1])
		return nm_errf(err, errlen, "\"%s\": one size takes 100%% of the I/O", fio_q(v, qb, sizeof qb));
	if (!b)
		return nm_errf(err, errlen, "\"%s\": must be at least 1", fio_q(v, qb, sizeof qb));
	j->io.bs[DIR_READ] = j->io.bs[DIR_WRITE] = b;
	return 0;
}

FIO_APPLY(io_submit_mode)
{
	char qb[64];
	if (v && (!strcmp(v, "inline") || !strcmp(v, "offload")))
		return 0;
	return nm_errf(err, errlen, "\"%s\": expected inline or offload", fio_q(v, qb, sizeof qb));
}

/* io_size: the bytes of I/O, over a region of size= (the engine: size is the I/O amount and,
 * without filesize, the region). Applied by the plan once every option is in. */
FIO_APPLY(io_size)
{
	return fio_size(j, v, &j->io_size, err, errlen);
}

/* sync=1 (O_SYNC writes): each write is followed by an fsync, which makes it as durable. */
FIO_APPLY(sync)
{
	char qb[64];
	if (v && (!strcmp(v, "0") || !strcmp(v, "none")))
		return 0;
	if (!v || !strcmp(v, "1") || !strcmp(v, "sync")) {
		j->io.fsync_every = 1;
		return 0;
	}
	if (!strcmp(v, "dsync")) {
		j->io.fdatasync_every = 1;
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected 0, 1, sync or dsync", fio_q(v, qb, sizeof qb));
}
