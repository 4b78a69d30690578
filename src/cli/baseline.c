#include "cli/baseline.h"
#include "export/calls.h"
#include "export/changes.h"
#include "export/comparetab.h"
#include "export/report.h"
#include "util/atomicfile.h"

#include <math.h>
#include <string.h>
#include <time.h>

static const char *extra_run(const struct record *r, const char *key)
{
	return json_string_value(json_object_get(json_object_get(r->extra, "run"), key));
}

struct record *baseline_find(struct store *s, const struct record *rec, const char *name, char *err,
			     size_t errlen)
{
	err[0] = '\0';
	if (name)
		return store_load(s, name, err, errlen);
	struct store_filter f = { .host = rec->host, .command = "run", .limit = 50 };
	struct run_summary *v;
	size_t n;
	if (store_list(s, &f, &v, &n, err, errlen) < 0)
		return NULL;
	const char *dir = extra_run(rec, "dir"), *mode = extra_run(rec, "mode");
	struct record *found = NULL;
	for (size_t i = 0; i < n && !found; i++) {
		if (strcmp(v[i].id, rec->id) == 0 || v[i].time_ms > rec->time_ms)
			continue;
		struct record *r = store_load(s, v[i].id, err, errlen);
		if (!r)
			break;
		const char *d = extra_run(r, "dir"), *m = extra_run(r, "mode");
		if (d && m && dir && mode && strcmp(d, dir) == 0 && strcmp(m, mode) == 0)
			found = r;
		else
			record_free(r);
	}
	run_summaries_free(v, n);
	return found;
}

static void input_names(const struct record *base, const struct record *rec, char *a, char *b, size_t len)
{
	snprintf(a, len, "baseline %.8s%s%s", base->id, base->label ? " " : "", base->label ? base->label : "");
	snprintf(b, len, "this run %.8s%s%s", rec->id, rec->label ? " " : "", rec->label ? rec->label : "");
}

static int build_calls(const struct record *base, const struct record *rec, char (*names)[128], struct ct_input *in,
		       struct ct_result *res, struct call_list *cl, char *err, size_t errlen);

int baseline_compare(FILE *out, const struct record *base, const struct record *rec, char *err, size_t errlen)
{
	char names[2][128];
	struct ct_input in[2];
	struct ct_result res = { 0 };
	struct call_list cl;
	if (build_calls(base, rec, names, in, &res, &cl, err, errlen) < 0)
		return -1;

	/* the throughput table only: the other metrics are in the report */
	size_t keep = res.ntables, ntables = res.ntables;
	for (size_t i = 0; i < res.ntables; i++)
		if (strcmp(res.tables[i]->metric, "bytes_per_sec") == 0)
			keep = i;
	int ncalls = 0;
	if (keep < ntables) {
		struct ct_table *first = res.tables[0];
		res.tables[0] = res.tables[keep];
		res.tables[keep] = first;
		res.ntables = 1;
		ct_write_text(out, &res);
		res.ntables = ntables;
		changes_write_text(out, base, names[0], rec, names[1]);

		/* nodemark's calls, the same as compare and report make about these two runs */
		size_t same, not_compared, called;
		calls_write_text(out, &cl, "bytes_per_sec");
		calls_count(&cl, "bytes_per_sec", &called, &same, &not_compared);
		ncalls = (int)called;
	} else {
		fprintf(out, "no throughput figure in common with the baseline\n");
		changes_write_text(out, base, names[0], rec, names[1]);
	}
	calls_free(&cl);
	ct_free(&res);
	return ncalls;
}

#define CONFIRM_ROUNDS 3
#define CONFIRM_PER_ROUND 2
#define CONFIRM_MAX 32

/* The table and the calls of base against rec, as compare makes them; the inputs' names live in
 * the caller's names[2] (in[] points at them). */
static int build_calls(const struct record *base, const struct record *rec, char (*names)[128], struct ct_input *in,
		       struct ct_result *res, struct call_list *cl, char *err, size_t errlen)
{
	input_names(base, rec, names[0], names[1], sizeof names[0]);
	in[0] = (struct ct_input){ base, names[0] };
	in[1] = (struct ct_input){ rec, names[1] };
	struct ct_opts o = { 0 };
	if (ct_build(in, 2, &o, res, err, errlen) < 0)
		return -1;
	calls_build(in, 2, &o, res, cl);
	return 0;
}

/* The benches of rec with a call against base, each once, in rec's order. */
static size_t suspected(const struct record *base, const struct record *rec, const struct bench **out, char *err,
			size_t errlen)
{
	char names[2][128];
	struct ct_input in[2];
	struct ct_result res = { 0 };
	struct call_list cl;
	if (build_calls(base, rec, names, in, &res, &cl, err, errlen) < 0)
		return (size_t)-1;
	size_t n = 0;
	for (size_t i = 0; i < rec->nbenches && n < CONFIRM_MAX; i++) {
		const struct bench *b = rec->benches[i];
		int called = 0;
		for (size_t k = 0; k < cl.n; k++)
			called |= strcmp(cl.v[k].row, b->name) == 0 && verdict_is_call(cl.v[k].v.kind);
		if (called && bench_phase(b))
			out[n++] = b;
	}
	calls_free(&cl);
	ct_free(&res);
	return n;
}

int baseline_confirm(baseline_remeasure_fn remeasure, void *arg, const struct record *base, struct record *rec,
		     char *err, size_t errlen)
{
	const struct bench *benches[CONFIRM_MAX];
	size_t n = suspected(base, rec, benches, err, errlen);
	if (n == (size_t)-1)
		return -1;
	if (!n)
		return 0;
	fprintf(stderr, "re-measuring %zu figure%s whose change may be real (%d rounds, in turns):", n, n == 1 ? "" : "s",
		CONFIRM_ROUNDS);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "", benches[i]->name);
	fprintf(stderr, "\n");
	char *argv[] = { "run" };
	struct record *again = record_new("run", 1, argv);
	int st = remeasure(arg, benches, n, CONFIRM_ROUNDS, CONFIRM_PER_ROUND, again);
	if (st) {
		record_free(again);
		snprintf(err, errlen, "the re-measure %s: the calls stand unconfirmed",
			 st == 130 ? "was interrupted" : "failed");
		return -1;
	}
	json_t *jb = json_object();
	for (size_t i = 0; i < again->nbenches; i++) {
		const struct bench *b = again->benches[i];
		json_t *jm = json_object();
		for (size_t m = 0; m < b->nmetrics; m++) {
			json_t *v = json_array();
			for (size_t k = 0; k < b->metrics[m]->nsamples; k++)
				json_array_append_new(v, json_real(b->metrics[m]->samples[k]));
			json_object_set_new(jm, b->metrics[m]->name, v);
		}
		json_object_set_new(jb, b->name, jm);
	}
	json_t *noise = json_object_get(again->extra, "noise");
	json_object_set_new(rec->extra, "confirm",
			    json_pack("{s:s, s:i, s:i, s:o, s:o}", "baseline", base->id, "rounds", CONFIRM_ROUNDS,
				      "per_round", CONFIRM_PER_ROUND, "benches", jb, "noise", noise ? json_incref(noise) : json_object()));
	record_free(again);
	return (int)n;
}

int baseline_report(const char *path, const struct record *rec, const struct record *base, char *err,
		    size_t errlen)
{
	char na[128], nb[128];
	struct ct_input in[2];
	size_t n = 0;
	if (base) {
		input_names(base, rec, na, nb, sizeof na);
		in[n++] = (struct ct_input){ base, na };
	} else {
		snprintf(nb, sizeof nb, "run %.8s", rec->id);
	}
	in[n++] = (struct ct_input){ rec, nb };
	struct ct_opts o = { 0 };
	struct ct_result res = { 0 };
	if (ct_build(in, n, &o, &res, err, errlen) < 0)
		return -1;
	char generated[96];
	report_generated(generated, sizeof generated);
	struct call_list cl;
	calls_build(in, n, &o, &res, &cl);
	struct report_opts ro = { "nodemark run", generated, &cl };
	struct atomic_file af;
	FILE *f = afile_open(&af, path, err, errlen);
	int rc = -1;
	if (f) {
		report_write_html(f, in, n, &res, &ro);
		rc = afile_commit(&af, err, errlen);
	}
	calls_free(&cl);
	ct_free(&res);
	return rc;
}

json_t *baseline_calls_json(const struct record *base, const struct record *rec, char *err, size_t errlen)
{
	char names[2][128];
	struct ct_input in[2];
	struct ct_result res = { 0 };
	struct call_list cl;
	if (build_calls(base, rec, names, in, &res, &cl, err, errlen) < 0)
		return NULL;
	json_t *j = calls_to_json(&cl);
	calls_free(&cl);
	ct_free(&res);
	return j;
}
