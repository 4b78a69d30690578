/* Go's benchmark format read as benchfmt (golang.org/x/perf/benchfmt) reads it, for
 * `nodemark benchstat`.
 *
 *   goos: linux                                   a configuration line: "key: value" sets key for
 *   note: run 1                                   every result after it (an empty value deletes it)
 *   Unit text-bytes assume=exact                  unit metadata
 *   BenchmarkEncode/format=json-48  690848  1726 ns/op  56 MB/s
 *
 * Each benchmark line is one result: its name (without "Benchmark"), the iteration count and
 * value-unit pairs, units tidied (ns/op -> sec/op, MB/s -> B/s), with a snapshot of the
 * configuration in force.  Each file's configuration starts with the internal key ".file" (its
 * label).  A bad line is a syntax error ("file:line: msg") that is reported and skipped; the
 * rest of the file still counts.  NaN and Inf values, which Go's format allows, are refused. */
#ifndef NM_RESULTS_BENCHFMT_H
#define NM_RESULTS_BENCHFMT_H

#include <stddef.h>

struct bf_config {
	const char *key, *value;  /* interned in the set */
	int file;                 /* 1: from the file; 0: internal (.file) */
};

struct bf_value {
	double value;
	const char *unit;
	double orig_value;
	const char *orig_unit;    /* NULL when tidying changed nothing */
};

struct bf_result {
	struct bf_config *config;
	size_t nconfig;
	const char *name;         /* the full name, e.g. "Encode/format=json-48" */
	long long iters;
	struct bf_value *values;  /* filters may shrink nvalues */
	size_t nvalues;
	const char *file;
	size_t line;
};

struct bf_unit_meta {
	const char *unit;         /* tidied */
	const char *key, *value, *orig_unit;
};

struct bf_strpool;

struct bf_set {
	struct bf_result *results;
	size_t n, cap;
	struct bf_unit_meta *units;
	size_t nunits;
	struct bf_strpool *pool;
};

void bf_init(struct bf_set *s);
void bf_free(struct bf_set *s);

/* A string kept as long as the set. */
const char *bf_intern(struct bf_set *s, const char *str, size_t len);

/* Reads one file's text; each syntax error goes to on_error ("path:line: msg") and the line is
 * skipped.  A measurement that is not a finite number (NaN, Inf, or one that overflows when its
 * unit is tidied) stops the reading: -1 with "path:line: ..." in err.  Otherwise 0. */
int bf_read(struct bf_set *s, const char *text, size_t len, const char *path, const char *label,
	    void (*on_error)(void *arg, const char *msg), void *arg, char *err, size_t errlen);

/* The value of a configuration key of a result, or NULL. */
const char *bf_config_get(const struct bf_result *r, const char *key);

/* Unit metadata: the value of KEY for a unit (tidied first), or NULL. */
const char *bf_unit_meta_get(const struct bf_set *s, const char *unit, const char *key);

/* The name's parts as benchfmt splits them: the base name, then "/k=v" parts, then "-N"
 * (GOMAXPROCS) when the name ends with one.  Returns the number of parts (base included);
 * part i is name[off[i] .. off[i] + len[i]). */
size_t bf_name_parts(const char *name, size_t *off, size_t *len, size_t max);

#endif
