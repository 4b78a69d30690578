/* From the jobs' results to fio's report entries, and from those to nodemark's record. */
#include "fio/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void entry_init(struct fio_report_entry *e, const struct fio_runner *r, const struct fio_job *j)
{
	e->name = j->name;
	e->groupid = j->io.report.group;
	e->io = &j->io;
	e->startdelay_ns = j->startdelay_ns;
	e->ioengine = fio_engine_name(r, j);
	e->kb_base = j->kb_base;
	e->unit_base = j->unit_base;
	e->slat_percentiles = j->slat_percentiles;
	e->clat_percentiles = j->clat_percentiles;
	e->lat_percentiles = j->lat_percentiles;
	e->unified = (enum fio_unified)j->unified;
	e->description = fio_job_opt(j, "description", NULL);
	io_result_init(&e->res);
}

/* fio's sum of per-priority figures: a thread with cmdprio shares brings each priority's; one
 * without, all its I/Os at its own priority (its clat, or lat with lat_percentiles). */
static void add_prios(struct io_job_result *dst, const struct io_job_result *src, const struct fio_job *j)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		if (src->prios)
			for (unsigned i = 0; i < src->prios->n[d]; i++)
				io_prio_stats_add(&dst->prios, d, src->prios->s[d][i].prio, &src->prios->s[d][i].lat);
		else
			io_prio_stats_add(&dst->prios, d, j->io.place.ioprio,
					  j->lat_percentiles ? &src->dir[d].lat : &src->dir[d].clat);
	}
}

void fio_build_entries(const struct fio_sched *s, struct io_job_result *const *res_of, struct fio_report *rep)
{
	const struct fio_plan *p = s->plan;
	size_t cap = 0;
	for (size_t i = 0; i < p->njobs; i++)
		cap += p->jobs[i].io.numjobs;
	rep->entries = calloc(cap ? cap : 1, sizeof *rep->entries);
	if (!rep->entries)
		abort();
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		for (unsigned t = 0; t < j->io.numjobs; t++) {
			const struct io_job_result *res = &res_of[i][t];
			struct fio_report_entry *e = rep->nentries ? &rep->entries[rep->nentries - 1] : NULL;
			if (!(e && j->group_reporting && e->groupid == j->io.report.group)) {
				e = &rep->entries[rep->nentries++];
				entry_init(e, &s->runs[i], j);
			}
			/* fio shows the first job's name but the last merged job's options */
			e->opts = j->opts.kv;
			e->nopts = j->opts.n;
			e->globals = j->inherited.kv;
			e->nglobals = j->inherited.n;
			if (s->runs[i].nss) /* the thread's own judge; the group's (its last job's) */
				e->ss = &s->runs[i].ss[j->group_reporting ? 0 : t];
			io_result_merge(&e->res, res);
			add_prios(&e->res, res, j);
			e->nthreads++;
			e->job_runtime_ns += res->runtime_ns;
		}
	}
}

void fio_header_entries(const struct fio_sched *s, struct fio_report *rep)
{
	const struct fio_plan *p = s->plan;
	rep->entries = calloc(p->njobs ? p->njobs : 1, sizeof *rep->entries);
	if (!rep->entries)
		abort();
	for (size_t i = 0; i < p->njobs; i++) {
		const struct fio_job *j = &p->jobs[i];
		struct fio_report_entry *e = &rep->entries[rep->nentries++];
		e->name = j->name;
		e->groupid = j->io.report.group;
		e->io = &j->io;
		e->ioengine = fio_engine_name(&s->runs[i], j);
		e->nthreads = j->io.numjobs;
		e->thread = j->thread;
		e->kb_base = j->kb_base;
	}
}

static void add_dir_metrics(struct bench *b, const struct fio_report_entry *e, int d)
{
	static const char *const dname[DIR_COUNT] = { "read", "write", "trim" };
	const struct io_dir_result *dr = &e->res.dir[d];
	uint64_t ns = dr->runtime_ns ? dr->runtime_ns : e->res.runtime_ns;
	char m[64];
	snprintf(m, sizeof m, "%s_iops", dname[d]);
	metric_add(bench_metric(b, m, "op/s", HIGHER_IS_BETTER), ns ? (double)dr->ios * 1e9 / (double)ns : 0);
	snprintf(m, sizeof m, "%s_bytes_per_sec", dname[d]);
	metric_add(bench_metric(b, m, "B/s", HIGHER_IS_BETTER), ns ? (double)dr->bytes * 1e9 / (double)ns : 0);
	snprintf(m, sizeof m, "%s_clat_mean_ns", dname[d]);
	metric_add(bench_metric(b, m, "ns", LOWER_IS_BETTER), hist_mean(&dr->clat));
	snprintf(m, sizeof m, "%s_clat_p99_ns", dname[d]);
	metric_add(bench_metric(b, m, "ns", LOWER_IS_BETTER), (double)hist_percentile(&dr->clat, 99));
	snprintf(m, sizeof m, "clat_%s", dname[d]);
	bench_add_latency(b, m, &dr->clat);
}

struct record *fio_make_record(int argc, char **argv, const struct fio_report *rep)
{
	struct record *rec = record_new("fio", argc, argv);
	for (size_t i = 0; i < rep->nentries; i++) {
		const struct fio_report_entry *e = &rep->entries[i];
		char name[160];
		snprintf(name, sizeof name, "%s (group %d, entry %zu)", e->name, e->groupid, i);
		struct bench *b = record_add_bench(rec, name);
		json_t *opts = json_object();
		for (size_t k = 0; k < e->nopts; k++)
			json_object_set_new(opts, e->opts[k].key, e->opts[k].value ? json_string(e->opts[k].value) : json_true());
		bench_set(b, "job_options", opts);
		/* the global options too: direct=1 -> 0 in [global] is a setting that changed */
		if (e->nglobals) {
			json_t *g = json_object();
			for (size_t k = 0; k < e->nglobals; k++)
				json_object_set_new(g, e->globals[k].key,
						    e->globals[k].value ? json_string(e->globals[k].value) : json_true());
			bench_set(b, "global_options", g);
		}
		bench_set(b, "groupid", json_integer(e->groupid));
		bench_set(b, "threads", json_integer(e->nthreads));
		bench_set(b, "engine", json_string(e->res.engine_used));
		for (int d = 0; d < DIR_COUNT; d++)
			if (e->res.dir[d].ios)
				add_dir_metrics(b, e, d);
	}
	return rec;
}
