/* The re-measure behind `run`'s confirmed calls: some benches of a finished run measured again,
 * in rounds where they take turns (suite/suite.h, suite_remeasure). */
#include "suite/suite.h"
#include "suite/phase.h"
#include "proc/noise.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/workdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append the samples of every metric of the round's bench to the same bench of into, and their
 * CPU time (extra.cpu_time) where the round kept it. */
static void keep_samples(const struct record *round, const struct bench *from, struct record *into)
{
	json_t *ct = json_object_get(json_object_get(round->extra, "cpu_time"), from->name);
	const char *of = json_string_value(json_object_get(ct, "metric"));
	json_t *wall = json_object_get(ct, "wall_s"), *cpu = json_object_get(ct, "cpu_s");
	for (size_t k = 0; of && k < json_array_size(wall) && k < json_array_size(cpu); k++)
		record_add_cpu_sample(into, from->name, of, (unsigned)json_integer_value(json_object_get(ct, "threads")),
				      json_number_value(json_array_get(wall, k)), json_number_value(json_array_get(cpu, k)));
	struct bench *b = record_find_bench(into, from->name);
	if (!b) {
		b = record_add_bench(into, from->name);
		bench_set(b, "phase", json_deep_copy(json_object_get(from->settings, "phase")));
	}
	for (size_t i = 0; i < from->nmetrics; i++) {
		const struct metric *m = from->metrics[i];
		struct metric *to = bench_metric(b, m->name, m->unit, m->direction);
		for (size_t k = 0; k < m->nsamples; k++)
			metric_add(to, m->samples[k]);
	}
}

/* One round: each phase involved runs once, restricted to its benches, into a scratch record
 * whose samples are then kept. */
static int one_round(struct suite_ctx *c, const struct bench *const *benches, size_t n, struct record *into,
		     char *err, size_t errlen)
{
	const char *names[64];
	const char *done[8];
	size_t ndone = 0;
	for (size_t i = 0; i < n; i++) {
		const char *phase = bench_phase(benches[i]);
		int seen = 0;
		for (size_t k = 0; k < ndone; k++)
			seen |= strcmp(done[k], phase) == 0;
		const struct suite_phase *p = suite_phase_find(phase);
		if (seen || !p || ndone == 8)
			continue;
		done[ndone++] = phase;
		size_t nn = 0;
		for (size_t k = i; k < n && nn < 64; k++)
			if (strcmp(bench_phase(benches[k]), phase) == 0)
				names[nn++] = benches[k]->name;

		char *argv[] = { "run" };
		struct record *scratch = record_new("run", 1, argv);
		json_object_set_new(scratch->extra, "run", json_pack("{s:s, s:s, s:b}", "dir", c->opts->dir, "mode",
								       suite_mode_name(c->opts->mode), "remeasure", 1));
		c->rec = scratch;
		c->phase = p->name;
		c->only_benches = names;
		c->nonly = nn;
		c->phase_start_ns = clock_now_ns();
		c->phase_expect_s = p->expect_s[c->opts->mode] / 2;
		int st = p->run(c, err, errlen);
		progress_clear();
		for (size_t k = 0; k < scratch->nbenches; k++)
			if (suite_wants_bench(c, scratch->benches[k]->name))
				keep_samples(scratch, scratch->benches[k], into);
		record_free(scratch);
		c->rec = into;
		if (st == 0 && cleanup_interrupted())
			st = NM_EXIT_INTERRUPTED;
		if (st)
			return st;
	}
	return 0;
}

int suite_remeasure(const struct suite_opts *o, const struct bench *const *benches, size_t n, unsigned rounds,
		    unsigned per_round, struct record *into)
{
	char workdir[4096], err[1024];
	struct suite_ctx c = { .opts = o, .rec = into, .workdir = workdir, .round_samples = per_round };
	if (workdir_create(o->dir, workdir, sizeof workdir, err, sizeof err) < 0) {
		nm_error("%s", err);
		return NM_EXIT_FAILED;
	}
	struct noise_monitor m;
	noise_start(&m, noise_procroot(), 1000);
	int st = 0;
	c.count = rounds;
	for (unsigned r = 0; r < rounds && !st; r++) {
		c.index = r + 1;
		if (!progress_live())
			fprintf(stderr, "[re-measure %u/%u]\n", r + 1, rounds);
		err[0] = '\0';
		st = one_round(&c, benches, n, into, err, sizeof err);
	}
	struct noise_figures f;
	if (noise_stop(&m, &f) == 0)
		for (size_t i = 0; i < n; i++)
			if (!json_object_get(json_object_get(into->extra, "noise"), bench_phase(benches[i])))
				noise_record(into, bench_phase(benches[i]), &f);
	cleanup_now(workdir);
	if (st && st != NM_EXIT_INTERRUPTED)
		nm_error("re-measure: %s", *err ? err : "failed");
	return st == NM_EXIT_INTERRUPTED ? 130 : st ? 1 : 0;
}
