/* fio's verify state files (verify_state_save, verify_state_load, --aux-path), in fio 3.33's
 * name and format, so either tool loads the other's.
 *
 * Name: DIR/local-NAME-N-verify.state, DIR --aux-path or the current directory, NAME the job's
 * name with every '/' made '.' (the file stays in DIR), N the thread's index over the whole
 * run (0, 1, ... over every job's threads in job order). fio names a saved file from the first
 * 63 bytes of the name (its record's), a loaded one from the whole name, and so does nodemark.
 *
 * The bytes are io/'s (io_vstate_encode, io_vstate_parse; the layout in io/verify.h). */
#ifndef NM_FIO_VSTATE_H
#define NM_FIO_VSTATE_H

#include <stddef.h>
#include <stdint.h>
#include "fio/plan.h"

/* Each thread's state file name where its job saves or loads one (j->vstate.paths), after
 * fio_plan_finish; --aux-path must then be a directory. 0, or -1 with a message. */
int fio_vstate_names(struct fio_plan *p, char *err, size_t errlen);

/* Reads the state of every thread of a job with verify_state_load=1 (fio reads them before
 * any job starts) into io.verify.loaded. 0, or -1 with one line naming the job and the file
 * (missing, truncated, another version, a bad checksum, a record that does not hold). */
int fio_vstate_load(struct fio_plan *p, char *err, size_t errlen);

/* Writes the state files of the threads that saved one (res_of[i]: job i's numjobs results),
 * each atomically; a symbolic link or a file that is not regular is not written over. 0, or
 * -1 with a message naming the file (the others are still written). */
int fio_vstate_write(const struct fio_plan *p, struct io_job_result *const *res_of, char *err, size_t errlen);

/* What a job's vstate owns. */
void fio_vstate_free(struct fio_job *j);

#endif
