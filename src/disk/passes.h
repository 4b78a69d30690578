/* The pass loop: each test of a plan runs on one io session, a discarded preparing pass first
 * when asked, then up to `passes` measured passes with a pause between them.  Everything
 * that prints or decides lives in the callbacks, so `nodemark disk`, `nodemark run` and the MPI
 * build share the loop and its figures.
 *
 *   struct disk_loop l = disk_plan_loop(&plan);     // passes, preparing, interval of the plan
 *   l.on_progress = show; l.on_pass = enough;       // both optional
 *   int st = disk_run_tests(session, plan.tests, plan.ntests, disk_plan_ntargets(&plan), &l, err, len);
 */
#ifndef NM_DISK_PASSES_H
#define NM_DISK_PASSES_H

#include <stddef.h>
#include <stdint.h>
#include "disk/plan.h"
#include "disk/test.h"
#include "io/engine.h"

/* Where the loop is, about 10 times a second while a pass runs. */
struct disk_progress {
	const struct disk_test *test;
	unsigned test_index, ntests;
	unsigned pass, passes;      /* pass 0 = the preparing pass */
	unsigned arm, narms;        /* in turns (disk_run_turns): whose pass this is; narms 0 otherwise */
	const struct io_progress *io;
	uint64_t elapsed_ns;        /* since the loop began */
	uint64_t planned_ns;        /* the loop's planned length; 0 when unknown (size-based) */
};
/* Nonzero ends the running pass early, as if it had reached its end (MPI's stonewall). */
typedef int (*disk_progress_fn)(const struct disk_progress *p, void *arg);

/* After each measured pass of t (t->npasses passes so far, the last one just added):
 * DISK_PASS_MORE runs the next (up to the loop's passes), DISK_PASS_ENOUGH ends this test
 * here (it counts as complete), so a caller can repeat until its figures are steady. */
enum { DISK_PASS_MORE = 0, DISK_PASS_ENOUGH = 1 };
typedef int (*disk_pass_fn)(const struct disk_test *t, unsigned test_index, void *arg);

struct disk_loop {
	unsigned passes;            /* measured passes per test: the most, when on_pass may stop early */
	int preparing;              /* a discarded pass before the measured ones */
	uint64_t interval_ns;       /* pause after each measured pass but the run's last */
	uint64_t planned_ns;        /* passed on in disk_progress */
	disk_progress_fn on_progress;
	void *progress_arg;
	disk_pass_fn on_pass;
	void *pass_arg;
};

/* The loop a plan asks for (no callbacks). */
struct disk_loop disk_plan_loop(const struct disk_plan *p);

/* Run tests[0..ntests) in order on s. Each test gets room for l->passes passes and is marked
 * complete when its passes are done; a test that failed or was interrupted keeps the passes
 * that finished and is not complete.  Returns IO_OK, or IO_FAILED / IO_BAD_JOB /
 * IO_INTERRUPTED with a message in err (the tests before stay as they are). */
int disk_run_tests(struct io_session *s, struct disk_test *tests, unsigned ntests, unsigned ntargets,
		   const struct disk_loop *l, char *err, size_t errlen);

/* Measuring in turns: several targets (or settings), each an arm with its own session and its
 * own copy of the same tests.  Each test runs round by round: one pass of every arm per round,
 * the order rotated each round (A B C, B C A, C A B, ...) so that no arm always runs first; a
 * preparing round first when the loop has one; the interval after every pass but the run's
 * last, whichever arm it was.  The host's slow minute then falls on every arm alike, and round
 * r's passes pair up (disk/pairs.h). */
struct disk_arm {
	struct io_session *session;
	struct disk_test *tests;    /* [ntests]: the same tests in every arm */
	unsigned ntargets;          /* targets within the arm (results per target) */
};

/* The arm that runs k-th in round r (rounds counted from 0). */
unsigned disk_turn_arm(unsigned round, unsigned k, unsigned narms);

/* Run tests[0..ntests) of every arm in turns.  A test ends after l->passes rounds, or after a
 * round in which on_pass said DISK_PASS_ENOUGH for every arm.  Returns as disk_run_tests. */
int disk_run_turns(struct disk_arm *arms, unsigned narms, unsigned ntests, const struct disk_loop *l, char *err,
		   size_t errlen);

/* Tests marked complete. */
unsigned disk_tests_complete(const struct disk_test *tests, unsigned ntests);

#endif
