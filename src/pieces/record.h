/* A piece-store phase as a bench of the record: the one converter, used by `nodemark pieces`
 * (cmd/pieces.c), `nodemark run`'s pieces phase (suite/phase_pieces.c) and nodemark-mpi's pieces
 * workload (the settings), so that their benches carry the same name and keys. */
#ifndef NM_PIECES_RECORD_H
#define NM_PIECES_RECORD_H

#include <jansson.h>
#include "pieces/run.h"
#include "results/record.h"

/* The latency percentiles pieces reports, and their keys ("p50" ... "p99.9"). */
#define PIECES_NPCTS 4
extern const char *const pieces_pct_keys[PIECES_NPCTS];
/* h's percentiles, never above the largest value seen (a bucket's midpoint can be). */
void pieces_lat_percentiles(const struct hist *h, uint64_t v[PIECES_NPCTS]);

/* The sync setting as benches and tables name it: "nosync", "sync", "sync-batch16". */
const char *pieces_sync_label(const struct pieces_plan *p, char *buf, size_t len);
/* "pieces/<backend>/<hash>/<sync label>/<write|read>" */
void pieces_bench_name(const struct pieces_plan *p, int write, char *buf, size_t len);

/* Into settings, what defines the plan's store: backend, hash, hash_impl, sync, dirsync,
 * workers, count, size, block, dirs. */
void pieces_settings(json_t *settings, const struct pieces_plan *p);
/* Into b: the settings and one sample of the phase's rates and latency percentiles (commit_*
 * for writes, lat_* for reads); with_hist: its latency histogram too (once per bench). */
void pieces_phase_to_bench(const struct pieces_plan *p, const struct pieces_phase *ph, int write, int with_hist,
			   struct bench *b);
/* The same into rec's bench of that name (added when missing). */
void pieces_record_phase(struct record *rec, const struct pieces_plan *p, const struct pieces_phase *ph, int write,
			 int with_hist);

#endif
