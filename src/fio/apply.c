/* What each fio option does to a job: one function per option (or family), called by the
 * table in options.c in the order the options were given.  fio's engines map onto ours here. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "util/cpulist.h"
#include "util/error.h"
#include "util/parse.h"

#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

FIO_APPLY(name)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	free(j->name);
	j->name = xstrdup(v);
	return 0;
}

FIO_APPLY(noop)
{
	(void)j, (void)v, (void)err, (void)errlen;
	return 0;
}

/* A number fio reads and nothing uses (a profile's option outside its profile): fio's INT
 * syntax checked, a leading '-' allowed as fio's parser allows it. */
FIO_APPLY(unused_int)
{
	uint64_t n;
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return fio_int(j, v[0] == '-' ? v + 1 : v, 0, UINT64_MAX, &n, err, errlen);
}

FIO_APPLY(rw)
{
	static const struct { const char *name; enum io_rw rw; } modes[] = {
		{ "read", IO_READ }, { "write", IO_WRITE }, { "randread", IO_RANDREAD },
		{ "randwrite", IO_RANDWRITE }, { "rw", IO_RW }, { "readwrite", IO_RW }, { "randrw", IO_RANDRW },
		{ "trim", IO_TRIM }, { "randtrim", IO_RANDTRIM }, { "trimwrite", IO_TRIMWRITE },
		{ "randtrimwrite", IO_RANDTRIMWRITE },
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	const char *colon = strchr(v, ':');
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		if (!fio_word_is(v, modes[i].name))
			continue;
		j->io.rw = modes[i].rw;
		j->io.pattern.rw_seq_skip = 0;
		if (!colon)
			return 0;
		if (modes[i].rw == IO_RANDREAD || modes[i].rw == IO_RANDWRITE || modes[i].rw == IO_RANDRW ||
		    modes[i].rw == IO_RANDTRIM || modes[i].rw == IO_RANDTRIMWRITE)
			return nm_errf(err, errlen, "\"%s\": ':N' on a random mode is not supported",
				       fio_q(v, qb, sizeof qb));
		int back = colon[1] == '-';
		uint64_t skip;
		if (fio_size(j, colon + 1 + back, &skip, err, errlen) < 0)
			return -1;
		if (skip > INT64_MAX)
			return nm_errf(err, errlen, "\"%s\": the offset is too large", fio_q(v, qb, sizeof qb));
		j->io.pattern.rw_seq_skip = back ? -(int64_t)skip : (int64_t)skip;
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected read, write, randread, randwrite, rw, randrw, trim, randtrim, "
		       "trimwrite or randtrimwrite",
		       fio_q(v, qb, sizeof qb));
}

FIO_APPLY(rwmixread)
{
	uint64_t n;
	if (fio_int(j, v, 0, 100, &n, err, errlen) < 0)
		return -1;
	j->io.rwmix_read = (unsigned)n;
	return 0;
}

FIO_APPLY(rwmixwrite)
{
	uint64_t n;
	if (fio_int(j, v, 0, 100, &n, err, errlen) < 0)
		return -1;
	j->io.rwmix_read = 100 - (unsigned)n;
	return 0;
}

/* bs=4k, or bs=READ,WRITE[,TRIM] with empty parts keeping the current value; without a third
 * part trims take the write size (fio: bs=8k,32k is 8k reads, 32k writes and trims). */
FIO_APPLY(bs)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (!strchr(v, ',')) {
		uint64_t b;
		if (fio_size(j, v, &b, err, errlen) < 0)
			return -1;
		if (!b)
			return nm_errf(err, errlen, "\"%s\": must be at least 1", fio_q(v, qb, sizeof qb));
		for (int d = 0; d < DIR_COUNT; d++) { /* the last of bs, bssplit, bsrange counts */
			j->io.bs[d] = b;
			j->io.pattern.nbssplit[d] = 0;
			j->io.pattern.bs_min[d] = 0;
		}
		return 0;
	}
	const char *s = v;
	int parts = 0;
	for (int d = 0; d < DIR_COUNT && s; d++, parts++) {
		const char *e = strchr(s, ',');
		char *part = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		int rc = 0;
		if (*part) {
			uint64_t b;
			rc = fio_size(j, part, &b, err, errlen);
			if (!rc && !b)
				rc = nm_errf(err, errlen, "\"%s\": must be at least 1", fio_q(part, qb, sizeof qb));
			if (!rc) {
				j->io.bs[d] = b;
				j->io.pattern.nbssplit[d] = 0;
				j->io.pattern.bs_min[d] = 0;
			}
		}
		free(part);
		if (rc)
			return -1;
		s = e ? e + 1 : NULL;
	}
	if (s)
		return nm_errf(err, errlen, "\"%s\": at most three sizes (read,write,trim)", fio_q(v, qb, sizeof qb));
	if (parts == 2) {
		j->io.bs[DIR_TRIM] = j->io.bs[DIR_WRITE];
		j->io.pattern.nbssplit[DIR_TRIM] = 0;
		j->io.pattern.bs_min[DIR_TRIM] = 0;
	}
	return 0;
}

FIO_APPLY(iodepth)
{
	uint64_t n;
	if (fio_int(j, v, 1, 65536, &n, err, errlen) < 0)
		return -1;
	j->io.iodepth = (unsigned)n;
	j->iodepth_given = 1;
	return 0;
}

FIO_APPLY(numjobs)
{
	uint64_t n;
	if (fio_int(j, v, 1, FIO_MAX_NUMJOBS, &n, err, errlen) < 0)
		return -1;
	j->io.numjobs = (unsigned)n;
	return 0;
}

FIO_APPLY(loops)
{
	uint64_t n;
	if (fio_int(j, v, 1, 1000000, &n, err, errlen) < 0)
		return -1;
	j->io.loops = (unsigned)n;
	return 0;
}

FIO_APPLY(nrfiles)
{
	uint64_t n;
	if (fio_int(j, v, 1, IO_MAX_NRFILES, &n, err, errlen) < 0)
		return -1;
	j->io.nrfiles = (unsigned)n;
	return 0;
}

FIO_APPLY(size) { return fio_size(j, v, &j->io.size, err, errlen); }
FIO_APPLY(filesize) { return fio_size(j, v, &j->io.filesize, err, errlen); }
FIO_APPLY(offset) { return fio_size(j, v, &j->io.offset, err, errlen); }
FIO_APPLY(offset_increment) { return fio_size(j, v, &j->io.files.offset_increment, err, errlen); }
/* fio aligns only a percentage offset (offset=N%, offset_increment=N%), which fio_size
 * refuses: the value is checked, and moves nothing, as in fio without one */
FIO_APPLY(offset_align)
{
	uint64_t n;
	return fio_int(j, v, 0, UINT32_MAX, &n, err, errlen);
}
/* fio's client/server mode puts the client's address before file names; nodemark has none */
FIO_APPLY(unique_filename)
{
	int b;
	(void)j;
	return fio_parse_bool(v, &b, err, errlen);
}
FIO_APPLY(filename_format)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	/* fio makes the directories a '/' names; nodemark keeps a job's files in its own */
	if (strchr(v, '/'))
		return nm_errf(err, errlen, "\"%s\": a '/' in the name is not supported (use directory=)", v);
	char *f = xstrdup(v);
	fio_strv_push(&j->strs, &j->nstrs, f);
	j->io.files.name_format = f;
	return 0;
}
/* Kept as typed; fio_job_targets() turns them into the job's targets once all options are in
 * (filename= is relative to directory= when both are given, whatever their order). */
FIO_APPLY(filename)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	free(j->filename);
	j->filename = xstrdup(v);
	return 0;
}

FIO_APPLY(directory)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	free(j->directory);
	j->directory = xstrdup(v);
	return 0;
}
FIO_APPLY(runtime) { return fio_duration(v, &j->io.runtime_ns, err, errlen); }
FIO_APPLY(ramp_time) { return fio_duration(v, &j->io.ramp_ns, err, errlen); }
FIO_APPLY(startdelay) { return fio_duration(v, &j->startdelay_ns, err, errlen); }

#define APPLY_BOOL(name, field)                                              \
	FIO_APPLY(name)                                                          \
	{                                                                    \
		int b;                                                       \
		if (fio_parse_bool(v, &b, err, errlen) < 0)                      \
			return -1;                                           \
		field = b;                                                   \
		return 0;                                                    \
	}

APPLY_BOOL(time_based, j->io.time_based)
APPLY_BOOL(randrepeat, j->io.pattern.randrepeat)
/* unified_rw_reporting: none, mixed, both, or fio's former 0, 1, 2 */
FIO_APPLY(unified_rw_reporting)
{
	static const char *const names[][2] = { { "none", "0" }, { "mixed", "1" }, { "both", "2" } };
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (strcmp(v, names[i][0]) == 0 || strcmp(v, names[i][1]) == 0) {
			j->unified = i;
			return 0;
		}
	return nm_errf(err, errlen, "%s: not none, mixed or both (0, 1, 2)", fio_q(v, qb, sizeof qb));
}
APPLY_BOOL(allrandrepeat, j->io.pattern.allrandrepeat)
APPLY_BOOL(bs_unaligned, j->io.pattern.bs_unaligned)
APPLY_BOOL(norandommap, j->io.pattern.norandommap)
APPLY_BOOL(refill_buffers, j->io.buf.refill_buffers)
APPLY_BOOL(scramble_buffers, j->io.buf.scramble) /* which writes get it: fio_job_content */
APPLY_BOOL(end_fsync, j->io.sync.end_fsync)
APPLY_BOOL(serialize_overlap, j->io.queue.serialize_overlap)
APPLY_BOOL(create_only, j->io.files.create_only)
APPLY_BOOL(file_append, j->io.files.append)
APPLY_BOOL(fill_device, j->io.files.fill)
/* fio's unlink: whether a file target nodemark created is removed at the end (io/session.c) */
FIO_APPLY(unlink)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.files.keep_created = !b;
	j->io.files.remove_marked = b;
	return 0;
}
APPLY_BOOL(overwrite, j->io.files.overwrite)

FIO_APPLY(fallocate)
{
	static const struct { const char *name; enum io_fallocate mode; } modes[] = {
		{ "native", IO_FALLOC_NATIVE }, { "none", IO_FALLOC_NONE },   { "posix", IO_FALLOC_POSIX },
		{ "keep", IO_FALLOC_KEEP },     { "truncate", IO_FALLOC_TRUNCATE },
		{ "0", IO_FALLOC_NONE },        { "1", IO_FALLOC_POSIX }, /* fio's old boolean values */
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(v, modes[i].name) == 0) {
			j->io.files.fallocate = modes[i].mode;
			return 0;
		}
	return nm_errf(err, errlen, "\"%s\": expected native, none, posix, keep, truncate, 0 or 1",
		       fio_q(v, qb, sizeof qb));
}
APPLY_BOOL(stonewall, j->stonewall)
APPLY_BOOL(create_serialize, j->create_serialize)
APPLY_BOOL(new_group, j->new_group)
APPLY_BOOL(group_reporting, j->group_reporting)
APPLY_BOOL(thread, j->thread)
APPLY_BOOL(disk_util, j->disk_util)
APPLY_BOOL(slat_percentiles, j->slat_percentiles)
APPLY_BOOL(clat_percentiles, j->clat_percentiles)
APPLY_BOOL(lat_percentiles, j->lat_percentiles)

FIO_APPLY(direct)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.direct = b ? DIRECT_ON : DIRECT_OFF;
	return 0;
}

FIO_APPLY(buffered)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.direct = b ? DIRECT_OFF : DIRECT_ON;
	return 0;
}

FIO_APPLY(zero_buffers)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.buf.fill = b ? FILL_ZERO : FILL_RANDOM;
	return 0;
}

FIO_APPLY(fsync)
{
	uint64_t n;
	if (fio_int(j, v, 0, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.sync.fsync_every = (unsigned)n;
	return 0;
}

FIO_APPLY(fdatasync)
{
	uint64_t n;
	if (fio_int(j, v, 0, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.sync.fdatasync_every = (unsigned)n;
	return 0;
}

/* 1 (fio's default): the engine drops a buffered file's cached pages each time a pass opens
 * it (every loop and time_based wrap); 0 keeps them, so later passes may read from memory. */
FIO_APPLY(invalidate)
{
	int b;
	if (fio_parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.files.keep_cache = !b;
	return 0;
}

FIO_APPLY(randseed)
{
	j->io.pattern.seed_set = 1;
	return fio_int(j, v, 0, UINT64_MAX, &j->io.pattern.seed, err, errlen);
}

/* fio's engines onto ours, through the engine table (each engine lists the fio names it
 * runs).  The mapping is said on stderr (the plan's notes) when the engine that runs is not
 * the one named. */

/* --enghelp: fio's engine names nodemark runs, one a line under fio's heading; with an
 * engine, 0 when it is one of them (out NULL: just the check), else -1. */
int fio_engine_help(FILE *out, const char *engine)
{
	const struct io_engine_ops *e;
	if (engine)
		return io_engine_parse_fio(engine, &e);
	fprintf(out, "Available IO engines:\n");
	const char *name;
	for (unsigned i = 0; (name = io_engine_fio_name_at(i)); i++)
		fprintf(out, "\t%s\n", name);
	return 0;
}

FIO_APPLY(ioengine)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (io_engine_parse_fio(v, &j->io.engine) == 0) {
		free(j->ioengine);
		j->ioengine = xstrdup(v);
		return 0;
	}
	char list[512] = "";
	const char *name;
	for (unsigned i = 0; (name = io_engine_fio_name_at(i)); i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			 i ? (io_engine_fio_name_at(i + 1) ? ", " : " and ") : "", name);
	return nm_errf(err, errlen, "\"%s\": not supported (%s are)", fio_q(v, qb, sizeof qb), list);
}

FIO_APPLY(cpus_allowed)
{
	char qb[64];
	if (fio_cpu_list_chars(v, err, errlen) < 0)
		return -1;
	/* a set, as fio's mask: each CPU once, in order (split hands them out so) */
	int cpus[CPU_SETSIZE];
	unsigned char mask[CPU_SETSIZE / 8] = { 0 };
	char list[8192];
	int n = cpulist_cpus(v, cpus, CPU_SETSIZE);
	if (n < 0)
		return nm_errf(err, errlen, "\"%s\": expected CPU numbers like 0-3,8", fio_q(v, qb, sizeof qb));
	for (int i = 0; i < n; i++)
		mask[cpus[i] / 8] |= (unsigned char)(1u << (cpus[i] % 8));
	if (cpulist_format(mask, CPU_SETSIZE, list, sizeof list) < 0)
		return nm_errf(err, errlen, "\"%s\": too many CPU ranges", fio_q(v, qb, sizeof qb));
	j->io.place.cpus = fio_job_strdup(j, list);
	return 0;
}

FIO_APPLY(cpus_allowed_policy)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (strcmp(v, "shared") && strcmp(v, "split"))
		return nm_errf(err, errlen, "\"%s\": expected shared or split", fio_q(v, qb, sizeof qb));
	j->io.place.cpus_shared = strcmp(v, "shared") == 0;
	return 0;
}

FIO_APPLY(percentile_list)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	unsigned n = 0;
	for (const char *s = v; s;) {
		const char *e = strchr(s, ':');
		char *part = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		double p;
		int rc = parse_percent(part, &p, err, errlen);
		free(part);
		if (rc < 0)
			return -1;
		if (p <= 0)
			return nm_errf(err, errlen, "\"%s\": percentiles must be above 0", fio_q(v, qb, sizeof qb));
		if (n == 20) /* fio's own limit */
			return nm_errf(err, errlen, "\"%s\": at most 20 percentiles", fio_q(v, qb, sizeof qb));
		j->io.report.percentiles[n++] = p;
		s = e ? e + 1 : NULL;
	}
	j->io.report.npercentiles = n;
	return 0;
}

FIO_APPLY(kb_base)
{
	char qb[64];
	if (v && (strcmp(v, "1024") == 0 || strcmp(v, "1000") == 0)) {
		j->kb_base = (unsigned)atoi(v);
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected 1024 or 1000", fio_q(v, qb, sizeof qb));
}

FIO_APPLY(unit_base)
{
	char qb[64];
	if (v && (strcmp(v, "0") == 0 || strcmp(v, "8") == 0)) {
		j->unit_base = 8;
		return 0;
	}
	if (v && strcmp(v, "1") == 0) {
		j->unit_base = 1;
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected 0, 8 (bytes) or 1 (bits)", fio_q(v, qb, sizeof qb));
}

FIO_APPLY(wait_for)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	free(j->wait_for);
	j->wait_for = xstrdup(v);
	return 0;
}

FIO_APPLY(random_generator)
{
	char qb[64];
	if (v && (!strcmp(v, "tausworthe") || !strcmp(v, "lfsr") || !strcmp(v, "tausworthe64"))) {
		j->io.pattern.lfsr = !strcmp(v, "lfsr");
		j->io.pattern.taus64 = !strcmp(v, "tausworthe64");
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected tausworthe, lfsr or tausworthe64", fio_q(v, qb, sizeof qb));
}
