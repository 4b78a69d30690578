/* benchstat's projections and filters over benchfmt results (golang.org/x/perf/benchproc).
 *
 * A projection maps a result to a key: a tuple of the values of its fields.  Keys are interned,
 * so two equal keys are the same pointer.  Fields: a configuration key ("goos", "note", ".file"),
 * ".name" (the base name), ".fullname" (the full name, less the parts other fields project),
 * "/size" (the size= part of the name; "/gomaxprocs" the -N suffix), ".config" (a group of every
 * file configuration key not projected elsewhere), and ".unit" (added by bp_parse with_unit: one
 * key per value of a result).
 *
 * Keys sort field by field: in the order first seen ("first", the default; ".unit" too), "alpha",
 * "num" (numbers with SI/IEC prefixes: 4k < 32k), or a fixed list; values the order does not
 * tell apart sort by bytes.  As in benchstat, the keys inside ".config" are never ranked by first
 * appearance, so they sort alphabetically. */
#ifndef NM_RESULTS_BENCHPROC_H
#define NM_RESULTS_BENCHPROC_H

#include <stddef.h>

#include "results/benchfmt.h"
#include "results/benchquery.h"

struct bp_projection;

struct bp_field {
	char *name;
	int idx;                   /* -1 for the .config group */
	struct bp_field **sub;     /* the group's fields, in the order found */
	size_t nsub;
	enum bq_order order;
	char **fixed;
	size_t nfixed;
	const char **seen;         /* first-seen values (top-level "first" fields and .unit) */
	size_t nseen, seencap;
	int ranks_seen;
	struct bp_projection *proj;
};

struct bp_key {
	struct bp_projection *proj;
	const char **vals;         /* trailing empty values trimmed */
	size_t nvals;
	struct bp_key *next;       /* hash chain */
};

/* What every projection of one command line shares: the keys projected by name are left out
 * of .config and .fullname. */
struct bp_parser {
	char **config_keys, **name_keys, **used_keys;
	size_t nconfig_keys, nname_keys, nused_keys;
	int have_config, have_fullname;
	struct bp_fixed {
		char *key;
		char **vals;
		size_t nvals;
	} *fixed;
	size_t nfixed;
	struct bp_projection **all;
	size_t nall;
};

struct bp_filter {
	struct bq_node *root;
	const struct bp_parser *parser;
};

/* NULL with a message (syntax, an unknown order, .unit outside filters). */
struct bp_projection *bp_parse(struct bp_parser *p, const char *query, int with_unit, char *err, size_t errlen);
/* .config and .fullname when no projection took them: what must be alike within a cell. */
struct bp_projection *bp_residue(struct bp_parser *p);
void bp_parser_free(struct bp_parser *p);

struct bp_field *bp_unit_field(const struct bp_projection *proj);
/* Every leaf field, groups expanded. */
struct bp_field *const *bp_flat_fields(struct bp_projection *proj, size_t *n);

const struct bp_key *bp_project(struct bp_projection *proj, const struct bf_result *r);
/* One key per value (with_unit projections): keys[0..r->nvalues). */
void bp_project_values(struct bp_projection *proj, const struct bf_result *r, const struct bp_key **keys);
const char *bp_key_get(const struct bp_key *k, const struct bp_field *f);
/* The non-empty values joined by spaces (a row's label). */
void bp_key_values(const struct bp_key *k, char *buf, size_t len);
void bp_sort_keys(const struct bp_key **keys, size_t n);
/* Fields whose value is not the same in all keys; returns their count. */
size_t bp_nonsingular(const struct bp_key *const *keys, size_t n, struct bp_field **out, size_t max);

/* A key named by a projection or filter that no result has: 0, or -1 with a message. */
int bp_check_keys(const struct bp_parser *p, const struct bp_filter *f, const struct bf_set *s, char *err,
		  size_t errlen);

/* 0 with f set, or -1 with a message.  p's fixed-order lists filter too. */
int bp_filter_parse(struct bp_filter *f, const struct bp_parser *p, const char *query, char *err, size_t errlen);
/* Keeps the values of r that pass (r->nvalues shrinks); 0 when none does. */
int bp_filter_apply(const struct bp_filter *f, struct bf_result *r);
void bp_filter_free(struct bp_filter *f);

#endif
