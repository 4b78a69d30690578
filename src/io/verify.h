/* io_job.verify: fio's data verification, done by io/verify.c and io/verify_run.c. */
#ifndef NM_IO_VERIFY_H
#define NM_IO_VERIFY_H

#include <stdint.h>

/* fio's data verification (io/verify.c). The numbers are fio's, written into each block's
 * header as fio writes them, so that fio and nodemark check each other's files. */
enum io_verify_kind {
	IO_VERIFY_NONE = 0,
	IO_VERIFY_META = 1,           /* the header alone (fio's verify=meta) */
	IO_VERIFY_MD5 = 2,
	IO_VERIFY_CRC32 = 4,
	IO_VERIFY_CRC32C = 5,
	IO_VERIFY_SHA256 = 9,
	IO_VERIFY_SHA512 = 10,
	IO_VERIFY_XXHASH = 15,
	IO_VERIFY_SHA1 = 16,
	IO_VERIFY_PATTERN = 17,       /* a header, then verify_pattern (verify_pattern alone) */
	IO_VERIFY_PATTERN_NO_HDR = 18,/* verify_pattern over the whole block (fio's verify=pattern) */
	IO_VERIFY_NULL = 19,          /* pretend: nothing written or checked */
};

#define IO_VERIFY_PATTERN_MAX 512

struct io_verify_opts {
	enum io_verify_kind kind;   /* IO_VERIFY_NONE: off */
	int no_readback;            /* fio's do_verify=0: headers written, the writes not read back */
	int only;                   /* fio's verify_only: nothing written; the blocks a write job
	                             * would write are read and checked */
	unsigned interval;          /* a header every N bytes; 0: the smallest block (fio's) */
	unsigned offset;            /* the header swapped with the bytes this far into its interval */
	uint64_t backlog;           /* 0: read back after the write pass; N: after every N writes */
	uint64_t batch;             /* blocks read back each time (0: backlog) */
	int experimental;           /* fio's experimental_verify: the writes read back as the write
	                             * pass made them, in its order, rewritten blocks too; no backlog */
	uint8_t pattern[IO_VERIFY_PATTERN_MAX]; /* verify_pattern: the data, repeated */
	unsigned pattern_len;
};

#endif
