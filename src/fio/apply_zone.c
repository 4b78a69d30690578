/* fio's strided zones (zonemode=strided, zonesize, zonerange, zoneskip): the old way of
 * profiling a disk by regions, zonesize bytes of I/O in each zonerange-long zone, then a jump
 * of zoneskip. The engine walks the zones (io/loop.c); here are fio's rules for the values.
 * zonemode=zbd, for zoned block devices, is refused. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <string.h>

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
