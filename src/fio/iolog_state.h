/* A read_iolog log being read into replay entries: the state the text reader (fio/iolog.c) and
 * the blktrace reader (fio/blktrace.c) fill, and the steps they share. Private to the two. */
#ifndef NM_FIO_IOLOG_STATE_H
#define NM_FIO_IOLOG_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "fio/plan.h"

struct fio_log_state {
	struct fio_job *j;
	int version;
	uint64_t last_us;           /* v3: the last line's time stamp */
	struct io_replay_entry *e;
	size_t n, cap;
	uint64_t ios[DIR_COUNT], bytes[DIR_COUNT], syncs, waits;
	unsigned bt_depth;          /* the largest depth a blktrace's records show (fio's probe); 0: none */
	uint64_t maxlen[DIR_COUNT];
	uint64_t extent[IO_MAX_TARGETS]; /* each file's last byte used */
	char *files[IO_MAX_TARGETS];
	unsigned nfiles;
	unsigned char added[IO_MAX_TARGETS]; /* added in the log being read (each log its own files) */
};

/* The index of a file the log being read added (with replay_redirect, the one file), or -1. */
int fio_log_file_index(const struct fio_log_state *s, const char *name);
/* A zeroed entry at the end. */
struct io_replay_entry *fio_log_push(struct fio_log_state *s);
/* A file of the log (or replay_redirect's): 0, or -1 past IO_MAX_TARGETS. */
int fio_log_add_file(struct fio_log_state *s, const char *name, char *err, size_t errlen);
/* A read, write or trim of the log counted: directions, block sizes, the file's extent. */
void fio_log_count_io(struct fio_log_state *s, int a, uint64_t off, uint64_t len, unsigned fi);
/* A gap between two of the log's times at replay_time_scale percent of its pace, saturating
 * where a slowed-down gap no longer fits 64 bits (a double past 2^64 converts undefined). */
uint64_t fio_log_scaled_gap(const struct fio_log_state *s, uint64_t gap);

/* Whether a log's first bytes are a blktrace record's magic (either byte order). */
int fio_blktrace_is(const unsigned char *data, size_t len);
/* A blktrace binary onto s, as fio 3.33 reads one (blktrace.c read_blktrace): 0, or -1 with a
 * message (the caller names the file). */
int fio_blktrace_read(struct fio_log_state *s, const unsigned char *data, size_t len, char *err, size_t errlen);

#endif
