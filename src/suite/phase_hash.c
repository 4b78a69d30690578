/* The hash phase: BLAKE3 and SHA-256 on one thread and on every CPU, the same figures as
 * `nodemark hash` (bench names hash/<algo>/<threads>t), each pass sized to take a fixed time. */
#include "suite/phase.h"
#include "hash/bench.h"
#include "hash/cpufeat.h"
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

static int hash_run(struct suite_ctx *c, char *err, size_t errlen)
{
	static const enum hash_algo algos[] = { HASH_BLAKE3, HASH_SHA256 };
	unsigned ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	unsigned threads[2] = { 1, ncpu > 1 ? ncpu : 0 };
	unsigned step = 0, steps = 2 * (threads[1] ? 2 : 1);
	void *data = malloc(DATA);
	int rc = 0;

	if (!data)
		return snprintf(err, errlen, "out of memory"), 1;
	rand_fill(data, DATA, 42);
	for (unsigned a = 0; a < 2 && !rc; a++) {
		for (unsigned t = 0; t < 2 && threads[t] && !rc; t++, step++) {
			struct hash_bench_plan plan = {
				.algo = algos[a], .block = 256 << 10, .threads = threads[t],
				.data = data, .data_len = DATA, .size = 8u << 20,
			};
			struct hash_bench_result r;
			char name[64];
			snprintf(name, sizeof name, "hash/%s/%ut", hash_algo_name(plan.algo), plan.threads);
			if (!suite_wants_bench(c, name))
				continue;
			suite_progress(c, (double)step / steps, "%s on %u thread%s", hash_algo_name(plan.algo),
				       plan.threads, plan.threads == 1 ? "" : "s");
			/* a first small pass sizes the measured ones (and warms up) */
			if (hash_bench(&plan, &r, err, errlen) < 0) {
				rc = 1;
				break;
			}
			double size = r.bytes_per_sec * pass_seconds(c);
			plan.size = size < (8 << 20) ? 8 << 20 : size > (8ull << 30) ? 8ull << 30 : (uint64_t)size;
			struct bench *b = suite_bench(c, name);
			bench_set(b, "algo", json_string(hash_algo_name(plan.algo)));
			bench_set(b, "impl", json_string(hash_impl_name(plan.algo)));
			bench_set(b, "threads", json_integer(plan.threads));
			bench_set(b, "block", json_integer((json_int_t)plan.block));
			struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
			struct suite_sampler smp;
			suite_sampler_start(c, &smp, b->name, budget_seconds(c));
			while (suite_sampler_more(&smp, m)) {
				if (cleanup_interrupted()) {
					rc = 130;
					break;
				}
				if (hash_bench(&plan, &r, err, errlen) < 0) {
					rc = 1;
					break;
				}
				metric_add(m, r.bytes_per_sec);
				suite_progress(c, (step + (double)m->nsamples / smp.max) / steps, "%s on %u thread%s",
					       hash_algo_name(plan.algo), plan.threads, plan.threads == 1 ? "" : "s");
			}
			if (!rc)
				suite_sampler_save(c, b, &smp, m);
		}
	}
	free(data);
	return rc;
}

const struct suite_phase suite_phase_hash = {
	"hash", "BLAKE3 and SHA-256 throughput", { 3, 12, 45 }, hash_run,
};
