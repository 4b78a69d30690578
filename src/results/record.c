#include "results/record.h"
#include "stats/hist.h"
#include "stats/summary.h"
#include "util/strbuf.h"
#include "util/workdir.h"
#include "util/clock.h"
#include "util/cpulist.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Grow an array of pointers by one slot and return the slot. */
#define PUSH(arr, n) (*((arr) = xrealloc((arr), ((n) + 1) * sizeof *(arr)), &(arr)[(n)++]))

/* Quote a word for a POSIX shell only when it needs it, so the command line can be re-run. */
static void shell_quote(struct strbuf *sb, const char *w)
{
	int plain = *w != '\0';
	for (const char *p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+%@", *p))
			plain = 0;
	if (plain) {
		sb_puts(sb, w);
		return;
	}
	sb_puts(sb, "'");
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			sb_puts(sb, "'\\''");
		else
			sb_add(sb, p, 1);
	}
	sb_puts(sb, "'");
}

struct record *record_alloc(void)
{
	struct record *r = xcalloc(1, sizeof *r);
	r->extra = json_object();
	return r;
}

static void cpus_allowed(struct record *r);

struct record *record_new(const char *command, int argc, char **argv)
{
	struct record *r = record_alloc();
	char host[256] = "unknown";
	struct strbuf sb;

	r->time_ms = clock_wall_ms();
	snprintf(r->id, sizeof r->id, "%08llx%08llx", (unsigned long long)(r->time_ms / 1000) & 0xffffffffull,
		 (unsigned long long)(random_u64() & 0xffffffffull));
	gethostname(host, sizeof host - 1);
	r->host = xstrdup(host);
	r->version = xstrdup(NODEMARK_VERSION);
	r->command = xstrdup(command);
	sb_init(&sb);
	sb_puts(&sb, "nodemark");
	for (int i = 0; i < argc; i++) {
		sb_puts(&sb, " ");
		shell_quote(&sb, argv[i]);
	}
	r->cmdline = sb_detach(&sb);
	cpus_allowed(r);
	return r;
}

/* The CPUs this process may run on, as it starts (taskset, a cgroup's cpuset): a fact of the run,
 * since the same machine gives a run pinned to one CPU half the multi-thread figures. */
static void cpus_allowed(struct record *r)
{
	char *list = malloc(16384);
	int n = list ? cpulist_allowed(list, 16384) : -1;
	if (n > 0)
		json_object_set_new(r->extra, "cpus_allowed", json_pack("{s:s, s:i}", "list", list, "count", n));
	free(list);
}

static void metric_free(struct metric *m)
{
	free(m->name);
	free(m->unit);
	free(m->samples);
	free(m);
}

static void series_free(struct series *s)
{
	free(s->name);
	free(s->x_unit);
	free(s->y_unit);
	free(s->x);
	free(s->y);
	free(s);
}

static void hist_free(struct histogram *h)
{
	free(h->name);
	free(h->value_ns);
	free(h->count);
	free(h);
}

static void bench_free(struct bench *b)
{
	for (size_t i = 0; i < b->nmetrics; i++)
		metric_free(b->metrics[i]);
	for (size_t i = 0; i < b->nseries; i++)
		series_free(b->series[i]);
	for (size_t i = 0; i < b->nhists; i++)
		hist_free(b->hists[i]);
	free(b->metrics);
	free(b->series);
	free(b->hists);
	json_decref(b->settings);
	free(b->name);
	free(b);
}

void record_free(struct record *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nbenches; i++)
		bench_free(r->benches[i]);
	for (size_t i = 0; i < r->ntags; i++) {
		free(r->tag_keys[i]);
		free(r->tag_values[i]);
	}
	free(r->benches);
	free(r->tag_keys);
	free(r->tag_values);
	free(r->host);
	free(r->version);
	free(r->command);
	free(r->cmdline);
	free(r->label);
	json_decref(r->inventory);
	json_decref(r->extra);
	free(r);
}

void record_set_label(struct record *r, const char *label)
{
	free(r->label);
	r->label = xstrdup(label);
}

void record_set_tag(struct record *r, const char *key, const char *value)
{
	for (size_t i = 0; i < r->ntags; i++)
		if (strcmp(r->tag_keys[i], key) == 0) {
			free(r->tag_values[i]);
			r->tag_values[i] = xstrdup(value);
			return;
		}
	size_t n = r->ntags;
	PUSH(r->tag_keys, n) = xstrdup(key);
	PUSH(r->tag_values, r->ntags) = xstrdup(value);
}

const char *record_tag(const struct record *r, const char *key)
{
	for (size_t i = 0; i < r->ntags; i++)
		if (strcmp(r->tag_keys[i], key) == 0)
			return r->tag_values[i];
	return NULL;
}

void record_set_inventory(struct record *r, json_t *inventory)
{
	json_decref(r->inventory);
	r->inventory = inventory;
}

struct bench *record_add_bench(struct record *r, const char *name)
{
	struct bench *b = xcalloc(1, sizeof *b);
	b->name = xstrdup(name);
	b->settings = json_object();
	PUSH(r->benches, r->nbenches) = b;
	return b;
}

struct bench *record_find_bench(const struct record *r, const char *name)
{
	for (size_t i = 0; i < r->nbenches; i++)
		if (strcmp(r->benches[i]->name, name) == 0)
			return r->benches[i];
	return NULL;
}

void bench_set(struct bench *b, const char *key, json_t *value)
{
	json_object_set_new(b->settings, key, value);
}

const char *bench_phase(const struct bench *b)
{
	return b ? json_string_value(json_object_get(b->settings, "phase")) : NULL;
}

const char *bench_noise_key(const struct record *r, const struct bench *b)
{
	const char *phase = bench_phase(b);
	return phase ? phase : r ? r->command : NULL;
}

json_t *bench_noise(const struct record *r, const struct bench *b)
{
	const char *key = bench_noise_key(r, b);
	return r && key ? json_object_get(json_object_get(r->extra, "noise"), key) : NULL;
}

struct metric *bench_find_metric(const struct bench *b, const char *name)
{
	for (size_t i = 0; i < b->nmetrics; i++)
		if (strcmp(b->metrics[i]->name, name) == 0)
			return b->metrics[i];
	return NULL;
}

struct metric *bench_metric(struct bench *b, const char *name, const char *unit, int direction)
{
	struct metric *m = bench_find_metric(b, name);
	if (m)
		return m;
	m = xcalloc(1, sizeof *m);
	m->name = xstrdup(name);
	m->unit = xstrdup(unit);
	m->direction = direction;
	PUSH(b->metrics, b->nmetrics) = m;
	return m;
}

void metric_add(struct metric *m, double sample)
{
	if (m->nsamples == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 8;
		m->samples = xrealloc(m->samples, m->cap * sizeof *m->samples);
	}
	m->samples[m->nsamples++] = sample;
}

void record_add_cpu_sample(struct record *r, const char *bench, const char *metric, unsigned threads,
			   double wall_s, double cpu_s)
{
	json_t *all = json_object_get(r->extra, "cpu_time");
	if (!all) {
		all = json_object();
		json_object_set_new(r->extra, "cpu_time", all);
	}
	json_t *o = json_object_get(all, bench);
	if (!o) {
		o = json_pack("{s:s, s:I, s:[], s:[]}", "metric", metric, "threads", (json_int_t)threads, "wall_s",
			      "cpu_s");
		json_object_set_new(all, bench, o);
	}
	json_array_append_new(json_object_get(o, "wall_s"), json_real(wall_s));
	json_array_append_new(json_object_get(o, "cpu_s"), json_real(cpu_s));
}

size_t cpu_time_basis(const json_t *cpu_time, const char *bench, const char *metric, const double *samples, size_t n,
		      double **out)
{
	*out = NULL;
	json_t *o = json_object_get(cpu_time, bench);
	const char *of = json_string_value(json_object_get(o, "metric"));
	json_t *wall = json_object_get(o, "wall_s"), *cpu = json_object_get(o, "cpu_s");
	if (!of || strcmp(of, metric) != 0 || !n || json_array_size(wall) != n || json_array_size(cpu) != n)
		return 0;
	double *v = xcalloc(n, sizeof *v);
	for (size_t i = 0; i < n; i++) {
		double w = json_number_value(json_array_get(wall, i)), c = json_number_value(json_array_get(cpu, i));
		/* a clock that did not move says nothing: no basis rather than an infinite rate */
		if (!(w > 0) || !(c > 0)) {
			free(v);
			return 0;
		}
		v[i] = samples[i] * w / c;
	}
	*out = v;
	return n;
}

struct series *bench_series(struct bench *b, const char *name, const char *x_unit, const char *y_unit)
{
	for (size_t i = 0; i < b->nseries; i++)
		if (strcmp(b->series[i]->name, name) == 0)
			return b->series[i];
	struct series *s = xcalloc(1, sizeof *s);
	s->name = xstrdup(name);
	s->x_unit = xstrdup(x_unit);
	s->y_unit = xstrdup(y_unit);
	PUSH(b->series, b->nseries) = s;
	return s;
}

void series_add(struct series *s, double x, double y)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->x = xrealloc(s->x, s->cap * sizeof *s->x);
		s->y = xrealloc(s->y, s->cap * sizeof *s->y);
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
}

struct histogram *bench_add_hist(struct bench *b, const char *name, const uint64_t *value_ns,
				 const uint64_t *count, size_t n)
{
	struct histogram *h = xcalloc(1, sizeof *h);
	h->name = xstrdup(name);
	h->value_ns = xcalloc(n, sizeof *h->value_ns);
	h->count = xcalloc(n, sizeof *h->count);
	if (n) {
		memcpy(h->value_ns, value_ns, n * sizeof *value_ns);
		memcpy(h->count, count, n * sizeof *count);
	}
	h->n = n;
	PUSH(b->hists, b->nhists) = h;
	return h;
}

struct histogram *bench_add_latency(struct bench *b, const char *name, const struct hist *h)
{
	uint64_t *val = xcalloc(HIST_NR, sizeof *val), *cnt = xcalloc(HIST_NR, sizeof *cnt);
	size_t n = 0;
	for (unsigned i = 0; i < HIST_NR; i++)
		if (h->bucket[i]) {
			val[n] = hist_bucket_value(i);
			cnt[n++] = h->bucket[i];
		}
	struct histogram *hg = bench_add_hist(b, name, val, cnt, n);
	free(val);
	free(cnt);
	return hg;
}

double metric_median(const struct metric *m)
{
	return m ? stats_median(m->samples, m->nsamples) : 0;
}

int record_cpus_allowed(const struct record *r)
{
	json_int_t n = json_integer_value(json_object_get(json_object_get(r->extra, "cpus_allowed"), "count"));
	return n > 0 && n < (1 << 22) ? (int)n : 0;
}
