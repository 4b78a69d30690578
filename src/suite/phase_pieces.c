/* The pieces phase: a storage node's piece store (files backend) with BLAKE3 and SHA-256,
 * with and without fsync, the same benches as `nodemark pieces` (pieces/files/<hash>/<sync>/write).
 * The four cells take turns, so drift on a busy machine spreads over all of them. */
#include "suite/phase.h"
#include "disk/passes.h"
#include "disk/turns.h"
#include "pieces/record.h"
#include "util/error.h"
#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>

static const enum hash_algo hashes[2] = { HASH_BLAKE3, HASH_SHA256 };
static const enum pieces_sync syncs[2] = { PIECES_NOSYNC, PIECES_FSYNC };

/* cell 0..3: pieces/files/<hash>/<sync>/write */
static struct pieces_plan cell_plan(unsigned cell, const char *const *dirs, uint64_t count)
{
	return (struct pieces_plan){
		.dirs = dirs, .ndirs = 1, .backend = PIECES_FILES, .hash = hashes[cell % 2], .sync = syncs[cell / 2],
		.count = count, .size = PIECES_DEFAULT_SIZE, .block = PIECES_DEFAULT_BLOCK,
		.log_limit = PIECES_DEFAULT_LOG_LIMIT, .workers = 1,
	};
}

/* run --compare-with: each cell's store on DIR and on DIR2, a store of each per round, the order
 * rotated over all of them as disk's passes are (disk_turn_arm), then each cell of DIR2 paired
 * with DIR's from the rounds: arm 2 * cell + side. */
static int run_turns(struct suite_ctx *c, uint64_t count, struct pieces_result *r, char *err, size_t errlen)
{
	const char *dirs[2][1] = { { c->workdir }, { c->workdir2 } };
	const char *users[2] = { c->opts->dir, c->opts->dir2 };
	enum { NARMS = 8 };
	unsigned rounds = c->opts->mode == SUITE_FULL ? 10 : PAIRED_MIN_PAIRS, done = 0;
	double *bps = calloc((size_t)NARMS * rounds, sizeof *bps);
	struct bench *benches[NARMS] = { 0 };
	size_t from = c->rec->nbenches;
	int rc = 0;
	if (!bps)
		return snprintf(err, errlen, "out of memory"), 1;
	for (unsigned i = 0; i < rounds && !rc; i++) {
		for (unsigned k = 0; k < NARMS && !rc; k++) {
			unsigned a = disk_turn_arm(i, k, NARMS), side = a % 2;
			struct pieces_plan p = cell_plan(a / 2, dirs[side], count);
			suite_progress(c, (double)(i * NARMS + k) / (NARMS * rounds), "round %u/%u, %s, %s, %s", i + 1,
				       rounds, hash_algo_name(p.hash), pieces_sync_name(p.sync), side ? "B" : "A");
			if ((rc = pieces_run(&p, r, err, errlen)))
				break;
			if (!benches[a]) {
				char name[128];
				pieces_bench_name(&p, 1, name, sizeof name);
				benches[a] = record_add_bench(c->rec, name);
				bench_set(benches[a], "target", json_string(users[side]));
				bench_set(benches[a], "turns", json_integer(2));
				bench_set(benches[a], "reference", json_string(users[0]));
			}
			pieces_phase_to_bench(&p, &r->write, 1, 0, benches[a]);
			bps[(size_t)a * rounds + i] = pieces_bytes_per_sec(&r->write);
		}
		if (!rc)
			done = i + 1;
	}
	for (unsigned cell = 0; cell < NARMS / 2 && done; cell++) {
		struct paired_result pr;
		struct paired_verdict v;
		paired_ratio(bps + (size_t)(2 * cell) * rounds, bps + (size_t)(2 * cell + 1) * rounds, done, 0.95, &pr);
		paired_decide(&pr, 0, &v);
		if (benches[2 * cell + 1])
			bench_set(benches[2 * cell + 1], "paired", disk_paired_json(users[1], users[0], &pr, &v));
	}
	suite_turns_benches(c, from);
	free(bps);
	return rc;
}

static int pieces_run_phase(struct suite_ctx *c, char *err, size_t errlen)
{
	enum suite_mode m = c->opts->mode;
	uint64_t count = m == SUITE_QUICK ? 12 : m == SUITE_FULL ? 256 : 48;
	const char *dirs[1] = { c->workdir };
	char a[32], b[32];

	uint64_t room = suite_free_bytes(c->workdir);
	if (c->workdir2 && suite_free_bytes(c->workdir2) < room)
		room = suite_free_bytes(c->workdir2);
	if (count * PIECES_DEFAULT_SIZE > room / 2) {
		uint64_t want = count;
		count = room / 2 / PIECES_DEFAULT_SIZE;
		if (count < 2)
			return snprintf(err, errlen, "%s: too little free space for pieces (%s free)", c->opts->dir,
					units_bytes_iec(room, a, sizeof a)), 1;
		suite_note(c, "%llu pieces instead of %llu (%s) to fit the free space", (unsigned long long)count,
			   (unsigned long long)want, units_bytes_iec(want * PIECES_DEFAULT_SIZE, b, sizeof b));
	}
	struct pieces_result *r = malloc(sizeof *r);
	if (!r)
		return snprintf(err, errlen, "out of memory"), 1;
	int rc = 0;
	if (c->workdir2) {
		rc = run_turns(c, count, r, err, errlen);
		free(r);
		return rc == 0 ? 0 : rc == NM_EXIT_INTERRUPTED ? 130 : 1;
	}
	struct suite_sampler smp;
	struct bench *benches[4] = { 0 };
	struct metric *rates[4] = { 0 };
	/* one round gives each cell a sample; rounds go on until every cell has enough, the tightest
	 * cell's floor setting the target */
	suite_sampler_start(c, &smp, NULL, m == SUITE_QUICK ? 10 : m == SUITE_FULL ? 180 : 40);
	unsigned cells[4], ncells = 0; /* all four, or a re-measure's */
	for (unsigned cell = 0; cell < 4; cell++) {
		char name[128];
		struct pieces_plan p = cell_plan(cell, dirs, count);
		pieces_bench_name(&p, 1, name, sizeof name);
		if (suite_wants_bench(c, name)) {
			cells[ncells++] = cell;
			suite_sampler_also(c, &smp, name);
		}
	}
	for (unsigned i = 0; !rc && ncells && (i == 0 || suite_sampler_more_all(&smp, rates, ncells)); i++) {
		for (unsigned ci = 0; ci < ncells && !rc; ci++) {
			unsigned cell = cells[ci];
			struct pieces_plan p = cell_plan(cell, dirs, count);
			suite_progress(c, (double)(i * 4 + cell) / (4.0 * smp.max), "%llu pieces, %s, %s",
				       (unsigned long long)count, hash_algo_name(p.hash), pieces_sync_name(p.sync));
			rc = pieces_run(&p, r, err, errlen);
			if (rc)
				break;
			char name[128];
			pieces_bench_name(&p, 1, name, sizeof name);
			struct bench *bench = suite_bench(c, name);
			/* samples each round: no histogram, as pieces --matrix */
			pieces_phase_to_bench(&p, &r->write, 1, 0, bench);
			benches[ci] = bench;
			rates[ci] = bench_find_metric(bench, "bytes_per_sec");
		}
	}
	for (unsigned ci = 0; ci < ncells && !rc; ci++)
		suite_sampler_save(c, benches[ci], &smp, rates[ci]);
	free(r);
	return rc == 0 ? 0 : rc == NM_EXIT_INTERRUPTED ? 130 : 1;
}

const struct suite_phase suite_phase_pieces = {
	"pieces", "the piece store (BLAKE3, SHA-256, with and without fsync)", { 6, 20, 90 }, pieces_run_phase,
};
