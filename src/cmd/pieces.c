/* nodemark pieces: the storage-node piece store (write, hash, sync, commit), its benchstat-
 * style matrix, and `pieces verify`. The workloads live in src/pieces/. */
#include "cmd/cmd.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/run_opts.h"
#include "cli/sweep.h"
#include "export/texttab.h"
#include "hash/cpufeat.h"
#include "inventory/inventory.h"
#include "pieces/record.h"
#include "pieces/sweep.h"
#include "proc/params.h"
#include "pieces/verify.h"
#include "stats/summary.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/progress.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pieces_opts {
	struct pieces_plan plan;
	const char *dirs[PIECES_MAX_DIRS];
	int matrix, json, hash_set, sync_set; /* sync_set: --sync or --no-sync given (the last wins) */
	uint64_t runs;
	const char *output;
};

static struct pieces_opts opts;
static struct run_opts run_opts;

/* The options a sweep may vary (sync: on, off or data). */
static const char *const sweepable[] = { "hash", "sync", "backend", "size", "block", "count", "workers",
					 "sync-batch", "log-size", NULL };

static char *setting_word(const char *name, const char *value);

/* A sweep (-L, -P): the settings, kept apart from opts, which each setting's parse refills. */
static struct cli_sweep sweep = { .names = sweepable, .word = setting_word };
static const char *sweep_reference; /* NAME=VALUE[,...]: the setting the others are compared with */

static const struct cli_choice backends[] = { { "files", PIECES_FILES }, { "log", PIECES_LOG }, { NULL, 0 } };

static void parse_hash(const struct opt_iter *it, void *hash)
{
	if (hash_algo_parse(it->arg, hash) < 0)
		opt_bad_value(it, "expected blake3, sha256 or none");
}

/* --sync or --sync=data */
static void parse_sync(const struct opt_iter *it, void *sync)
{
	if (it->arg && strcmp(it->arg, "data") != 0)
		opt_bad_value(it, "expected --sync or --sync=data");
	*(enum pieces_sync *)sync = it->arg ? PIECES_FDATASYNC : PIECES_FSYNC;
}

static void add_dir(const char *word, void *ctx)
{
	if (opts.plan.ndirs == PIECES_MAX_DIRS)
		nm_usage_fail("at most %d directories", PIECES_MAX_DIRS);
	opts.dirs[opts.plan.ndirs++] = word;
}

static const struct cli_option options[] = {
	CLI_ENUM("backend", &opts.plan.backend, backends, CLI_HELP("files|log", "the store layout (default files)")),
	CLI_COUNT("count", &opts.plan.count, 1, 1000000000, CLI_HELP("N", "pieces written in all (default 1000)")),
	CLI_SIZE("size", &opts.plan.size, .min = 1,
		 CLI_HELP("SIZE", "bytes per piece (default 2314240: 64 MiB / 29 shares)")),
	CLI_SIZE("block", &opts.plan.block, .min = 1, .max = 1u << 30,
		 CLI_HELP("SIZE", "bytes per write and hash update (default 256KiB)")),
	CLI_CALL("hash", parse_hash, &opts.plan.hash, .seen = &opts.hash_set,
		 CLI_HELP("ALGO", "blake3, sha256 or none (default blake3)")),
	CLI_CALL("sync", parse_sync, &opts.plan.sync, .optional_value = 1, .seen = &opts.sync_set,
		 CLI_HELP("[=data]", "fsync each piece before it is committed (=data: fdatasync); the\n"
				     "files backend without --dirsync: a committed piece is durable only\n"
				     "once the run ends (it syncs the directories then)")),
	CLI_SET("no-sync", &opts.plan.sync, PIECES_NOSYNC, .seen = &opts.sync_set,
		CLI_HELP(NULL, "do not sync (the default): nothing survives a power cut for sure")),
	CLI_FLAG("dirsync", &opts.plan.dirsync,
		 CLI_HELP(NULL, "files: fsync the directory after each rename (durable on commit)")),
	CLI_UINT("sync-batch", &opts.plan.sync_batch, 1, 1000000,
		 CLI_HELP("N", "log: sync once per N pieces, group commit (implies --sync)")),
	CLI_SIZE("log-size", &opts.plan.log_limit, .min = 1,
		 CLI_HELP("SIZE", "log: start a new log file past this size (default 1GiB)")),
	CLI_UINT("workers", &opts.plan.workers, 1, 1024, CLI_HELP("N", "writer threads (default 1)")),
	CLI_FLAG("read", &opts.plan.read_back, CLI_HELP(NULL, "then read every piece back and verify its hash")),
	CLI_FLAG("keep", &opts.plan.keep,
		 CLI_HELP(NULL, "keep the store(s) and print their paths, for 'pieces verify'")),
	CLI_FLAG("matrix", &opts.matrix,
		 CLI_HELP(NULL, "run {sha256, blake3} x {sync, nosync}, --runs times each, and print\n"
				"a benchstat-style table: median ± 95% interval of MB/s, n")),
	CLI_COUNT("runs", &opts.runs, 1, 1000,
		  CLI_HELP("N", "repetitions per cell of --matrix (default 6: the fewest that give\n"
				"benchstat's 95% interval)")),
	CLI_SECTION("Sweeps (settings measured in turns, a store of each per round, compared\n"
		    "with the first; several lists give every combination, the first varying\n"
		    "fastest; NAME is hash, sync (on, off, data), backend, size, block, count,\n"
		    "workers, sync-batch or log-size; --runs: the rounds, default 6):"),
	CLI_SWEEP_OPTIONS(&sweep),
	CLI_STRING("reference", &sweep_reference,
		   CLI_HELP("NAME=VALUE", "compare the settings with this one (default: the first)")),
	CLI_SECTION("Output and the run:"),
	CLI_FLAG("json", &opts.json,
		 CLI_HELP(NULL, "print JSON: per phase numeric bytes_per_sec, pieces_per_sec, ns_per_op\n"
				"and latency percentiles in ns (commit_lat_ns for writes, lat_ns),\n"
				"cpu_seconds (user + system CPU time of the phase)")),
	CLI_OUTPUT("output", &opts.output, .alias = "o", .seen = &opts.json,
		   CLI_HELP("FILE", "write the JSON to FILE instead of stdout (implies --json)")),
	CLI_RUN_OPTIONS(&run_opts),
	CLI_END,
};

const struct cli_help cmd_pieces_help = {
	.usage = "usage: nodemark pieces DIR... [options]\n"
		 "       nodemark pieces DIR... --matrix [--runs N] [options]\n"
		 "       nodemark pieces verify DIR [--repair] [--json]\n"
		 "\n"
		 "Measure a storage node's piece store on the disks under DIR...: write --count pieces (each\n"
		 "hashed as it is written, optionally synced, then committed), optionally read every piece\n"
		 "back and verify it. Workers are spread over the directories (one per disk). Everything is\n"
		 "written inside a private DIR/.nodemark-<id>/ directory, removed at the end (unless --keep).\n"
		 "\n"
		 "Backends:\n"
		 "  files   one file per piece: temp/blob-<random>.partial (O_EXCL), a 512-byte\n"
		 "          header at offset 0, data hashed as written, header, fsync (--sync),\n"
		 "          rename to blobs/<namespace>/<2 chars>/<rest>.sj1, fsync of the\n"
		 "          directory (--dirsync)\n"
		 "  log     pieces appended to log files (rotated at --log-size) with a footer\n"
		 "          each, indexed in an on-disk hash table of 64-byte records;\n"
		 "          --sync-batch N commits N at a time\n"
		 "\n"
		 "Options:\n",
	.options = options,
	.rest = "\n"
		"verify DIR: check every committed piece of a store (DIR is the kept .nodemark-<id> path, or\n"
		"the directory holding it): header, size and hash; report corrupt pieces and leftovers of\n"
		"unfinished writes (temp files, unindexed log tails). --repair removes the leftovers and\n"
		"rebuilds a damaged log index from the pieces' footers; it never follows a link out of the\n"
		"store, never removes a piece that verifies. Exit 1 when a piece is corrupt or missing, the\n"
		"index is damaged or the store holds entries nodemark did not write (left alone). Pieces of\n"
		"--hash none cannot be verified: they are counted as unverified, not ok.\n"
		"\n"
		"Examples:\n"
		"  nodemark pieces /mnt/disk1 /mnt/disk2 --workers 4 --sync --read\n"
		"  nodemark pieces /mnt/disk1 --backend log --sync-batch 16 --count 2000\n"
		"  nodemark pieces /mnt/disk1 --matrix --count 200 --read\n"
		"  nodemark pieces /mnt/disk1 -L hash sha256,blake3 -L sync off,on --count 200\n"
		"  nodemark pieces /mnt/disk1 --keep --count 50\n"
		"  nodemark pieces verify /mnt/disk1\n",
};

/* The defaults, the command line, and the options that only go together. */
static void parse_args(int argc, char **argv)
{
	struct pieces_plan *p = &opts.plan;
	opts = (struct pieces_opts){
		.plan = {
			.backend = PIECES_FILES, .hash = HASH_BLAKE3, .sync = PIECES_NOSYNC,
			.count = PIECES_DEFAULT_COUNT, .size = PIECES_DEFAULT_SIZE, .block = PIECES_DEFAULT_BLOCK,
			.log_limit = PIECES_DEFAULT_LOG_LIMIT, .workers = 1,
		},
	};
	cli_parse("pieces", argc, argv, options, add_dir, NULL);
	if (!sweep.reparsing) {
		cli_outputs_check(options, NULL, 0, run_opts.db);
		cli_sweep_finish(&sweep);
	}
	if (!p->ndirs)
		nm_usage_fail("expected a directory to write in (see 'nodemark pieces --help')");
	if (p->sync_batch) {
		if (p->backend != PIECES_LOG)
			nm_usage_fail("--sync-batch: only the log backend commits in groups (add --backend log)");
		if (opts.sync_set && p->sync == PIECES_NOSYNC) /* the last of them was --no-sync */
			nm_usage_fail("--sync-batch: cannot be used with --no-sync");
		if (!opts.sync_set)
			p->sync = PIECES_FSYNC;
	}
	if (p->dirsync && p->backend != PIECES_FILES)
		nm_usage_fail("--dirsync: only the files backend renames (drop it or use --backend files)");
	if (opts.matrix && (opts.hash_set || opts.sync_set))
		nm_usage_fail("--matrix runs every hash and sync setting: drop --hash, --sync and --no-sync");
	if (opts.matrix && p->keep)
		nm_usage_fail("--keep cannot be used with --matrix (it runs many stores)");
	if (opts.runs && !opts.matrix && !sweep.params.naxes)
		nm_usage_fail("--runs: only with --matrix or a sweep (-L, -P)");
	if (sweep.params.naxes && opts.matrix)
		nm_usage_fail("-L/-P and --matrix: the matrix is -L hash sha256,blake3 -L sync off,on");
	if (sweep_reference && !sweep.params.naxes)
		nm_usage_fail("--reference names a setting of a sweep (-L, -P)");
	if (sweep.params.naxes && p->keep)
		nm_usage_fail("--keep cannot be used with a sweep (it runs many stores)");
}

static json_t *lat_json(const struct hist *h)
{
	uint64_t v[PIECES_NPCTS];
	json_t *j = json_object();
	pieces_lat_percentiles(h, v);
	for (int i = 0; i < PIECES_NPCTS; i++)
		json_object_set_new(j, pieces_pct_keys[i], json_integer((json_int_t)v[i]));
	json_object_set_new(j, "max", json_integer(h->n ? (json_int_t)h->max : 0));
	json_object_set_new(j, "mean", json_real(hist_mean(h)));
	return j;
}

static json_t *phase_json(const struct pieces_phase *ph, int write)
{
	json_t *j = json_pack("{s:I, s:I, s:f, s:f, s:f, s:f}", "pieces", (json_int_t)ph->pieces, "bytes",
			      (json_int_t)ph->bytes, "seconds", (double)ph->ns / 1e9, "bytes_per_sec",
			      pieces_bytes_per_sec(ph), "pieces_per_sec", pieces_per_sec(ph), "ns_per_op",
			      pieces_ns_per_op(ph));
	json_object_set_new(j, "cpu_seconds", json_real((double)ph->cpu_ns / 1e9));
	if (write)
		json_object_set_new(j, "commit_lat_ns", lat_json(&ph->commit_lat));
	json_object_set_new(j, "lat_ns", lat_json(&ph->op_lat));
	json_t *dirs = json_array();
	/* A directory's rates are its share of the phase's: its bytes over the phase's time, so
	 * the shares add up to the total (over its own, shorter span they added up to more). */
	double phase_secs = (double)ph->ns / 1e9;
	for (unsigned d = 0; d < ph->ndirs; d++) {
		const struct pieces_dir_share *sh = &ph->dir[d];
		json_array_append_new(dirs, json_pack("{s:I, s:I, s:f, s:f, s:f}", "pieces", (json_int_t)sh->pieces,
						      "bytes", (json_int_t)sh->bytes, "seconds", (double)sh->ns / 1e9,
						      "bytes_per_sec", (double)sh->bytes / phase_secs, "pieces_per_sec",
						      (double)sh->pieces / phase_secs));
	}
	json_object_set_new(j, "per_dir", dirs); /* in the order of "dirs" */
	return j;
}

static void print_lat_row(const char *what, const struct hist *h)
{
	uint64_t v[PIECES_NPCTS];
	char buf[PIECES_NPCTS + 1][32];
	pieces_lat_percentiles(h, v);
	for (int i = 0; i < PIECES_NPCTS; i++)
		units_duration(v[i], buf[i], sizeof buf[i]);
	units_duration(h->n ? h->max : 0, buf[PIECES_NPCTS], sizeof buf[PIECES_NPCTS]);
	/* padded by display width: "12.3µs" is 6 columns, 7 bytes */
	printf("  %-14s", what);
	for (int i = 0; i <= PIECES_NPCTS; i++) {
		putchar(' ');
		text_put(stdout, buf[i], 9, 1);
	}
	putchar('\n');
}

static void print_phase_row(const char *name, const struct pieces_phase *ph)
{
	char t[32];
	units_duration((uint64_t)pieces_ns_per_op(ph), t, sizeof t);
	printf("  %-6s %8llu %*s%s %10.1f %10.1f\n", name, (unsigned long long)ph->pieces, text_fill(t, 10), "", t,
	       pieces_bytes_per_sec(ph) / 1e6, pieces_per_sec(ph));
}

/* With several directories, each one's share of the phase's rates (over the phase's time, so
 * the rows add up to the phase's), as disk shows each target. */
static void print_dir_rows(const struct pieces_plan *p, const char *name, const struct pieces_phase *ph)
{
	if (ph->ndirs < 2)
		return;
	double secs = (double)ph->ns / 1e9;
	for (unsigned d = 0; d < ph->ndirs; d++) {
		const struct pieces_dir_share *sh = &ph->dir[d];
		printf("    %-6s %8llu %10s %10.1f %10.1f  %s\n", name, (unsigned long long)sh->pieces, "",
		       (double)sh->bytes / secs / 1e6, (double)sh->pieces / secs, p->dirs[d]);
	}
}

static void print_run(const struct pieces_plan *p, const struct pieces_result *r)
{
	char sz[32], total[32], sl[32];
	printf("pieces: %s backend, %llu pieces of %s (%s), %s (%s), %s%s, %u worker%s over %u director%s\n",
	       pieces_backend_name(p->backend), (unsigned long long)p->count,
	       units_bytes_si((double)p->size, sz, sizeof sz), units_bytes_si((double)(p->count * p->size), total, sizeof total),
	       hash_algo_name(p->hash), hash_impl_name(p->hash), pieces_sync_label(p, sl, sizeof sl),
	       p->dirsync ? "+dirsync" : "", p->workers, p->workers == 1 ? "" : "s", p->ndirs,
	       p->ndirs == 1 ? "y" : "ies");
	printf("  %-6s %8s %10s %10s %10s\n", "phase", "pieces", "time/op", "MB/s", "pieces/s");
	print_phase_row("write", &r->write);
	print_dir_rows(p, "write", &r->write);
	if (r->read.ran) {
		print_phase_row("read", &r->read);
		print_dir_rows(p, "read", &r->read);
	}
	printf("  %-14s %9s %9s %9s %9s %9s\n", "latency", "p50", "p90", "p99", "p99.9", "max");
	print_lat_row("write commit", &r->write.commit_lat);
	print_lat_row("write piece", &r->write.op_lat);
	if (r->read.ran)
		print_lat_row("read piece", &r->read.op_lat);
	const char *why;
	pieces_durability(p, &why);
	printf("  durability: %s\n", why);
}

static int emit_json(const char *output, json_t *j)
{
	int rc = cli_output_json(output, j, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(j);
	return rc;
}

static json_t *run_json(const struct pieces_plan *p, const struct pieces_result *r)
{
	char sl[32];
	json_t *dirs = json_array(), *kept = json_array();
	for (unsigned i = 0; i < p->ndirs; i++)
		json_array_append_new(dirs, json_string(p->dirs[i]));
	for (unsigned i = 0; i < r->nkept; i++)
		json_array_append_new(kept, json_string(r->kept[i]));
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:b, s:i, s:i, s:o, s:I, s:I, s:I, s:o}", "backend",
			      pieces_backend_name(p->backend), "hash", hash_algo_name(p->hash), "hash_impl",
			      hash_impl_name(p->hash), "sync", pieces_sync_label(p, sl, sizeof sl), "dirsync", p->dirsync,
			      "sync_batch", p->sync_batch ? p->sync_batch : 1, "workers", p->workers, "dirs", dirs,
			      "count", (json_int_t)p->count, "size", (json_int_t)p->size, "block",
			      (json_int_t)p->block, "write", phase_json(&r->write, 1));
	if (r->read.ran)
		json_object_set_new(j, "read", phase_json(&r->read, 0));
	json_object_set_new(j, "kept", kept);
	const char *why;
	json_object_set_new(j, "durable", json_string(pieces_durability(p, &why)));
	return j;
}

static int run_once(struct pieces_opts *o, struct run_opts *ro, struct record *rec)
{
	char err[1024];
	struct pieces_result *r = malloc(sizeof *r);
	int rc = pieces_run(&o->plan, r, err, sizeof err);
	if (rc == NM_EXIT_INTERRUPTED && r->write.ran && r->write.pieces) {
		/* Ctrl-C: the pieces committed so far are a measurement too; report and keep them. */
		nm_error("interrupted: %llu pieces were written; reporting and saving those",
			 (unsigned long long)r->write.pieces);
		pieces_record_phase(rec, &o->plan, &r->write, 1, 1);
		if (!o->json)
			print_run(&o->plan, r);
		free(r);
		return rc;
	}
	if (rc != NM_EXIT_OK) {
		nm_error("%s", err);
		free(r);
		return rc;
	}
	pieces_record_phase(rec, &o->plan, &r->write, 1, 1);
	if (r->read.ran)
		pieces_record_phase(rec, &o->plan, &r->read, 0, 1);
	for (unsigned i = 0; i < r->nkept; i++)
		fprintf(stderr, "kept piece store: %s (check it with 'nodemark pieces verify %s')\n", r->kept[i],
			r->kept[i]);
	if (o->json) {
		if (emit_json(o->output, run_json(&o->plan, r)) < 0)
			rc = NM_EXIT_FAILED;
	} else {
		print_run(&o->plan, r);
	}
	free(r);
	(void)ro;
	return rc;
}

/* --matrix: {sha256, blake3} x {sync, nosync}, repetitions interleaved so drift on a noisy
 * machine spreads over every cell instead of biasing the last one. */
#define NCELLS 4
#define NROWS 3 /* Write, Read, ReadWrite */

static const enum hash_algo matrix_hashes[2] = { HASH_SHA256, HASH_BLAKE3 };
static const enum pieces_sync matrix_syncs[2] = { PIECES_NOSYNC, PIECES_FSYNC };

/* --runs rounds of every cell: its rates into samples[cell][row][round], its phases into rec. */
static int matrix_measure(const struct pieces_opts *o, struct record *rec, unsigned runs,
			  double *samples[NCELLS][NROWS])
{
	struct pieces_result *r = malloc(sizeof *r);
	char err[1024];
	int rc = NM_EXIT_OK;
	if (!r)
		abort();
	for (unsigned i = 0; i < runs && rc == NM_EXIT_OK; i++) {
		for (int c = 0; c < NCELLS && rc == NM_EXIT_OK; c++) {
			struct pieces_plan p = o->plan;
			p.hash = matrix_hashes[c % 2];
			p.sync = matrix_syncs[c / 2];
			if (progress_enabled())
				progress_update("matrix: run %u/%u, %s %s", i + 1, runs, hash_algo_name(p.hash),
						pieces_sync_name(p.sync));
			p.show_progress = 0;
			rc = pieces_run(&p, r, err, sizeof err);
			if (rc != NM_EXIT_OK) {
				nm_error("%s", err);
				break;
			}
			pieces_record_phase(rec, &p, &r->write, 1, 0);
			samples[c][0][i] = pieces_bytes_per_sec(&r->write);
			if (r->read.ran) {
				pieces_record_phase(rec, &p, &r->read, 0, 0);
				samples[c][1][i] = pieces_bytes_per_sec(&r->read);
				/* As a Go ReadWrite benchmark: bytes of one piece per write-and-read. */
				samples[c][2][i] = (double)r->write.bytes * 1e9 / (double)(r->write.ns + r->read.ns);
			}
		}
	}
	free(r);
	progress_clear();
	return rc;
}

/* The benchstat-style table (or its JSON) of the samples; an exit code. */
static int matrix_report(const struct pieces_opts *o, unsigned runs, double *samples[NCELLS][NROWS])
{
	static const char *const rows[NROWS] = { "Write", "Read", "ReadWrite" };
	json_t *results = json_array();
	char sl[32];
	if (!o->json)
		printf("%-28s %s\n", "name", "speed (median ± 95% interval)");
	for (int k = 0; k < NROWS; k++) {
		if (k > 0 && !o->plan.read_back)
			break;
		for (int c = 0; c < NCELLS; c++) {
			struct pieces_plan p = o->plan;
			p.sync = matrix_syncs[c / 2];
			char name[96], rate[32], pct[32];
			struct summary s;
			snprintf(name, sizeof name, "%s/%s-%s", rows[k], pieces_sync_label(&p, sl, sizeof sl),
				 hash_algo_title(matrix_hashes[c % 2]));
			char lo[32] = "", hi[32] = "", text[112];
			summary_median(samples[c][k], runs, 0.95, &s);
			summary_range_pct(&s, pct, sizeof pct);
			if (summary_unstable(&s)) {
				units_rate_si(s.lo, lo, sizeof lo);
				units_rate_si(s.hi, hi, sizeof hi);
			}
			if (!o->json)
				printf("%-28s %s  n=%u\n", name, stats_spread_text(text, sizeof text, s.center, s.lo, s.hi, pct,
										units_rate_si(s.center, rate, sizeof rate), lo, hi),
				       runs);
			json_t *sj = json_array();
			for (unsigned i = 0; i < runs; i++)
				json_array_append_new(sj, json_real(samples[c][k][i]));
			json_array_append_new(results,
					      json_pack("{s:s, s:s, s:i, s:f, s:o, s:o, s:s, s:o}", "name", name, "unit",
							"B/s", "n", runs, "median", s.center, "lo",
							isfinite(s.lo) ? json_real(s.lo) : json_null(), "hi",
							isfinite(s.hi) ? json_real(s.hi) : json_null(), "range", pct,
							"samples", sj));
		}
	}
	if (!o->json) {
		json_decref(results);
		return NM_EXIT_OK;
	}
	json_t *top = json_pack("{s:s, s:I, s:I, s:i, s:i, s:o}", "backend", pieces_backend_name(o->plan.backend),
				"count", (json_int_t)o->plan.count, "size", (json_int_t)o->plan.size, "workers",
				o->plan.workers, "runs", runs, "results", results);
	return emit_json(o->output, top) < 0 ? NM_EXIT_FAILED : NM_EXIT_OK;
}

static int run_matrix(struct pieces_opts *o, struct record *rec)
{
	unsigned runs = o->runs ? (unsigned)o->runs : 6;
	double *samples[NCELLS][NROWS];
	for (int c = 0; c < NCELLS; c++)
		for (int k = 0; k < NROWS; k++)
			samples[c][k] = calloc(runs, sizeof(double));
	int rc = matrix_measure(o, rec, runs, samples);
	if (rc == NM_EXIT_OK)
		rc = matrix_report(o, runs, samples);
	for (int c = 0; c < NCELLS; c++)
		for (int k = 0; k < NROWS; k++)
			free(samples[c][k]);
	return rc;
}

/* --- sweeps: -L/-P settings in turns ------------------------------------------------------ */

static json_t *pair_json(const struct pieces_sweep_pair *pr)
{
	static const char *const word[] = { [PAIRED_CALLED] = "called", [PAIRED_NO_CHANGE] = "no change",
					    [PAIRED_CANT_TELL] = "can't tell" };
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)pr->r.n));
	json_object_set_new(o, "ratio", isfinite(pr->r.ratio) ? json_real(pr->r.ratio) : json_null());
	json_object_set_new(o, "lo", isfinite(pr->r.lo) && pr->r.lo > 0 ? json_real(pr->r.lo) : json_null());
	json_object_set_new(o, "hi", isfinite(pr->r.hi) ? json_real(pr->r.hi) : json_null());
	json_object_set_new(o, "p", json_real(pr->r.p));
	json_object_set_new(o, "verdict", json_string(word[pr->v.call]));
	json_object_set_new(o, "text", json_string(pr->v.text));
	json_object_set_new(o, "why", json_string(pr->v.why));
	return o;
}

static json_t *sweep_json(const struct pieces_sweep *s)
{
	json_t *arms = json_array(), *order = json_array();
	for (unsigned a = 0; a < s->narms; a++) {
		json_t *x = json_object();
		json_object_set(x, "parameters", s->settings[a]);
		for (int ph = 0; ph < 1 + s->read; ph++) {
			json_t *bw = json_array();
			for (unsigned i = 0; i < s->done; i++)
				json_array_append_new(bw, json_real(s->bps[ph][(size_t)a * s->rounds + i]));
			json_t *y = json_pack("{s:o, s:f}", "bytes_per_sec", bw, "median_bytes_per_sec",
					      pieces_sweep_median(s, a, ph));
			if (a != s->ref)
				json_object_set_new(y, "paired", pair_json(&s->pairs[ph][a]));
			json_object_set_new(x, ph ? "read" : "write", y);
		}
		json_array_append_new(arms, x);
	}
	for (size_t i = 0; i < (size_t)s->done * s->narms; i++)
		json_array_append_new(order, json_integer(s->order[i]));
	return json_pack("{s:s, s:i, s:o, s:o, s:o}", "mode", "turns", "rounds", s->done, "reference",
			 json_incref(s->settings[s->ref]), "settings", arms, "order", order);
}

static void sweep_print(const struct pieces_opts *o, const struct pieces_sweep *s)
{
	const struct pieces_plan *p = &s->plans[0];
	char sz[32], label[160];
	printf("pieces: %u settings in turns, %u round%s (a store of each per round, the order rotated), %s backend,\n"
	       "  %llu pieces of %s, %u worker%s over %u director%s\n",
	       s->narms, s->done, s->done == 1 ? "" : "s", pieces_backend_name(p->backend), (unsigned long long)p->count,
	       units_bytes_si((double)p->size, sz, sizeof sz), p->workers, p->workers == 1 ? "" : "s", p->ndirs,
	       p->ndirs == 1 ? "y" : "ies");
	/* a column of figures per phase, headed as compare heads them (units_header: "write bandwidth
	 * (MB/s)", the units its cells show, each cell with its own), its ratio and verdict beside it */
	char units[2][64] = { "", "" }, fig[64], head[128], ratio[32];
	for (unsigned a = 0; a < s->narms; a++)
		for (int ph = 0; ph < 1 + s->read; ph++)
			units_shown_add(units[ph], sizeof units[ph],
					units_figure(pieces_sweep_median(s, a, ph), "bytes_per_sec", "B/s", fig, sizeof fig));
	struct texttab tt = { 0 };
	tt_cell(&tt, "setting", TT_LEFT, "");
	for (int ph = 0; ph < 1 + s->read; ph++) {
		tt_cell(&tt, units_header(ph ? "read_bytes_per_sec" : "write_bytes_per_sec", units[ph], head, sizeof head),
			TT_RIGHT, "   ");
		tt_cell(&tt, "vs ref", TT_RIGHT, "  ");
		tt_cell(&tt, "verdict", TT_LEFT, "  ");
	}
	for (unsigned a = 0; a < s->narms; a++) {
		tt_row(&tt);
		tt_cell(&tt, pieces_sweep_label(s, a, label, sizeof label), TT_LEFT, "");
		for (int ph = 0; ph < 1 + s->read; ph++) {
			const struct pieces_sweep_pair *pr = a == s->ref ? NULL : &s->pairs[ph][a];
			tt_cell(&tt, units_figure(pieces_sweep_median(s, a, ph), "bytes_per_sec", "B/s", fig, sizeof fig),
				TT_RIGHT, "   ");
			tt_cell(&tt, pr ? units_ratio(pr->r.ratio, ratio, sizeof ratio) : "", TT_RIGHT, "  ");
			tt_cell(&tt, pr ? pr->v.text : "(reference)", TT_LEFT, "  ");
		}
	}
	putchar('\n');
	tt_format(&tt, stdout);
	tt_free(&tt);
	printf("\nbandwidth: the median of a setting's stores, as compare prints it (MB/s = 10^6 bytes/s).\n"
	       "vs ref: the ratio to the reference from the per-round pairs (Hodges-Lehmann estimate), called\n"
	       "when its interval (Wilcoxon signed-rank, exact: 95%% or the next level the pairs allow, 96.9%%\n"
	       "from 6 pairs) lies beyond ±%.0f%%.\n", PAIRED_FLOOR_PCT);
	for (unsigned a = 0; a < s->narms; a++)
		for (int ph = 0; ph < 1 + s->read; ph++)
			if (a != s->ref && s->pairs[ph][a].v.call == PAIRED_CANT_TELL)
				printf("%s, %s: %s\n", pieces_sweep_label(s, a, label, sizeof label), ph ? "read" : "write",
				       s->pairs[ph][a].v.why);
	(void)o;
}

/* The option words of one value: sync's on/off/data are its flags; others --NAME=VALUE. */
static char *setting_word(const char *name, const char *value)
{
	char *w;
	if (strcmp(name, "sync") == 0) {
		if (strcmp(value, "on") && strcmp(value, "off") && strcmp(value, "data"))
			nm_usage_fail("-L sync: \"%s\": expected on, off or data", value);
		w = strdup(strcmp(value, "on") == 0 ? "--sync" : strcmp(value, "off") == 0 ? "--no-sync" : "--sync=data");
	} else if (asprintf(&w, "--%s=%s", name, value) < 0) {
		w = NULL;
	}
	if (!w)
		nm_usage_fail("out of memory");
	return w;
}

static void sweep_setting(void *ctx, size_t c, int argc, char **argv, json_t *set)
{
	struct pieces_sweep *s = ctx;
	parse_args(argc, argv);
	s->plans[c] = opts.plan;
	s->plans[c].dirs = opts.dirs;
	s->plans[c].show_progress = 0;
	s->settings[c] = json_incref(set);
}

/* Every combination: the command line parsed again per combination with its words added, so a
 * value is checked as the option itself checks it; then the rounds. */
static int run_sweep(int argc, char **argv, struct record *rec)
{
	size_t ncomb = params_combinations(&sweep.params);
	if (ncomb > 256)
		nm_usage_fail("%zu settings: at most 256 in one run", ncomb);
	unsigned rounds = opts.runs ? (unsigned)opts.runs : PAIRED_MIN_PAIRS;
	int json = opts.json;
	const char *output = opts.output;
	struct pieces_sweep s = { .narms = (unsigned)ncomb, .rounds = rounds };
	s.plans = calloc(ncomb, sizeof *s.plans);
	s.settings = calloc(ncomb, sizeof *s.settings);
	if (!s.plans || !s.settings)
		nm_usage_fail("out of memory");
	cli_sweep_settings(&sweep, argc, argv, sweep_setting, &s);
	if (sweep_reference)
		s.ref = cli_sweep_reference(sweep_reference, s.settings, s.narms, NULL);
	char err[1024];
	int rc = pieces_sweep_run(&s, rec, err, sizeof err);
	if (rc != NM_EXIT_OK)
		nm_error("%s", err);
	pieces_sweep_pair(&s);
	if (rc == NM_EXIT_OK || (rc == NM_EXIT_INTERRUPTED && s.done)) {
		if (json) {
			if (emit_json(output, sweep_json(&s)) < 0)
				rc = NM_EXIT_FAILED;
		} else {
			sweep_print(&opts, &s);
		}
	}
	pieces_sweep_free(&s);
	cli_sweep_free(&sweep); /* the plans may point into its words */
	return rc;
}

struct verify_out {
	json_t *list;
	int json;
};

static void on_finding(void *arg, enum pieces_finding kind, const char *path, const char *why)
{
	static const char *const label[] = { "corrupt", "damaged", "left alone" };
	struct verify_out *vo = arg;
	if (vo->json)
		json_array_append_new(vo->list, json_pack("{s:s, s:s, s:s}", "kind", label[kind], "path", path,
							  "why", why));
	else
		printf("%s: %s: %s\n", label[kind], path, why);
}

static json_t *verify_json(const struct pieces_verify_report *r, json_t *findings)
{
	json_t *j = json_pack("{s:i, s:I, s:I, s:I, s:I, s:I}", "stores", r->stores, "pieces", (json_int_t)r->pieces,
			      "ok", (json_int_t)r->ok, "corrupt", (json_int_t)r->corrupt, "unverified",
			      (json_int_t)r->unverified, "missing", (json_int_t)r->missing);
	json_object_set_new(j, "unindexed", json_integer((json_int_t)r->unindexed));
	json_object_set_new(j, "bad_index_records", json_integer((json_int_t)r->bad_records));
	json_object_set_new(j, "left_alone", json_integer((json_int_t)r->left_alone));
	json_object_set_new(j, "temp_files", json_integer((json_int_t)r->temp_files));
	json_object_set_new(j, "tail_bytes", json_integer((json_int_t)r->tail_bytes));
	json_object_set_new(j, "removed", json_integer((json_int_t)r->removed));
	json_object_set_new(j, "reindexed", json_integer((json_int_t)r->reindexed));
	json_object_set_new(j, "uncounted_stores", json_integer(r->uncounted));
	json_object_set_new(j, "no_marker_stores", json_integer(r->no_marker));
	json_object_set_new(j, "duplicates", json_integer((json_int_t)r->duplicates));
	json_object_set_new(j, "sound", json_boolean(pieces_verify_sound(r)));
	json_object_set_new(j, "findings", findings);
	return j;
}

static void verify_text(const struct pieces_verify_report *r, int repair)
{
	printf("verified %u store%s: %llu pieces, %llu ok, %llu corrupt\n", r->stores, r->stores == 1 ? "" : "s",
	       (unsigned long long)r->pieces, (unsigned long long)r->ok, (unsigned long long)r->corrupt);
	if (r->unverified)
		printf("%llu pieces were stored without a hash (--hash none): their data cannot be verified, only "
		       "their headers, sizes and names\n", (unsigned long long)r->unverified);
	if (r->missing)
		printf("%llu committed pieces are missing\n", (unsigned long long)r->missing);
	if (r->index_damaged)
		printf("%u log index%s damaged or incomplete (%llu committed pieces not in it)%s\n", r->index_damaged,
		       r->index_damaged == 1 ? "" : "es", (unsigned long long)r->unindexed,
		       repair ? "" : ": --repair rebuilds it from the pieces' footers");
	if (r->left_alone)
		printf("%llu entries nodemark did not write were left alone\n", (unsigned long long)r->left_alone);
	if (r->duplicates)
		printf("%llu second copies of pieces already in the store (a copied log file?): not indexed\n",
		       (unsigned long long)r->duplicates);
	if (r->no_marker)
		printf("%u store%s had no PIECES marker (deleted?): checked all the same, committed count unknown\n",
		       r->no_marker, r->no_marker == 1 ? "" : "s");
	if (r->uncounted)
		printf("%u store%s from a run that did not finish: a piece deleted from %s cannot be told\n",
		       r->uncounted, r->uncounted == 1 ? "" : "s", r->uncounted == 1 ? "it" : "them");
	printf("leftover temp files: %llu, unindexed log bytes: %llu%s\n", (unsigned long long)r->temp_files,
	       (unsigned long long)r->tail_bytes,
	       repair ? "" : (r->temp_files || r->tail_bytes ? " (--repair removes them)" : ""));
	if (repair)
		printf("repaired: %llu removed or truncated, %llu pieces put back in a rebuilt index\n",
		       (unsigned long long)r->removed, (unsigned long long)r->reindexed);
}

struct verify_args {
	const char *dir, *output;
	int repair, json;
};

static struct verify_args vargs;

static const struct cli_option verify_options[] = {
	CLI_FLAG("repair", &vargs.repair),
	CLI_FLAG("json", &vargs.json),
	CLI_OUTPUT("output", &vargs.output, .alias = "o", .seen = &vargs.json),
	CLI_END,
};

static void verify_dir(const char *word, void *ctx)
{
	if (vargs.dir)
		nm_usage_fail("verify: one directory at a time (got \"%s\" and \"%s\")", vargs.dir, word);
	vargs.dir = word;
}

static int cmd_pieces_verify(int argc, char **argv)
{
	cli_parse("pieces verify", argc, argv, verify_options, verify_dir, NULL);
	cli_outputs_check(verify_options, NULL, 0, NULL);
	if (!vargs.dir)
		nm_usage_fail("verify: expected the store's directory (see 'nodemark pieces --help')");

	struct pieces_verify_report rep;
	struct verify_out vo = { .list = json_array(), .json = vargs.json };
	char err[1024];
	int rc = pieces_verify(vargs.dir, vargs.repair, &rep, on_finding, &vo, err, sizeof err);
	if (rc != 0) {
		nm_error("verify: %s", err);
		json_decref(vo.list);
		return rc;
	}
	if (vargs.json) {
		if (emit_json(vargs.output, verify_json(&rep, vo.list)) < 0)
			return NM_EXIT_FAILED;
	} else {
		json_decref(vo.list);
		verify_text(&rep, vargs.repair);
	}
	return pieces_verify_sound(&rep) ? NM_EXIT_OK : NM_EXIT_FAILED;
}

int cmd_pieces(int argc, char **argv)
{
	cleanup_stop_at_safe_points(); /* its loops poll cleanup_interrupted() */
	if (argc > 1 && strcmp(argv[1], "verify") == 0)
		return cmd_pieces_verify(argc - 1, argv + 1);

	parse_args(argc, argv);
	opts.plan.dirs = opts.dirs;
	char shared[1024];
	if (inventory_shared_disks(NULL, opts.dirs, opts.plan.ndirs, shared, sizeof shared) > 0)
		nm_warn("%s: one disk measured from several directories, not independent disks", shared);
	opts.plan.show_progress = progress_enabled();

	struct record *rec = record_new("pieces", argc, argv);
	int rc = sweep.params.naxes ? run_sweep(argc, argv, rec)
		 : opts.matrix      ? run_matrix(&opts, rec)
				    : run_once(&opts, &run_opts, rec);
	if (rc == NM_EXIT_OK || (rc == NM_EXIT_INTERRUPTED && rec->nbenches)) {
		run_opts_apply(&run_opts, rec, opts.dirs[0]);
		if (run_save(&run_opts, rec) < 0)
			rc = rc == NM_EXIT_OK ? NM_EXIT_FAILED : rc;
	}
	record_free(rec);
	run_opts_free(&run_opts);
	return rc;
}
