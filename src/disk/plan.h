/* What `nodemark disk` and `nodemark run`'s disk phase measure: a profile's tests (each read,
 * then, when the targets may be written, each written) or one custom job, with the passes,
 * the interval between them and the job every test shares.
 *
 * A front end fills the request part (disk_plan_init, then base, profile and the have_*
 * flags for what the user gave) and calls disk_plan_build, which adds the defaults, checks
 * what needs no file system and lays out the tests. */
#ifndef NM_DISK_PLAN_H
#define NM_DISK_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "disk/profiles.h"
#include "disk/test.h"
#include "io/engine.h"

#define DISK_MAX_TESTS (2 * DISK_PROFILE_MAX_TESTS)

struct disk_plan {
	/* the request */
	const struct disk_profile *profile; /* NULL: a custom job (base.rw) */
	struct io_job base;                 /* what every test shares; base.loops = passes */
	uint64_t interval_ns;               /* pause between passes */
	int have_size, have_runtime, have_loops, have_interval; /* given: no default */
	int writable;                       /* the targets may be written (directories, --allow-write) */

	/* built */
	unsigned passes;                    /* measured passes per test */
	int preparing;                      /* a discarded pass first (profiles, as CrystalDiskMark) */
	struct disk_test tests[DISK_MAX_TESTS];
	unsigned ntests;
};

void disk_plan_init(struct disk_plan *p);

/* Defaults (a profile: CrystalDiskMark's 1 GiB, 5 passes of 5 s, 5 s apart, one shared file),
 * the checks that need no file system, and the tests.  0, or -1 with a one-line message (bad
 * input: the caller exits 2). */
int disk_plan_build(struct disk_plan *p, char *err, size_t errlen);

/* The job the io session is opened with: the files every test runs on, opened for writing when
 * a later test writes. */
struct io_job disk_plan_layout(const struct disk_plan *p);

/* Targets counted as results are (the null engine runs on none but reports one). */
unsigned disk_plan_ntargets(const struct disk_plan *p);
/* Their names, as results are named: the targets, or "null" for the null engine's. */
const char *const *disk_plan_targets(const struct disk_plan *p);

/* The planned length of the whole run (passes, preparing passes, intervals); 0 when the tests
 * are size-based and their length unknown. */
uint64_t disk_plan_expected_ns(const struct disk_plan *p);

/* Free what the tests hold. */
void disk_plan_free(struct disk_plan *p);

#endif
