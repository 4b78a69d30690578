/* benchstat's query language (golang.org/x/perf/benchproc/syntax), parsed:
 *
 *   projections  KEY[@ORDER][,KEY...]     ORDER: first (default), alpha, num, or (v1 v2 ...)
 *   filters      KEY:VALUE  KEY:/regexp/  KEY:(v1 OR v2)  -x  x AND y  x y  x OR y  (x)  *
 *
 * Words may be "quoted".  Regexps are POSIX extended (benchstat: RE2) and match anywhere in the
 * value.  Errors say where: "-filter: syntax error at 5: expected key:value". */
#ifndef NM_RESULTS_BENCHQUERY_H
#define NM_RESULTS_BENCHQUERY_H

#include <regex.h>
#include <stddef.h>

enum bq_order { BQ_FIRST, BQ_ALPHA, BQ_NUM, BQ_FIXED };

struct bq_field {
	char *key;
	enum bq_order order;
	char **fixed;
	size_t nfixed;
	size_t key_off;
};

/* 0, or -1 with a message in err. */
int bq_parse_projection(const char *q, struct bq_field **out, size_t *n, char *err, size_t errlen);
void bq_fields_free(struct bq_field *f, size_t n);

enum bq_op { BQ_MATCH, BQ_AND, BQ_OR, BQ_NOT };

struct bq_node {
	enum bq_op op;
	struct bq_node **sub;      /* AND/OR (none: "*" for AND), NOT (one) */
	size_t nsub;
	char *key, *lit;           /* MATCH: key and a literal, or */
	regex_t *re;               /* a regexp */
	size_t off;
};

/* The tree, or NULL with a message. */
struct bq_node *bq_parse_filter(const char *q, char *err, size_t errlen);
void bq_node_free(struct bq_node *n);
int bq_match_value(const struct bq_node *m, const char *value);

#endif
