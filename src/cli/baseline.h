/* A run next to its baseline: finding the earlier run of the same host and directory, and
 * confirming a call by measuring again before it is made.  The comparison itself is
 * compare/model.h's; the suite knows nothing of the store: this is the step after it. */
#ifndef NM_CLI_BASELINE_H
#define NM_CLI_BASELINE_H

#include <stddef.h>
#include <stdio.h>
#include "results/record.h"
#include "results/store.h"

/* name given: that run (id, prefix, label, "last").  NULL: the newest other `run` of rec's host
 * with the same directory and mode (extra.run).  Returns it, or NULL: with a message in err
 * when something went wrong, err[0] == '\0' when there is simply none. */
struct record *baseline_find(struct store *s, const struct record *rec, const char *name, char *err,
			     size_t errlen);

/* How the command measures benches again (suite_remeasure behind it: cli/ knows no suite). */
typedef int (*baseline_remeasure_fn)(void *arg, const struct bench *const *benches, size_t n, unsigned rounds,
				     unsigned per_round, struct record *into);
/* Before a call is made against base, confirm it (docs/compare.md, "Re-measure"): the benches
 * of rec with a call (any metric) are measured again, 3 rounds of 2 samples each, in turns,
 * and their samples saved in rec->extra.confirm = {"baseline": id, "rounds", "per_round",
 * "benches": {bench: {metric: [samples]}}, "noise": {phase: figures}}; the calls then confirm
 * or withdraw themselves from these (compare/calls.h) in run, compare and report alike.
 * Returns how many benches were measured again (0: no call to confirm), or -1 when the
 * re-measure failed or was interrupted (nothing saved: the calls stand unconfirmed). */
int baseline_confirm(baseline_remeasure_fn remeasure, void *arg, const struct record *base, struct record *rec,
		     char *err, size_t errlen);

#endif
