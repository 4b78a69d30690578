/* io_job.pattern: where each I/O goes and how big it is, beyond bs and rw: block-size mixes
 * (io/bssplit.c), random offsets and their distribution (io/offsets.c, io/distrib.c), strided
 * zones and sequential skips (io/zones.c). All 0 but randrepeat: fio's defaults. */
#ifndef NM_IO_PATTERN_H
#define NM_IO_PATTERN_H

#include <stdint.h>
#include "io/dir.h"

/* Where random offsets fall (fio's random_distribution). */
enum io_dist {
	DIST_UNIFORM = 0, /* every block once per pass (the random map), or uniform with norandommap */
	DIST_ZIPF,        /* zipf:theta */
	DIST_PARETO,      /* pareto:h */
	DIST_NORMAL,      /* normal:deviation (fio's gauss) */
	DIST_ZONED,       /* zoned:ACCESS%/SIZE%:... per direction */
};

#define IO_MAX_ZONES 64

/* One zone of a zoned distribution: access_pct of the I/O falls in the next size_pct of the region. */
struct io_zone {
	unsigned char access_pct, size_pct;
};

#define IO_MAX_BSSPLIT 64

/* One block size of a mix (fio's bssplit=SIZE/PCT): pct % of a direction's I/Os are bs bytes. */
struct io_bs_share {
	uint32_t bs;
	unsigned char pct;
};

struct io_pattern {
	/* Block-size mixes (io/bssplit.c), per direction; all 0: every I/O is bs[dir] bytes */
	struct io_bs_share bssplit[DIR_COUNT][IO_MAX_BSSPLIT]; /* fio's bssplit, by rising pct */
	unsigned nbssplit[DIR_COUNT];
	uint64_t bs_min[DIR_COUNT]; /* fio's bsrange: sizes from bs_min to bs[dir] in steps of bs_min */
	uint64_t blockalign[DIR_COUNT]; /* random offsets are multiples of this; 0: the smallest size */
	int64_t rw_seq_skip;        /* fio's rw=read:N hole after each I/O; negative: the next I/O
	                             * starts that far back from this one's end (read:-8k reads
	                             * backwards), wrapping to the region's end */
	/* fio's zonemode=strided: zone_size bytes of I/O within zone_range bytes of a file, then
	 * the next zone, zone_range + zone_skip further on, wrapping to offset past the file's
	 * end (io/loop.c, io/zones.c); 0: none. For jobs with one file per thread, as fio's. */
	uint64_t zone_size, zone_range, zone_skip;
	int randrepeat;             /* default 1: the same offsets each run */
	int allrandrepeat;          /* fio's allrandrepeat: every generator from fio's fixed seeds
	                             * (0xb1899bed x thread + its number), randseed or not */
	int bs_unaligned;           /* fio's bs_unaligned: a mix's sizes are not rounded to the smallest */
	unsigned char seq_pct[DIR_COUNT]; /* 100 - fio's percentage_random: the share of a random
	                             * job's I/Os that follow on from the direction's last one (fio's
	                             * offsets and map, io/randmap.c); 0: all random */
	uint64_t seed;
	int seed_set;               /* seed was given (fio's randseed=, 0x89 when not) */
	unsigned fio_thread;        /* fio's thread number of the job's first thread (1 up, over
	                             * the threads of all the run's jobs): a mix's size draws are
	                             * seeded from it as fio's (io/taus.h), each thread from its fio
	                             * thread's (io_fio_nth); 0: nodemark's, 1 + the thread's index */
	int norandommap;            /* 0: every block once per pass (a random map), as fio */
	int lfsr;                   /* fio's random_generator=lfsr: uniform random offsets in a
	                             * shift register's order (io/lfsr.c), each block once per
	                             * pass, the same order each pass, map or not */
	int taus64;                 /* fio's random_generator=tausworthe64: a mix's sizes and
	                             * fio's offsets drawn from its 64-bit generator (io/taus.h) */
	enum io_dist dist;          /* not uniform: hot and cold blocks (io/distrib.c), no random map */
	double dist_param;          /* zipf theta, pareto h, normal deviation in % of the region */
	double dist_center;         /* where the hot spot is, 0..1, when dist_has_center; else random
	                             * for zipf and pareto, the middle for normal (fio's defaults) */
	int dist_has_center;
	struct io_zone zones[DIR_COUNT][IO_MAX_ZONES];
	unsigned nzones[DIR_COUNT];
};

#endif
