/* A nextflow trace file (trace.txt: tab-separated, a header line naming the columns) read into
 * a record: a bench per process (the step), one sample per completed task of realtime (wall_s),
 * peak_rss (max_rss), rchar and wchar (read_chars, write_chars) and %cpu (cpu_pct), and a bench
 * "total" with the sum of the steps' realtime.  Values are read in nextflow's formats: durations
 * "1h 2m 3s", "4.5s", "120ms"; sizes "1.2 GB", "512 MB" (1024-based); "98.5%"; and the plain
 * numbers of trace.raw (milliseconds, bytes).  "-" is a value nextflow did not have. */
#ifndef NM_RESULTS_NFTRACE_H
#define NM_RESULTS_NFTRACE_H

#include "results/record.h"

#include <stddef.h>

/* Returns the number of tasks read, or -1 with a message (which line, which column). */
long nftrace_read(const char *text, size_t len, struct record *r, char *err, size_t errlen);

/* One value in nextflow's formats, exposed for tests: seconds, bytes; 0 or -1. */
int nftrace_duration(const char *s, double *seconds);
int nftrace_size(const char *s, double *bytes);

#endif
