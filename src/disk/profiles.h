/* CrystalDiskMark 8's test sets (and two shorter ones): what `nodemark disk --profile` and the
 * disk phase of `nodemark run` measure. A table only: disk/plan.c turns a profile into tests. */
#ifndef NM_DISK_PROFILES_H
#define NM_DISK_PROFILES_H

#include <stdint.h>

/* One CrystalDiskMark test: sequential or random, block size, queue depth, threads. */
struct disk_profile_test {
	const char *name;           /* "SEQ1M Q8T1" */
	int random;
	uint64_t bs;
	unsigned qd, threads;
};

#define DISK_PROFILE_MAX_TESTS 4

struct disk_profile {
	const char *name;           /* "cdm", "cdm-nvme", "peak", "realworld" */
	struct disk_profile_test tests[DISK_PROFILE_MAX_TESTS];
	unsigned n;
};

/* CrystalDiskMark's own defaults for a profile run: 1 GiB file, 5 passes of 5 s, 5 s apart. */
#define DISK_PROFILE_FILE_SIZE (1ull << 30)
#define DISK_PROFILE_RUNTIME_NS 5000000000ull
#define DISK_PROFILE_LOOPS 5
#define DISK_PROFILE_INTERVAL_NS 5000000000ull

/* The profile called name, or NULL. */
const struct disk_profile *disk_profile_find(const char *name);
/* The default profile (cdm). */
const struct disk_profile *disk_profile_default(void);

#endif
