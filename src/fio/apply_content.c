/* fio's buffer contents: buffer_compress_percentage, buffer_compress_chunk and the dedupe_*
 * options, with fio 3.33's rules (the engine makes the bytes: io/content.c). */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <string.h>

static int percent(const char *v, unsigned *out, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_count(v, 0, 100, &n, err, errlen) < 0)
		return -1;
	*out = (unsigned)n;
	return 0;
}

FIO_APPLY(buffer_compress_percentage) { return percent(v, &j->io.buf.content.compress_pct, err, errlen); }
/* fio's callback turns refill_buffers on as it reads the option (a later refill_buffers=0 wins) */
FIO_APPLY(dedupe_percentage)
{
	if (percent(v, &j->io.buf.content.dedupe_pct, err, errlen) < 0)
		return -1;
	j->io.buf.refill_buffers = 1;
	return 0;
}
FIO_APPLY(dedupe_working_set_percentage) { return percent(v, &j->io.buf.content.ws_pct, err, errlen); }

FIO_APPLY(buffer_compress_chunk)
{
	uint64_t n;
	if (fio_size(j, v, &n, err, errlen) < 0)
		return -1;
	if (n > UINT32_MAX)
		return nm_errf(err, errlen, "at most 4 GiB");
	j->io.buf.content.chunk = (uint32_t)n;
	return 0;
}

FIO_APPLY(dedupe_mode)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (strcmp(v, "repeat") && strcmp(v, "working_set"))
		return nm_errf(err, errlen, "\"%s\": expected repeat or working_set", fio_q(v, qb, sizeof qb));
	j->io.buf.content.working_set = !strcmp(v, "working_set");
	return 0;
}

FIO_APPLY(dedupe_global)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.buf.content.global = b;
	return 0;
}

int fio_job_content(struct fio_job *j, char *err, size_t errlen)
{
	struct io_content_spec *c = &j->io.buf.content;
	int given;
	if (c->compress_pct == 100) { /* fio: all zeros */
		j->io.buf.fill = FILL_ZERO;
		c->compress_pct = 0;
	} else if (c->compress_pct) { /* fio refills for compression unless told not to */
		fio_job_opt(j, "refill_buffers", &given);
		if (!given)
			j->io.buf.refill_buffers = 1;
	}
	if (!c->dedupe_pct || !c->working_set)
		return 0;
	fio_job_opt(j, "size", &given);
	if (!given)
		return nm_errf(err, errlen, "dedupe_mode=working_set needs size= (as in fio)");
	if (j->io.nrfiles != 1)
		return nm_errf(err, errlen, "dedupe_mode=working_set takes one file per job, not %u (as in fio)", j->io.nrfiles);
	if (c->ws_pct + c->dedupe_pct > 100)
		return nm_errf(err, errlen, "dedupe_percentage=%u cannot be met with dedupe_working_set_percentage=%u "
			       "of unique pages (as in fio)", c->dedupe_pct, c->ws_pct);
	return 0;
}

void fio_plan_threads(struct fio_plan *p)
{
	unsigned n = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		p->jobs[i].io.buf.content.thread0 = n;
		n += p->jobs[i].io.numjobs;
	}
	for (size_t i = 0; i < p->njobs; i++)
		p->jobs[i].io.buf.content.nthreads = n;
}
