/* A disk test as a bench of the record: the one converter, used by `nodemark disk`
 * (cmd/disk.c), `nodemark run`'s disk phase (suite/phase_disk.c) and nodemark-mpi's disk
 * workload (the settings), so that their benches carry the same keys. */
#ifndef NM_DISK_RECORD_H
#define NM_DISK_RECORD_H

#include <jansson.h>
#include "disk/plan.h"
#include "disk/test.h"
#include "disk/turns.h"
#include "results/record.h"

/* Into settings, what defines test t on these targets: rw, bs, iodepth, numjobs, size,
 * runtime_ns, engine, direct, rwmix_read (mixed jobs only), targets. */
void disk_test_settings(json_t *settings, const struct disk_test *t, const char *const *targets, unsigned ntargets);
/* Into b: the settings, per-pass metrics, the best pass's clat histogram and per-second series. */
void disk_test_to_bench(const struct disk_test *t, const char *const *targets, unsigned ntargets, struct bench *b);
/* One bench per complete test of the plan (a test cut short by an error or a signal is left out). */
void disk_to_record(const struct disk_plan *p, struct record *rec);
/* Targets measured in turns: one bench per complete test and target (the same name), keyed by
 * target, fs, device, mount_options, turns (the number of targets) and reference; a compared
 * target's bench also keeps its paired verdict (paired). */
void disk_turns_to_record(const struct disk_turns *t, struct record *rec);

#endif
