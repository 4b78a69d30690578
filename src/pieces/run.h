/* The storage-node piece store workloads: write a fixed number of pieces (hash as written,
 * optionally sync, commit), optionally read every piece back and verify it (a store left on
 * disk is checked by pieces/verify.h).
 *
 * A run writes only inside a private ".nodemark-<id>" directory under each directory given
 * (util/workdir.h), removed at the end unless plan->keep.  That directory is a store root:
 *   PIECES                          a text marker: format version and backend
 *   files backend:  temp/blob-<random>.partial while written, blobs/<namespace>/<2>/<rest>.sj1
 *   log backend:    log/w<worker>/log-<n>.log and log/w<worker>/index.tbl (one shard per worker)
 * See pieces/format.h for the bytes. */
#ifndef NM_PIECES_RUN_H
#define NM_PIECES_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "hash/hash.h"
#include "stats/hist.h"

enum pieces_backend { PIECES_FILES, PIECES_LOG };
enum pieces_sync { PIECES_NOSYNC, PIECES_FSYNC, PIECES_FDATASYNC };

#define PIECES_DEFAULT_SIZE 2314240ull     /* 64 MiB segment / 29 data shares, rounded to 256 B */
#define PIECES_DEFAULT_COUNT 1000ull
#define PIECES_DEFAULT_BLOCK (256u << 10)
#define PIECES_DEFAULT_LOG_LIMIT (1ull << 30)
#define PIECES_MAX_DIRS 64
#define PIECES_MAX_SIZE (1ull << 40)      /* a piece: 1 TiB, far past any storage node's */
#define PIECES_MAX_COUNT 1000000000ull

struct pieces_plan {
	const char *const *dirs;        /* workers are spread over them: worker i in dirs[i % ndirs] */
	unsigned ndirs;
	enum pieces_backend backend;
	enum hash_algo hash;
	enum pieces_sync sync;
	int dirsync;                    /* files: fsync the directory after the rename */
	unsigned sync_batch;            /* log: pieces per group commit (0 or 1: each piece) */
	uint64_t count;                 /* pieces in all */
	uint64_t size;                  /* bytes per piece */
	uint64_t block;                 /* bytes per write (and hash update) */
	uint64_t log_limit;             /* log: start a new log file past this size */
	unsigned workers;
	int read_back;                  /* read every piece back and verify its hash */
	int keep;                       /* leave the stores on disk (paths in the result) */
	int show_progress;              /* a progress line on stderr (when it is a terminal) */
};

/* One directory's share of a phase: its workers' pieces, from their first start to last end. */
struct pieces_dir_share {
	uint64_t pieces, bytes;
	uint64_t ns;
};

struct pieces_phase {
	int ran;
	uint64_t pieces, bytes;
	uint64_t ns;                    /* wall time of the phase, first worker start to last end */
	struct pieces_dir_share dir[PIECES_MAX_DIRS]; /* per plan->dirs[i], as disk reports per target */
	unsigned ndirs;
	uint64_t cpu_ns;                /* CPU time of the process (user + system) in the phase */
	struct hist op_lat;             /* each whole piece: open to committed / read and verified */
	struct hist commit_lat;         /* write: the commit step (header, sync, rename / index, sync) */
};

struct pieces_result {
	struct pieces_phase write, read;
	uint64_t corrupt;               /* pieces that failed verification on read-back */
	char kept[PIECES_MAX_DIRS][4096]; /* with keep: the store roots left on disk */
	unsigned nkept;
};

/* Run the plan. Returns an enum nm_exit code: 0, NM_EXIT_USAGE (bad plan, a directory that
 * cannot be used, too little space), NM_EXIT_FAILED (I/O error or a corrupt read-back) or
 * NM_EXIT_INTERRUPTED (cleanup_interrupted()); err says why.  Nothing is left behind on any
 * return but success with keep. */
int pieces_run(const struct pieces_plan *p, struct pieces_result *r, char *err, size_t errlen);

double pieces_bytes_per_sec(const struct pieces_phase *ph);
double pieces_per_sec(const struct pieces_phase *ph);
double pieces_ns_per_op(const struct pieces_phase *ph);

const char *pieces_backend_name(enum pieces_backend b);
int pieces_backend_parse(const char *s, enum pieces_backend *out);
/* When an acknowledged (committed) piece survives a power cut: "commit" (when it is
 * committed), "end" (only once the run has ended: --sync without --dirsync renames without a
 * directory sync, which the run does at its end) or "none" (no --sync). why says it in words. */
const char *pieces_durability(const struct pieces_plan *p, const char **why);
/* "nosync", "sync", "syncdata" (for bench names and tables). */
const char *pieces_sync_name(enum pieces_sync s);

#endif
