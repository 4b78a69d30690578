/* The MPI driver: every rank runs the same workload in phases that start after a barrier;
 * rank 0 reduces, prints and saves.  Durations come from each rank's own monotonic clock,
 * as offsets from the barrier exit it saw, so no two machines' clocks are ever compared. */
#include "mpi/mpi.h"
#include "mpi/comm.h"
#include "mpi/workload.h"
#include "cli/help.h"
#include "cli/run_opts.h"
#include "inventory/inventory.h"
#include "results/record.h"
#include "stats/ranks.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What travels from each rank to rank 0 after a phase. */
struct wire {
	double bytes, ops, start_s, end_s;
};

struct phase_log {
	char name[64];
	unsigned rep;
	json_t *settings;       /* rank 0's, from the workload */
	struct wire *ranks;     /* size entries (rank 0 only) */
};

struct driver {
	const struct workload *w;
	void *st;
	struct work_ctx ctx;
	struct comm comm;
	struct run_opts ro;
	unsigned repeat;
	int json;
	struct phase_log *log;
	size_t nlog;
	char *owned_dir;
};

/* The process's one driver (a command runs once): the option table points at it. */
static struct driver drv;

static const struct cli_option driver_options[] = {
	CLI_FLAG("shared-file", &drv.ctx.shared_file,
		 CLI_HELP(NULL, "one file for all ranks, split by rank (default: DIR/rank-<r>)")),
	CLI_FLAG("stonewall", &drv.ctx.stonewall, CLI_HELP(NULL, "stop every rank as soon as the first one is done")),
	CLI_UINT("repeat", &drv.repeat, 1, 1000, CLI_HELP("N", "run the phases N times (samples for compare; default 1)")),
	CLI_FLAG("json", &drv.json, CLI_HELP(NULL, "print the saved record as JSON on stdout instead of tables")),
	CLI_RUN_OPTIONS(&drv.ro),
	CLI_END,
};

/* A workload's help, then the driver's options. */
static void print_help(const struct workload *w)
{
	fputs(w->usage, stdout);
	cli_options_print(stdout, w->options);
	if (w->usage_rest)
		fputs(w->usage_rest, stdout);
	fputs("MPI options (nodemark-mpi; every rank runs the workload, rank 0 reports):\n", stdout);
	cli_options_print(stdout, driver_options);
}

/* The workload's options and the driver's in one table (malloc'd). */
static struct cli_option *merged_options(const struct workload *w)
{
	size_t nw = 0, nd = 0;
	while (w->options[nw].kind != CLI_KIND_END)
		nw++;
	while (driver_options[nd].kind != CLI_KIND_END)
		nd++;
	struct cli_option *all = calloc(nw + nd + 1, sizeof *all);
	if (!all)
		abort();
	memcpy(all, w->options, nw * sizeof *all);
	memcpy(all + nw, driver_options, (nd + 1) * sizeof *all); /* with its CLI_END */
	return all;
}

static const struct workload *find_workload(const char *name)
{
	if (strcmp(name, "disk") == 0)
		return &work_disk;
	if (strcmp(name, "pieces") == 0)
		return &work_pieces;
	if (strcmp(name, "hash") == 0)
		return &work_hash;
	return NULL;
}

/* Only rank 0 speaks: on the others a usage error exits 2 just the same, silently. */
static void parse(struct driver *d, int argc, char **argv)
{
	int saved_stderr = -1;
	if (d->comm.rank != 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		saved_stderr = dup(2);
		if (null >= 0) {
			dup2(null, 2);
			close(null);
		}
	}
	d->st = d->w->create();
	d->repeat = 1;
	struct cli_option *options = merged_options(d->w);
	cli_parse(d->w->name, argc, argv, options, d->w->positional, d->st);
	free(options);
	d->w->check(d->st, &d->ctx);
	if (d->ctx.dir) /* ours: the workload's state goes before the record is made */
		d->ctx.dir = d->owned_dir = strdup(d->ctx.dir);
	if (d->ctx.stonewall && !d->w->can_stonewall)
		nm_usage_fail("--stonewall: %s runs a fixed amount of work on each rank; use it with disk",
			      d->w->name);
	if (saved_stderr >= 0) {
		dup2(saved_stderr, 2);
		close(saved_stderr);
	}
}

static int stonewall_poll(void)
{
	return comm_stonewall_hit();
}

/* One phase on every rank; rank 0 logs every rank's figures. Returns the agreed status. */
static int run_phase(struct driver *d, unsigned phase, unsigned rep)
{
	struct work_phase out;
	memset(&out, 0, sizeof out);
	out.settings = json_object();
	if (d->ctx.stonewall)
		comm_stonewall_begin(&d->comm, rep * 1000 + phase);
	uint64_t zero = comm_barrier();
	d->w->run(d->st, &d->ctx, phase, &out);
	if (d->ctx.stonewall)
		comm_stonewall_end();
	if (!out.status && cleanup_interrupted())
		out.status = NM_EXIT_INTERRUPTED;
	int st = comm_agree(&d->comm, out.status, out.errmsg);
	if (st || d->comm.rank != 0)
		json_decref(out.settings);
	if (st)
		return st;

	struct wire mine = {
		.bytes = (double)out.bytes,
		.ops = (double)out.ops,
		.start_s = ((double)out.start_ns - (double)zero) / 1e9,
		.end_s = ((double)out.end_ns - (double)zero) / 1e9,
	};
	struct wire *all = d->comm.rank == 0 ? calloc((size_t)d->comm.size, sizeof *all) : NULL;
	comm_gather(&d->comm, &mine, sizeof mine, all);
	if (d->comm.rank == 0) {
		d->log = realloc(d->log, (d->nlog + 1) * sizeof *d->log);
		struct phase_log *l = &d->log[d->nlog++];
		snprintf(l->name, sizeof l->name, "%s", out.name);
		l->rep = rep;
		l->ranks = all;
		l->settings = out.settings;
	}
	return 0;
}

/* The inventory of every distinct host: its first rank describes it. */
static json_t *gather_inventories(struct driver *d, json_t *mine0)
{
	char *text = NULL;
	if (d->comm.host_leader && d->comm.rank != 0) {
		struct inventory_opts io = { .path = d->ctx.dir };
		json_t *inv = inventory_collect(&io);
		text = json_dumps(inv, JSON_COMPACT);
		json_decref(inv);
	}
	char **all = comm_gather_strings(&d->comm, text ? text : "");
	free(text);
	if (d->comm.rank != 0)
		return NULL;
	json_t *hosts = json_object();
	for (int r = 0; r < d->comm.size; r++) {
		if (r == 0 && mine0)
			json_object_set(hosts, d->comm.hosts[0], mine0);
		else if (all[r][0]) {
			json_t *inv = json_loads(all[r], 0, NULL);
			if (inv)
				json_object_set_new(hosts, d->comm.hosts[r], inv);
		}
		free(all[r]);
	}
	free(all);
	return hosts;
}

static void to_intervals(const struct phase_log *l, int size, int bytes, struct rank_interval *iv)
{
	for (int r = 0; r < size; r++) {
		iv[r].amount = bytes ? l->ranks[r].bytes : l->ranks[r].ops;
		iv[r].start_s = l->ranks[r].start_s;
		iv[r].end_s = l->ranks[r].end_s;
	}
}

static const char *rate_text(double bytes_per_sec, double ops_per_sec, char *buf, size_t len)
{
	if (bytes_per_sec > 0)
		return units_rate_si(bytes_per_sec, buf, len);
	char n[32];
	snprintf(buf, len, "%s op/s", units_count(ops_per_sec, n, sizeof n));
	return buf;
}

/* The aggregate of each logged phase into the record's benches and extra.mpi. */
static void build_record(struct driver *d, struct record *rec, json_t *inventories)
{
	int n = d->comm.size;
	struct rank_interval *iv = calloc((size_t)n, sizeof *iv);
	json_t *mpi = json_object(), *aggs = json_array(), *per_rank = json_array();
	for (size_t i = 0; i < d->nlog; i++) {
		const struct phase_log *l = &d->log[i];
		struct rank_aggregate ab, ao;
		to_intervals(l, n, 1, iv);
		ranks_aggregate(iv, (unsigned)n, &ab);
		to_intervals(l, n, 0, iv);
		ranks_aggregate(iv, (unsigned)n, &ao);

		struct bench *b = record_find_bench(rec, l->name);
		if (!b) {
			b = record_add_bench(rec, l->name);
			json_object_update(b->settings, l->settings);
			bench_set(b, "ranks", json_integer(n));
			bench_set(b, "shared_file", json_boolean(d->ctx.shared_file));
			bench_set(b, "stonewall", json_boolean(d->ctx.stonewall));
		}
		if (ab.total > 0) {
			metric_add(bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER), ab.rate);
			metric_add(bench_metric(b, "first_done_bytes_per_sec", "B/s", HIGHER_IS_BETTER),
				   ab.first_done_rate);
		}
		if (ao.total > 0)
			metric_add(bench_metric(b, "ops_per_sec", "op/s", HIGHER_IS_BETTER), ao.rate);
		metric_add(bench_metric(b, "wall_s", "s", LOWER_IS_BETTER), ab.latest_end - ab.earliest_start);

		const struct rank_aggregate *a = ab.total > 0 ? &ab : &ao;
		json_array_append_new(aggs, json_pack("{s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:i, s:i}",
			"name", l->name, "repeat", (int)l->rep, "bytes", ab.total, "ops", ao.total,
			"earliest_start_s", ab.earliest_start, "latest_end_s", ab.latest_end,
			"first_end_s", ab.first_end, "bytes_per_sec", ab.rate, "ops_per_sec", ao.rate,
			"first_done_bytes_per_sec", ab.first_done_rate,
			"slowest_rank", (int)a->slowest, "fastest_rank", (int)a->fastest));
	}
	for (int r = 0; r < n; r++) {
		json_t *phases = json_array();
		for (size_t i = 0; i < d->nlog; i++) {
			const struct wire *x = &d->log[i].ranks[r];
			double dur = x->end_s - x->start_s;
			json_array_append_new(phases, json_pack("{s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f}",
				"name", d->log[i].name, "repeat", (int)d->log[i].rep, "bytes", x->bytes,
				"ops", x->ops, "start_s", x->start_s, "end_s", x->end_s,
				"bytes_per_sec", dur > 0 ? x->bytes / dur : 0.0,
				"ops_per_sec", dur > 0 ? x->ops / dur : 0.0));
		}
		json_array_append_new(per_rank, json_pack("{s:i, s:s, s:o}", "rank", r, "host",
							  d->comm.hosts[r], "phases", phases));
	}
	json_object_set_new(mpi, "ranks", json_integer(n));
	json_object_set_new(mpi, "hosts", json_integer((json_int_t)json_object_size(inventories)));
	json_object_set_new(mpi, "aggregate", aggs);
	json_object_set_new(mpi, "per_rank", per_rank);
	json_object_set_new(mpi, "inventories", inventories);
	json_object_set_new(rec->extra, "mpi", mpi);
	char v[16];
	snprintf(v, sizeof v, "%d", n);
	record_set_tag(rec, "mpi_ranks", v);
	free(iv);
}

/* The rank's own rate in phase log entry l. */
static double own_rate(const struct wire *x, int bytes)
{
	double dur = x->end_s - x->start_s;
	return dur > 0 ? (bytes ? x->bytes : x->ops) / dur : 0;
}

static size_t count_hosts(const struct driver *d)
{
	size_t nhosts = 0;
	for (int r = 0; r < d->comm.size; r++) {
		int first = 1;
		for (int k = 0; k < r; k++)
			if (strcmp(d->comm.hosts[k], d->comm.hosts[r]) == 0)
				first = 0;
		nhosts += first;
	}
	return nhosts;
}

/* Per phase (and repetition): the aggregate rate, the first-done rate, the time, the slowest
 * and the fastest rank. */
static void print_phase_table(struct driver *d, struct rank_interval *iv)
{
	int n = d->comm.size;
	char a[32], f[32], s[32], q[32], t[32];
	int w = 5;
	for (size_t i = 0; i < d->nlog; i++) {
		int len = (int)strlen(d->log[i].name) + (d->repeat > 1 ? 4 : 0);
		if (len > w)
			w = len;
	}
	printf("%-*s %-12s %-12s %-8s %-28s %s\n", w, "phase", "aggregate", "first done", "time", "slowest rank",
	       "fastest rank");
	for (size_t i = 0; i < d->nlog; i++) {
		const struct phase_log *l = &d->log[i];
		struct rank_aggregate ag;
		int bytes = 0;
		for (int r = 0; r < n; r++)
			bytes |= l->ranks[r].bytes > 0;
		to_intervals(l, n, bytes, iv);
		ranks_aggregate(iv, (unsigned)n, &ag);
		char sl[64], fa[64], name[80];
		snprintf(sl, sizeof sl, "%u (%s) %s", ag.slowest, d->comm.hosts[ag.slowest],
			 rate_text(bytes ? ag.slowest_rate : 0, ag.slowest_rate, s, sizeof s));
		snprintf(fa, sizeof fa, "%u (%s) %s", ag.fastest, d->comm.hosts[ag.fastest],
			 rate_text(bytes ? ag.fastest_rate : 0, ag.fastest_rate, q, sizeof q));
		if (d->repeat > 1)
			snprintf(name, sizeof name, "%s #%u", l->name, l->rep + 1);
		else
			snprintf(name, sizeof name, "%s", l->name);
		/* the time may read "850µs": padded by display width, not bytes */
		units_duration((uint64_t)((ag.latest_end - ag.earliest_start) * 1e9), t, sizeof t);
		printf("%-*s %-12s %-12s %s%*s %-28s %s\n", w, name, rate_text(bytes ? ag.rate : 0, ag.rate, a, sizeof a),
		       rate_text(bytes ? ag.first_done_rate : 0, ag.first_done_rate, f, sizeof f), t, text_fill(t, 8), "",
		       sl, fa);
	}
}

/* Per rank: its own rate in each phase of the last repetition. */
static void print_rank_table(struct driver *d, size_t first, int cw)
{
	char a[32];
	printf("\n%-6s %-20s", "rank", "host");
	for (size_t i = first; i < d->nlog; i++)
		printf(" %-*s", cw, d->log[i].name);
	printf("\n");
	for (int r = 0; r < d->comm.size; r++) {
		printf("%-6d %-20s", r, d->comm.hosts[r]);
		for (size_t i = first; i < d->nlog; i++) {
			const struct wire *x = &d->log[i].ranks[r];
			printf(" %-*s", cw, rate_text(x->bytes > 0 ? own_rate(x, 1) : 0, own_rate(x, 0), a, sizeof a));
		}
		printf("\n");
	}
}

/* Per host: the aggregate of its ranks in each phase of the last repetition. */
static void print_host_table(struct driver *d, struct rank_interval *iv, size_t first, int cw)
{
	int n = d->comm.size;
	char a[32];
	printf("\n%-27s", "host (aggregate)");
	for (size_t i = first; i < d->nlog; i++)
		printf(" %-*s", cw, d->log[i].name);
	printf("\n");
	for (int r = 0; r < n; r++) {
		int seen = 0;
		for (int k = 0; k < r; k++)
			seen |= strcmp(d->comm.hosts[k], d->comm.hosts[r]) == 0;
		if (seen)
			continue;
		printf("%-27s", d->comm.hosts[r]);
		for (size_t i = first; i < d->nlog; i++) {
			unsigned m = 0;
			int bytes = d->log[i].ranks[r].bytes > 0;
			for (int k = 0; k < n; k++) {
				if (strcmp(d->comm.hosts[k], d->comm.hosts[r]) != 0)
					continue;
				const struct wire *x = &d->log[i].ranks[k];
				iv[m++] = (struct rank_interval){ bytes ? x->bytes : x->ops, x->start_s, x->end_s };
			}
			struct rank_aggregate ag;
			ranks_aggregate(iv, m, &ag);
			printf(" %-*s", cw, rate_text(bytes ? ag.rate : 0, ag.rate, a, sizeof a));
		}
		printf("\n");
	}
}

static void print_tables(struct driver *d, const struct record *rec)
{
	int n = d->comm.size;
	struct rank_interval *iv = calloc((size_t)n, sizeof *iv);
	size_t nhosts = count_hosts(d);
	printf("%s on %d rank%s, %zu host%s%s\n", d->w->name, n, n == 1 ? "" : "s", nhosts, nhosts == 1 ? "" : "s",
	       !d->ctx.dir ? "" : d->ctx.shared_file ? ", one shared file" : ", a directory per rank");
	int cw = 14;
	for (size_t i = 0; i < d->nlog; i++)
		if ((int)strlen(d->log[i].name) > cw)
			cw = (int)strlen(d->log[i].name);
	print_phase_table(d, iv);
	size_t first = d->nlog - d->nlog / d->repeat;
	print_rank_table(d, first, cw);
	if (nhosts > 1)
		print_host_table(d, iv, first, cw);
	(void)rec;
	free(iv);
}

static int drive(struct driver *d, int argc, char **argv)
{
	char err[512] = "";
	int st = 0;

	cleanup_stop_at_safe_points(); /* the workloads poll cleanup_interrupted() */
	parse(d, argc, argv);
	d->ctx.rank = d->comm.rank;
	d->ctx.size = d->comm.size;
	d->ctx.should_stop = d->ctx.stonewall ? stonewall_poll : NULL;

	/* the shared file's place is made by rank 0 and named to all */
	char *shared = NULL;
	if (d->ctx.shared_file) {
		int s = 0;
		if (d->comm.rank == 0 && d->w->prepare_shared)
			s = d->w->prepare_shared(d->st, &d->ctx, err, sizeof err) < 0;
		st = comm_agree(&d->comm, s, err);
		if (st)
			goto out;
		shared = comm_bcast_string(&d->comm, d->ctx.shared_path ? d->ctx.shared_path : "");
		d->ctx.shared_path = shared;
	}
	st = comm_agree(&d->comm, d->w->prepare(d->st, &d->ctx, err, sizeof err) < 0, err);
	if (st)
		goto out;

	unsigned nph = d->w->nphases(d->st);
	for (unsigned rep = 0; rep < d->repeat && !st; rep++)
		for (unsigned p = 0; p < nph && !st; p++)
			st = run_phase(d, p, rep);

out:;
	/* rank 0 owns the shared file: it goes last */
	if (d->comm.rank != 0)
		d->w->finish(d->st, &d->ctx);
	comm_barrier();
	if (d->comm.rank == 0)
		d->w->finish(d->st, &d->ctx);
	if (st) {
		free(shared);
		return st;
	}

	struct record *rec = NULL;
	json_t *inv0 = NULL;
	if (d->comm.rank == 0) {
		rec = record_new(d->w->name, argc, argv);
		run_opts_apply(&d->ro, rec, d->ctx.dir);
		inv0 = rec->inventory;
	}
	json_t *inventories = gather_inventories(d, inv0);
	if (d->comm.rank == 0) {
		build_record(d, rec, inventories);
		if (d->json) {
			json_t *j = json_object(); /* replaced by the record's JSON form once it exists */
			json_object_set(j, "extra", rec->extra);
			json_dumpf(j, stdout, JSON_INDENT(2));
			printf("\n");
			json_decref(j);
		} else {
			print_tables(d, rec);
		}
		fflush(stdout);
		if (run_save(&d->ro, rec) < 0)
			st = NM_EXIT_FAILED;
		record_free(rec);
	}
	free(shared);
	return st;
}

int mpi_main(const char *name, int (*fn)(int, char **), const char *usage, int argc, char **argv)
{
	struct driver *d = &drv;
	int rc;

	memset(d, 0, sizeof *d);
	d->w = find_workload(name);
	comm_init(&d->comm, &argc, &argv);
	if (cli_asks_for_help(argc, argv)) {
		if (d->comm.rank == 0 && d->w)
			print_help(d->w);
		else if (d->comm.rank == 0)
			fputs(usage, stdout);
		comm_finalize(&d->comm);
		return NM_EXIT_OK;
	}
	cleanup_init();
	if (!d->w) {
		/* not a parallel workload: rank 0 runs it, the others have nothing to do */
		rc = d->comm.rank == 0 ? fn(argc, argv) : NM_EXIT_OK;
		comm_finalize(&d->comm);
		return rc;
	}
	rc = drive(d, argc, argv);
	for (size_t i = 0; i < d->nlog; i++) {
		free(d->log[i].ranks);
		json_decref(d->log[i].settings);
	}
	free(d->log);
	free(d->owned_dir);
	run_opts_free(&d->ro);
	comm_finalize(&d->comm);
	return rc;
}
