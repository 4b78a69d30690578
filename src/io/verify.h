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

/* fio's verify state (verify_state_save, verify_state_load): how far a thread's writes got,
 * as fio's thread record holds it. A thread that saves keeps, per file, the offsets of its
 * last depth completed writes (io/verify_state.c); the front end writes them in fio's file
 * and reads such a file back into this for a job that loads one. */
struct io_vstate_comp {
	uint64_t file, offset;      /* the file's index in the job's files; the write's offset */
};

/* fio's file, little-endian: a 24-byte header (version 3, the record's size, a crc32c of the
 * record as fio computes it), then the thread's 152-byte record: completions used (u64),
 * iodepth (u32), files (u32), writes issued (u64), thread index (u64), fio's random state of
 * offsets (56 bytes: nodemark leaves it 0, as fio's for sequential I/O; fio does not read it
 * back), the job's name (64 bytes, 0-padded), then iodepth x files slots of (file index u64,
 * offset u64), the completions first. */
#define IO_VSTATE_HDR 24
#define IO_VSTATE_REC 152
#define IO_VSTATE_MAX_SLOTS (1u << 20) /* depth x files: a state file of 16 MiB at most */

struct io_vstate {
	uint64_t numberio;          /* writes issued (fio's io_issues of writes) */
	uint32_t depth, nfiles;     /* iodepth and files: depth x nfiles slots in fio's record */
	uint64_t ncomps;            /* comps used: each file's newest completed writes first */
	struct io_vstate_comp *comps;
};

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
	int save_state;             /* fio's verify_state_save: a thread of a writing job with verify=
	                             * hands its io_vstate back in its result (io_job_result.vstate) */
	const struct io_vstate *loaded; /* fio's verify_state_load: thread t's state at [t] (nloaded
	                             * of them, the front end's): a checked read outside what its
	                             * writes completed ends the job, as fio's verify_state_should_stop */
	unsigned nloaded;
};

#endif
