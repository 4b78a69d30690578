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
	const char *workdir2;   /* the same in opts->dir2 (run --compare-with), else NULL */
	const char *phase;      /* the running phase's name */
	unsigned index, count;  /* 1-based position among the phases that run */
	uint64_t phase_start_ns;
	double phase_expect_s;  /* the phase's estimated length, for the ETA */
	double later_s;         /* the estimated length of the phases after this one */
	/* a re-measure (suite_remeasure): only these benches, round_samples samples each */
	const char *const *only_benches;
	size_t nonly;
	unsigned round_samples;
};

/* 1 when the phase should measure this bench (always, outside a re-measure). */
int suite_wants_bench(const struct suite_ctx *c, const char *name);

/* Redraw the progress line: "[2/5] hash: sha256 2 threads  40%  ETA 0:12". */
void suite_progress(struct suite_ctx *c, double fraction, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Say something the user should know (a size shrank, a fallback): a warning on stderr and a
 * line in extra.run.notes. */
void suite_note(struct suite_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A bench of this phase (its settings carry "phase"). */
struct bench *suite_bench(struct suite_ctx *c, const char *name);

/* Adaptive sample counts (suite/sampling.c), as the Phoronix Test Suite's dynamic run count:
 * a figure gets at least min samples, then more until its 95% interval is within target_pct
 * (half the change worth detecting: the figure's noise floor, from its history on this machine
 * when the store has enough, else the default), at most max, and never past the time budget.
 * Why it stopped is saved in extra.sampling.<bench>:
 *   {"samples": n, "min": 6, "max": 10, "target_pct": 5, "target_from": "history" | "default",
 *    "floor_runs": 7, "interval_pct": 3.2 (null: infinite), "budget_s": 2.5,
 *    "stopped": "interval" | "max" | "budget"}
 * "budget" with fewer than min samples makes compare say "not compared: too few samples". */
struct suite_sampler {
	unsigned min, max;
	double target_pct, budget_s;
	int floor_runs;         /* earlier runs behind target_pct; < VERDICT_HISTORY_MIN: the default */
	uint64_t start_ns;
	const char *stopped;    /* set when suite_sampler_more says no */
};

/* Start the clock for one figure (the bytes_per_sec of bench; NULL: not known yet, the phase's
 * default floor) or one round of several (see suite_sampler_more_all, suite_sampler_also).
 * budget_s: the mode's budget for it. */
void suite_sampler_start(const struct suite_ctx *c, struct suite_sampler *s, const char *bench, double budget_s);
/* One more figure sampled by s in turns: the target becomes the tighter of the two. */
void suite_sampler_also(const struct suite_ctx *c, struct suite_sampler *s, const char *bench);
/* 1 while another sample of m is wanted. */
int suite_sampler_more(struct suite_sampler *s, const struct metric *m);
/* The same over several figures that take turns: 1 while any of them wants another. */
int suite_sampler_more_all(struct suite_sampler *s, struct metric *const *m, size_t n);
/* Save why b's sampling stopped in extra.sampling.<bench>. */
void suite_sampler_save(struct suite_ctx *c, const struct bench *b, const struct suite_sampler *s,
			const struct metric *m);

/* run --compare-with: the benches from index `from` on measured the phase in turns; each gets
 * the phase and mode, and the user's directories where the private ones are named. */
void suite_turns_benches(struct suite_ctx *c, size_t from);

/* Bytes that may be written in dir: free space less the reserve (workdir.h); 0 when unknown. */
uint64_t suite_free_bytes(const char *dir);

/* Each phase: returns 0, 1 failed (with a message in err), 130 interrupted. */
struct suite_phase {
	const char *name;
	const char *title;
	double expect_s[3];     /* estimated seconds per mode, for the ETA */
	int (*run)(struct suite_ctx *c, char *err, size_t errlen);
};

/* The phase of that name, or NULL. */
const struct suite_phase *suite_phase_find(const char *name);

extern const struct suite_phase suite_phase_memory, suite_phase_hash, suite_phase_disk, suite_phase_pieces;

#endif
