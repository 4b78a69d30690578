/* A benchmark's past on this machine: the noise floor of each figure of a run, from the spread
 * of the same benchmark over earlier quiet runs in the store (A/A history), saved with the run
 * so that `run`, `compare` and `report` make the same calls about it later.
 *
 * In the record: extra.noise_floor.<bench>.<metric> = {"pct": 8.5, "runs": 7} (runs: how many
 * earlier runs the floor came from; below VERDICT_HISTORY_MIN it is the default). */
#ifndef NM_RESULTS_HISTORY_H
#define NM_RESULTS_HISTORY_H

#include <stddef.h>
#include "results/record.h"

struct store; /* results/store.h: only the drivers (cmd/, cli/) open one */

/* The documented default floor in percent until there is history: 10% for memory and hashing
 * (CPU-bound), 20% for what goes through the filesystem (disk, pieces, and anything else). */
double history_default_floor_pct(const struct bench *b);

/* How many earlier runs a floor needs (VERDICT_HISTORY_MIN) and looks at, at most. */
#define HISTORY_MAX_RUNS 20

/* Fill rec->extra.noise_floor for every figure of rec from the earlier runs of rec's host and
 * command (and extra.run.dir and mode, when rec has them) in the store, skipping the phases
 * that ran busy.  0, or -1 with a message. */
int history_noise_floors(struct store *s, struct record *rec, char *err, size_t errlen);

/* The floor saved with r for (bench, metric), with the number of runs behind it (NULL: not
 * wanted); NAN when r has none. */
double history_saved_floor(const struct record *r, const char *bench, const char *metric, int *runs);

#endif
