/* Memory and page-cache bandwidth: the ceiling every buffered I/O figure sits under.
 *
 *   membw_copy      memcpy between two buffers per thread, each larger than the last-level cache,
 *                   so the figure is DRAM's and not the cache's (bytes copied per second)
 *   membw_cached_read  read() of a file just written (so it sits in the page cache) in 1 MiB
 *                   blocks: what a read of hot data costs through the kernel
 *
 * Each call sets up once and measures `passes` passes of about pass_ns each, one result per
 * pass (the samples).  Both stop early when cleanup_interrupted() becomes true (returning 1). */
#ifndef NM_MEM_MEMBW_H
#define NM_MEM_MEMBW_H

#include <stddef.h>
#include <stdint.h>

struct membw_result {
	uint64_t bytes;         /* copied or read */
	uint64_t ns;            /* wall time of the measured part */
	double bytes_per_sec;
};

/* The last-level cache of CPU 0 in bytes, from sysfs (0 when unknown). */
uint64_t membw_llc_bytes(void);

/* A buffer size per thread that is at least 4 x the LLC (or 64 MiB when unknown), at most cap. */
size_t membw_copy_size(uint64_t cap);

/* threads x (2 buffers of per_thread bytes); res holds passes entries.
 * Returns 0, 1 when interrupted, -1 with a message (out of memory). */
int membw_copy(size_t per_thread, unsigned threads, uint64_t pass_ns, unsigned passes,
	       struct membw_result *res, char *err, size_t errlen);

/* Write file_bytes to a new file in dir (a directory the caller created), then read it whole,
 * over and over, for about pass_ns per pass; the file is removed before returning.
 * Returns 0, 1 when interrupted, -1 with a message naming the file. */
int membw_cached_read(const char *dir, uint64_t file_bytes, uint64_t pass_ns, unsigned passes,
		      struct membw_result *res, char *err, size_t errlen);

#endif
