/* A hashing benchmark as a bench of the record: its name and settings, one converter for
 * `nodemark hash` (cmd/hash.c), `nodemark run`'s hash phase (suite/phase_hash.c) and
 * nodemark-mpi's hash workload, so that their benches carry the same name and keys. */
#ifndef NM_HASH_RECORD_H
#define NM_HASH_RECORD_H

#include <jansson.h>
#include <stddef.h>
#include "hash/bench.h"

/* "hash/<algo>/<threads>t" */
void hash_bench_name(const struct hash_bench_plan *p, char *buf, size_t len);
/* Into settings, what defines the measurement: algo, impl, threads, block.  The amount hashed
 * is not among them: `run` sizes it to the machine (hash and the MPI build add it as "bytes"). */
void hash_settings(json_t *settings, const struct hash_bench_plan *p);

#endif
