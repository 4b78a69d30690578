/* The hashing benchmark behind `nodemark hash` (and `nodemark run`): hash a buffer in fixed-size
 * updates on N threads, each thread one independent stream (as N workers hashing N pieces). */
#ifndef NM_HASH_BENCH_H
#define NM_HASH_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "hash/hash.h"

/* Random data is generated once, at most this much; longer runs wrap around it. It is larger
 * than any CPU cache, so the data comes from memory as it would from a page-cache file. */
#define HASH_BENCH_BUFFER (64u << 20)

struct hash_bench_plan {
	enum hash_algo algo;
	uint64_t size;          /* bytes hashed in all, split evenly over the threads */
	size_t block;           /* bytes per update call */
	unsigned threads;
	const void *data;       /* what to hash (e.g. a mapped file); NULL = random bytes */
	size_t data_len;        /* its length; size may exceed it (the data is reused) */
};

struct hash_bench_result {
	uint64_t bytes;
	double seconds;
	double bytes_per_sec;
	double cpu_seconds;     /* CPU time of the hashing threads: on a busy machine this, not
				   seconds, says what the hash costs */
	double cycles_per_byte; /* cycles per byte on one thread; < 0 when no counter */
	uint8_t digest[HASH_MAX_DIGEST]; /* thread 0's digest: of the data itself when 1 thread
					    hashes exactly data_len bytes */
};

/* Returns 0, or -1 with a message in err. */
int hash_bench(const struct hash_bench_plan *p, struct hash_bench_result *r, char *err, size_t errlen);

#endif
