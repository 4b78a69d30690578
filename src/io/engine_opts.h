/* io_job.eopts: the options of one engine (fio's engine options), as the bytes of the struct
 * that engine's own file declares (struct uring_opts in io/uring.c, ...), with the engine they
 * belong to. Only that file reads them (through its worker's copy, io/internal.h); front ends
 * set them by name through the engine's option table (io/engine.h).
 *
 * The bytes live in the job rather than behind a pointer because jobs are copied by value (a
 * plan's tests, a session's, the MPI template): a copy carries its options and nothing is freed.
 * An engine file checks that its struct fits with IO_ENGINE_OPTS_FIT. */
#ifndef NM_IO_ENGINE_OPTS_H
#define NM_IO_ENGINE_OPTS_H

#include <stddef.h>

#define IO_ENGINE_OPTS_MAX 96

struct io_engine_ops;

struct io_engine_optbuf {
	const struct io_engine_ops *of; /* whose options these are; NULL: none set (defaults) */
	union {
		max_align_t align;
		unsigned char bytes[IO_ENGINE_OPTS_MAX];
	} u;
};

/* In an engine's file, beside its options struct. */
#define IO_ENGINE_OPTS_FIT(type) \
	_Static_assert(sizeof(type) <= IO_ENGINE_OPTS_MAX, #type " is larger than IO_ENGINE_OPTS_MAX")

#endif
