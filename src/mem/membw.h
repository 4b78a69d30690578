/* Memory and page-cache bandwidth: the ceiling every buffered I/O figure sits under.
 *
 *   membw_copy      memcpy between two buffers per thread, each larger than the last-level cache,
 *                   so the figure is DRAM's and not the cache's (bytes copied per second)
 *   membw_file_*    read() of a file written and fsynced once (so it sits clean in the page
 *                   cache) in 1 MiB blocks into a page-aligned buffer: what a read of hot data
 *                   costs through the kernel
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

/* A file in the page cache to read, written once per figure and read in batches of passes. */
struct membw_file {
	int fd;
	uint64_t size;
	char *buf;              /* one 1 MiB block, page aligned */
	char path[4096];
};

/* The page-cache state of the whole file, in pages. */
struct membw_cache_state {
	uint64_t cached, dirty, writeback;
};

/* Write size bytes to a new file in dir (a directory the caller created) and fsync it, so its
 * pages are in the page cache, clean, with no writeback pending when the reads start.
 * Returns 0, or -1 with a message naming the file (nothing is left behind). */
int membw_file_open(struct membw_file *f, const char *dir, uint64_t size, char *err, size_t errlen);

/* Read the file whole, over and over, for about pass_ns per pass, in 1 MiB preads.
 * Returns 0, 1 when interrupted, -1 with a message naming the file. */
int membw_file_read(struct membw_file *f, uint64_t pass_ns, unsigned passes, struct membw_result *res, char *err,
		    size_t errlen);

/* cachestat(2) of the file: 0, or -1 where the kernel lacks it (before Linux 6.5). */
int membw_file_cachestat(const struct membw_file *f, struct membw_cache_state *st);

/* Close and remove the file (safe to call twice). */
void membw_file_close(struct membw_file *f);

#endif
