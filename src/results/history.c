#include "results/history.h"
#include "results/store.h"
#include "stats/summary.h"
#include "stats/verdict.h"
#include "util/cpulist.h"

#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* A tail (p99, p99.9) or a CPU cost per I/O: both swing far more between runs than a median. */
static int is_tail_or_cpu(const char *metric)
{
	return metric && (strstr(metric, "_p9") || strncmp(metric, "cpu_", 4) == 0);
}

/* What goes through a filesystem and a device: the disk, the piece store (a bench named
 * neither hash/ nor memory/ when the phase is not known). */
static int is_storage(const char *phase, const char *bench)
{
	if (phase)
		return strcmp(phase, "memory") != 0 && strcmp(phase, "hash") != 0;
	return !bench || (strncmp(bench, "hash/", 5) != 0 && strncmp(bench, "memory/", 7) != 0);
}

double history_default_floor_for(const char *phase, const char *bench, const char *metric)
{
	int storage = is_storage(phase, bench), tail = is_tail_or_cpu(metric);
	return storage ? (tail ? HISTORY_DEFAULT_STORAGE_TAIL_PCT : HISTORY_DEFAULT_STORAGE_PCT)
		       : (tail ? HISTORY_DEFAULT_TAIL_PCT : HISTORY_DEFAULT_PCT);
}

double history_default_floor(const struct bench *b, const char *metric)
{
	return history_default_floor_for(b ? bench_phase(b) : NULL, b ? b->name : NULL, metric);
}

int history_on_virtual_machine(const struct record *r)
{
	json_t *v = json_object_get(json_object_get(r ? r->inventory : NULL, "os"), "virtualization");
	const char *type = json_string_value(json_object_get(v, "type"));
	return type && type[0] && strcmp(type, "none") != 0;
}

double history_floor_minimum(const struct record *r, const struct bench *b)
{
	if (!b || !is_storage(bench_phase(b), b->name) || !history_on_virtual_machine(r))
		return 0;
	return HISTORY_HOST_PACED_PCT;
}

static const char *extra_run(const struct record *r, const char *key)
{
	return json_string_value(json_object_get(json_object_get(r->extra, "run"), key));
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static const char *cpus_list(const struct record *r)
{
	return json_string_value(json_object_get(json_object_get(r->extra, "cpus_allowed"), "list"));
}

/* The CPUs of list as a set in mask[] (CPU_SETSIZE bits); -1 when it does not parse. */
static int cpus_mask(const char *list, unsigned char *mask)
{
	int cpus[CPU_SETSIZE];
	int n = cpulist_cpus(list, cpus, CPU_SETSIZE);
	memset(mask, 0, CPU_SETSIZE / 8);
	for (int i = 0; i < n; i++)
		mask[cpus[i] / 8] |= (unsigned char)(1u << (cpus[i] % 8));
	return n > 0 ? 0 : -1;
}

/* Two runs allowed the same CPUs (extra.cpus_allowed: "0-1" and "0,1" alike): a run pinned with
 * taskset and an unpinned one have different spreads.  A record without the set (an older or
 * imported one) is like only another without it; lists that do not parse, only when spelt alike. */
static int same_cpus(const struct record *a, const struct record *b)
{
	const char *la = cpus_list(a), *lb = cpus_list(b);
	unsigned char ma[CPU_SETSIZE / 8], mb[CPU_SETSIZE / 8];
	if (!la || !lb)
		return !la && !lb;
	if (cpus_mask(la, ma) < 0 || cpus_mask(lb, mb) < 0)
		return strcmp(la, lb) == 0;
	return memcmp(ma, mb, sizeof ma) == 0;
}

/* A phase (or a command's run) that ran busy says nothing about the machine's quiet spread. */
static int phase_busy(const struct record *r, const struct bench *b)
{
	return json_is_true(json_object_get(bench_noise(r, b), "busy"));
}

int history_load(struct store *s, const struct record *rec, const char *dir, const char *mode, struct history *h,
		 char *err, size_t errlen)
{
	struct store_filter f = { .host = rec->host, .command = rec->command, .limit = 4 * HISTORY_MAX_RUNS };
	struct run_summary *list;
	size_t n;
	h->n = 0;
	if (store_list(s, &f, &list, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n && h->n < HISTORY_MAX_RUNS; i++) {
		if (strcmp(list[i].id, rec->id) == 0 || list[i].time_ms > rec->time_ms)
			continue;
		struct record *r = store_load(s, list[i].id, err, errlen);
		if (!r) {
			run_summaries_free(list, n);
			history_free(h);
			return -1;
		}
		/* a run --compare-with's figures are two directories' in turns: not this one's history */
		if (same_str(extra_run(r, "dir"), dir) && same_str(extra_run(r, "mode"), mode) &&
		    !extra_run(r, "compare_with") && same_cpus(r, rec))
			h->past[h->n++] = r;
		else
			record_free(r);
	}
	run_summaries_free(list, n);
	return 0;
}

void history_free(struct history *h)
{
	while (h->n)
		record_free(h->past[--h->n]);
}

double history_floor(const struct history *h, const char *bench, const char *metric, double default_pct, int *runs)
{
	double medians[HISTORY_MAX_RUNS];
	size_t k = 0;
	for (size_t r = 0; h && r < h->n; r++) {
		const struct bench *pb = record_find_bench(h->past[r], bench);
		const struct metric *pm = pb ? bench_find_metric(pb, metric) : NULL;
		if (pm && pm->nsamples && !phase_busy(h->past[r], pb))
			medians[k++] = metric_median(pm);
	}
	if (runs)
		*runs = (int)k;
	return verdict_floor_from_history(medians, k, default_pct);
}

void history_set_floors(const struct history *h, struct record *rec)
{
	json_t *floors = json_object();
	for (size_t i = 0; i < rec->nbenches; i++) {
		const struct bench *b = rec->benches[i];
		json_t *jb = json_object();
		for (size_t m = 0; m < b->nmetrics; m++) {
			int runs;
			double pct = history_floor(h, b->name, b->metrics[m]->name, history_default_floor(b, b->metrics[m]->name), &runs);
			json_object_set_new(jb, b->metrics[m]->name,
					    json_pack("{s:f, s:i, s:s}", "pct", pct, "runs", runs, "source",
						      verdict_floor_source(runs, 0)));
		}
		json_object_set_new(floors, b->name, jb);
	}
	json_object_set_new(rec->extra, "noise_floor", floors);
}

int history_noise_floors(struct store *s, struct record *rec, char *err, size_t errlen)
{
	struct history h;
	if (history_load(s, rec, extra_run(rec, "dir"), extra_run(rec, "mode"), &h, err, errlen) < 0)
		return -1;
	history_set_floors(&h, rec);
	history_free(&h);
	return 0;
}

double history_saved_floor(const struct record *r, const char *bench, const char *metric, int *runs)
{
	json_t *f = json_object_get(json_object_get(json_object_get(r->extra, "noise_floor"), bench), metric);
	json_t *pct = json_object_get(f, "pct");
	const char *source = json_string_value(json_object_get(f, "source"));
	if (runs)
		*runs = (int)json_integer_value(json_object_get(f, "runs"));
	/* a default is a policy, not a measurement of this machine: the current one applies */
	if (source && strcmp(source, "default") == 0)
		return NAN;
	return json_is_number(pct) ? json_number_value(pct) : NAN;
}
