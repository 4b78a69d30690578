/* What verify.c (the walk, the files backend) shares with verify_log.c (the log backend).
 * Every open, unlink, rename and truncate is relative to a directory of the store opened
 * without following links, and never leaves the store's file system: a store whose temp/ is a
 * symbolic link to a user's directory, or a log that links to a user's file, is reported and
 * left alone. */
#ifndef NM_PIECES_VERIFY_INTERNAL_H
#define NM_PIECES_VERIFY_INTERNAL_H

#include "pieces/internal.h"
#include "pieces/verify.h"

#include <sys/stat.h>
#include <sys/types.h>

#define VERIFY_BUF (1u << 20)

struct verifier {
	int repair;
	struct pieces_verify_report *rep;
	pieces_verify_fn fn;
	void *arg;
	uint8_t *buf;                   /* VERIFY_BUF bytes for hashing */
	struct hash_ctx hash;
	dev_t dev;                      /* the store's file system, never left */
	int stopped;                    /* a signal came: no more checks, no repair, no verdict */
	char *err;
	size_t errlen;
};

/* Whether a signal asked to stop (cleanup_interrupted()); the walks poll it between entries. */
int verify_stopping(struct verifier *v);

void verify_note(struct verifier *v, enum pieces_finding kind, const char *path, const char *why);
void verify_corrupt(struct verifier *v, const char *path, const char *why);

/* Open name (in dfd, whose path is dirpath) as a directory of the store. Returns the fd,
 * -2 when it does not exist, -1 when it is no plain directory of this file system (a link,
 * a file, a mount point: reported as left alone). */
int verify_open_dir(struct verifier *v, int dfd, const char *dirpath, const char *name);
/* Open name in dfd as a regular file of the store with flags (O_RDONLY or O_RDWR); fills st.
 * Returns the fd, -2 when it does not exist, -1 otherwise (reported: left alone or the error). */
int verify_open_file(struct verifier *v, int dfd, const char *dirpath, const char *name, int flags,
		     struct stat *st);

/* Calls fn for each entry of the directory dfd (not . and ..). */
typedef void (*verify_entry_fn)(struct verifier *v, int dfd, const char *dirpath, const char *name, void *ctx);
int verify_each(struct verifier *v, int dfd, const char *dirpath, verify_entry_fn fn, void *ctx);

/* Hash [off, off+size) of fd with algo and compare with want. Returns NULL when it matches,
 * else why not. With HASH_NONE nothing can be compared: returns NULL and sets *unverified. */
const char *verify_data(struct verifier *v, int fd, uint64_t off, uint64_t size, enum hash_algo algo,
			const uint8_t want[HASH_MAX_DIGEST], int *unverified);

/* The log backend's store at rfd (root is its path); committed is the marker's count or -1. */
int verify_log_store(struct verifier *v, int rfd, const char *root, int64_t committed);

#endif
