/* The one record type that every benchmarking command produces (docs/design.md: "one record type
 * flows everywhere; every output format is an exporter of that record").
 *
 *   record     a run: id, time, host, version, command line, label, tags, inventory
 *     bench    one benchmark of the run ("SEQ1M Q8T1 read", "pieces/nosync-BLAKE3"), with
 *              settings (a JSON object of the parameters that define it) and
 *       metric   a named figure with unit and direction, and its raw samples (one per pass,
 *                run or repetition): compare/report compute medians and tests from these
 *       series   (x, y) pairs: per-second IOPS, a track timeline
 *       hist     a latency histogram as sparse (bucket value ns, count) pairs (fio's buckets)
 *
 * Builders return pointers that stay valid until record_free (arrays hold pointers, so adding
 * a bench never moves an earlier one).  Allocation failure aborts: records are small. */
#ifndef NM_RESULTS_RECORD_H
#define NM_RESULTS_RECORD_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

enum metric_direction {
	HIGHER_IS_BETTER = 1,
	LOWER_IS_BETTER = -1,
	NEUTRAL = 0,
};

struct metric {
	char *name;     /* "bytes_per_sec", "iops", "lat_mean_ns", "wall_s" */
	char *unit;     /* "B/s", "op/s", "ns", "s", "B" */
	int direction;  /* enum metric_direction */
	double *samples;
	size_t nsamples, cap;
};

struct series {
	char *name;     /* "iops", "bytes_per_sec", "progress" */
	char *x_unit;   /* "s" */
	char *y_unit;
	double *x, *y;
	size_t n, cap;
};

struct histogram {
	char *name;     /* "clat_read" */
	uint64_t *value_ns;
	uint64_t *count;
	size_t n;
};

struct bench {
	char *name;
	json_t *settings;       /* object; never NULL */
	struct metric **metrics;
	size_t nmetrics;
	struct series **series;
	size_t nseries;
	struct histogram **hists;
	size_t nhists;
};

struct record {
	char id[24];            /* 16 hex digits: 8 of start time, 8 random; sorts by time */
	int64_t time_ms;        /* wall-clock start, Unix ms */
	char *host;
	char *version;
	char *command;          /* the subcommand: "disk", "pieces", "time", ... */
	char *cmdline;          /* the whole command line, shell-quoted */
	char *label;            /* may be NULL */
	char **tag_keys, **tag_values;
	size_t ntags;
	json_t *inventory;      /* the `nodemark info` object; may be NULL */
	json_t *extra;          /* command-specific facts (noise figures, ranks, ...); object, never NULL */
	struct bench **benches;
	size_t nbenches;
};

/* A new record with a fresh id, the current time, the host name and this version, and the CPUs
 * the process may run on (sched_getaffinity) as extra.cpus_allowed = {"list": "0-1", "count": 2}. */
struct record *record_new(const char *command, int argc, char **argv);
void record_free(struct record *r);
/* An empty record (no id, time, host or command yet): for loaders that fill every field. */
struct record *record_alloc(void);

/* The count of extra.cpus_allowed; 0 when the record has none (older, imported). */
int record_cpus_allowed(const struct record *r);

void record_set_label(struct record *r, const char *label);
/* Set or replace a tag. */
void record_set_tag(struct record *r, const char *key, const char *value);
const char *record_tag(const struct record *r, const char *key);
/* Takes ownership of inventory (a reference is stolen, as jansson's *_new calls do). */
void record_set_inventory(struct record *r, json_t *inventory);

struct bench *record_add_bench(struct record *r, const char *name);
struct bench *record_find_bench(const struct record *r, const char *name);

/* Settings: steals the reference to value. */
void bench_set(struct bench *b, const char *key, json_t *value);
/* The phase of `nodemark run` a bench belongs to (its "phase" setting), or NULL (also for b NULL). */
const char *bench_phase(const struct bench *b);
/* The key of b's noise figures in r's extra.noise: its phase (`run`), else r's command (one
 * that measures one thing over its whole run, as `nodemark hash`, saves them under its name);
 * NULL when neither. */
const char *bench_noise_key(const struct record *r, const struct bench *b);
/* Those figures (proc/noise.h: "busy", "why", "other_busy_pct", ...), or NULL when r has none. */
json_t *bench_noise(const struct record *r, const struct bench *b);

/* The metric of that name, created on first use. */
struct metric *bench_metric(struct bench *b, const char *name, const char *unit, int direction);
struct metric *bench_find_metric(const struct bench *b, const char *name);
void metric_add(struct metric *m, double sample);

struct series *bench_series(struct bench *b, const char *name, const char *x_unit, const char *y_unit);
void series_add(struct series *s, double x, double y);

/* Copies the pairs. */
struct histogram *bench_add_hist(struct bench *b, const char *name, const uint64_t *value_ns,
				 const uint64_t *count, size_t n);
/* A latency histogram (stats/hist.h) as its sparse (bucket value, count) pairs: each bucket
 * that counted something, at the midpoint fio reports. */
struct hist;
struct histogram *bench_add_latency(struct bench *b, const char *name, const struct hist *h);

/* CPU time of the threads that measured one sample of a CPU-bound figure (a hash rate), in
 * rec->extra.cpu_time.<bench>: {"metric": NAME, "threads": N, "wall_s": [..], "cpu_s": [..]},
 * one entry per sample of that metric, in the same order (call it beside metric_add).  Bytes per
 * CPU-second (the sample times wall_s / cpu_s) is what another process's load changes least:
 * the time a thread waits for a CPU is not its CPU time. */
void record_add_cpu_sample(struct record *r, const char *bench, const char *metric, unsigned threads,
			   double wall_s, double cpu_s);
/* The n samples of metric of bench on that basis (sample * wall_s / cpu_s), from an object laid
 * out as extra.cpu_time (a record's, or a re-measure's), into a new array in *out: n, or 0 when
 * it has no CPU time for every one of them (an older record, another metric, a sample without
 * CPU time, a clock that did not move). */
size_t cpu_time_basis(const json_t *cpu_time, const char *bench, const char *metric, const double *samples, size_t n,
		      double **out);

/* Median of a metric's samples (0 when it has none). */
double metric_median(const struct metric *m);

#endif
