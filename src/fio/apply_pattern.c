/* fio's options for where each I/O goes and how big it is, onto io_job.pattern (io/pattern.h):
 * distributions and splits, and strided zones. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

/* Options whose values are distributions or splits: random_distribution (zipf, pareto, normal,
 * zoned), bssplit, bsrange and blockalign, with fio's syntax and fio's checks.  A split is fio's A/B:C/D list, once for both
 * directions or as READ,WRITE[,TRIM]. */

/* A number like 0.5 (all of s). */
static int parse_double(const char *s, double *out)
{
	char *end;
	if (!*s)
		return -1;
	*out = strtod(s, &end);
	return *end ? -1 : 0;
}

/* zoned:A/S:A/S...: access % / size % pairs; a pair without a size (or a 0 one) shares what the
 * others leave, as fio's. Access shares must add up to 100, sizes to at most 100. */
static int zones_one_dir(const char *s, struct io_zone *zones, unsigned *nz, char *err, size_t errlen)
{
	unsigned acc[IO_MAX_ZONES], sz[IO_MAX_ZONES], n = 0, acc_sum = 0, sz_sum = 0, acc_miss = 0, sz_miss = 0;
	char qb[64];
	while (*s) {
		const char *e = strchr(s, ':');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char *part = xstrndup(s, len);
		char *slash = strchr(part, '/');
		uint64_t a = 0, b = 0;
		char e1[64];
		if (slash)
			*slash = 0;
		int bad = !*part || fio_count(part, 0, 100, &a, e1, sizeof e1) < 0 ||
			  (slash && slash[1] && fio_count(slash + 1, 0, 100, &b, e1, sizeof e1) < 0);
		free(part);
		if (bad)
			return nm_errf(err, errlen, "\"%s\": expected ACCESS%%/SIZE%% pairs like 50/5:50/95",
				       fio_q(s, qb, sizeof qb));
		if (n == IO_MAX_ZONES)
			return nm_errf(err, errlen, "at most %d zones", IO_MAX_ZONES);
		acc[n] = (unsigned)a;
		sz[n] = (unsigned)b;
		if (a)
			acc_sum += (unsigned)a;
		else
			acc_miss++;
		if (b)
			sz_sum += (unsigned)b;
		else
			sz_miss++;
		n++;
		if (!e)
			break;
		s = e + 1;
	}
	if (acc_sum > 100 || sz_sum > 100)
		return nm_errf(err, errlen, "zone percentages add up to more than 100%%");
	if (acc_sum < 100 && !acc_miss)
		return nm_errf(err, errlen, "zone access percentages add up to %u, not 100", acc_sum);
	for (unsigned i = 0; i < n; i++) {
		zones[i].access_pct = (unsigned char)(acc[i] ? acc[i] : (100 - acc_sum) / acc_miss);
		zones[i].size_pct = (unsigned char)(sz[i] ? sz[i] : (100 - sz_sum) / sz_miss);
	}
	*nz = n;
	return 0;
}

/* READ[,WRITE[,TRIM]] or one split for both directions. */
static int zoned(struct fio_job *j, const char *v, char *err, size_t errlen)
{
	const char *comma = strchr(v, ',');
	if (!comma) {
		if (zones_one_dir(v, j->io.pattern.zones[DIR_READ], &j->io.pattern.nzones[DIR_READ], err, errlen) < 0)
			return -1;
		memcpy(j->io.pattern.zones[DIR_WRITE], j->io.pattern.zones[DIR_READ], sizeof j->io.pattern.zones[DIR_READ]);
		j->io.pattern.nzones[DIR_WRITE] = j->io.pattern.nzones[DIR_READ];
		return 0;
	}
	char *rd = xstrndup(v, (size_t)(comma - v));
	const char *wr_end = strchr(comma + 1, ',');
	char *wr = xstrndup(comma + 1, wr_end ? (size_t)(wr_end - comma - 1) : strlen(comma + 1));
	int rc = zones_one_dir(rd, j->io.pattern.zones[DIR_READ], &j->io.pattern.nzones[DIR_READ], err, errlen);
	if (rc == 0)
		rc = zones_one_dir(wr, j->io.pattern.zones[DIR_WRITE], &j->io.pattern.nzones[DIR_WRITE], err, errlen);
	free(rd);
	free(wr);
	return rc;
}

FIO_APPLY(random_distribution)
{
	static const struct { const char *name; enum io_dist dist; double def; } kinds[] = {
		{ "random", DIST_UNIFORM, 0 }, { "zipf", DIST_ZIPF, 1.1 },   { "pareto", DIST_PARETO, 0.2 },
		{ "normal", DIST_NORMAL, 0 },  { "gauss", DIST_NORMAL, 0 },  { "zoned", DIST_ZONED, 0 },
	};
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	const char *colon = strchr(v, ':');
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (!fio_word_is(v, kinds[i].name))
			continue;
		j->io.pattern.dist = kinds[i].dist;
		j->io.pattern.dist_param = kinds[i].def;
		j->io.pattern.dist_has_center = 0;
		j->io.pattern.nzones[DIR_READ] = j->io.pattern.nzones[DIR_WRITE] = 0;
		if (kinds[i].dist == DIST_ZONED)
			return colon ? zoned(j, colon + 1, err, errlen)
				     : nm_errf(err, errlen, "\"%s\": zoned needs its zones (zoned:50/5:50/95)",
					       fio_q(v, qb, sizeof qb));
		if (!colon || kinds[i].dist == DIST_UNIFORM)
			return colon ? nm_errf(err, errlen, "\"%s\": random takes no value", fio_q(v, qb, sizeof qb)) : 0;
		/* NAME:VALUE[:CENTER] */
		char *val = xstrdup(colon + 1), *c2 = strchr(val, ':');
		if (c2)
			*c2++ = 0;
		int bad = parse_double(val, &j->io.pattern.dist_param) < 0 ||
			  (c2 && parse_double(c2, &j->io.pattern.dist_center) < 0);
		free(val);
		if (bad)
			return nm_errf(err, errlen, "\"%s\": expected %s:VALUE[:CENTER]", fio_q(v, qb, sizeof qb),
				       kinds[i].name);
		if (c2 && (j->io.pattern.dist_center < 0 || j->io.pattern.dist_center > 1))
			return nm_errf(err, errlen, "\"%s\": the center must be 0 to 1", fio_q(v, qb, sizeof qb));
		j->io.pattern.dist_has_center = c2 != NULL;
		double p = j->io.pattern.dist_param;
		if (kinds[i].dist == DIST_ZIPF && (p < 0 || p == 1.0))
			return nm_errf(err, errlen, "\"%s\": zipf's theta must be 0 or more, and not 1", fio_q(v, qb, sizeof qb));
		if (kinds[i].dist == DIST_PARETO && (p <= 0 || p >= 1))
			return nm_errf(err, errlen, "\"%s\": pareto's h must be between 0 and 1", fio_q(v, qb, sizeof qb));
		if (kinds[i].dist == DIST_NORMAL && (p < 0 || p >= 100))
			return nm_errf(err, errlen, "\"%s\": normal's deviation must be 0 to 100 (%%)",
				       fio_q(v, qb, sizeof qb));
		return 0;
	}
	return nm_errf(err, errlen, "\"%s\": expected random, zipf, pareto, normal or zoned (zoned_abs and "
		       "sequence are not supported)", fio_q(v, qb, sizeof qb));
}

/* READ[,WRITE[,TRIM]]: fn on each direction's part; one part is every direction's (fio). */
static int per_direction(struct fio_job *j, const char *v, char *err, size_t errlen,
			 int (*fn)(struct fio_job *, int, const char *, char *, size_t))
{
	const char *comma = strchr(v, ',');
	if (!comma)
		return fn(j, DIR_READ, v, err, errlen) < 0 || fn(j, DIR_WRITE, v, err, errlen) < 0 ? -1
			       : fn(j, DIR_TRIM, v, err, errlen);
	for (int d = 0; d < DIR_COUNT; d++) {
		const char *e = strchr(v, ',');
		char *part = xstrndup(v, e ? (size_t)(e - v) : strlen(v));
		int rc = *part ? fn(j, d, part, err, errlen) : 0; /* empty: that direction unchanged */
		/* READ,WRITE: trims take the write's, as fio's lists */
		if (rc == 0 && *part && d == DIR_WRITE && !e)
			rc = fn(j, DIR_TRIM, part, err, errlen);
		free(part);
		if (rc < 0)
			return -1;
		if (!e)
			break;
		v = e + 1;
	}
	return 0;
}

/* percentage_random=N[,N[,N]] (0..100, per direction as bs): kept as its complement, the share
 * of I/Os that follow on from the last one (io_job.pattern.seq_pct, 0 by default) */
static int perc_rand_dir(struct fio_job *j, int d, const char *v, char *err, size_t errlen)
{
	uint64_t n;
	if (fio_count(v, 0, 100, &n, err, errlen) < 0)
		return -1;
	j->io.pattern.seq_pct[d] = (unsigned char)(100 - n);
	return 0;
}

FIO_APPLY(percentage_random)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return per_direction(j, v, err, errlen, perc_rand_dir);
}

static int positive_size(struct fio_job *j, const char *s, uint64_t *out, char *err, size_t errlen)
{
	char qb[64];
	if (fio_size(j, s, out, err, errlen) < 0)
		return -1;
	if (!*out || *out > (256u << 20))
		return nm_errf(err, errlen, "\"%s\": a block size from 1 byte to 256 MiB", fio_q(s, qb, sizeof qb));
	return 0;
}

/* SIZE/PCT:SIZE/PCT...: a size without a share (or a 0 one) shares what the others leave. */
static int bssplit_dir(struct fio_job *j, int d, const char *v, char *err, size_t errlen)
{
	struct io_bs_share sh[IO_MAX_BSSPLIT];
	unsigned n = 0, sum = 0, missing = 0;
	uint64_t max = 0;
	char qb[64];
	for (const char *s = v; s && *s;) {
		const char *e = strchr(s, ':');
		char *part = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		char *slash = strchr(part, '/');
		uint64_t bs = 0, pct = 0;
		if (slash)
			*slash = 0;
		int rc = positive_size(j, part, &bs, err, errlen);
		if (rc == 0 && slash && slash[1] && fio_count(slash + 1, 0, UINT32_MAX, &pct, err, errlen) < 0)
			rc = -1;
		free(part);
		if (rc < 0)
			return -1;
		if (n == IO_MAX_BSSPLIT)
			return nm_errf(err, errlen, "\"%s\": at most %d sizes", fio_q(v, qb, sizeof qb), IO_MAX_BSSPLIT);
		pct = pct > 100 ? 100 : pct;
		sh[n].bs = (uint32_t)bs;
		sh[n].pct = (unsigned char)pct;
		sum += (unsigned)pct;
		missing += !pct;
		max = bs > max ? bs : max;
		n++;
		s = e ? e + 1 : NULL;
	}
	if (!n)
		return nm_errf(err, errlen, "\"%s\": expected SIZE/PERCENT pairs like 4k/50:64k/50", fio_q(v, qb, sizeof qb));
	if (sum > 100 && missing > 1)
		return nm_errf(err, errlen, "\"%s\": the percentages add up to more than 100", fio_q(v, qb, sizeof qb));
	/* the missing shares, then by rising share (as fio's lookup order) */
	for (unsigned i = 0; i < n; i++)
		if (!sh[i].pct)
			sh[i].pct = (unsigned char)(sum < 100 ? (100 - sum) / missing : 0);
	for (unsigned i = 1; i < n; i++)
		for (unsigned k = i; k > 0 && sh[k].pct < sh[k - 1].pct; k--) {
			struct io_bs_share t = sh[k];
			sh[k] = sh[k - 1];
			sh[k - 1] = t;
		}
	memcpy(j->io.pattern.bssplit[d], sh, n * sizeof sh[0]);
	j->io.pattern.nbssplit[d] = n;
	j->io.bs[d] = max;
	j->io.pattern.bs_min[d] = 0;
	return 0;
}

/* One end of a range, as fio's range parser reads it: the size up to the first of fio's
 * separators (/ : - ,), the rest left unread. So fio's own t0023 job's
 * bsrange=512/25:1k:25:2k:25:4k/25 (a bssplit written as a range) is 512-1k in fio 3.33. */
static int range_end(struct fio_job *j, const char *s, uint64_t *out, char *err, size_t errlen)
{
	char *end = xstrndup(s, strcspn(s, "/:-,"));
	int rc = positive_size(j, *end ? end : s, out, err, errlen);
	free(end);
	return rc;
}

/* MIN-MAX or MIN:MAX (fio's range: '-' first, else ':'), or one size; the larger may come
 * first (fio swaps them). */
static int bsrange_dir(struct fio_job *j, int d, const char *v, char *err, size_t errlen)
{
	const char *sep = strchr(v, '-');
	if (!sep)
		sep = strchr(v, ':');
	char *lo = xstrndup(v, sep ? (size_t)(sep - v) : strlen(v));
	uint64_t a = 0, b = 0;
	int rc = range_end(j, lo, &a, err, errlen);
	free(lo);
	if (rc < 0 || range_end(j, sep ? sep + 1 : v, &b, err, errlen) < 0)
		return -1;
	if (a > b) {
		uint64_t t = a;
		a = b;
		b = t;
	}
	j->io.bs[d] = b;
	j->io.pattern.bs_min[d] = a < b ? a : 0;
	j->io.pattern.nbssplit[d] = 0;
	return 0;
}

static int blockalign_dir(struct fio_job *j, int d, const char *v, char *err, size_t errlen)
{
	return positive_size(j, v, &j->io.pattern.blockalign[d], err, errlen);
}

FIO_APPLY(bssplit)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return per_direction(j, v, err, errlen, bssplit_dir);
}

FIO_APPLY(bsrange)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return per_direction(j, v, err, errlen, bsrange_dir);
}

FIO_APPLY(blockalign)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return per_direction(j, v, err, errlen, blockalign_dir);
}

/* fio's strided zones (zonemode=strided, zonesize, zonerange, zoneskip): the old way of
 * profiling a disk by regions, zonesize bytes of I/O in each zonerange-long zone, then a jump
 * of zoneskip. The engine walks the zones (io/loop.c); here are fio's rules for the values.
 * zonemode=zbd, for zoned block devices, is refused. */

FIO_APPLY(zonemode)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (!strcmp(v, "none")) {
		j->zonemode = FIO_ZONE_NONE;
		return 0;
	}
	if (!strcmp(v, "strided")) {
		j->zonemode = FIO_ZONE_STRIDED;
		return 0;
	}
	if (!strcmp(v, "zbd"))
		return nm_errf(err, errlen, "\"zbd\": zoned block devices (write pointers, zone resets) are not "
			       "supported; none and strided are");
	return nm_errf(err, errlen, "\"%s\": expected none, strided or zbd", fio_q(v, qb, sizeof qb));
}

FIO_APPLY(zonesize) { return fio_size(j, v, &j->io.pattern.zone_size, err, errlen); }
FIO_APPLY(zonerange) { return fio_size(j, v, &j->io.pattern.zone_range, err, errlen); }
FIO_APPLY(zoneskip) { return fio_size(j, v, &j->io.pattern.zone_skip, err, errlen); }

int fio_job_zones(struct fio_job *j, char *err, size_t errlen)
{
	struct io_job *io = &j->io;
	/* percentage_random follows fio's random map and offsets (io/randmap.c), which these lack */
	if ((io->pattern.seq_pct[DIR_READ] || io->pattern.seq_pct[DIR_WRITE]) &&
	    (io->rw == IO_RANDREAD || io->rw == IO_RANDWRITE || io->rw == IO_RANDRW || io->rw == IO_RANDTRIM ||
	     io->rw == IO_RANDTRIMWRITE) &&
	    (io->pattern.lfsr || j->zonemode == FIO_ZONE_STRIDED || io->rw == IO_RANDTRIM || io->rw == IO_RANDTRIMWRITE))
		return nm_errf(err, errlen, "percentage_random below 100 with %s is not supported",
			       io->pattern.lfsr ? "random_generator=lfsr" : j->zonemode == FIO_ZONE_STRIDED ? "zonemode=strided"
											  : "trims");
	if (j->zonemode != FIO_ZONE_STRIDED && io->pattern.zone_size) /* fio 3.33: none is the default */
		return nm_errf(err, errlen, "zonemode=none (the default) and zonesize= do not go together: "
			       "zonemode=strided (as in fio)");
	if (j->zonemode == FIO_ZONE_STRIDED && !io->pattern.zone_size)
		return nm_errf(err, errlen, "zonemode=strided needs zonesize= (as in fio)");
	if (j->zonemode != FIO_ZONE_STRIDED || io->nrfiles > 1 || io->files.all_targets) {
		io->pattern.zone_size = io->pattern.zone_range = io->pattern.zone_skip = 0; /* fio: strided zones need one file */
		return 0;
	}
	if (!io->pattern.zone_range)
		io->pattern.zone_range = io->pattern.zone_size;
	uint64_t bs = 0;
	for (int d = 0; d < DIR_COUNT; d++)
		bs = io->bs[d] > bs ? io->bs[d] : bs;
	if (io->pattern.zone_range < bs)
		return nm_errf(err, errlen, "zonerange %llu is smaller than the block size %llu",
			       (unsigned long long)io->pattern.zone_range, (unsigned long long)bs);
	return 0;
}
