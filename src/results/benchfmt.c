#include "results/benchfmt.h"
#include "stats/scale.h"
#include "util/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Interned strings: results share their names, units and configuration values. */
struct bf_strpool {
	char **slot;
	size_t cap, n;
};

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static void pool_grow(struct bf_strpool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 256;
	char **slot = calloc(cap, sizeof *slot);
	if (!slot)
		abort();
	for (size_t i = 0; i < p->cap; i++)
		if (p->slot[i]) {
			size_t k = hash_bytes(p->slot[i], strlen(p->slot[i])) & (cap - 1);
			while (slot[k])
				k = (k + 1) & (cap - 1);
			slot[k] = p->slot[i];
		}
	free(p->slot);
	p->slot = slot;
	p->cap = cap;
}

const char *bf_intern(struct bf_set *s, const char *str, size_t len)
{
	struct bf_strpool *p = s->pool;
	if (2 * (p->n + 1) > p->cap)
		pool_grow(p);
	size_t k = hash_bytes(str, len) & (p->cap - 1);
	for (; p->slot[k]; k = (k + 1) & (p->cap - 1))
		if (strncmp(p->slot[k], str, len) == 0 && p->slot[k][len] == '\0')
			return p->slot[k];
	char *d = malloc(len + 1);
	if (!d)
		abort();
	memcpy(d, str, len);
	d[len] = '\0';
	p->n++;
	return p->slot[k] = d;
}

void bf_init(struct bf_set *s)
{
	memset(s, 0, sizeof *s);
	s->pool = calloc(1, sizeof *s->pool);
	if (!s->pool)
		abort();
}

void bf_free(struct bf_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->results[i].config);
		free(s->results[i].values);
	}
	free(s->results);
	free(s->units);
	if (s->pool) {
		for (size_t i = 0; i < s->pool->cap; i++)
			free(s->pool->slot[i]);
		free(s->pool->slot);
		free(s->pool);
	}
	memset(s, 0, sizeof *s);
}

/* The reader's state within one file. */
struct reader {
	struct bf_set *s;
	struct bf_config *cfg;
	size_t ncfg, cap;
	const char *path;
	size_t line;
	void (*on_error)(void *, const char *);
	void *arg;
	char *refusal;            /* set: a value was not a finite number; reading stops */
	size_t refusal_len;
	int refused;
};

static void syntax_error(struct reader *r, const char *msg)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s:%zu: %s", r->path, r->line, msg);
	r->on_error(r->arg, buf);
}

static long cfg_index(const struct reader *r, const char *key)
{
	for (size_t i = 0; i < r->ncfg; i++)
		if (strcmp(r->cfg[i].key, key) == 0)
			return (long)i;
	return -1;
}

static void cfg_set(struct reader *r, const char *key, const char *value, int file)
{
	long i = cfg_index(r, key);
	if (i < 0) {
		if (r->ncfg == r->cap) {
			r->cap = r->cap ? r->cap * 2 : 16;
			r->cfg = xrealloc(r->cfg, r->cap * sizeof *r->cfg);
		}
		i = (long)r->ncfg++;
		r->cfg[i].key = key;
	}
	r->cfg[i].value = value;
	r->cfg[i].file = file;
}

/* Deleting swaps the last key into the hole, as benchfmt does: the order of keys is visible in
 * benchstat's table headers. */
static void cfg_delete(struct reader *r, const char *key)
{
	long i = cfg_index(r, key);
	if (i < 0)
		return;
	r->cfg[i] = r->cfg[r->ncfg - 1];
	r->ncfg--;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* The next whitespace-separated field of *p (up to end); advances *p past the spaces after it. */
static size_t split_field(const char **p, const char *end, const char **field)
{
	const char *s = *p, *f = s;
	while (s < end && !is_space(*s))
		s++;
	size_t n = (size_t)(s - f);
	while (s < end && is_space(*s))
		s++;
	*field = f;
	*p = s;
	return n;
}

/* Go's strconv.ParseFloat as far as benchmark values go; 0, or -1 with why. */
static int parse_float(const char *f, size_t n, double *out, const char **why)
{
	char buf[128];
	if (n == 0 || n >= sizeof buf || is_space(f[0])) {
		*why = "invalid syntax";
		return -1;
	}
	memcpy(buf, f, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	*out = strtod(buf, &end);
	if (*end || end == buf) {
		*why = "invalid syntax";
		return -1;
	}
	if (errno == ERANGE && isinf(*out)) {
		*why = "value out of range";
		return -1;
	}
	return 0;
}

static int parse_int(const char *f, size_t n, long long *out, const char **why)
{
	char buf[64];
	size_t i = 0;
	if (n && (f[0] == '+' || f[0] == '-'))
		i++;
	if (i == n || n >= sizeof buf) {
		*why = n >= sizeof buf ? "value out of range" : "invalid syntax";
		return -1;
	}
	for (size_t k = i; k < n; k++)
		if (f[k] < '0' || f[k] > '9') {
			*why = "invalid syntax";
			return -1;
		}
	memcpy(buf, f, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtoll(buf, NULL, 10);
	if (errno == ERANGE) {
		*why = "value out of range";
		return -1;
	}
	return 0;
}

static void bench_line(struct reader *r, const char *p, const char *end)
{
	char msg[256];
	const char *f, *why;
	p += 9; /* "Benchmark" */
	size_t line_len = (size_t)(end - p);
	size_t name_len = split_field(&p, end, &f);
	const char *name = f;
	if (p == end && name_len == line_len)
		return; /* "BenchmarkFoo" alone is prose, not a result */
	size_t n = split_field(&p, end, &f);
	long long iters;
	if (n == 0)
		return syntax_error(r, "missing iteration count");
	if (parse_int(f, n, &iters, &why) < 0) {
		snprintf(msg, sizeof msg, "parsing iteration count: %s", why);
		return syntax_error(r, msg);
	}
	struct bf_value *vals = NULL;
	size_t nvals = 0;
	for (;;) {
		n = split_field(&p, end, &f);
		if (n == 0) {
			if (nvals)
				break;
			free(vals);
			return syntax_error(r, "missing measurements");
		}
		double v;
		if (parse_float(f, n, &v, &why) < 0) {
			free(vals);
			snprintf(msg, sizeof msg, "parsing measurement: %s", why);
			return syntax_error(r, msg);
		}
		const char *text = f;
		size_t text_len = n;
		n = split_field(&p, end, &f);
		if (n == 0) {
			free(vals);
			return syntax_error(r, "missing units");
		}
		const char *unit = bf_intern(r->s, f, n);
		char tidy[256];
		double factor = scale_tidy_unit(unit, tidy, sizeof tidy);
		/* Go's format allows NaN and Inf, but no statistic means anything over them: the whole
		 * input is refused rather than one line skipped, so no table silently loses a row. */
		if (!isfinite(v) || !isfinite(v * factor)) {
			free(vals);
			snprintf(r->refusal, r->refusal_len, "%s:%zu: measurement \"%.*s %s\" is not a finite number",
				 r->path, r->line, (int)(text_len > 64 ? 64 : text_len), text, unit);
			r->refused = 1;
			return;
		}
		vals = xrealloc(vals, (nvals + 1) * sizeof *vals);
		if (v * factor == v)
			vals[nvals++] = (struct bf_value){ v, unit, 0, NULL };
		else
			vals[nvals++] = (struct bf_value){ v * factor, bf_intern(r->s, tidy, strlen(tidy)), v, unit };
	}
	struct bf_set *s = r->s;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->results = xrealloc(s->results, s->cap * sizeof *s->results);
	}
	struct bf_result *res = &s->results[s->n++];
	res->config = xrealloc(NULL, r->ncfg * sizeof *res->config);
	memcpy(res->config, r->cfg, r->ncfg * sizeof *res->config);
	res->nconfig = r->ncfg;
	res->name = bf_intern(s, name, name_len);
	res->iters = iters;
	res->values = vals;
	res->nvalues = nvals;
	res->file = r->path;
	res->line = r->line;
}

static void unit_line(struct reader *r, const char *p, const char *end)
{
	const char *f;
	size_t n = split_field(&p, end, &f);
	if (n == 0)
		return syntax_error(r, "missing unit");
	const char *unit = bf_intern(r->s, f, n);
	char tidy[256];
	scale_tidy_unit(unit, tidy, sizeof tidy);
	const char *tunit = bf_intern(r->s, tidy, strlen(tidy));
	while ((n = split_field(&p, end, &f)) > 0) {
		const char *eq = memchr(f, '=', n);
		if (!eq || eq == f) {
			syntax_error(r, "expected key=value");
			continue;
		}
		const char *key = bf_intern(r->s, f, (size_t)(eq - f));
		const char *value = bf_intern(r->s, eq + 1, n - (size_t)(eq - f) - 1);
		struct bf_set *s = r->s;
		size_t i;
		for (i = 0; i < s->nunits; i++)
			if (s->units[i].unit == tunit && s->units[i].key == key)
				break;
		if (i < s->nunits) {
			if (s->units[i].value != value) {
				char msg[512];
				snprintf(msg, sizeof msg, "metadata %s of unit %s already set to %s", key, unit,
					 s->units[i].value);
				syntax_error(r, msg);
			}
			continue;
		}
		s->units = xrealloc(s->units, (s->nunits + 1) * sizeof *s->units);
		s->units[s->nunits++] = (struct bf_unit_meta){ tunit, key, value, unit };
	}
}

/* "key: value": the key starts lower-case and has no spaces or upper-case letters; the value
 * follows ": " (or nothing, which deletes the key). */
static int config_line(struct reader *r, const char *p, const char *end)
{
	const char *colon = NULL;
	for (const char *q = p; q < end; q++) {
		unsigned char c = (unsigned char)*q;
		if (q == p && !(c >= 'a' && c <= 'z'))
			return 0;
		if (is_space((char)c) || (c >= 'A' && c <= 'Z'))
			return 0;
		if (q > p && c == ':') {
			colon = q;
			break;
		}
	}
	if (!colon)
		return 0;
	const char *key = bf_intern(r->s, p, (size_t)(colon - p));
	const char *v = colon + 1;
	if (v == end) {
		cfg_delete(r, key);
		return 1;
	}
	if (*v != ' ' && *v != '\t')
		return 0;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	if (v == end)
		cfg_delete(r, key);
	else
		cfg_set(r, key, bf_intern(r->s, v, (size_t)(end - v)), 1);
	return 1;
}

int bf_read(struct bf_set *s, const char *text, size_t len, const char *path, const char *label,
	    void (*on_error)(void *arg, const char *msg), void *arg, char *err, size_t errlen)
{
	struct reader r = { .s = s, .path = bf_intern(s, path, strlen(path)), .on_error = on_error, .arg = arg,
			    .refusal = err, .refusal_len = errlen };
	cfg_set(&r, bf_intern(s, ".file", 5), bf_intern(s, label, strlen(label)), 0);
	size_t i = 0;
	while (i < len && !r.refused) {
		const char *p = text + i, *nl = memchr(p, '\n', len - i);
		const char *end = nl ? nl : text + len;
		i = (size_t)(end - text) + 1;
		if (end > p && end[-1] == '\r')
			end--;
		r.line++;
		if (end - p >= 9 && memcmp(p, "Benchmark", 9) == 0) {
			bench_line(&r, p, end);
			continue;
		}
		if (end - p >= 4 && memcmp(p, "Unit", 4) == 0 && (end - p == 4 || is_space(p[4]))) {
			const char *q = p + 4;
			while (q < end && is_space(*q))
				q++;
			unit_line(&r, q, end);
			continue;
		}
		config_line(&r, p, end);
	}
	free(r.cfg);
	return r.refused ? -1 : 0;
}

const char *bf_config_get(const struct bf_result *r, const char *key)
{
	for (size_t i = 0; i < r->nconfig; i++)
		if (strcmp(r->config[i].key, key) == 0)
			return r->config[i].value;
	return NULL;
}

const char *bf_unit_meta_get(const struct bf_set *s, const char *unit, const char *key)
{
	char tidy[256];
	scale_tidy_unit(unit, tidy, sizeof tidy);
	for (size_t i = 0; i < s->nunits; i++)
		if (strcmp(s->units[i].unit, tidy) == 0 && strcmp(s->units[i].key, key) == 0)
			return s->units[i].value;
	return NULL;
}

size_t bf_name_parts(const char *name, size_t *off, size_t *len, size_t max)
{
	size_t n = strlen(name), prefix = n, np = 0;
	/* a trailing "-<digits>" is the GOMAXPROCS part */
	for (size_t i = n; i-- > 0;) {
		if (name[i] == '-' && i < n - 1) {
			prefix = i;
			break;
		}
		if (name[i] < '0' || name[i] > '9')
			break;
	}
	size_t start = 0;
	for (size_t i = 0; i < prefix && np + 1 < max; i++)
		if (name[i] == '/') {
			off[np] = start;
			len[np++] = i - start;
			start = i;
		}
	if (np < max) {
		off[np] = start;
		len[np++] = prefix - start;
	}
	if (prefix < n && np < max) {
		off[np] = prefix;
		len[np++] = n - prefix;
	}
	return np;
}
