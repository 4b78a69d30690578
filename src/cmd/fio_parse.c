/* fio's syntax into struct io_job plans.  Options are first collected as typed (fio prints them
 * back in its JSON as "global options" and "job options"), then each job is resolved: the
 * inherited globals and then the job's own options, in order, later ones winning.  As in fio,
 * kb_base changes how the sizes after it read, not those before it. */
#include "cmd/fio_parse.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/opt.h"
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_JOBFILE_BYTES (1u << 20)
#define MAX_INCLUDE_DEPTH 8
#define MAX_JOBS 4096
#define MAX_NUMJOBS 4096

/* --- small helpers ------------------------------------------------------------------------ */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		abort();
	return q;
}

static char *xstrdup(const char *s)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	if (!d)
		abort();
	return d;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);
	if (!d)
		abort();
	return d;
}

/* At most 40 characters of user input in a message, non-printables as '?'. */
static const char *q(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%.40s%s", s ? s : "", s && strlen(s) > 40 ? "..." : "");
	for (char *c = buf; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '?';
	return buf;
}

static void strv_push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void optlist_free(struct fio_optlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->kv[i].key);
		free(l->kv[i].value);
	}
	free(l->kv);
	memset(l, 0, sizeof *l);
}

static void optlist_append(struct fio_optlist *l, const char *key, const char *value)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->kv = xrealloc(l->kv, l->cap * sizeof *l->kv);
	}
	l->kv[l->n].key = xstrdup(key);
	l->kv[l->n].value = xstrdup(value);
	l->n++;
}

/* Replace the value in place when the key is there already (fio's "global options" keep the
 * first position and the latest value), else append. */
static void optlist_set(struct fio_optlist *l, const char *key, const char *value)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->kv[i].key, key) == 0) {
			free(l->kv[i].value);
			l->kv[i].value = xstrdup(value);
			return;
		}
	optlist_append(l, key, value);
}

static void optlist_copy(struct fio_optlist *dst, const struct fio_optlist *src)
{
	for (size_t i = 0; i < src->n; i++)
		optlist_append(dst, src->kv[i].key, src->kv[i].value);
}

static const char *optlist_get(const struct fio_optlist *l, const char *key, int *found)
{
	for (size_t i = l->n; i-- > 0;)
		if (strcmp(l->kv[i].key, key) == 0) {
			*found = 1;
			return l->kv[i].value;
		}
	return NULL;
}

const char *fio_job_opt(const struct fio_job *j, const char *key, int *found)
{
	int f = 0;
	const char *v = optlist_get(&j->opts, key, &f);
	if (!f)
		v = optlist_get(&j->inherited, key, &f);
	if (found)
		*found = f;
	return v;
}

/* --- value parsers, in fio's terms ---------------------------------------------------------- */

static int parse_bool(const char *v, int *out, char *err, size_t errlen)
{
	char qb[64];
	if (!v) { /* a bare flag */
		*out = 1;
		return 0;
	}
	static const char *const yes[] = { "1", "true", "yes", "on" }, *const no[] = { "0", "false", "no", "off" };
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return nm_errf(err, errlen, "\"%s\": expected 0 or 1", q(v, qb, sizeof qb));
}

static int need_value(const char *v, char *err, size_t errlen)
{
	if (!v || !*v)
		return nm_errf(err, errlen, "needs a value");
	return 0;
}

static enum size_units units_of(const struct fio_job *j)
{
	return j->kb_base == 1000 ? SIZE_UNITS_FIO_1000 : SIZE_UNITS_FIO_1024;
}

static int fio_size(const struct fio_job *j, const char *v, uint64_t *out, char *err, size_t errlen)
{
	char qb[64];
	if (need_value(v, err, errlen) < 0)
		return -1;
	if (strchr(v, '%'))
		return nm_errf(err, errlen, "\"%s\": percentages are not supported, give a size",
			       q(v, qb, sizeof qb));
	if (strchr(v, '-') && v[0] != '-')
		return nm_errf(err, errlen, "\"%s\": size ranges are not supported, give one size",
			       q(v, qb, sizeof qb));
	return parse_size_units(v, units_of(j), out, err, errlen);
}

static int fio_count(const char *v, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	if (need_value(v, err, errlen) < 0)
		return -1;
	return parse_count(v, min, max, out, err, errlen);
}

static int fio_duration(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (need_value(v, err, errlen) < 0)
		return -1;
	return parse_duration(v, 1000000000ull, ns, err, errlen); /* a bare number is seconds */
}

static const char *job_strdup(struct fio_job *j, const char *s)
{
	char *d = xstrdup(s);
	strv_push(&j->strs, &j->nstrs, d);
	return d;
}

/* "a:b:c" into the job's targets (fio's filename and directory lists). */
static int set_targets(struct fio_job *j, const char *v, char *err, size_t errlen)
{
	if (need_value(v, err, errlen) < 0)
		return -1;
	j->io.ntargets = 0;
	for (const char *s = v;;) {
		const char *e = strchr(s, ':');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (!n)
			return nm_errf(err, errlen, "empty name in the list");
		if (j->io.ntargets == IO_MAX_TARGETS)
			return nm_errf(err, errlen, "at most %d names", IO_MAX_TARGETS);
		char *t = xstrndup(s, n);
		strv_push(&j->strs, &j->nstrs, t);
		j->io.targets[j->io.ntargets++] = t;
		if (!e)
			break;
		s = e + 1;
	}
	return 0;
}

/* --- the option table ---------------------------------------------------------------------- */

typedef int (*apply_fn)(struct fio_job *j, const char *v, char *err, size_t errlen);

#define APPLY(name) static int apply_##name(struct fio_job *j, const char *v, char *err, size_t errlen)

APPLY(name)
{
	if (need_value(v, err, errlen) < 0)
		return -1;
	free(j->name);
	j->name = xstrdup(v);
	return 0;
}

APPLY(noop)
{
	(void)j, (void)v, (void)err, (void)errlen;
	return 0;
}

APPLY(rw)
{
	static const struct { const char *name; enum io_rw rw; } modes[] = {
		{ "read", IO_READ }, { "write", IO_WRITE }, { "randread", IO_RANDREAD },
		{ "randwrite", IO_RANDWRITE }, { "rw", IO_RW }, { "readwrite", IO_RW }, { "randrw", IO_RANDRW },
	};
	char qb[64];
	if (need_value(v, err, errlen) < 0)
		return -1;
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		if (strlen(modes[i].name) != n || strncmp(modes[i].name, v, n) != 0)
			continue;
		j->io.rw = modes[i].rw;
		j->io.rw_seq_skip = 0;
		if (!colon)
			return 0;
		if (modes[i].rw == IO_RANDREAD || modes[i].rw == IO_RANDWRITE || modes[i].rw == IO_RANDRW)
			return nm_errf(err, errlen, "\"%s\": ':N' on a random mode is not supported",
				       q(v, qb, sizeof qb));
		return fio_size(j, colon + 1, &j->io.rw_seq_skip, err, errlen);
	}
	if (strncmp(v, "trim", 4) == 0 || strncmp(v, "randtrim", 8) == 0 || strncmp(v, "trimwrite", 9) == 0)
		return nm_errf(err, errlen, "\"%s\": trim is not supported", q(v, qb, sizeof qb));
	return nm_errf(err, errlen, "\"%s\": expected read, write, randread, randwrite, rw or randrw",
		       q(v, qb, sizeof qb));
}

APPLY(rwmixread)
{
	uint64_t n;
	if (fio_count(v, 0, 100, &n, err, errlen) < 0)
		return -1;
	j->io.rwmix_read = (unsigned)n;
	return 0;
}

APPLY(rwmixwrite)
{
	uint64_t n;
	if (fio_count(v, 0, 100, &n, err, errlen) < 0)
		return -1;
	j->io.rwmix_read = 100 - (unsigned)n;
	return 0;
}

/* bs=4k, or bs=READ,WRITE[,TRIM] with empty parts keeping the current value. */
APPLY(bs)
{
	char qb[64];
	if (need_value(v, err, errlen) < 0)
		return -1;
	if (!strchr(v, ',')) {
		uint64_t b;
		if (fio_size(j, v, &b, err, errlen) < 0)
			return -1;
		if (!b)
			return nm_errf(err, errlen, "\"%s\": must be at least 1", q(v, qb, sizeof qb));
		j->io.bs[DIR_READ] = j->io.bs[DIR_WRITE] = b;
		return 0;
	}
	const char *s = v;
	for (int d = 0; d < 3 && s; d++) {
		const char *e = strchr(s, ',');
		char *part = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		int rc = 0;
		if (*part && d < DIR_COUNT) {
			uint64_t b;
			rc = fio_size(j, part, &b, err, errlen);
			if (!rc && !b)
				rc = nm_errf(err, errlen, "\"%s\": must be at least 1", q(part, qb, sizeof qb));
			if (!rc)
				j->io.bs[d] = b;
		}
		free(part);
		if (rc)
			return -1;
		s = e ? e + 1 : NULL;
	}
	if (s)
		return nm_errf(err, errlen, "\"%s\": at most three sizes (read,write,trim)", q(v, qb, sizeof qb));
	return 0;
}

APPLY(iodepth)
{
	uint64_t n;
	if (fio_count(v, 1, 65536, &n, err, errlen) < 0)
		return -1;
	j->io.iodepth = (unsigned)n;
	return 0;
}

APPLY(numjobs)
{
	uint64_t n;
	if (fio_count(v, 1, MAX_NUMJOBS, &n, err, errlen) < 0)
		return -1;
	j->io.numjobs = (unsigned)n;
	return 0;
}

APPLY(loops)
{
	uint64_t n;
	if (fio_count(v, 1, 1000000, &n, err, errlen) < 0)
		return -1;
	j->io.loops = (unsigned)n;
	return 0;
}

APPLY(nrfiles)
{
	uint64_t n;
	if (fio_count(v, 1, 65536, &n, err, errlen) < 0)
		return -1;
	j->io.nrfiles = (unsigned)n;
	return 0;
}

APPLY(size) { return fio_size(j, v, &j->io.size, err, errlen); }
APPLY(filesize) { return fio_size(j, v, &j->io.filesize, err, errlen); }
APPLY(offset) { return fio_size(j, v, &j->io.offset, err, errlen); }
APPLY(filename) { return set_targets(j, v, err, errlen); }
APPLY(directory) { return set_targets(j, v, err, errlen); }
APPLY(runtime) { return fio_duration(v, &j->io.runtime_ns, err, errlen); }
APPLY(ramp_time) { return fio_duration(v, &j->io.ramp_ns, err, errlen); }
APPLY(startdelay) { return fio_duration(v, &j->io.startdelay_ns, err, errlen); }

#define APPLY_BOOL(name, field)                                              \
	APPLY(name)                                                          \
	{                                                                    \
		int b;                                                       \
		if (parse_bool(v, &b, err, errlen) < 0)                      \
			return -1;                                           \
		field = b;                                                   \
		return 0;                                                    \
	}

APPLY_BOOL(time_based, j->io.time_based)
APPLY_BOOL(fixedbufs, j->io.fixedbufs)
APPLY_BOOL(registerfiles, j->io.registerfiles)
APPLY_BOOL(sqthread_poll, j->io.sqpoll)
APPLY_BOOL(hipri, j->io.hipri)
APPLY_BOOL(randrepeat, j->io.randrepeat)
APPLY_BOOL(norandommap, j->io.norandommap)
APPLY_BOOL(refill_buffers, j->io.refill_buffers)
APPLY_BOOL(end_fsync, j->io.end_fsync)
APPLY_BOOL(create_only, j->io.create_only)
/* fio's unlink: files nodemark creates are always removed at the end, and a file it did not
 * create is never removed, so the value is checked and has nothing left to change. */
APPLY(unlink)
{
	int b;
	(void)j;
	return parse_bool(v, &b, err, errlen);
}
APPLY_BOOL(stonewall, j->stonewall)
APPLY_BOOL(new_group, j->new_group)
APPLY_BOOL(group_reporting, j->group_reporting)
APPLY_BOOL(disk_util, j->disk_util)
APPLY_BOOL(slat_percentiles, j->slat_percentiles)
APPLY_BOOL(clat_percentiles, j->clat_percentiles)
APPLY_BOOL(lat_percentiles, j->lat_percentiles)

APPLY(direct)
{
	int b;
	if (parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.direct = b ? DIRECT_ON : DIRECT_OFF;
	return 0;
}

APPLY(buffered)
{
	int b;
	if (parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.direct = b ? DIRECT_OFF : DIRECT_ON;
	return 0;
}

APPLY(zero_buffers)
{
	int b;
	if (parse_bool(v, &b, err, errlen) < 0)
		return -1;
	j->io.fill = b ? FILL_ZERO : FILL_RANDOM;
	return 0;
}

APPLY(fsync)
{
	uint64_t n;
	if (fio_count(v, 0, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.fsync_every = (unsigned)n;
	return 0;
}

APPLY(fdatasync)
{
	uint64_t n;
	if (fio_count(v, 0, UINT32_MAX, &n, err, errlen) < 0)
		return -1;
	j->io.fdatasync_every = (unsigned)n;
	return 0;
}

/* The engine drops a buffered file's cached pages before every run, as fio's default does. */
APPLY(invalidate)
{
	int b;
	if (parse_bool(v, &b, err, errlen) < 0)
		return -1;
	if (!b)
		return nm_errf(err, errlen, "0 is not supported: nodemark always drops the page cache before a run");
	return 0;
}

APPLY(randseed)
{
	return fio_count(v, 0, UINT64_MAX, &j->io.seed, err, errlen);
}

/* fio's engines onto ours.  The mapping is said on stderr (the plan's notes) when the engine
 * that runs is not the one named. */
static const struct { const char *fio; enum io_engine_kind kind; } engine_map[] = {
	{ "io_uring", ENGINE_URING }, { "libaio", ENGINE_URING }, { "posixaio", ENGINE_URING },
	{ "psync", ENGINE_PSYNC },    { "sync", ENGINE_PSYNC },   { "pvsync", ENGINE_PSYNC },
	{ "pvsync2", ENGINE_PSYNC },  { "vsync", ENGINE_PSYNC },  { "mmap", ENGINE_MMAP },
	{ "null", ENGINE_NULL },
};

APPLY(ioengine)
{
	char qb[64];
	if (need_value(v, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof engine_map / sizeof engine_map[0]; i++)
		if (strcmp(engine_map[i].fio, v) == 0) {
			j->io.engine = engine_map[i].kind;
			free(j->ioengine);
			j->ioengine = xstrdup(v);
			return 0;
		}
	return nm_errf(err, errlen, "\"%s\": not supported (io_uring, libaio, posixaio, psync, sync, "
			"pvsync, pvsync2, vsync, mmap and null are)", q(v, qb, sizeof qb));
}

APPLY(cpus_allowed)
{
	char qb[64];
	if (need_value(v, err, errlen) < 0)
		return -1;
	for (const char *c = v; *c; c++)
		if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-')
			return nm_errf(err, errlen, "\"%s\": expected CPU numbers like 0-3,8", q(v, qb, sizeof qb));
	j->io.cpus = job_strdup(j, v);
	return 0;
}

APPLY(percentile_list)
{
	char qb[64];
	if (need_value(v, err, errlen) < 0)
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
			return nm_errf(err, errlen, "\"%s\": percentiles must be above 0", q(v, qb, sizeof qb));
		if (n == 20) /* fio's own limit */
			return nm_errf(err, errlen, "\"%s\": at most 20 percentiles", q(v, qb, sizeof qb));
		j->io.percentiles[n++] = p;
		s = e ? e + 1 : NULL;
	}
	j->io.npercentiles = n;
	return 0;
}

APPLY(kb_base)
{
	char qb[64];
	if (v && (strcmp(v, "1024") == 0 || strcmp(v, "1000") == 0)) {
		j->kb_base = (unsigned)atoi(v);
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected 1024 or 1000", q(v, qb, sizeof qb));
}

APPLY(unit_base)
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
	return nm_errf(err, errlen, "\"%s\": expected 0, 8 (bytes) or 1 (bits)", q(v, qb, sizeof qb));
}

APPLY(wait_for)
{
	if (need_value(v, err, errlen) < 0)
		return -1;
	free(j->wait_for);
	j->wait_for = xstrdup(v);
	return 0;
}

APPLY(random_generator)
{
	char qb[64];
	if (v && (!strcmp(v, "tausworthe") || !strcmp(v, "lfsr") || !strcmp(v, "tausworthe64")))
		return 0;
	return nm_errf(err, errlen, "\"%s\": expected tausworthe, lfsr or tausworthe64", q(v, qb, sizeof qb));
}

struct fio_opt_def {
	const char *name;
	enum fio_opt_support support;
	apply_fn apply;     /* SUPPORTED and IGNORED (which still checks its value when it can) */
	int needs_value;    /* 0: a bare flag means 1 */
	const char *why;    /* IGNORED/REFUSED: said on stderr */
};

#define SUP(n, fn, val) { n, FIO_OPT_SUPPORTED, apply_##fn, val, NULL }
#define IGN(n, why) { n, FIO_OPT_IGNORED, apply_noop, 0, why }
#define REF(n, why) { n, FIO_OPT_REFUSED, NULL, 0, why }

static const struct fio_opt_def opt_defs[] = {
	SUP("name", name, 1),
	SUP("description", noop, 1),
	SUP("rw", rw, 1),
	SUP("readwrite", rw, 1),
	SUP("rwmixread", rwmixread, 1),
	SUP("rwmixwrite", rwmixwrite, 1),
	SUP("bs", bs, 1),
	SUP("blocksize", bs, 1),
	SUP("iodepth", iodepth, 1),
	SUP("numjobs", numjobs, 1),
	SUP("loops", loops, 1),
	SUP("size", size, 1),
	SUP("filesize", filesize, 1),
	SUP("offset", offset, 1),
	SUP("filename", filename, 1),
	SUP("directory", directory, 1),
	SUP("nrfiles", nrfiles, 1),
	SUP("runtime", runtime, 1),
	SUP("timeout", runtime, 1),
	SUP("time_based", time_based, 0),
	SUP("ramp_time", ramp_time, 1),
	SUP("startdelay", startdelay, 1),
	SUP("direct", direct, 0),
	SUP("buffered", buffered, 0),
	SUP("ioengine", ioengine, 1),
	SUP("fixedbufs", fixedbufs, 0),
	SUP("registerfiles", registerfiles, 0),
	SUP("sqthread_poll", sqthread_poll, 0),
	SUP("hipri", hipri, 0),
	SUP("randrepeat", randrepeat, 0),
	SUP("randseed", randseed, 1),
	SUP("norandommap", norandommap, 0),
	SUP("zero_buffers", zero_buffers, 0),
	SUP("refill_buffers", refill_buffers, 0),
	SUP("end_fsync", end_fsync, 0),
	SUP("fsync", fsync, 1),
	SUP("fdatasync", fdatasync, 1),
	SUP("create_only", create_only, 0),
	SUP("thread", noop, 0), /* nodemark's workers are always threads */
	SUP("invalidate", invalidate, 0),
	SUP("cpus_allowed", cpus_allowed, 1),
	SUP("percentile_list", percentile_list, 1),
	SUP("kb_base", kb_base, 1),
	SUP("unit_base", unit_base, 1),
	SUP("unlink", unlink, 0),
	SUP("stonewall", stonewall, 0),
	SUP("wait_for_previous", stonewall, 0),
	SUP("new_group", new_group, 0),
	SUP("wait_for", wait_for, 1),
	SUP("group_reporting", group_reporting, 0),
	SUP("disk_util", disk_util, 0),
	SUP("slat_percentiles", slat_percentiles, 0),
	SUP("clat_percentiles", clat_percentiles, 0),
	SUP("lat_percentiles", lat_percentiles, 0),
	{ "random_generator", FIO_OPT_IGNORED, apply_random_generator, 1,
	  "nodemark uses its own generator (xoshiro); offsets still cover the file the same way" },
	IGN("iodepth_batch", "nodemark batches submissions its own way"),
	IGN("iodepth_batch_submit", "nodemark batches submissions its own way"),
	IGN("iodepth_batch_complete", "nodemark batches completions its own way"),
	IGN("iodepth_batch_complete_min", "nodemark batches completions its own way"),
	IGN("iodepth_batch_complete_max", "nodemark batches completions its own way"),
	IGN("iodepth_low", "nodemark refills the queue as completions come"),
	IGN("fallocate", "nodemark lays files out by writing real data"),
	IGN("allow_file_create", "nodemark creates its files in its own directory"),
	IGN("overwrite", "nodemark lays files out by writing real data"),
	IGN("gtod_reduce", "nodemark's timestamps are cheap; it keeps them"),
	IGN("disable_lat", "nodemark always measures latency"),
	IGN("disable_clat", "nodemark always measures latency"),
	IGN("disable_slat", "nodemark always measures latency"),
	IGN("disable_bw_measurement", "nodemark always measures bandwidth"),
	IGN("clocksource", "nodemark uses CLOCK_MONOTONIC"),
	IGN("per_job_logs", "nodemark writes no fio log files"),
	IGN("log_avg_msec", "nodemark writes no fio log files"),
	IGN("bwavgtime", "nodemark samples bandwidth once a second"),
	IGN("iopsavgtime", "nodemark samples IOPS once a second"),
	IGN("significant_figures", "nodemark prints fio's default precision"),
	IGN("stats", "nodemark always collects statistics"),
	IGN("cpus_allowed_policy", "each job's threads share its cpus_allowed set"),
	IGN("allow_mounted_write", "nodemark writes only files it creates"),
	IGN("eta", "nodemark fio prints no ETA line"),
	IGN("eta_newline", "nodemark fio prints no ETA line"),
	REF("exitall", "every job runs to its end"),
	REF("verify", "data verification is not implemented"),
	REF("do_verify", "data verification is not implemented"),
	REF("write_bw_log", "fio log files are not written"),
	REF("write_lat_log", "fio log files are not written"),
	REF("write_iops_log", "fio log files are not written"),
	REF("write_hist_log", "fio log files are not written"),
	REF("rate", "rate limits are not implemented"),
	REF("rate_iops", "rate limits are not implemented"),
	REF("thinktime", "think time is not implemented"),
	REF("bssplit", "block-size mixes are not implemented"),
	REF("bsrange", "block-size ranges are not implemented"),
	REF("blocksize_range", "block-size ranges are not implemented"),
	REF("io_size", "an I/O amount apart from size is not implemented"),
	REF("io_limit", "an I/O amount apart from size is not implemented"),
	REF("unified_rw_reporting", "unified reporting is not implemented"),
	REF("numa_cpu_nodes", "NUMA placement options are not implemented"),
	REF("numa_mem_policy", "NUMA placement options are not implemented"),
	REF("cpumask", "use cpus_allowed"),
	REF("file_service_type", "each thread works on its own target"),
	REF("ioscheduler", "nodemark does not change the I/O scheduler"),
	REF("lockmem", "memory locking is not implemented"),
	REF("exec_prerun", "running commands is not implemented"),
	REF("exec_postrun", "running commands is not implemented"),
	REF("trim_percentage", "trim is not implemented"),
};

static const struct fio_opt_def *find_def(const char *name)
{
	for (size_t i = 0; i < sizeof opt_defs / sizeof opt_defs[0]; i++)
		if (strcmp(opt_defs[i].name, name) == 0)
			return &opt_defs[i];
	return NULL;
}

enum fio_opt_support fio_opt_support(const char *name)
{
	const struct fio_opt_def *d = find_def(name);
	return d ? d->support : FIO_OPT_UNKNOWN;
}

/* Refuse what we do not implement; note what we ignore.  Called as options are read, so the
 * message can name the file and line. */
static int check_option(struct fio_plan *p, const char *dashes, const char *key, char *err, size_t errlen)
{
	char qb[64];
	const struct fio_opt_def *d = find_def(key);
	if (!d)
		return nm_errf(err, errlen, "%s%s: not a fio option nodemark supports (see docs/fio-compat.md)",
			       dashes, q(key, qb, sizeof qb));
	if (d->support == FIO_OPT_REFUSED)
		return nm_errf(err, errlen, "%s%s: not supported by nodemark fio: %s", dashes, d->name, d->why);
	if (d->support == FIO_OPT_IGNORED) {
		for (size_t i = 0; i < p->nwarnings; i++)
			if (strncmp(p->warnings[i], d->name, strlen(d->name)) == 0 &&
			    p->warnings[i][strlen(d->name)] == ':')
				return 0;
		char *w;
		if (asprintf(&w, "%s: ignored (%s)", d->name, d->why) < 0)
			abort();
		strv_push(&p->warnings, &p->nwarnings, w);
	}
	return 0;
}

/* --- the plan ------------------------------------------------------------------------------ */

void fio_plan_init(struct fio_plan *p)
{
	memset(p, 0, sizeof *p);
}

static void job_free(struct fio_job *j)
{
	free(j->name);
	optlist_free(&j->inherited);
	optlist_free(&j->opts);
	free(j->wait_for);
	free(j->ioengine);
	strv_free(j->strs, j->nstrs);
}

void fio_plan_free(struct fio_plan *p)
{
	optlist_free(&p->globals);
	for (size_t i = 0; i < p->njobs; i++)
		job_free(&p->jobs[i]);
	free(p->jobs);
	free(p->output);
	strv_free(p->sections, p->nsections);
	strv_free(p->warnings, p->nwarnings);
	strv_free(p->notes, p->nnotes);
	memset(p, 0, sizeof *p);
}

static struct fio_job *add_job(struct fio_plan *p, const char *name, const struct fio_optlist *globals,
			       char *err, size_t errlen)
{
	if (p->njobs == MAX_JOBS) {
		nm_errf(err, errlen, "more than %d jobs", MAX_JOBS);
		return NULL;
	}
	if (p->njobs == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->jobs = xrealloc(p->jobs, p->cap * sizeof *p->jobs);
	}
	struct fio_job *j = &p->jobs[p->njobs++];
	memset(j, 0, sizeof *j);
	j->name = xstrdup(name);
	optlist_copy(&j->inherited, globals);
	return j;
}

/* fio's defaults, which are not all nodemark's: buffered I/O unless direct=1. */
static void job_defaults(struct fio_job *j)
{
	struct io_job *io = &j->io;
	memset(io, 0, sizeof *io);
	io->rw = IO_READ;
	io->rwmix_read = 50;
	io->bs[DIR_READ] = io->bs[DIR_WRITE] = 4096;
	io->iodepth = 1;
	io->numjobs = 1;
	io->nrfiles = 1;
	io->loops = 1;
	io->engine = ENGINE_AUTO;
	io->direct = DIRECT_OFF;
	io->fill = FILL_RANDOM;
	io->randrepeat = 1;
	io->per_second_series = 1; /* fio's bw and iops lines come from per-second samples */
	j->kb_base = 1024;
	j->unit_base = 8;
	j->disk_util = 1;
	j->clat_percentiles = 1;
}

static int apply_list(struct fio_job *j, const struct fio_optlist *l, char *err, size_t errlen)
{
	char msg[320];
	for (size_t i = 0; i < l->n; i++) {
		const struct fio_kv *kv = &l->kv[i];
		const struct fio_opt_def *d = find_def(kv->key);
		if (!d || !d->apply)
			continue; /* refused options never get this far */
		if (d->apply(j, kv->value, msg, sizeof msg) < 0) {
			char qb[64];
			return nm_errf(err, errlen, "job '%s': %s: %s", q(j->name, qb, sizeof qb), kv->key, msg);
		}
	}
	return 0;
}

static int resolve_job(struct fio_plan *p, struct fio_job *j, char *err, size_t errlen)
{
	char qb[64];
	job_defaults(j);
	if (apply_list(j, &j->inherited, err, errlen) < 0 || apply_list(j, &j->opts, err, errlen) < 0)
		return -1;
	snprintf(j->io.name, sizeof j->io.name, "%s", j->name);
	/* fio does whole blocks only: the size rounds down to a multiple of the block size */
	uint64_t min_bs = j->io.bs[DIR_READ] < j->io.bs[DIR_WRITE] ? j->io.bs[DIR_READ] : j->io.bs[DIR_WRITE];
	if (j->io.size > min_bs && min_bs)
		j->io.size -= j->io.size % min_bs;
	if (j->io.rw != IO_READ && j->io.rw != IO_RANDREAD && p->readonly)
		return nm_errf(err, errlen, "job '%s': --readonly given but the job writes", q(j->name, qb, sizeof qb));
	if (j->ioengine) {
		const char *ours = NULL;
		if (!strcmp(j->ioengine, "libaio") || !strcmp(j->ioengine, "posixaio"))
			ours = "uring";
		else if (!strcmp(j->ioengine, "sync") || !strcmp(j->ioengine, "pvsync") ||
			 !strcmp(j->ioengine, "pvsync2") || !strcmp(j->ioengine, "vsync"))
			ours = "psync";
		if (ours) {
			char *n;
			if (asprintf(&n, "ioengine=%s runs on nodemark's %s engine", j->ioengine, ours) < 0)
				abort();
			int dup = 0;
			for (size_t i = 0; i < p->nnotes; i++)
				dup |= strcmp(p->notes[i], n) == 0;
			if (dup)
				free(n);
			else
				strv_push(&p->notes, &p->nnotes, n);
		}
	}
	return 0;
}

int fio_plan_finish(struct fio_plan *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->njobs; i++)
		if (resolve_job(p, &p->jobs[i], err, errlen) < 0)
			return -1;

	/* --section: keep only the named jobs (before groups are numbered, as fio does). */
	if (p->nsections) {
		size_t kept = 0;
		for (size_t i = 0; i < p->njobs; i++) {
			int keep = 0;
			for (size_t s = 0; s < p->nsections; s++)
				keep |= strcmp(p->jobs[i].name, p->sections[s]) == 0;
			if (keep)
				p->jobs[kept++] = p->jobs[i];
			else
				job_free(&p->jobs[i]);
		}
		p->njobs = kept;
	}
	if (!p->njobs)
		return nm_errf(err, errlen, "no jobs to run: give --name=NAME options or a job file");

	/* fio's group numbering: stonewall or new_group opens a new group, unless the job is the
	 * first of its group already. */
	int group = 0;
	unsigned in_group = 0;
	for (size_t i = 0; i < p->njobs; i++) {
		struct fio_job *j = &p->jobs[i];
		if ((j->stonewall || j->new_group) && in_group) {
			group++;
			in_group = 0;
		}
		j->io.group = group;
		in_group += j->io.numjobs;
		if (j->wait_for) {
			size_t k;
			for (k = 0; k < i; k++)
				if (strcmp(p->jobs[k].name, j->wait_for) == 0)
					break;
			if (k == i) {
				char qa[64], qw[64];
				return nm_errf(err, errlen, "job '%s': wait_for: \"%s\": no earlier job has that name",
					       q(j->name, qa, sizeof qa), q(j->wait_for, qw, sizeof qw));
			}
		}
	}
	return 0;
}

/* --- the command line ---------------------------------------------------------------------- */

static int set_formats(struct fio_plan *p, const char *v, char *err, size_t errlen)
{
	char qb[64];
	if (need_value(v, err, errlen) < 0)
		return -1;
	p->formats = 0;
	for (const char *s = v; s;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 6 && !strncmp(s, "normal", 6))
			p->formats |= FIO_OUT_NORMAL;
		else if (n == 4 && !strncmp(s, "json", 4))
			p->formats |= FIO_OUT_JSON;
		else if (n == 5 && !strncmp(s, "json+", 5))
			p->formats |= FIO_OUT_JSONPLUS;
		else if (n == 5 && !strncmp(s, "terse", 5))
			p->formats |= FIO_OUT_TERSE;
		else
			return nm_errf(err, errlen, "--output-format: \"%s\": expected normal, json, json+ or terse",
				       q(v, qb, sizeof qb));
		s = e ? e + 1 : NULL;
	}
	if ((p->formats & FIO_OUT_JSON) && (p->formats & FIO_OUT_JSONPLUS))
		p->formats &= ~FIO_OUT_JSON; /* json+ is json with bins */
	return 0;
}

/* fio's own switches (not job options).  Returns 1 when key was one, 0 when not, -1 on error. */
static int cli_switch(struct fio_plan *p, const char *key, const char *val, char *err, size_t errlen)
{
	static const char *const ignored[] = { "eta", "eta-newline", "eta-interval", "max-jobs", "alloc-size", "debug", "warnings-fatal",
					       "random_generator-seed" };
	static const char *const refused[] = { "server", "client", "daemonize", "remote-config",
					       "bandwidth-log", "latency-log", "showcmd", "cmdhelp",
					       "enghelp", "append-terse", "inflate-log", "trigger-file",
					       "trigger-timeout", "trigger", "trigger-remote", "aux-path",
					       "idle-prof", "crctest", "cpuclock-test", "exitall_on_error",
					       "merge-blktrace-file", "version" };
	char qb[64];
	if (!strcmp(key, "output")) {
		if (need_value(val, err, errlen) < 0)
			return nm_errf(err, errlen, "--output: needs a file name");
		char why[512]; /* refused now, not after the jobs ran */
		if (afile_check(val, why, sizeof why) < 0)
			return nm_errf(err, errlen, "--output: %s", why);
		free(p->output);
		p->output = xstrdup(val);
		return 1;
	}
	if (!strcmp(key, "output-format"))
		return set_formats(p, val, err, errlen) < 0 ? -1 : 1;
	if (!strcmp(key, "minimal")) {
		p->formats = FIO_OUT_TERSE;
		return 1;
	}
	if (!strcmp(key, "terse-version")) {
		if (!val || strcmp(val, "3") != 0)
			return nm_errf(err, errlen, "--terse-version: \"%s\": only version 3 is supported",
				       q(val, qb, sizeof qb));
		return 1;
	}
	if (!strcmp(key, "status-interval")) {
		char why[256];
		if (fio_duration(val, &p->status_interval_ns, why, sizeof why) < 0)
			return nm_errf(err, errlen, "--status-interval: %s", why);
		if (!p->status_interval_ns)
			return nm_errf(err, errlen, "--status-interval: 0: expected a time like 1, 10s, 500ms");
		return 1;
	}
	if (!strcmp(key, "parse-only")) {
		p->parse_only = 1;
		return 1;
	}
	if (!strcmp(key, "readonly")) {
		p->readonly = 1;
		return 1;
	}
	if (!strcmp(key, "section")) {
		if (need_value(val, err, errlen) < 0)
			return nm_errf(err, errlen, "--section: needs a job name");
		strv_push(&p->sections, &p->nsections, xstrdup(val));
		return 1;
	}
	for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
		if (!strcmp(key, ignored[i])) {
			char *w;
			if (asprintf(&w, "--%s: ignored (%s)", key,
				     strncmp(key, "eta", 3) == 0 ? "nodemark fio prints no ETA line"
									   : "fio bookkeeping") < 0)
				abort();
			strv_push(&p->warnings, &p->nwarnings, w);
			return 1;
		}
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		if (!strcmp(key, refused[i]))
			return nm_errf(err, errlen, "--%s is not supported by nodemark fio", key);
	return 0;
}

/* fio's CLI switches that take a value; used for "--output FILE" without '='. */
static int switch_takes_value(const char *key)
{
	static const char *const v[] = { "output", "output-format", "terse-version", "section", "eta",
					 "eta-interval", "status-interval", "max-jobs", "alloc-size",
					 "debug" };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		if (!strcmp(key, v[i]))
			return 1;
	return 0;
}

int fio_parse_args(struct fio_plan *p, int argc, char **argv, char *err, size_t errlen)
{
	char qb[64], msg[320];
	struct fio_job *cur = NULL;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	size_t nfiles = 0;
	int rc = -1;
	if (!files)
		abort();

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || a[1] == '\0') {
			files[nfiles++] = a;
			continue;
		}
		if (a[1] != '-') {
			nm_errf(err, errlen, "unknown option '%s' (fio's options are spelled --name=value)",
				q(a, qb, sizeof qb));
			goto out;
		}
		const char *eq = strchr(a + 2, '=');
		char *key = eq ? xstrndup(a + 2, (size_t)(eq - a - 2)) : xstrdup(a + 2);
		const char *val = eq ? eq + 1 : NULL;
		if (!*key) {
			free(key);
			nm_errf(err, errlen, "\"--\": fio takes job files, not a command after --");
			goto out;
		}
		if (!val && switch_takes_value(key) && i + 1 < argc && !opt_is_option_word(argv[i + 1]))
			val = argv[++i];
		int sw = cli_switch(p, key, val, msg, sizeof msg);
		if (sw) {
			free(key);
			if (sw < 0) {
				nm_errf(err, errlen, "%s", msg);
				goto out;
			}
			continue;
		}
		if (check_option(p, "--", key, msg, sizeof msg) < 0) {
			nm_errf(err, errlen, "%s", msg);
			free(key);
			goto out;
		}
		const struct fio_opt_def *d = find_def(key);
		if (!val && d->needs_value) {
			if (i + 1 >= argc || opt_is_option_word(argv[i + 1])) {
				nm_errf(err, errlen, "--%s: needs a value", key);
				free(key);
				goto out;
			}
			val = argv[++i];
		}
		if (!strcmp(key, "name")) {
			if (!val || !*val) {
				nm_errf(err, errlen, "--name: needs a job name");
				free(key);
				goto out;
			}
			cur = add_job(p, val, &p->globals, err, errlen);
			if (!cur) {
				free(key);
				goto out;
			}
			optlist_append(&cur->opts, "name", val); /* fio lists it in "job options" */
		} else if (cur) {
			optlist_append(&cur->opts, key, val);
		} else {
			optlist_set(&p->globals, key, val);
		}
		free(key);
	}
	for (size_t f = 0; f < nfiles; f++)
		if (fio_parse_jobfile(p, files[f], err, errlen) < 0)
			goto out;
	rc = fio_plan_finish(p, err, errlen);
out:
	free(files);
	return rc;
}

/* --- job files ----------------------------------------------------------------------------- */

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* A ';' or '#' after blank space starts a comment, as at the start of a line. */
static void strip_comment(char *s)
{
	for (char *c = s; *c; c++)
		if ((*c == ';' || *c == '#') && (c == s || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
}

struct ini_state {
	struct fio_plan *p;
	struct fio_optlist file_globals; /* [global] sections seen so far in this file (and includers) */
	struct fio_job *cur;             /* NULL inside [global] */
	int in_section;
};

static int parse_text(struct ini_state *st, const char *text, size_t len, const char *name, char *err,
		      size_t errlen);

static int read_whole(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
	char qb[64];
	FILE *f = fopen(path, "r");
	if (!f)
		return nm_errf(err, errlen, "%s: %s", q(path, qb, sizeof qb), strerror(errno));
	struct stat sb;
	if (fstat(fileno(f), &sb) == 0 && !S_ISREG(sb.st_mode)) {
		fclose(f);
		return nm_errf(err, errlen, "%s: not a regular file", q(path, qb, sizeof qb));
	}
	char *buf = malloc(MAX_JOBFILE_BYTES + 1);
	if (!buf)
		abort();
	size_t n = fread(buf, 1, MAX_JOBFILE_BYTES + 1, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || n > MAX_JOBFILE_BYTES) {
		free(buf);
		return nm_errf(err, errlen, "%s: %s", q(path, qb, sizeof qb),
			       bad ? "cannot read it" : "larger than 1 MiB; not a job file?");
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static int include_file(struct ini_state *st, const char *path, const char *from, char *err, size_t errlen)
{
	if (st->p->no_include)
		return nm_errf(err, errlen, "include is not allowed here");
	for (const char *c = path; *c; c++)
		if (iscntrl((unsigned char)*c))
			return nm_errf(err, errlen, "include: the file name has control characters");
	if (st->p->include_depth >= MAX_INCLUDE_DEPTH)
		return nm_errf(err, errlen, "include nested more than %d deep", MAX_INCLUDE_DEPTH);
	/* a relative name is relative to the including file's directory, as fio does */
	char full[4096];
	const char *slash = strrchr(from, '/');
	if (path[0] != '/' && slash)
		snprintf(full, sizeof full, "%.*s/%s", (int)(slash - from), from, path);
	else
		snprintf(full, sizeof full, "%s", path);
	char *text;
	size_t len;
	if (read_whole(full, &text, &len, err, errlen) < 0)
		return -1;
	st->p->include_depth++;
	int rc = parse_text(st, text, len, full, err, errlen);
	st->p->include_depth--;
	free(text);
	return rc;
}

static int parse_line(struct ini_state *st, char *line, const char *name, unsigned lineno, char *err,
		      size_t errlen)
{
	char qb[64], msg[320];
	struct fio_plan *p = st->p;
	strip_comment(line);
	char *s = trim(line);
	if (!*s)
		return 0;
	if (*s == '[') {
		char *e = strchr(s, ']');
		if (!e || e[1])
			return nm_errf(err, errlen, "%s:%u: \"%s\": a section header is [name]", name, lineno,
				       q(s, qb, sizeof qb));
		*e = '\0';
		char *sec = trim(s + 1);
		if (!*sec)
			return nm_errf(err, errlen, "%s:%u: empty section name", name, lineno);
		st->in_section = 1;
		if (!strcmp(sec, "global")) {
			st->cur = NULL;
			return 0;
		}
		st->cur = add_job(p, sec, &st->file_globals, msg, sizeof msg);
		if (!st->cur)
			return nm_errf(err, errlen, "%s:%u: %s", name, lineno, msg);
		return 0;
	}
	if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
		if (include_file(st, trim(s + 8), name, msg, sizeof msg) < 0)
			return nm_errf(err, errlen, "%s:%u: %s", name, lineno, msg);
		return 0;
	}
	if (!st->in_section)
		return nm_errf(err, errlen, "%s:%u: \"%s\": options must follow a [section]", name, lineno,
			       q(s, qb, sizeof qb));
	char *eq = strchr(s, '=');
	char *val = NULL;
	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
		s = trim(s);
	}
	if (!*s)
		return nm_errf(err, errlen, "%s:%u: an option name is missing before '='", name, lineno);
	if (val && strchr(val, '$')) {
		char qk[64];
		return nm_errf(err, errlen, "%s:%u: %s: \"%s\": $-expansion is not supported", name, lineno,
			       q(s, qk, sizeof qk), q(val, qb, sizeof qb));
	}
	if (check_option(p, "", s, msg, sizeof msg) < 0)
		return nm_errf(err, errlen, "%s:%u: %s", name, lineno, msg);
	const struct fio_opt_def *d = find_def(s);
	if (d->needs_value && (!val || !*val))
		return nm_errf(err, errlen, "%s:%u: %s: needs a value", name, lineno, d->name);
	if (st->cur) {
		if (!strcmp(s, "name")) {
			free(st->cur->name);
			st->cur->name = xstrdup(val);
		}
		optlist_append(&st->cur->opts, s, val);
	} else {
		optlist_set(&st->file_globals, s, val);
		optlist_set(&p->globals, s, val);
	}
	return 0;
}

static int parse_text(struct ini_state *st, const char *text, size_t len, const char *name, char *err,
		      size_t errlen)
{
	unsigned lineno = 0;
	size_t i = 0;
	while (i < len) {
		size_t e = i;
		while (e < len && text[e] != '\n')
			e++;
		lineno++;
		char *line = xstrndup(text + i, e - i);
		if (memchr(text + i, '\0', e - i)) {
			free(line);
			return nm_errf(err, errlen, "%s:%u: a NUL byte; not a job file?", name, lineno);
		}
		int rc = parse_line(st, line, name, lineno, err, errlen);
		free(line);
		if (rc < 0)
			return -1;
		i = e + 1;
	}
	return 0;
}

int fio_parse_jobfile_text(struct fio_plan *p, const char *text, size_t len, const char *name, char *err,
			   size_t errlen)
{
	struct ini_state st = { .p = p };
	/* command-line globals apply to job files too */
	optlist_copy(&st.file_globals, &p->globals);
	int rc = parse_text(&st, text, len, name, err, errlen);
	optlist_free(&st.file_globals);
	return rc;
}

int fio_parse_jobfile(struct fio_plan *p, const char *path, char *err, size_t errlen)
{
	char *text;
	size_t len;
	if (read_whole(path, &text, &len, err, errlen) < 0)
		return -1;
	int rc = fio_parse_jobfile_text(p, text, len, path, err, errlen);
	free(text);
	return rc;
}
