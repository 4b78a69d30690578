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
#include "cli/options.h"

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
	/* An empty object the workload fills with the bench's settings as the plain command saves
	 * them, through its domain's converter (disk/record.h, pieces/record.h, hash/record.h). */
	json_t *settings;
};

struct workload {
	const char *name;
	/* The help: usage (up to "Options:\n"), the options, then usage_rest (may be NULL). */
	const char *usage, *usage_rest;
	/* Options: a table (cli/options.h) that points at the workload's one state (a command runs
	 * once per process), with nodemark's names for the same settings; the driver parses it
	 * with its own.  create() sets the defaults and returns that state; every word that is no
	 * option goes to positional(word, state); check() sees the whole command line parsed (it
	 * sets ctx->dir).  All three exit 2 on bad input. */
	const struct cli_option *options;
	void *(*create)(void);
	void (*positional)(const char *word, void *st);
	void (*check)(void *st, struct work_ctx *ctx);
	/* Only rank 0: make what all ranks share (the shared file's directory). 0 or -1 + err. */
	int (*prepare_shared)(void *st, struct work_ctx *ctx, char *err, size_t errlen);
	/* Every rank: its own target (DIR/rank-<r>), files laid out. 0 or -1 + err. */
	int (*prepare)(void *st, struct work_ctx *ctx, char *err, size_t errlen);
	unsigned (*nphases)(void *st);
	void (*run)(void *st, struct work_ctx *ctx, unsigned phase, struct work_phase *out);
	/* Remove what prepare made (every rank, also after a failure). */
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
