/* The call: whether a change between two runs is one a user can act on.
 *
 * benchstat's test asks "do these samples differ"; the samples of one run are passes taken
 * seconds apart, so they share that minute's state of the machine, and with 4 of them every
 * consistent shift is "significant".  A call here needs all of:
 *   - neither run busy (other processes' CPU or I/O, steal: the reasons come from the caller);
 *   - enough samples on both sides (VERDICT_MIN_SAMPLES) for the test to mean something;
 *   - the Mann-Whitney test at alpha;
 *   - a change of the median larger than the metric's noise floor on this machine: the spread
 *     between earlier runs (A/A history), or a documented default until there is enough of it.
 * Otherwise the answer is "unchanged" (with why) or "not compared: <reason>".
 *
 * Pure: no I/O, no clock; the caller brings the samples, the floor and the busy reasons. */
#ifndef NM_STATS_VERDICT_H
#define NM_STATS_VERDICT_H

#include <stddef.h>

/* The fewest samples per side: the fewest that give benchstat's 95% interval, and with which the
 * smallest Mann-Whitney p (0.002) is well below alpha rather than just under it (0.029 at 4). */
#define VERDICT_MIN_SAMPLES 6
/* Earlier quiet runs needed before their spread replaces the default floor. */
#define VERDICT_HISTORY_MIN 5
/* The most a history floor adds above the spread it saw, as a factor (verdict_floor_from_history). */
#define VERDICT_FLOOR_MARGIN 1.25
/* A floor from history is never below this (percent): timer and rounding noise. */
#define VERDICT_FLOOR_MIN_PCT 1.0
/* What other processes' load does to a figure per CPU-second (percent, as a factor): CPU time
 * leaves out the time a thread waited, not the caches and TLBs refilled after another process's
 * timeslice, nor, on a VM that reports no steal, the time the host took the virtual CPU away to
 * do the guest's I/O.  On the 2-vCPU KVM guest (BENCHMARKS.md, bench/aa.sh busy, bench/cpu-basis.sh)
 * busy A/A pairs moved hashing per CPU-second by up to -40% (a factor of 1.65) beside one `yes`
 * per CPU and a dd writing O_DIRECT; with the default floor alone two were called.  The floor
 * is widened by this factor on top of the figure's own: 35% becomes 89% (a drop of 47%), so a
 * halving is still called. */
#define VERDICT_CPU_CONTENTION_PCT 40.0

enum verdict_kind {
	VERDICT_UNCHANGED,
	VERDICT_REGRESSION,     /* worse in the metric's direction */
	VERDICT_IMPROVEMENT,
	VERDICT_CHANGED,        /* a metric with no better direction */
	VERDICT_NOT_COMPARED,
};

struct verdict_input {
	const double *base, *cur;
	size_t nbase, ncur;
	int direction;          /* 1 higher is better, -1 lower, 0 neither */
	double alpha;           /* 0: 0.05 */
	double floor_pct;       /* the noise floor: the change of the median, as a factor either way
				 * (max(new/old, old/new) - 1, in percent), that noise reaches */
	int floor_runs;         /* the earlier runs it comes from; < VERDICT_HISTORY_MIN: the default */
	int floor_host_paced;   /* the floor is the minimum for storage a host sets the pace of (a
				 * virtual machine's disk), above what history or the default gave */
	const char *base_busy;  /* why the baseline's figures are suspect ("the baseline's hash phase
				 * ran on a busy machine (...)"), NULL when they are not */
	const char *cur_busy;
	const char *short_why;  /* why a side has few samples ("the time budget ran out"), or NULL */
	/* The same samples as bytes per CPU-second of the measuring threads (one per sample of
	 * base and cur, in order; NULL where the run did not keep CPU time), and how busy the
	 * machine was ("busy 93%"; NULL when the busy cause is one CPU time does not leave out,
	 * such as steal).  With both and a busy side, the row is judged on these instead of not
	 * compared: a thread's CPU time leaves out the time it waited for another process. */
	const double *base_cpu, *cur_cpu;
	const char *cpu_busy;
	double cpu_floor_pct;   /* the least floor on that basis (the metric's default): a floor from
				 * history is the spread of quiet runs' own samples, which says
				 * nothing of how a busy run's CPU time moves; the larger of the two,
				 * widened by VERDICT_CPU_CONTENTION_PCT, is the floor there */
	/* Why that basis is not for this row though it would be ("CPUs allowed 2 -> 1": the two runs
	 * could use different numbers of CPUs, fewer than the row's threads on one side), or NULL.
	 * The CPU-time basis leaves out other processes' load, and with it any change in the CPUs
	 * the threads got, so a changed configuration would read as no change: the row is judged
	 * on its own (wall-clock) samples as usual, and the why says so. */
	const char *cpu_basis_off;
};

/* Where every compared row ends (issue 27 item 5): a called change with its interval; no change
 * beyond +-X% (the interval of the change rules out anything larger); or can't tell, with the
 * noise here, its cause and what would decide it. */
enum verdict_category {
	VERDICT_CAT_CALLED,
	VERDICT_CAT_NO_CHANGE,
	VERDICT_CAT_CANT_TELL,
};
/* An unchanged row whose interval reaches further than this (percent) is "can't tell": "no change
 * beyond +-60%" says nothing a user can act on. */
#define VERDICT_NO_CHANGE_MAX_PCT 25.0

/* What a re-measure made of a call (verdict_confirm). */
enum verdict_recheck {
	VERDICT_NOT_RECHECKED,
	VERDICT_CONFIRMED,
	VERDICT_WITHDRAWN,
};

struct verdict {
	enum verdict_kind kind;
	enum verdict_recheck recheck;
	enum verdict_kind first_kind; /* the call before a re-measure withdrew it */
	double delta_pct;       /* change of the median, percent; NAN when it cannot be computed */
	double p;               /* the test's p-value; NAN when not run */
	size_t nbase, ncur;
	double floor_pct;
	int floor_runs;
	int floor_host_paced;
	double floor_before_load_pct; /* on the CPU-time basis, floor_pct before the allowance for other
				       * processes' load (VERDICT_CPU_CONTENTION_PCT); 0 otherwise */
	char why[800];          /* "regression: -12.0% (p=0.002 n=6+6, noise floor 5% from 7 runs)",
				 * "... noise floor 25% by default)", "not compared: ..." */
	/* The verdict every output renders (verdict_categorize): */
	enum verdict_category cat;
	double lo_pct, hi_pct;  /* the change's 95% interval, percent (NAN: none, n < 6 a side) */
	double ci_pct;          /* the change's interval half-width, percent: the two medians'
				 * intervals (verdict_interval_pct) added in quadrature; INFINITY when
				 * either side has too few samples */
	double noise_pct;       /* X: the bound of "no change beyond +-X%" or the noise of "can't tell" */
	char cause[400];        /* can't tell: why ("busy: ...", "too few samples (4+4)") */
	char decide[200];       /* can't tell: what would decide it */
	char text[1200];        /* "slower: -20.0% (-21.5% to -18.6%)", "no change beyond +-3%",
				 * "can't tell: +-40% noise here (cause); would decide: ..." */
	int cpu_basis;          /* judged on bytes per CPU-second: a side was busy (verdict_input) */
	char basis_note[96];    /* then "judged on CPU time: busy 93%", which text and why end with;
				 * or, with cpu_basis 0, "not judged on CPU time: CPUs allowed 2 -> 1"
				 * (verdict_input.cpu_basis_off) */
};

void verdict_decide(const struct verdict_input *in, struct verdict *out);

/* Fills v's category, interval, noise, cause, decide and text from its kind, why, delta, floor and
 * ci_pct.  Called by verdict_decide and verdict_confirm. */
void verdict_categorize(struct verdict *v);
/* The verdict in a line beside its why (which already names a can't-tell's cause): v->text, or
 * "can't tell: ±X% noise here; would decide: ..." */
void verdict_summary(const struct verdict *v, char *buf, size_t len);
/* "called", "no change", "can't tell" */
const char *verdict_category_name(enum verdict_category c);

/* A call checked against a re-measure.  first: the call from the run's own samples; again: the
 * same baseline samples against the samples measured again afterwards (same floor, the
 * re-measure's own busy flags).  Confirmed when again is the same call (the figures stay
 * first's); otherwise withdrawn: unchanged when again saw no change beyond noise, not compared
 * when it could not tell (busy, too few samples) or called the other way.  The why names both. */
void verdict_confirm(const struct verdict *first, const struct verdict *again, struct verdict *out);

/* "5% from 7 runs", "25% by default" or "300% for a virtual machine's storage": where a floor
 * comes from, for the why lines. */
void verdict_floor_text(double floor_pct, int floor_runs, int host_paced, char *buf, size_t len);
/* The same as a word for JSON: "history", "default" or "host-paced". */
const char *verdict_floor_source(int floor_runs, int host_paced);

/* "regression", "improvement", "changed", "unchanged", "not compared" */
const char *verdict_kind_name(enum verdict_kind k);
/* 1 for the kinds that are calls (regression, improvement, changed). */
int verdict_is_call(enum verdict_kind k);

/* The noise floor in percent from the medians of k earlier runs of the same benchmark:
 * default_pct while k < VERDICT_HISTORY_MIN; then their spread as a factor with a margin of the
 * spread again, capped at VERDICT_FLOOR_MARGIN: (hi/lo) * min(hi/lo, 1.25) - 1 (a new pair's
 * difference stays inside it unless something changed), at least VERDICT_FLOOR_MIN_PCT.
 * medians is not modified. */
double verdict_floor_from_history(const double *medians, size_t k, double default_pct);

/* benchstat's "± x%" as a number: max(hi/median - 1, 1 - lo/median) * 100 of the 95% interval
 * of x[0..n); INFINITY when the interval is not finite (n < 6) or the median is not positive. */
double verdict_interval_pct(const double *x, size_t n);

#endif
