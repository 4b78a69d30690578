/* A snakemake benchmark file (a rule's `benchmark:` output: tab-separated, the header
 * "s h:m:s max_rss max_vms max_uss max_pss io_in io_out mean_load cpu_time", a line per
 * repeat) into the bench of its step: wall_s from s, max_rss and io_in/io_out (MB, which
 * snakemake counts as 1024 * 1024 bytes) in bytes,
 * cpu_time in seconds. */
#ifndef NM_RESULTS_SMKBENCH_H
#define NM_RESULTS_SMKBENCH_H

#include "results/record.h"

#include <stddef.h>

/* Returns the number of repeats read, or -1 with a message (which line, which column). */
long smkbench_read(const char *text, size_t len, struct bench *b, char *err, size_t errlen);

#endif
