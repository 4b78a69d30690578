/* The whole-machine baseline behind `nodemark run`: one suite of phases (memory, hashing,
 * disk, piece store) run into one record, each phase watched for noise.
 *
 * The suite knows nothing of the command line or the store: the command builds the options,
 * calls suite_run, then saves, prints and compares the record. */
#ifndef NM_SUITE_SUITE_H
#define NM_SUITE_SUITE_H

#include <stdint.h>
#include "results/record.h"

enum suite_mode {
	SUITE_QUICK,    /* at most ~30 s: make run, CI */
	SUITE_DEFAULT,  /* ~2 minutes */
	SUITE_FULL,     /* CrystalDiskMark's full sizes and durations */
};

struct suite_opts {
	const char *dir;        /* the directory whose filesystem is measured */
	enum suite_mode mode;
	const char *only;       /* comma list of phase names to run (NULL: all); for tests */
	/* run --compare-with: a second directory; the disk and pieces phases run on dir and dir2
	 * in turns, dir2's benches paired against dir's ("paired" in their settings) */
	const char *dir2;
	/* The noise floor of a figure in percent from its history on this machine, with the number
	 * of earlier runs behind it (fewer than VERDICT_HISTORY_MIN: default_pct): each figure is
	 * sampled until its interval is within half of it.  NULL: the defaults. */
	double (*floor_pct)(void *arg, const char *bench, const char *metric, double default_pct, int *runs);
	void *floor_arg;
};

/* The phases, in the order they run. */
const char *const *suite_phase_names(void);

/* Run every phase into rec (benches, and extra.run + extra.noise.<phase>).  Phases that fail
 * are named on stderr and the others still run.  Returns 0 when every phase ran, 1 when one
 * failed, 130 when interrupted (the finished phases stay in rec). */
int suite_run(const struct suite_opts *o, struct record *rec);

const char *suite_mode_name(enum suite_mode m);

/* Re-measure some benches of a finished run to confirm a suspected change (docs/compare.md,
 * "Re-measure"): `rounds` rounds, each giving every bench `per_round` more samples, the benches
 * taking turns in the order given, so the new samples of one figure are spread over the whole
 * re-measure instead of sharing one moment.  benches: of the run (their settings' "phase" says
 * which phase measures them).  The samples go into `into` (a bench per name with the run's
 * metric names), the noise of the whole re-measure into into->extra.noise.<phase> of each phase
 * involved.  Returns 0, 1 failed, 130 interrupted. */
int suite_remeasure(const struct suite_opts *o, const struct bench *const *benches, size_t n, unsigned rounds,
		    unsigned per_round, struct record *into);

#endif
