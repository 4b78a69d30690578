/* What a rank runs under the MPI build: a workload in phases (disk: write then read; pieces:
 * the piece store; hash: hashing).  The driver (driver.c) starts every phase after a barrier
 * on all ranks and reduces what comes back; a workload knows nothing of MPI.
 *
 * Each phase reports how much it did and when it started and ended on this rank's monotonic
 * clock; the driver turns those into offsets from the barrier that started the phase. */
#ifndef NM_MPI_WORKLOAD_H
#define NM_MPI_WORKLOAD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "util/opt.h"

struct work_ctx {
	int rank, size;
	const char *dir;        /* the directory named on the command line */
	int shared_file;        /* --shared-file: one file for all ranks, split by rank */
	const char *shared_path;/* that file, created by rank 0's workload (NULL before prepare) */
	int stonewall;          /* stop when the first rank is done */
	int (*should_stop)(void); /* polled during a phase; 1 = stop now (stonewall) */
};

struct work_phase {
	char name[64];          /* the bench name: "write", "read", "pieces/BLAKE3" */
	const char *unit;       /* what amount counts: "B" (bytes) */
	uint64_t bytes, ops;
	uint64_t start_ns, end_ns;
	int status;             /* 0, 1 failed, 130 interrupted */
	char errmsg[256];
};

struct workload {
	const char *name;
	const char *usage;
	/* Options: the driver merges specs (ids below 1000) with its own and calls option() for
	 * each of them and for every positional word; check() sees the whole command line parsed
	 * (it sets ctx->dir).  Both exit 2 on bad input. */
	const struct opt_spec *specs;
	void *(*create)(void);
	void (*option)(void *st, int id, const struct opt_iter *it);
	void (*check)(void *st, struct work_ctx *ctx);
	/* Only rank 0: make what all ranks share (the shared file's directory). 0 or -1 + err. */
	int (*prepare_shared)(void *st, struct work_ctx *ctx, char *err, size_t errlen);
	/* Every rank: its own target (DIR/rank-<r>), files laid out. 0 or -1 + err. */
	int (*prepare)(void *st, struct work_ctx *ctx, char *err, size_t errlen);
	unsigned (*nphases)(void *st);
	void (*run)(void *st, struct work_ctx *ctx, unsigned phase, struct work_phase *out);
	/* The settings that define the workload, for the record (new reference). */
	json_t *(*settings)(void *st);
	/* Remove what prepare made and free the state (every rank, also after a failure). */
	void (*finish)(void *st, struct work_ctx *ctx);
	int can_stonewall;
};

extern const struct workload work_disk, work_pieces, work_hash;

/* check(): the directory named on the command line exists and is one, or exit 2. */
void workload_check_dir(const char *dir, const char *workload);

/* prepare(): this rank's own directory DIR/rank-<r> into out, made if missing (*made = 1: it
 * is registered for removal). 0, or -1 with err. */
int workload_rank_dir(const char *dir, int rank, char *out, size_t outlen, int *made, char *err, size_t errlen);

#endif
