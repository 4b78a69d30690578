/* fio's engine options, each parsed by the type the engine's own table gives (io/engine.h: the
 * engine's file says name, type, range and where the value goes) and set by name on the job's
 * engine (fio/plan.c applies them once the job's ioengine= is known), and the
 * file options those engines' examples use (openfiles, create_on_open). */
#include "fio/longopts.h"
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "util/error.h"

#include <string.h>

/* v among names[] (NULL-ended): its index into *out, or an error listing them. */
static int pick(const char *v, const char *const *names, uint64_t *out, char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	size_t n = 0;
	for (; names[n]; n++)
		if (strcmp(v, names[n]) == 0) {
			*out = n;
			return 0;
		}
	char list[160] = "";
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? (i + 1 == n ? " or " : ", ") : "",
			 names[i]);
	return nm_errf(err, errlen, "\"%s\": expected %s", fio_q(v, qb, sizeof qb), list);
}

/* o: the option as fio_option_find knows it (the first engine that declares the name); the
 * value goes to the job's engine's option of that name, which must exist. */
static int engine_option(const struct io_engine_option *o, struct fio_job *j, const char *v, char *err,
			 size_t errlen)
{
	const struct io_engine_option *mine = io_engine_option_of(j->io.engine, o->name);
	const char *fname = j->ioengine ? j->ioengine : io_engine_fio_name(j->io.engine);
	if (!mine && fio_engine_has_option(fname, o->name)) /* fio's, for that engine */
		return nm_errf(err, errlen, "fio's ioengine=%s option is not supported by nodemark fio (docs/fio-compat.md)",
			       fname);
	if (!mine)
		return nm_errf(err, errlen, "not an option of ioengine=%s", fname);
	o = mine;
	uint64_t n = 0;
	int b;
	switch (o->type) {
	case IO_EOPT_BOOL:
		if (fio_parse_bool(v, &b, err, errlen) < 0)
			return -1;
		n = (uint64_t)b;
		break;
	case IO_EOPT_UINT:
		if (fio_int(j, v, o->min, o->max, &n, err, errlen) < 0)
			return -1;
		break;
	case IO_EOPT_CHOICE:
		if (pick(v, o->choices, &n, err, errlen) < 0)
			return -1;
		break;
	case IO_EOPT_STR:
		if (fio_need_value(v, err, errlen) < 0)
			return -1;
		io_engine_option_set(&j->io, j->io.engine, o, 0, fio_job_strdup(j, v));
		return 0;
	}
	io_engine_option_set(&j->io, j->io.engine, o, n, NULL);
	return 0;
}

int fio_option_apply(const struct fio_option *d, struct fio_job *j, const char *v, char *err, size_t errlen)
{
	return d->eopt ? engine_option(d->eopt, j, v, err, errlen) : d->apply(j, v, err, errlen);
}

/* openfiles: how many files a thread keeps open at once. filecreate keeps a file open from
 * its first I/O to its last (one at a time when a file is one block, as in fio's example); a
 * sync engine's files, fewer than nrfiles, open at their first I/O and close once done
 * (io/fileservice.c); an engine that queues keeps all of a thread's files open. */
FIO_APPLY(openfiles)
{
	uint64_t n;
	if (fio_int(j, v, 1, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.files.openfiles = (unsigned)n;
	return 0;
}

/* create_on_open: fio creates a file when it opens it for I/O rather than at layout; for
 * filecreate that is what it does anyway; a write job's new file is made empty; a reading
 * job's is laid out (fio's reads of the empty file it makes fail). */
FIO_APPLY(create_on_open)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.files.create_on_open = b;
	return 0;
}
