/* The pieces phase: a storage node's piece store (files backend) with BLAKE3 and SHA-256,
 * with and without fsync, the same benches as `nodemark pieces` (pieces/files/<hash>/<sync>/write).
 * The four cells take turns, so drift on a busy machine spreads over all of them. */
#include "suite/phase.h"
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

static int pieces_run_phase(struct suite_ctx *c, char *err, size_t errlen)
{
	enum suite_mode m = c->opts->mode;
	uint64_t count = m == SUITE_QUICK ? 12 : m == SUITE_FULL ? 256 : 48;
	const char *dirs[1] = { c->workdir };
	char a[32], b[32];

	uint64_t room = suite_free_bytes(c->workdir);
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
