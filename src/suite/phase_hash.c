/* The hash phase: BLAKE3 and SHA-256 on one thread and on every CPU, the same figures as
 * `nodemark hash` (bench names hash/<algo>/<threads>t), each pass sized to take a fixed time; the thread counts of an algorithm are sampled in turns. */
#include "suite/phase.h"
#include "hash/bench.h"
#include "hash/cpufeat.h"
#include "hash/record.h"
#include "util/clock.h"
#include "util/cleanup.h"
#include "util/randfill.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define DATA (16u << 20)

static double pass_seconds(const struct suite_ctx *c)
{
	return c->opts->mode == SUITE_QUICK ? 0.2 : c->opts->mode == SUITE_FULL ? 1.0 : 0.5;
}

/* Seconds one figure may take, beyond which it stops with the samples it has. */
static double budget_seconds(const struct suite_ctx *c)
{
	return c->opts->mode == SUITE_QUICK ? 3 : c->opts->mode == SUITE_FULL ? 40 : 8;
}

/* One figure of the phase: an algorithm on a thread count. */
struct hash_figure {
	struct hash_bench_plan plan;
	struct bench *b;
	struct metric *m;
};

/* A first small pass sizes the measured ones (and warms up); then the bench and its metric. */
static int figure_setup(struct suite_ctx *c, struct hash_figure *f, const char *name, char *err, size_t errlen)
{
	struct hash_bench_result r;
	if (hash_bench(&f->plan, &r, err, errlen) < 0)
		return -1;
	double size = r.bytes_per_sec * pass_seconds(c);
	f->plan.size = size < (8 << 20) ? 8 << 20 : size > (8ull << 30) ? 8ull << 30 : (uint64_t)size;
	f->b = suite_bench(c, name);
	hash_settings(f->b->settings, &f->plan);
	f->m = bench_metric(f->b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	return 0;
}

/* One algorithm: its thread counts take turns, a sample of each per round, so that the
 * machine's drift between minutes (20% on a VM's single thread) falls on all of them alike and
 * the Nt/1t ratio is the scaling, not the moment each was measured. */
static int algo_run(struct suite_ctx *c, enum hash_algo algo, const unsigned *threads, unsigned nthreads,
		    void *data, unsigned *step, unsigned steps, char *err, size_t errlen)
{
	struct hash_figure fig[2];
	struct metric *ms[2];
	unsigned n = 0;
	struct suite_sampler smp;
	suite_sampler_start(c, &smp, NULL, 0);
	for (unsigned t = 0; t < nthreads; t++) {
		char name[64];
		fig[n].plan = (struct hash_bench_plan){
			.algo = algo, .block = 256 << 10, .threads = threads[t],
			.data = data, .data_len = DATA, .size = 8u << 20,
		};
		hash_bench_name(&fig[n].plan, name, sizeof name);
		if (!suite_wants_bench(c, name))
			continue;
		suite_progress(c, (double)*step / steps, "%s on %u thread%s", hash_algo_name(algo), threads[t],
			       threads[t] == 1 ? "" : "s");
		if (figure_setup(c, &fig[n], name, err, errlen) < 0)
			return 1;
		if (n == 0)
			suite_sampler_start(c, &smp, name, 0);
		else
			suite_sampler_also(c, &smp, name);
		ms[n] = fig[n].m;
		n++;
	}
	if (!n)
		return 0;
	smp.budget_s = budget_seconds(c) * n; /* each figure's budget, shared by the turns */
	smp.start_ns = clock_now_ns();
	while (suite_sampler_more_all(&smp, ms, n)) {
		for (unsigned i = 0; i < n; i++) {
			struct hash_bench_result r;
			if (cleanup_interrupted())
				return 130;
			if (hash_bench(&fig[i].plan, &r, err, errlen) < 0)
				return 1;
			metric_add(fig[i].m, r.bytes_per_sec);
			record_add_cpu_sample(c->rec, fig[i].b->name, fig[i].m->name, fig[i].plan.threads, r.seconds,
					      r.cpu_seconds);
		}
		suite_progress(c, (*step + (double)fig[0].m->nsamples / smp.max) / steps, "%s on %s", hash_algo_name(algo),
			       n > 1 ? "1 thread and all CPUs, in turns" : fig[0].plan.threads == 1 ? "1 thread" : "all CPUs");
	}
	for (unsigned i = 0; i < n; i++)
		suite_sampler_save(c, fig[i].b, &smp, fig[i].m);
	(*step)++;
	return 0;
}

static int hash_run(struct suite_ctx *c, char *err, size_t errlen)
{
	static const enum hash_algo algos[] = { HASH_BLAKE3, HASH_SHA256 };
	unsigned ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	unsigned threads[2] = { 1, ncpu };
	unsigned nthreads = ncpu > 1 ? 2 : 1, step = 0;
	void *data = malloc(DATA);
	int rc = 0;

	if (!data)
		return snprintf(err, errlen, "out of memory"), 1;
	rand_fill(data, DATA, 42);
	for (unsigned a = 0; a < 2 && !rc; a++)
		rc = algo_run(c, algos[a], threads, nthreads, data, &step, 2, err, errlen);
	free(data);
	return rc;
}

const struct suite_phase suite_phase_hash = {
	"hash", "BLAKE3 and SHA-256 throughput", { 3, 12, 45 }, hash_run,
};
