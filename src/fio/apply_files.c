/* How a job's I/O goes over its files: fio's file_service_type (the engine's io_next_file). */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

#define APPLY(name) int fio_apply_##name(struct fio_job *j, const char *v, char *err, size_t errlen)

/* roundrobin, random or sequential, with :N (I/Os on a file before the next) on the first two */
APPLY(file_service_type)
{
	static const struct { const char *name; enum io_file_service how; } kinds[] = {
		{ "roundrobin", FILES_ROUNDROBIN }, { "random", FILES_RANDOM }, { "sequential", FILES_SEQUENTIAL },
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	const char *colon = strchr(v, ':');
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (!fio_word_is(v, kinds[i].name))
			continue;
		uint64_t nr = 1;
		if (colon && kinds[i].how != FILES_SEQUENTIAL && fio_count(colon + 1, 1, UINT32_MAX, &nr, err, errlen) < 0)
			return -1;
		j->io.files.file_service = kinds[i].how;
		j->io.files.file_service_nr = (unsigned)nr;
		return 0;
	}
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	if (!strncmp(v, "zipf", n) || !strncmp(v, "pareto", n) || !strncmp(v, "normal", n) || !strncmp(v, "gauss", n))
		return nm_errf(err, errlen, "\"%s\": skewed file choice is not supported (roundrobin, random and "
			       "sequential are)", fio_q(v, qb, sizeof qb));
	return nm_errf(err, errlen, "\"%s\": expected roundrobin, random or sequential", fio_q(v, qb, sizeof qb));
}
