#include "cli/baseline.h"
#include "compare/model.h"

#include <string.h>

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
		/* a run --compare-with measured two directories in turns: no baseline of one */
		int turns = extra_run(r, "compare_with") != NULL;
		if (d && m && dir && mode && !turns && strcmp(d, dir) == 0 && strcmp(m, mode) == 0)
			found = r;
		else
			record_free(r);
	}
	run_summaries_free(v, n);
	return found;
}

#define CONFIRM_ROUNDS 3
#define CONFIRM_PER_ROUND 2
#define CONFIRM_MAX 32

/* The benches of rec with a call against base, each once, in rec's order. */
static size_t suspected(const struct record *base, const struct record *rec, const struct bench **out, char *err,
			size_t errlen)
{
	char names[2][128];
	struct ct_input in[2];
	struct cmp_model m;
	if (cmp_build_pair(base, rec, names, in, &m, err, errlen) < 0)
		return (size_t)-1;
	const struct call_list *cl = &m.calls;
	size_t n = 0;
	for (size_t i = 0; i < rec->nbenches && n < CONFIRM_MAX; i++) {
		const struct bench *b = rec->benches[i];
		int called = 0;
		for (size_t k = 0; k < cl->n; k++)
			called |= strcmp(cl->v[k].row, b->name) == 0 && verdict_is_call(cl->v[k].v.kind);
		if (called && bench_phase(b))
			out[n++] = b;
	}
	cmp_free(&m);
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
	/* the CPU time of the re-measured samples: a busy re-measure is judged on it, as the run was */
	json_t *ct = json_object_get(again->extra, "cpu_time");
	if (ct)
		json_object_set(json_object_get(rec->extra, "confirm"), "cpu_time", ct);
	record_free(again);
	return (int)n;
}
