#include "test.h"
#include "stats/verdict.h"

#include <string.h>

static const double base6[] = { 100, 101, 99, 100.5, 99.5, 100.2 };
static const double slow6[] = { 80, 81, 79, 80.5, 79.5, 80.2 };     /* -20%, no overlap */
static const double near6[] = { 98, 99, 97, 98.5, 97.5, 98.2 };     /* -2%, no overlap */
static const double half6[] = { 50, 50.5, 49.5, 50.25, 49.75, 50.1 }; /* -50% */

static struct verdict decide(const double *a, size_t na, const double *b, size_t nb, double floor_pct,
			     const char *busy_a, const char *busy_b)
{
	struct verdict_input in = { .base = a, .cur = b, .nbase = na, .ncur = nb, .direction = 1, .alpha = 0.05,
				    .floor_pct = floor_pct, .base_busy = busy_a, .cur_busy = busy_b };
	struct verdict v;
	verdict_decide(&in, &v);
	return v;
}

TEST(verdict_calls_a_change_beyond_the_floor_with_the_right_sign)
{
	struct verdict v = decide(base6, 6, slow6, 6, 10, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_REGRESSION);
	CHECK(verdict_is_call(v.kind));
	CHECK_NEAR(v.delta_pct, -20, 0.1);
	CHECK(v.p < 0.01);
	CHECK(strstr(v.why, "regression: -20.0%") != NULL);
	v = decide(slow6, 6, base6, 6, 10, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_IMPROVEMENT);
	/* lower is better: the same samples are an improvement of latency */
	struct verdict_input in = { .base = base6, .cur = slow6, .nbase = 6, .ncur = 6, .direction = -1, .alpha = 0.05,
				    .floor_pct = 10 };
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_IMPROVEMENT);
	in.direction = 0;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_CHANGED);
}

TEST(verdict_a_significant_change_inside_the_floor_is_unchanged)
{
	struct verdict v = decide(base6, 6, near6, 6, 5, NULL, NULL);
	CHECK(v.p < 0.05); /* benchstat would call it */
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	CHECK(strstr(v.why, "within the noise floor (5% by default)") != NULL);
	/* the same change over a floor of 1% is a call */
	v = decide(base6, 6, near6, 6, 1, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_REGRESSION);
}

TEST(verdict_says_where_the_floor_came_from)
{
	struct verdict_input in = { .base = base6, .cur = slow6, .nbase = 6, .ncur = 6, .direction = 1, .alpha = 0.05,
				    .floor_pct = 3, .floor_runs = VERDICT_HISTORY_MIN + 2 };
	struct verdict v;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.floor_runs, VERDICT_HISTORY_MIN + 2);
	CHECK(strstr(v.why, "noise floor 3% from 7 runs)") != NULL);
	in.floor_runs = VERDICT_HISTORY_MIN - 1; /* too few: the floor given is the default */
	verdict_decide(&in, &v);
	CHECK(strstr(v.why, "noise floor 3% by default)") != NULL);
}

TEST(verdict_busy_runs_are_not_compared_and_say_why)
{
	struct verdict v = decide(base6, 6, slow6, 6, 10, NULL, "this run's hash phase ran on a busy machine");
	CHECK_EQ_INT(v.kind, VERDICT_NOT_COMPARED);
	CHECK(!verdict_is_call(v.kind));
	CHECK_EQ_STR(v.why, "not compared: this run's hash phase ran on a busy machine");
	CHECK_NEAR(v.delta_pct, -20, 0.1); /* the change is still shown */
	v = decide(base6, 6, slow6, 6, 10, "the baseline was busy", "this run was busy");
	CHECK_EQ_STR(v.why, "not compared: the baseline was busy; this run was busy");
}

TEST(verdict_four_samples_are_too_few_even_at_the_smallest_p)
{
	/* n=4 each, fully separated: benchstat's p=0.029 "significant" */
	struct verdict_input in = { .base = base6, .cur = slow6, .nbase = 4, .ncur = 4, .direction = 1, .alpha = 0.05,
				    .floor_pct = 10, .short_why = "the time budget ran out" };
	struct verdict v;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_NOT_COMPARED);
	CHECK(strstr(v.why, "too few samples (4+4; a call needs 6 each: the time budget ran out)") != NULL);
}

TEST(verdict_not_significant_is_unchanged)
{
	static const double a[] = { 1, 3, 5, 7, 9, 11 }, b[] = { 2, 4, 6, 8, 10, 12 };
	struct verdict v = decide(a, 6, b, 6, 1, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	CHECK(v.p > 0.05);
	CHECK(strstr(v.why, "not significant") != NULL);
	static const double same[] = { 5, 5, 5, 5, 5, 5 };
	v = decide(same, 6, same, 6, 1, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
}

TEST(verdict_floor_from_history_needs_enough_runs)
{
	static const double m[] = { 100, 102, 98, 101, 99 };
	CHECK_NEAR(verdict_floor_from_history(m, 4, 10), 10, 0);     /* too few: the default */
	CHECK_NEAR(verdict_floor_from_history(m, 5, 10), (102.0 / 98 * 102 / 98 - 1) * 100, 1e-9); /* 8.3% */
	static const double flat[] = { 100, 100, 100, 100, 100 };
	CHECK_NEAR(verdict_floor_from_history(flat, 5, 10), VERDICT_FLOOR_MIN_PCT, 0);
	static const double noisy[] = { 100, 140, 70, 100, 110 };
	CHECK_NEAR(verdict_floor_from_history(noisy, 5, 10), 150, 1e-9); /* 140/70 * 1.25 - 1: noisier than the default */
}

TEST(verdict_floor_is_a_factor_either_way)
{
	/* one slowdown by half: throughput -50%, latency +100%; both are a factor of 2, so both meet
	 * a 60% floor the same way (as percent changes, only the latency's would) */
	static const double mbs[] = { 100, 101, 99, 100.5, 99.5, 100.2 }, half[] = { 50, 50.5, 49.5, 50.2, 49.8, 50.1 };
	static const double ms[] = { 1, 1.01, 0.99, 1.005, 0.995, 1.002 }, twice[] = { 2, 2.02, 1.98, 2.01, 1.99, 2.004 };
	struct verdict v = decide(mbs, 6, half, 6, 60, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_REGRESSION);
	CHECK_NEAR(v.delta_pct, -50, 0.5); /* shown as benchstat shows it */
	struct verdict_input in = { .base = ms, .cur = twice, .nbase = 6, .ncur = 6, .direction = -1, .alpha = 0.05,
				    .floor_pct = 60 };
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_REGRESSION);
	CHECK_NEAR(v.delta_pct, 100, 1);
	/* and both stay inside a floor of a factor above 2 */
	v = decide(mbs, 6, half, 6, 110, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	in.floor_pct = 110;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
}

TEST(verdict_interval_pct_is_benchstats_range)
{
	static const double x[] = { 100, 101, 99, 100.5, 99.5, 100.2 };
	CHECK(isinf(verdict_interval_pct(x, 5)));
	/* n=6 at 95%: the interval is [min, max]; median 100.1 */
	CHECK_NEAR(verdict_interval_pct(x, 6), 100 * (1 - 99 / 100.1), 1e-9);
}

/* Issue 27 item 5: every row ends in one of three categories, each with its reason. */
TEST(verdict_category_called_has_direction_and_interval)
{
	struct verdict v = decide(base6, 6, slow6, 6, 10, NULL, NULL);
	CHECK_EQ_INT(v.cat, VERDICT_CAT_CALLED);
	CHECK_EQ_STR(verdict_category_name(v.cat), "called");
	/* each side's interval is its [min, max] at n=6: about 1%, so the change's about +-1.4% */
	CHECK(v.lo_pct < v.delta_pct && v.delta_pct < v.hi_pct);
	CHECK_NEAR(v.hi_pct - v.lo_pct, 2 * v.ci_pct, 1e-9);
	CHECK(v.ci_pct > 1 && v.ci_pct < 2);
	CHECK(strncmp(v.text, "worse: -20.0% (95% interval -2", 30) == 0);
	v = decide(slow6, 6, base6, 6, 10, NULL, NULL);
	CHECK(strncmp(v.text, "better: +", 9) == 0);
}

TEST(verdict_category_no_change_bounds_the_change)
{
	/* -2%, significant, inside a 5% floor: the interval rules out more than about 4% */
	struct verdict v = decide(base6, 6, near6, 6, 5, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	CHECK_EQ_INT(v.cat, VERDICT_CAT_NO_CHANGE);
	CHECK_NEAR(v.noise_pct, ceil(fabs(v.delta_pct) + v.ci_pct), 0);
	CHECK_EQ_STR(v.text, "no change beyond ±4%");
	CHECK_EQ_STR(v.cause, "");
}

TEST(verdict_category_cant_tell_wide_samples)
{
	/* not significant, but the samples spread over a factor of 10: nothing is ruled out */
	static const double a[] = { 1, 3, 5, 7, 9, 11 }, b[] = { 2, 4, 6, 8, 10, 12 };
	struct verdict v = decide(a, 6, b, 6, 1, NULL, NULL);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	CHECK_EQ_INT(v.cat, VERDICT_CAT_CANT_TELL);
	CHECK(v.noise_pct > VERDICT_NO_CHANGE_MAX_PCT);
	CHECK_CONTAINS(v.cause, "spread too widely");
	CHECK_CONTAINS(v.decide, "more samples (--runs");
	/* the noise as a figure up to ±100%, past it said so (stats_noise_text) */
	CHECK(strncmp(v.text, v.noise_pct > 100 ? "can't tell: noise past ±100% here" : "can't tell: ±",
		      v.noise_pct > 100 ? 34 : 14) == 0);
}

TEST(verdict_category_cant_tell_names_cause_and_what_decides)
{
	struct verdict v = decide(base6, 6, slow6, 6, 10, NULL,
				  "new: the hash phase ran on a busy machine (other processes used 93% of the CPUs)");
	CHECK_EQ_INT(v.cat, VERDICT_CAT_CANT_TELL);
	CHECK_EQ_STR(v.cause, "new: the hash phase ran on a busy machine (other processes used 93% of the CPUs)");
	CHECK_CONTAINS(v.decide, "a quiet window");
	CHECK_CONTAINS(v.text, "noise here (new: the hash phase ran on a busy machine (other processes used 93%");
	v = decide(base6, 6, slow6, 6, 10, NULL, "new: the disk phase ran on a busy machine (hypervisor steal 12%)");
	CHECK_CONTAINS(v.decide, "a quieter machine");
	/* too few samples */
	struct verdict_input in = { .base = base6, .cur = slow6, .nbase = 4, .ncur = 4, .direction = 1, .alpha = 0.05,
				    .floor_pct = 10 };
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.cat, VERDICT_CAT_CANT_TELL);
	CHECK_CONTAINS(v.cause, "too few samples (4+4");
	CHECK_CONTAINS(v.decide, "--runs");
	CHECK_NEAR(v.noise_pct, 10, 0); /* no interval at n=4: the floor is the noise known here */
	/* a virtual machine's storage: unchanged samples still cannot rule out the host's jumps */
	in.nbase = in.ncur = 6;
	in.cur = near6;
	in.floor_pct = 300;
	in.floor_host_paced = 1;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	CHECK_EQ_INT(v.cat, VERDICT_CAT_CANT_TELL);
	CHECK_CONTAINS(v.cause, "virtual machine's storage");
	CHECK_CONTAINS(v.decide, "`disk A B`");
	CHECK_CONTAINS(v.text, "can't tell: noise past ±100% here"); /* not "±300%" */
}

/* A busy row with CPU time on both sides is judged on it (issue 27 item 9): the wall-clock
 * samples below fell 20% (another process took the CPU), the CPU-basis ones did not move. */
TEST(verdict_busy_with_cpu_time_is_judged_on_cpu_time)
{
	const char *busy = "new: the hash phase ran on a busy machine (other processes used 93% of the CPUs)";
	struct verdict_input in = { .base = base6, .cur = slow6, .nbase = 6, .ncur = 6, .direction = 1, .alpha = 0.05,
				    .floor_pct = 10, .cur_busy = busy, .base_cpu = base6, .cur_cpu = near6,
				    .cpu_busy = "busy 93%" };
	struct verdict v;
	verdict_decide(&in, &v);
	CHECK(v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);    /* -2% on CPU time, inside the floor */
	CHECK_NEAR(v.delta_pct, -2, 0.1);
	CHECK_CONTAINS(v.why, "within the noise floor");
	CHECK_CONTAINS(v.why, "; judged on CPU time: busy 93% (new: the hash phase ran on a busy machine");
	CHECK_EQ_INT(v.cat, VERDICT_CAT_NO_CHANGE);
	CHECK_CONTAINS(v.text, "no change beyond ±");
	CHECK_CONTAINS(v.text, "(judged on CPU time: busy 93%)");
	/* a real change of the CPU cost is still called, by the same rules, past the floor widened
	 * for the load: 10% floor x 1.4 = 54%, which a halving passes */
	in.cur_cpu = half6;
	verdict_decide(&in, &v);
	CHECK(v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_REGRESSION);
	CHECK_NEAR(v.floor_pct, 54, 1e-9);
	CHECK_NEAR(v.floor_before_load_pct, 10, 1e-9);
	CHECK_CONTAINS(v.why, "noise floor 54%: 10% by default, widened by 40% for other processes' load");
	CHECK_CONTAINS(v.text, "worse: -50.0%");
	CHECK_CONTAINS(v.text, "(judged on CPU time: busy 93%)");
	/* -20% per CPU-second is what another process's caches and clock can do to a busy run
	 * (bench/cpu-basis.sh): inside the widened floor, not called; on a quiet pair the same
	 * samples with a 10% floor are a regression */
	in.cur_cpu = slow6;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	CHECK_CONTAINS(v.why, "-20.0% is within the noise floor (54%: 10% by default, widened by 40%");
	CHECK_CONTAINS(v.text, "no change beyond ±22%"); /* |-20%| and its interval: the most it can be */
	/* -25%: past what "no change" may claim, inside the widened floor: can't tell, and why */
	static const double slow25[] = { 75, 75.75, 74.25, 75.4, 74.6, 75.15 };
	in.cur_cpu = slow25;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.cat, VERDICT_CAT_CANT_TELL);
	CHECK_CONTAINS(v.cause, "noise floor between runs (54%: 10% by default, widened by 40% for other processes' load)");
	in.cur_cpu = slow6;
	struct verdict_input quiet = { .base = base6, .cur = slow6, .nbase = 6, .ncur = 6, .direction = 1,
				       .alpha = 0.05, .floor_pct = 10 };
	struct verdict q;
	verdict_decide(&quiet, &q);
	CHECK_EQ_INT(q.kind, VERDICT_REGRESSION);
	CHECK_NEAR(q.floor_before_load_pct, 0, 0);
	/* the floor from history is of quiet runs' own samples: on CPU time, never below the
	 * metric's default (then widened for the load) */
	in.floor_pct = 5;
	in.floor_runs = VERDICT_HISTORY_MIN + 2;
	in.cpu_floor_pct = 35;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	CHECK_NEAR(v.floor_pct, (1.35 * 1.4 - 1) * 100, 1e-9);
	CHECK_CONTAINS(v.why, "-20.0% is within the noise floor (89%: 35% by default, widened by 40% for other "
			      "processes' load); judged on CPU time");
	/* too few samples is too few on either basis */
	in.nbase = in.ncur = 4;
	verdict_decide(&in, &v);
	CHECK_EQ_INT(v.kind, VERDICT_NOT_COMPARED);
	CHECK_CONTAINS(v.why, "too few samples");
	/* what decides it is more samples: the busy reasons were left out by the basis */
	CHECK_CONTAINS(v.cause, "too few samples (4+4");
	CHECK(strstr(v.cause, "busy machine") == NULL);
	CHECK_CONTAINS(v.decide, "--runs");
	char sum[600];
	verdict_summary(&v, sum, sizeof sum);
	CHECK_CONTAINS(sum, "(judged on CPU time: busy 93%)");
}

/* The CPU-time basis leaves other processes' load out, and with it the CPUs a run's threads could
 * use: two busy runs allowed different numbers of CPUs (taskset -c 0 under a 2-thread figure) are
 * judged on their wall-clock samples as usual, busy ones not compared, and the why says why the
 * CPU time was not used (bytes per CPU-second would read the halving as no change). */
TEST(verdict_changed_cpu_set_is_not_judged_on_cpu_time)
{
	const char *busy = "new: the hash phase ran on a busy machine (other processes used 93% of the CPUs)";
	struct verdict_input in = { .base = base6, .cur = slow6, .nbase = 6, .ncur = 6, .direction = 1, .alpha = 0.05,
				    .floor_pct = 10, .cur_busy = busy, .base_cpu = base6, .cur_cpu = near6,
				    .cpu_busy = "busy 93%", .cpu_basis_off = "CPUs allowed 2 -> 1" };
	struct verdict v;
	verdict_decide(&in, &v);
	CHECK(!v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_NOT_COMPARED);
	CHECK_EQ_STR(v.why, "not compared: new: the hash phase ran on a busy machine (other processes used 93% of the "
			    "CPUs); not judged on CPU time: CPUs allowed 2 -> 1 (bytes per CPU-second do not see how "
			    "many CPUs the threads could use)");
	CHECK_EQ_STR(v.basis_note, "not judged on CPU time: CPUs allowed 2 -> 1");
	CHECK_EQ_INT(v.cat, VERDICT_CAT_CANT_TELL);
	/* the cause is the busy run; the note is said once, at the end */
	CHECK_EQ_STR(v.cause, "new: the hash phase ran on a busy machine (other processes used 93% of the CPUs)");
	CHECK_CONTAINS(v.decide, "a quiet window");
	CHECK_CONTAINS(v.text, "; would decide: a quiet window");
	CHECK_CONTAINS(v.text, " (not judged on CPU time: CPUs allowed 2 -> 1)");
	char sum[600];
	verdict_summary(&v, sum, sizeof sum);
	CHECK_CONTAINS(sum, "(not judged on CPU time: CPUs allowed 2 -> 1)");
	/* the same pair with the same CPUs: judged on CPU time (-2%, no change) */
	in.cpu_basis_off = NULL;
	verdict_decide(&in, &v);
	CHECK(v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_UNCHANGED);
	/* quiet runs with different CPUs: judged on their samples as always, nothing to note */
	in.cpu_basis_off = "CPUs allowed 2 -> 1";
	in.cur_busy = NULL;
	verdict_decide(&in, &v);
	CHECK(!v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_REGRESSION);
	CHECK_EQ_STR(v.basis_note, "");
	CHECK(strstr(v.why, "CPU time") == NULL);
}

TEST(verdict_busy_without_cpu_time_is_not_compared_as_before)
{
	const char *busy = "new: the hash phase ran on a busy machine (other processes used 93% of the CPUs)";
	struct verdict_input in = { .base = base6, .cur = slow6, .nbase = 6, .ncur = 6, .direction = 1, .alpha = 0.05,
				    .floor_pct = 10, .cur_busy = busy, .base_cpu = base6, .cpu_busy = "busy 93%" };
	struct verdict v;
	verdict_decide(&in, &v); /* one side without CPU time (an older record) */
	CHECK(!v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_NOT_COMPARED);
	CHECK_EQ_STR(v.why, "not compared: new: the hash phase ran on a busy machine (other processes used 93% of the CPUs)");
	CHECK(strstr(v.text, "CPU time") == NULL);
	/* CPU time on both sides, but a cause it does not leave out (steal: no cpu_busy) */
	in.cur_cpu = near6;
	in.cpu_busy = NULL;
	verdict_decide(&in, &v);
	CHECK(!v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_NOT_COMPARED);
	/* quiet runs are judged on their own samples, CPU time or not */
	in.cur_busy = NULL;
	in.cpu_busy = "busy 93%";
	verdict_decide(&in, &v);
	CHECK(!v.cpu_basis);
	CHECK_EQ_INT(v.kind, VERDICT_REGRESSION);
	CHECK_NEAR(v.delta_pct, -20, 0.1);
}
