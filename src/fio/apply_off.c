/* Options nodemark takes in the forms that ask for nothing it lacks: a value meaning "off"
 * (buffer_compress_percentage=0).  Any other value is refused in one line that
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

FIO_APPLY(percentage_off) { return off_only(j, v, "this data pattern is", err, errlen); }

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
		j->io.sync.fsync_every = 1;
		return 0;
	}
	if (!strcmp(v, "dsync")) {
		j->io.sync.fdatasync_every = 1;
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected 0, 1, sync or dsync", fio_q(v, qb, sizeof qb));
}
