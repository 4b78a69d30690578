#include "compare/calls.h"
#include "results/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "base2: the hash phase ran on a busy machine (other processes used 93% of the CPUs)"; a record
 * of `nodemark hash` keeps its noise under its command (results/record.h, bench_noise). */
static const char *busy_reason(const struct ct_input *in, const struct bench *b, char *buf, size_t len)
{
	json_t *n = bench_noise(in->r, b);
	if (!json_is_true(json_object_get(n, "busy")))
		return NULL;
	const char *why = json_string_value(json_object_get(n, "why"));
	if (bench_phase(b))
		snprintf(buf, len, "%s: the %s phase ran on a busy machine (%s)", in->name, bench_phase(b), why ? why : "?");
	else /* a command's own noise over its run: "h2: nodemark hash ran on a busy machine (...)" */
		snprintf(buf, len, "%s: nodemark %s ran on a busy machine (%s)", in->name, bench_noise_key(in->r, b),
			 why ? why : "?");
	return buf;
}

/* The steal share (percent) at which noise_is_busy (proc/noise.h) calls a phase busy. */
#define STEAL_BUSY_PCT 5.0

/* The CPU-time basis of a busy pair (stats/verdict.h): "busy 93%" from the busiest side's share
 * of other processes' CPU use (noise: each side's extra.noise.<phase>), into buf; NULL when
 * neither side was busy, or a busy side's hypervisor stole time (whether a guest's thread CPU
 * time includes steal depends on its kernel, so it would not leave that load out). */
static const char *cpu_busy(const json_t *na, const json_t *nb, char *buf, size_t len)
{
	double most = -1;
	const json_t *n[2] = { na, nb };
	for (int i = 0; i < 2; i++) {
		if (!json_is_true(json_object_get(n[i], "busy")))
			continue;
		if (json_number_value(json_object_get(n[i], "steal_pct")) >= STEAL_BUSY_PCT ||
		    json_number_value(json_object_get(n[i], "peak_steal_pct")) >= STEAL_BUSY_PCT)
			return NULL;
		double other = json_number_value(json_object_get(n[i], "other_busy_pct"));
		if (other > most)
			most = other;
	}
	if (most < 0)
		return NULL;
	snprintf(buf, len, "busy %.0f%%", most);
	return buf;
}

/* The cell's samples as bytes per CPU-second, when the run kept CPU time for each of them. */
static double *cpu_samples(const struct ct_input *in, const struct bench *b, const char *metric,
			   const struct ct_cell *c)
{
	const struct metric *m = bench_find_metric(b, metric);
	double *v = NULL;
	if (m && m->nsamples == c->n)
		cpu_time_basis(json_object_get(in->r->extra, "cpu_time"), b->name, metric, c->v, c->n, &v);
	return v;
}

/* "CPUs allowed 2 -> 1" when the two runs could use different numbers of CPUs and the row's
 * threads outnumber the fewer (taskset -c 0 under a 2-thread figure): CPU time would not see
 * that change (stats/verdict.h, cpu_basis_off); NULL otherwise, or when a run did not record
 * its CPUs (an older record). */
static const char *cpus_changed(const struct ct_input *a, const struct ct_input *b, const char *bench, char *buf,
				size_t len)
{
	int na = record_cpus_allowed(a->r), nb = record_cpus_allowed(b->r);
	if (!na || !nb || na == nb)
		return NULL;
	json_int_t threads = 0;
	for (int i = 0; i < 2; i++) {
		json_t *t = json_object_get(json_object_get(json_object_get((i ? b : a)->r->extra, "cpu_time"), bench),
					    "threads");
		if (json_integer_value(t) > threads)
			threads = json_integer_value(t);
	}
	if (threads <= (na < nb ? na : nb))
		return NULL;
	snprintf(buf, len, "CPUs allowed %d -> %d", na, nb);
	return buf;
}

static int budget_ran_out(const struct ct_input *in, const struct bench *b)
{
	json_t *s = json_object_get(json_object_get(in->r->extra, "sampling"), b ? b->name : "");
	const char *stopped = json_string_value(json_object_get(s, "stopped"));
	return stopped && strcmp(stopped, "budget") == 0;
}

/* The input behind column c, when exactly one input has its name. */
static const struct ct_input *column_input(const struct ct_input *in, size_t nin, const char *col)
{
	const struct ct_input *found = NULL;
	for (size_t i = 0; i < nin; i++)
		if (strcmp(in[i].name, col) == 0) {
			if (found)
				return NULL;
			found = &in[i];
		}
	return found;
}

static double saved_or_default_floor(const struct ct_input *a, const struct bench *ba, const struct ct_input *b,
				     const struct bench *bb, const char *metric, int *runs)
{
	/* The older run's saved floor: its history holds only runs before it, so a change that came
	 * between the two runs (and the runs since, which share it) cannot widen the floor it is
	 * judged by.  Runs of the same moment (or one without a floor): the larger, the cautious
	 * one.  Either way the choice is symmetric in a and b. */
	int ra = 0, rb = 0;
	double fa = history_saved_floor(a->r, ba->name, metric, &ra);
	double fb = history_saved_floor(b->r, bb->name, metric, &rb);
	*runs = 0;
	if (isnan(fa) && isnan(fb))
		return history_default_floor(bb, metric);
	if (!isnan(fa) && !isnan(fb) && a->r->time_ms != b->r->time_ms) {
		int a_older = a->r->time_ms < b->r->time_ms;
		*runs = a_older ? ra : rb;
		return a_older ? fa : fb;
	}
	if (isnan(fb) || (!isnan(fa) && fa >= fb)) {
		*runs = isnan(fa) ? 0 : ra;
		return fa;
	}
	*runs = rb;
	return fb;
}

/* The floor a pair is judged by: the saved or default floor, raised to the least floor of storage
 * on a virtual machine when either run was measured on one, unless the floor comes from a full
 * history (history.h: a host's jump is not in a short history of the guest's). */
static double floor_for(const struct ct_input *a, const struct bench *ba, const struct ct_input *b,
			const struct bench *bb, const char *metric, int *runs, int *host_paced)
{
	double pct = saved_or_default_floor(a, ba, b, bb, metric, runs);
	double least = fmax(history_floor_minimum(a->r, ba), history_floor_minimum(b->r, bb));
	*host_paced = least > pct && *runs < HISTORY_MAX_RUNS;
	return *host_paced ? least : pct;
}

/* The samples `run` measured again for (bench, metric) of cur against this baseline
 * (extra.confirm, cli/baseline.h), or NULL. */
static json_t *remeasured(const struct ct_input *base, const struct ct_input *cur, const char *bench,
			  const char *metric)
{
	json_t *cf = json_object_get(cur->r->extra, "confirm");
	const char *against = json_string_value(json_object_get(cf, "baseline"));
	if (!against || strcmp(against, base->r->id) != 0)
		return NULL;
	json_t *v = json_object_get(json_object_get(json_object_get(cf, "benches"), bench), metric);
	return json_array_size(v) ? v : NULL;
}

/* A call that `run` re-measured: confirmed or withdrawn (stats/verdict.h, verdict_confirm), the
 * same here as in `run`, since both decide from the saved samples. */
static void recheck(struct call *c, const struct verdict_input *first_in, const struct ct_input *ia,
		    const struct ct_input *ib, const struct bench *ba, const struct bench *bb)
{
	json_t *v = verdict_is_call(c->v.kind) ? remeasured(ia, ib, bb->name, c->metric) : NULL;
	if (!v)
		return;
	size_t n = json_array_size(v);
	double *again = malloc(n * sizeof *again);
	if (!again)
		abort();
	for (size_t i = 0; i < n; i++)
		again[i] = json_number_value(json_array_get(v, i));
	char busy[400];
	const char *phase = bench_phase(bb);
	json_t *noise = phase ? json_object_get(json_object_get(json_object_get(ib->r->extra, "confirm"), "noise"), phase)
			      : NULL;
	struct verdict_input in = *first_in;
	in.cur = again;
	in.ncur = n;
	in.cur_busy = NULL;
	in.short_why = NULL;
	if (json_is_true(json_object_get(noise, "busy"))) {
		const char *why = json_string_value(json_object_get(noise, "why"));
		snprintf(busy, sizeof busy, "the re-measure ran on a busy machine (%s)", why ? why : "?");
		in.cur_busy = busy;
	}
	/* the re-measure's own CPU time (extra.confirm.cpu_time), judged as the run's would be */
	char pct[32];
	double *again_cpu = NULL;
	in.cpu_busy = cpu_busy(bench_noise(ia->r, ba), noise, pct, sizeof pct);
	cpu_time_basis(json_object_get(json_object_get(ib->r->extra, "confirm"), "cpu_time"), bb->name, c->metric,
		       again, n, &again_cpu);
	in.cur_cpu = again_cpu;
	struct verdict second, first = c->v;
	verdict_decide(&in, &second);
	verdict_confirm(&first, &second, &c->v);
	free(again);
	free(again_cpu);
}

/* The benchmark of in that a cell of row holds: the one its samples came from (the second of
 * two benches named x has the row "x #2", not its name), else the one named as the row. */
static const struct bench *cell_bench(const struct ct_input *in, const struct ct_cell *c, const char *row)
{
	for (size_t i = 0; c->from && i < in->r->nbenches; i++)
		if (in->r->benches[i] == c->from)
			return c->from;
	return record_find_bench(in->r, row);
}

static void add_call(struct call_list *cl, const struct ct_table *t, size_t ti, size_t row, size_t col, const struct ct_input *ia,
		     const struct ct_input *ib, const struct ct_cell *ca, const struct ct_cell *cb, double alpha)
{
	const struct bench *ba = cell_bench(ia, ca, t->rows[row]), *bb = cell_bench(ib, cb, t->rows[row]);
	if (!ba || !bb)
		return;
	char busy_a[400], busy_b[400], short_why[200] = "", busy_pct[32], cpus[64];
	int ra = budget_ran_out(ia, ba), rb = budget_ran_out(ib, bb);
	if (ra || rb)
		snprintf(short_why, sizeof short_why, "the time budget ran out (%s%s%s)", ra ? ia->name : "",
			 ra && rb ? ", " : "", rb ? ib->name : "");
	int floor_runs, host_paced;
	double floor_pct = floor_for(ia, ba, ib, bb, t->metric, &floor_runs, &host_paced);
	struct verdict_input vi = {
		.base = ca->v, .nbase = ca->n, .cur = cb->v, .ncur = cb->n, .direction = t->direction, .alpha = alpha,
		.floor_pct = floor_pct, .floor_runs = floor_runs, .floor_host_paced = host_paced,
		.base_busy = busy_reason(ia, ba, busy_a, sizeof busy_a),
		.cur_busy = busy_reason(ib, bb, busy_b, sizeof busy_b),
		.short_why = short_why[0] ? short_why : NULL,
		.cpu_busy = cpu_busy(bench_noise(ia->r, ba), bench_noise(ib->r, bb), busy_pct, sizeof busy_pct),
		.cpu_floor_pct = history_default_floor(bb, t->metric),
		.cpu_basis_off = cpus_changed(ia, ib, bb->name, cpus, sizeof cpus),
	};
	/* kept whether or not this pair is busy: a re-measure that ran busy needs the baseline's */
	double *cpu_a = cpu_samples(ia, ba, t->metric, ca), *cpu_b = cpu_samples(ib, bb, t->metric, cb);
	vi.base_cpu = cpu_a;
	vi.cur_cpu = cpu_b;
	cl->v = realloc(cl->v, (cl->n + 1) * sizeof *cl->v);
	if (!cl->v)
		abort();
	struct call *c = &cl->v[cl->n++];
	*c = (struct call){ t->metric, t->unit, t->rows[row], bench_phase(bb), ti, row, col, { 0 } };
	verdict_decide(&vi, &c->v);
	recheck(c, &vi, ia, ib, ba, bb);
	free(cpu_a);
	free(cpu_b);
}

void calls_build(const struct ct_input *in, size_t nin, const struct ct_opts *o, const struct ct_result *res,
		 struct call_list *out)
{
	memset(out, 0, sizeof *out);
	out->res = res;
	if ((o->col_key && strcmp(o->col_key, "input") != 0) || (o->row_key && strcmp(o->row_key, "name") != 0))
		return;
	for (size_t i = 0; i < nin; i++)
		if (in[i].r->command && strcmp(in[i].r->command, "gobench") == 0)
			return;
	const struct ct_input *base = res->ncols ? column_input(in, nin, res->cols[0]) : NULL;
	if (!base)
		return;
	for (size_t c = 1; c < res->ncols; c++) {
		const struct ct_input *cur = column_input(in, nin, res->cols[c]);
		if (!cur)
			continue;
		for (size_t ti = 0; ti < res->ntables; ti++) {
			const struct ct_table *t = res->tables[ti];
			for (size_t r = 0; r < t->nrows; r++) {
				const struct ct_cell *ca = ct_cell_at(res, t, r, 0), *cb = ct_cell_at(res, t, r, c);
				if (ca && cb)
					add_call(out, t, ti, r, c, base, cur, ca, cb, res->alpha);
			}
		}
	}
}

void calls_free(struct call_list *cl)
{
	free(cl->v);
	memset(cl, 0, sizeof *cl);
}

void calls_count(const struct call_list *cl, const char *metric, size_t *called, size_t *unchanged,
		 size_t *not_compared)
{
	*called = *unchanged = *not_compared = 0;
	for (size_t i = 0; i < cl->n; i++) {
		const struct call *c = &cl->v[i];
		if (metric && strcmp(c->metric, metric) != 0)
			continue;
		if (verdict_is_call(c->v.kind))
			++*called;
		else if (c->v.kind == VERDICT_NOT_COMPARED)
			++*not_compared;
		else
			++*unchanged;
	}
}
