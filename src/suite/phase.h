/* Inside the suite: what a phase gets and how it reports progress (suite.c drives them). */
#ifndef NM_SUITE_PHASE_H
#define NM_SUITE_PHASE_H

#include <stddef.h>
#include <stdint.h>
#include "results/record.h"
#include "suite/suite.h"

struct suite_ctx {
	const struct suite_opts *opts;
	struct record *rec;
	const char *workdir;    /* a private .nodemark-* directory in opts->dir, removed at exit */
	const char *phase;      /* the running phase's name */
	unsigned index, count;  /* 1-based position among the phases that run */
	uint64_t phase_start_ns;
	double phase_expect_s;  /* the phase's estimated length, for the ETA */
	double later_s;         /* the estimated length of the phases after this one */
};

/* Redraw the progress line: "[2/5] hash: sha256 2 threads  40%  ETA 0:12". */
void suite_progress(struct suite_ctx *c, double fraction, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Say something the user should know (a size shrank, a fallback): a warning on stderr and a
 * line in extra.run.notes. */
void suite_note(struct suite_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A bench of this phase (its settings carry "phase"). */
struct bench *suite_bench(struct suite_ctx *c, const char *name);

/* How many measurements each figure gets in this mode (quick 4, default 6, full 10). */
unsigned suite_samples(const struct suite_ctx *c);

/* Bytes that may be written in dir: free space less the reserve (workdir.h); 0 when unknown. */
uint64_t suite_free_bytes(const char *dir);

/* Each phase: returns 0, 1 failed (with a message in err), 130 interrupted. */
struct suite_phase {
	const char *name;
	const char *title;
	double expect_s[3];     /* estimated seconds per mode, for the ETA */
	int (*run)(struct suite_ctx *c, char *err, size_t errlen);
};

extern const struct suite_phase suite_phase_memory, suite_phase_hash, suite_phase_disk, suite_phase_pieces;

#endif
