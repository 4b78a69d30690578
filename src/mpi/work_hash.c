/* hash under MPI: every rank hashes its own stream of random bytes (CPU only, no target);
 * the aggregate is the machine's or the cluster's hashing capacity. */
#include "mpi/workload.h"
#include "hash/bench.h"
#include "hash/cpufeat.h"
#include "hash/record.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hash_state {
	enum hash_algo algos[8];
	unsigned nalgos, threads;
	uint64_t size, block;
};

/* The process's one hash workload (a command runs once): the option table points at it. */
static struct hash_state hash;

static void *hash_create(void)
{
	struct hash_state *s = &hash;
	memset(s, 0, sizeof *s);
	s->algos[0] = HASH_BLAKE3;
	s->algos[1] = HASH_SHA256;
	s->nalgos = 2;
	s->threads = 1;
	s->size = 256ull << 20;
	s->block = 256 << 10;
	return s;
}

/* --algo LIST: a phase per hash. */
static void parse_algos(const struct opt_iter *it, void *state)
{
	struct hash_state *s = state;
	char err[256];
	int cnt;
	char **v = opt_list(it, 8, "hashes", &cnt);
	s->nalgos = 0;
	for (int i = 0; i < cnt; i++) {
		if (hash_algo_parse(v[i], &s->algos[s->nalgos++]) < 0) {
			snprintf(err, sizeof err, "\"%s\": expected blake3, sha256 or none", v[i]);
			free_strv(v);
			opt_bad_value(it, err);
		}
	}
	free_strv(v);
}

static void hash_positional(const char *word, void *state)
{
	nm_usage_fail("unexpected argument \"%s\" (see 'nodemark-mpi hash --help')", word);
}

/* nodemark hash's names; --threads is one count here (a rank's threads), not a list. */
static const struct cli_option hash_options[] = {
	CLI_CALL("algo", parse_algos, &hash, CLI_HELP("LIST", "blake3, sha256, none (default blake3,sha256)")),
	CLI_SIZE("size", &hash.size, .min = 1, CLI_HELP("SIZE", "bytes per rank (default 256MiB)")),
	CLI_SIZE("block", &hash.block, .min = 1, .max = 1ull << 30,
		 CLI_HELP("SIZE", "bytes per update call (default 256KiB)")),
	CLI_UINT("threads", &hash.threads, 1, 1024, CLI_HELP("N", "threads per rank (default 1)")),
	CLI_END,
};

static void hash_check(void *st, struct work_ctx *ctx)
{
	(void)st;
	if (ctx->shared_file)
		nm_usage_fail("--shared-file: hash has no target file");
}

static int hash_prepare(void *st, struct work_ctx *ctx, char *err, size_t errlen)
{
	return 0;
}

static unsigned hash_nphases(void *st)
{
	return ((struct hash_state *)st)->nalgos;
}

static void hash_run(void *st, struct work_ctx *ctx, unsigned phase, struct work_phase *out)
{
	struct hash_state *s = st;
	struct hash_bench_plan plan = {
		.algo = s->algos[phase], .size = s->size, .block = (size_t)s->block, .threads = s->threads,
	};
	struct hash_bench_result r;
	hash_bench_name(&plan, out->name, sizeof out->name);
	hash_settings(out->settings, &plan);
	json_object_set_new(out->settings, "bytes", json_integer((json_int_t)plan.size));
	out->unit = "B";
	out->start_ns = clock_now_ns();
	if (hash_bench(&plan, &r, out->errmsg, sizeof out->errmsg) < 0) {
		out->status = NM_EXIT_FAILED;
		return;
	}
	out->end_ns = clock_now_ns();
	out->bytes = r.bytes;
	out->ops = r.bytes / s->block;
}

static void hash_finish(void *st, struct work_ctx *ctx)
{
}

const struct workload work_hash = {
	.name = "hash",
	.usage = "usage: nodemark-mpi hash [options]\n"
		 "\n"
		 "Every rank hashes --size bytes of random data in --block updates on --threads threads,\n"
		 "one phase per hash; the aggregate is the total bytes over the slowest rank's end.\n"
		 "\n"
		 "Options:\n",
	.options = hash_options,
	.create = hash_create,
	.positional = hash_positional,
	.check = hash_check,
	.prepare = hash_prepare,
	.nphases = hash_nphases,
	.run = hash_run,
	.finish = hash_finish,
};
