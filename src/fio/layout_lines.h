/* fio's "NAME: Laying out IO file (1 file / 8MiB)" lines: one per job thread whose files are
 * created or grown before the run, worked out from the plan before the sessions lay them out
 * (the lines come after "Starting N processes", as fio's). */
#ifndef NM_FIO_LAYOUT_LINES_H
#define NM_FIO_LAYOUT_LINES_H

#include "fio/plan.h"
#include "fio/report.h"

/* The lines in fio's order (jobs, then their threads); *out is malloc'd (free it). */
size_t fio_layout_lines(const struct fio_plan *p, struct fio_layout_line **out);

#endif
