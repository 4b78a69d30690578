/* What the piece-store runner shares with its backends (files.c, log.c). Not for callers
 * outside src/pieces/: they use run.h, verify.h and record.h. */
#ifndef NM_PIECES_INTERNAL_H
#define NM_PIECES_INTERNAL_H

#include "pieces/format.h"
#include "pieces/run.h"

#include <stdint.h>

/* Where a written piece is, to read it back. */
struct piece_loc {
	uint8_t id[PIECE_ID_LEN];
	uint8_t hash[HASH_MAX_DIGEST];
	uint32_t log_no;
	uint64_t offset;
};

struct pieces_worker {
	const struct pieces_plan *plan;
	unsigned index;
	const char *root;               /* the store root this worker writes in */
	const char *ns;                 /* files: the namespace directory name (base32) */
	uint64_t npieces;               /* pieces this worker writes */
	uint8_t *data;                  /* piece content, reused: data_len bytes cycled */
	size_t data_len;
	uint8_t *rbuf;                  /* read buffer of plan->block bytes */
	struct piece_loc *locs;         /* the pieces written, in order */
	uint64_t nlocs;
	struct hash_ctx hash;
	struct hist op_lat, commit_lat, read_lat;
	uint64_t t0, t1;                /* this worker's phase start and end */
	const int *stop;                /* set by the runner on a signal */
	uint64_t progress;              /* pieces done in the current phase (read by the runner) */
	uint64_t corrupt;
	void *state;                    /* the backend's */
	char err[1024];
};

/* A backend. write() returns 0, -1 on an I/O error (message in w->err) or 1 when stopped;
 * either way it leaves no temp file. read() returns 0, 1 when the piece is corrupt, -1. */
struct pieces_backend_ops {
	int (*store_init)(const char *root, const char *ns, char *err, size_t errlen);
	int (*open)(struct pieces_worker *w);
	int (*write)(struct pieces_worker *w, struct piece_loc *loc);
	int (*finish)(struct pieces_worker *w);    /* commit what is pending (group commit) */
	int (*read)(struct pieces_worker *w, const struct piece_loc *loc);
	void (*close)(struct pieces_worker *w);
};

extern const struct pieces_backend_ops pieces_files_ops, pieces_log_ops;

/* Stream the plan's piece size of w->data to fd at offset off in plan->block writes, hashing
 * as it goes; hash receives the digest. Returns 0, -1 (w->err names path) or 1 when stopped. */
int pieces_stream_out(struct pieces_worker *w, int fd, uint64_t off, const char *path,
		      uint8_t hash[HASH_MAX_DIGEST]);

/* Read size bytes at off in buflen reads and hash them with algo. Returns 0, -1 (errno set),
 * -2 when the file ends early, or -3 when a signal asked to stop (cleanup_interrupted()): no
 * verdict then. */
int pieces_hash_range(int fd, uint64_t off, uint64_t size, enum hash_algo algo, struct hash_ctx *h,
		      uint8_t *buf, size_t buflen, uint8_t out[HASH_MAX_DIGEST]);

int pwrite_full(int fd, const void *buf, size_t len, uint64_t off);
int pread_full(int fd, void *buf, size_t len, uint64_t off);  /* bytes read (short at EOF), -1 */
int pieces_sync_fd(int fd, enum pieces_sync s);
int fsync_dir(const char *path);
/* fsync root and every directory below it (not through symbolic links). 0 or -1, errno. */
int pieces_sync_tree(const char *root);

#endif
