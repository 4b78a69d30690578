/* fio's iologs in the front end: write_iolog records a job's I/O (the engine writes the lines,
 * io/replay.h), read_iolog replays a log (v2 or v3 text, as fio 3.33 reads it): the log is
 * read into entries and its files become the job's targets, or replay_redirect's one file. */
#ifndef NM_FIO_IOLOG_H
#define NM_FIO_IOLOG_H

#include <stddef.h>
#include "fio/plan.h"

/* The largest log read_iolog reads (fio reads any size; nodemark keeps it all in memory). */
#define FIO_IOLOG_MAX_BYTES (128u << 20)

/* Frees what o owns and sets fio's defaults. */
void fio_iolog_free(struct fio_iolog_opts *o);

/* Each replaying job's log read and turned into its I/O: the entries, the targets (the log's
 * files, which must exist, or replay_redirect), the directions, block sizes and region. Called
 * before the targets are checked; reads files. 0, or -1 with one line naming job and log. */
int fio_iologs_load(struct fio_plan *p, char *err, size_t errlen);

/* A log's text (NUL-terminated at len, changed in place) onto job j: its entries, targets,
 * directions and sizes. Touches no file (the fuzz harness's entry). 0, or -1 with one line. */
int fio_iolog_parse(struct fio_plan *p, struct fio_job *j, char *text, size_t len, char *err, size_t errlen);

/* write_iolog's files opened (written whole at the end, atomically) and handed to the jobs;
 * after the run, committed (or thrown away when commit is 0). 0, or -1 with one line. */
int fio_iologs_open(struct fio_plan *p, char *err, size_t errlen);
int fio_iologs_close(struct fio_plan *p, int commit, char *err, size_t errlen);

#endif
