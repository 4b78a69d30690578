/* pieces under MPI: every rank writes --count pieces into its own store (DIR/rank-<r>), one
 * phase per hash and sync mode, through the same piece store code as `nodemark pieces`. */
#include "mpi/workload.h"
#include "pieces/record.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST 4

struct pieces_state {
	struct pieces_plan plan;
	enum hash_algo hashes[MAX_LIST];
	unsigned nhashes;
	enum pieces_sync syncs[MAX_LIST];
	unsigned nsyncs;
	char dir[4096];
	char target[4096];
	const char *dirs[1];
	int made_target;
};

/* The process's one pieces workload (a command runs once): the option table points at it. */
static struct pieces_state pieces;

static void *pieces_create(void)
{
	struct pieces_state *s = &pieces;
	memset(s, 0, sizeof *s);
	s->plan.backend = PIECES_FILES;
	s->plan.count = 100;
	s->plan.size = PIECES_DEFAULT_SIZE;
	s->plan.block = PIECES_DEFAULT_BLOCK;
	s->plan.log_limit = PIECES_DEFAULT_LOG_LIMIT;
	s->plan.workers = 1;
	s->hashes[0] = HASH_BLAKE3;
	s->nhashes = 1;
	s->syncs[0] = PIECES_NOSYNC;
	s->nsyncs = 1;
	return s;
}

static int parse_sync(const char *w, enum pieces_sync *out)
{
	if (strcmp(w, "nosync") == 0)
		*out = PIECES_NOSYNC;
	else if (strcmp(w, "sync") == 0)
		*out = PIECES_FSYNC;
	else if (strcmp(w, "syncdata") == 0)
		*out = PIECES_FDATASYNC;
	else
		return -1;
	return 0;
}

/* --hash LIST or --sync LIST (hashes: 1): a phase per hash and sync mode. */
static void parse_list(const struct opt_iter *it, struct pieces_state *s, int hashes)
{
	char err[256];
	int cnt;
	char **v = opt_list(it, MAX_LIST, "items", &cnt);
	for (int i = 0; i < cnt; i++) {
		int bad = hashes ? hash_algo_parse(v[i], &s->hashes[i]) < 0 : parse_sync(v[i], &s->syncs[i]) < 0;
		if (bad) {
			snprintf(err, sizeof err, "\"%s\": expected %s", v[i],
				 hashes ? "blake3, sha256 or none" : "nosync, sync or syncdata");
			free_strv(v);
			opt_bad_value(it, err);
		}
	}
	*(hashes ? &s->nhashes : &s->nsyncs) = (unsigned)cnt;
	free_strv(v);
}

static void parse_hashes(const struct opt_iter *it, void *state)
{
	parse_list(it, state, 1);
}

static void parse_syncs(const struct opt_iter *it, void *state)
{
	parse_list(it, state, 0);
}

static void parse_backend(const struct opt_iter *it, void *backend)
{
	if (pieces_backend_parse(it->arg, backend) < 0)
		opt_bad_value(it, "expected files or log");
}

static void pieces_positional(const char *word, void *state)
{
	struct pieces_state *s = state;
	if (s->dir[0])
		nm_usage_fail("unexpected argument \"%s\": one directory", word);
	snprintf(s->dir, sizeof s->dir, "%s", word);
}

/* nodemark pieces's names; --hash and --sync take lists here, a phase each. */
static const struct cli_option pieces_options[] = {
	CLI_COUNT("count", &pieces.plan.count, 1, 100000000, CLI_HELP("N", "pieces per rank (default 100)")),
	CLI_SIZE("size", &pieces.plan.size, .min = 1, CLI_HELP("SIZE", "bytes per piece (default 2314240)")),
	CLI_SIZE("block", &pieces.plan.block, .min = 1,
		 CLI_HELP("SIZE", "bytes per write and hash update (default 256KiB)")),
	CLI_CALL("hash", parse_hashes, &pieces, CLI_HELP("LIST", "blake3, sha256, none (default blake3)")),
	CLI_CALL("sync", parse_syncs, &pieces, CLI_HELP("LIST", "nosync, sync, syncdata (default nosync)")),
	CLI_CALL("backend", parse_backend, &pieces.plan.backend,
		 CLI_HELP("files|log", "the store layout (default files)")),
	CLI_UINT("workers", &pieces.plan.workers, 1, 1024, CLI_HELP("N", "writer threads per rank (default 1)")),
	CLI_END,
};

static void pieces_check(void *st, struct work_ctx *ctx)
{
	struct pieces_state *s = st;
	workload_check_dir(s->dir, "pieces");
	if (ctx->shared_file)
		nm_usage_fail("--shared-file: pieces writes one file per piece; each rank has its own store");
	ctx->dir = s->dir;
}

static int pieces_prepare(void *st, struct work_ctx *ctx, char *err, size_t errlen)
{
	struct pieces_state *s = st;
	if (workload_rank_dir(s->dir, ctx->rank, s->target, sizeof s->target, &s->made_target, err, errlen) < 0)
		return -1;
	s->dirs[0] = s->target;
	s->plan.dirs = s->dirs;
	s->plan.ndirs = 1;
	return 0;
}

static unsigned pieces_nphases(void *st)
{
	struct pieces_state *s = st;
	return s->nhashes * s->nsyncs;
}

static void pieces_run_phase(void *st, struct work_ctx *ctx, unsigned phase, struct work_phase *out)
{
	struct pieces_state *s = st;
	struct pieces_plan p = s->plan;
	p.hash = s->hashes[phase % s->nhashes];
	p.sync = s->syncs[phase / s->nhashes];
	pieces_bench_name(&p, 1, out->name, sizeof out->name);
	pieces_settings(out->settings, &p);
	out->unit = "B";
	struct pieces_result *r = calloc(1, sizeof *r);
	uint64_t t0 = clock_now_ns();
	int rc = pieces_run(&p, r, out->errmsg, sizeof out->errmsg);
	if (rc != NM_EXIT_OK) {
		out->status = rc == NM_EXIT_INTERRUPTED ? NM_EXIT_INTERRUPTED : NM_EXIT_FAILED;
		free(r);
		return;
	}
	out->bytes = r->write.bytes;
	out->ops = r->write.pieces;
	/* the write phase's own wall time, from the call: setup before it is small */
	out->start_ns = t0;
	out->end_ns = t0 + r->write.ns;
	free(r);
}

static void pieces_finish(void *st, struct work_ctx *ctx)
{
	struct pieces_state *s = st;
	if (s->made_target)
		cleanup_now(s->target);
}

const struct workload work_pieces = {
	.name = "pieces",
	.usage = "usage: nodemark-mpi pieces DIR [options]\n"
		 "\n"
		 "Every rank writes --count pieces into its own piece store in DIR/rank-<r> (created and\n"
		 "removed), one phase per hash and sync mode. The aggregate is the total bytes over\n"
		 "(latest end - earliest start), as IOR computes it; pieces/s too.\n"
		 "\n"
		 "Options:\n",
	.options = pieces_options,
	.create = pieces_create,
	.positional = pieces_positional,
	.check = pieces_check,
	.prepare = pieces_prepare,
	.nphases = pieces_nphases,
	.run = pieces_run_phase,
	.finish = pieces_finish,
};
