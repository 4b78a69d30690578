/* Where a fio job's I/O goes, and the checks made before anything is written there. */
#ifndef NM_FIO_TARGETS_H
#define NM_FIO_TARGETS_H

#include <stddef.h>
#include "fio/plan.h"

/* From the job's filename= and directory= (as typed) to io.targets: filename= names files
 * (relative to the first directory= when both are given, as fio does), directory= alone names
 * directories, and neither gives fio's default: NAME.THREAD.0 in the current directory (with
 * nrfiles above 1, a private .nodemark-* directory there).  Pure: touches no file. */
int fio_job_targets(struct fio_job *j, char *err, size_t errlen);

/* fio's fill_device: refuses what nodemark does not fill as fio does (reading, trimming or
 * overwrite=1 jobs, mmap, random writes without size=) and, without size=, gives each file a
 * region of its filesystem's size and two blocks, so that only ENOSPC (or EDQUOT) ends the
 * writes, as fio's unbounded size.  Reads the filesystems' sizes (statvfs). */
int fio_job_fill(struct fio_job *j, char *err, size_t errlen);

/* Before a run: refuses what would write where it must not (a dangling symbolic link, which
 * would create a file wherever it points and then lose the link; an existing file or block
 * device that is not named in allow[] for a writing job) and new files that do not fit in
 * their directory's free space (all the plan's new files there together).  Sets each job's
 * io.files.allow_write_blockdev and io.files.create_targets.  Returns 0, or -1 with one line in err. */
int fio_check_targets(struct fio_plan *p, const char *const *allow, unsigned nallow, char *err, size_t errlen);

#endif
