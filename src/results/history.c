#include "results/history.h"
#include "results/store.h"
#include "stats/summary.h"
#include "stats/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *bench_phase(const struct bench *b)
{
	return json_string_value(json_object_get(b->settings, "phase"));
}

double history_default_floor_pct(const struct bench *b)
{
	const char *phase = b ? bench_phase(b) : NULL;
	if (!phase && b) /* a bench of `nodemark hash` or of the suite named like one */
		phase = strncmp(b->name, "hash/", 5) == 0 ? "hash" : strncmp(b->name, "memory/", 7) == 0 ? "memory" : NULL;
	return phase && (strcmp(phase, "memory") == 0 || strcmp(phase, "hash") == 0) ? 10.0 : 20.0;
}

static const char *extra_run(const struct record *r, const char *key)
{
	return json_string_value(json_object_get(json_object_get(r->extra, "run"), key));
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* A phase that ran busy says nothing about the machine's quiet spread. */
static int phase_busy(const struct record *r, const struct bench *b)
{
	const char *phase = bench_phase(b);
	json_t *n = phase ? json_object_get(json_object_get(r->extra, "noise"), phase) : NULL;
	return json_is_true(json_object_get(n, "busy"));
}

/* The earlier runs like rec, newest first: at most HISTORY_MAX_RUNS into v. */
static size_t load_history(struct store *s, const struct record *rec, struct record **v, char *err, size_t errlen)
{
	struct store_filter f = { .host = rec->host, .command = rec->command, .limit = 4 * HISTORY_MAX_RUNS };
	struct run_summary *list;
	size_t n, k = 0;
	if (store_list(s, &f, &list, &n, err, errlen) < 0)
		return (size_t)-1;
	for (size_t i = 0; i < n && k < HISTORY_MAX_RUNS; i++) {
		if (strcmp(list[i].id, rec->id) == 0 || list[i].time_ms > rec->time_ms)
			continue;
		struct record *r = store_load(s, list[i].id, err, errlen);
		if (!r) {
			run_summaries_free(list, n);
			while (k)
				record_free(v[--k]);
			return (size_t)-1;
		}
		if (same_str(extra_run(r, "dir"), extra_run(rec, "dir")) && same_str(extra_run(r, "mode"), extra_run(rec, "mode")))
			v[k++] = r;
		else
			record_free(r);
	}
	run_summaries_free(list, n);
	return k;
}

int history_noise_floors(struct store *s, struct record *rec, char *err, size_t errlen)
{
	struct record *past[HISTORY_MAX_RUNS];
	size_t np = load_history(s, rec, past, err, errlen);
	if (np == (size_t)-1)
		return -1;
	json_t *floors = json_object();
	double medians[HISTORY_MAX_RUNS];
	for (size_t i = 0; i < rec->nbenches; i++) {
		const struct bench *b = rec->benches[i];
		json_t *jb = json_object();
		for (size_t m = 0; m < b->nmetrics; m++) {
			size_t k = 0;
			for (size_t r = 0; r < np; r++) {
				const struct bench *pb = record_find_bench(past[r], b->name);
				const struct metric *pm = pb ? bench_find_metric(pb, b->metrics[m]->name) : NULL;
				if (pm && pm->nsamples && !phase_busy(past[r], pb))
					medians[k++] = metric_median(pm);
			}
			double pct = verdict_floor_from_history(medians, k, history_default_floor_pct(b));
			json_object_set_new(jb, b->metrics[m]->name, json_pack("{s:f, s:i}", "pct", pct, "runs", (int)k));
		}
		json_object_set_new(floors, b->name, jb);
	}
	json_object_set_new(rec->extra, "noise_floor", floors);
	for (size_t r = 0; r < np; r++)
		record_free(past[r]);
	return 0;
}

double history_saved_floor(const struct record *r, const char *bench, const char *metric, int *runs)
{
	json_t *f = json_object_get(json_object_get(json_object_get(r->extra, "noise_floor"), bench), metric);
	json_t *pct = json_object_get(f, "pct");
	if (runs)
		*runs = (int)json_integer_value(json_object_get(f, "runs"));
	return json_is_number(pct) ? json_number_value(pct) : NAN;
}
