/* Small pieces the fio parser's files share: allocation that aborts on failure, quoting user
 * input into messages, option lists as typed, and fio's value syntax (bools, sizes, counts,
 * durations, "a:b" lists). Internal to src/fio/. */
#include "fio/parse_util.h"
#include "util/error.h"
#include "util/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- small helpers ------------------------------------------------------------------------ */

/* At most 40 characters of user input in a message, non-printables as '?'. */
const char *fio_q(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%.40s%s", s ? s : "", s && strlen(s) > 40 ? "..." : "");
	for (char *c = buf; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '?';
	return buf;
}

void fio_strv_push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

void fio_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void fio_optlist_free(struct fio_optlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->kv[i].key);
		free(l->kv[i].value);
	}
	free(l->kv);
	memset(l, 0, sizeof *l);
}

void fio_optlist_append(struct fio_optlist *l, const char *key, const char *value)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->kv = xrealloc(l->kv, l->cap * sizeof *l->kv);
	}
	l->kv[l->n].key = xstrdup(key);
	l->kv[l->n].value = xstrdup(value);
	l->kv[l->n].dropped = 0;
	l->n++;
}

/* Replace the value in place when the key is there already (fio's "global options" keep the
 * first position and the latest value), else append. */
void fio_optlist_set(struct fio_optlist *l, const char *key, const char *value)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->kv[i].key, key) == 0) {
			free(l->kv[i].value);
			l->kv[i].value = xstrdup(value);
			l->kv[i].dropped = 0;
			return;
		}
	fio_optlist_append(l, key, value);
}

void fio_optlist_copy(struct fio_optlist *dst, const struct fio_optlist *src)
{
	for (size_t i = 0; i < src->n; i++) {
		fio_optlist_append(dst, src->kv[i].key, src->kv[i].value);
		dst->kv[dst->n - 1].dropped = src->kv[i].dropped;
	}
}

const char *fio_optlist_get(const struct fio_optlist *l, const char *key, int *found)
{
	for (size_t i = l->n; i-- > 0;)
		if (strcmp(l->kv[i].key, key) == 0) {
			*found = 1;
			return l->kv[i].value;
		}
	return NULL;
}

const char *fio_job_opt(const struct fio_job *j, const char *key, int *found)
{
	int f = 0;
	const char *v = fio_optlist_get(&j->opts, key, &f);
	if (!f)
		v = fio_optlist_get(&j->inherited, key, &f);
	if (found)
		*found = f;
	return v;
}

/* --- value parsers, in fio's terms ---------------------------------------------------------- */

int fio_parse_bool(const char *v, int *out, char *err, size_t errlen)
{
	char qb[64];
	if (!v) { /* a bare flag */
		*out = 1;
		return 0;
	}
	static const char *const yes[] = { "1", "true", "yes", "on" }, *const no[] = { "0", "false", "no", "off" };
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return nm_errf(err, errlen, "\"%s\": expected 0 or 1", fio_q(v, qb, sizeof qb));
}

int fio_word_is(const char *v, const char *name)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	return strlen(name) == n && strncmp(name, v, n) == 0;
}

int fio_need_value(const char *v, char *err, size_t errlen)
{
	if (!v || !*v)
		return nm_errf(err, errlen, "needs a value");
	return 0;
}

int fio_cpu_list_chars(const char *v, char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (const char *c = v; *c; c++)
		if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-')
			return nm_errf(err, errlen, "\"%s\": expected CPU numbers like 0-3,8", fio_q(v, qb, sizeof qb));
	return 0;
}

static enum size_units units_of(const struct fio_job *j)
{
	return j->kb_base == 1000 ? SIZE_UNITS_FIO_1000 : SIZE_UNITS_FIO_1024;
}

int fio_size(const struct fio_job *j, const char *v, uint64_t *out, char *err, size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (strchr(v, '%'))
		return nm_errf(err, errlen, "\"%s\": percentages are not supported, give a size",
			       fio_q(v, qb, sizeof qb));
	if (strchr(v, '-') && v[0] != '-')
		return nm_errf(err, errlen, "\"%s\": size ranges are not supported, give one size",
			       fio_q(v, qb, sizeof qb));
	return parse_size_units(v, units_of(j), out, err, errlen);
}

/* fio reads every whole-number option (its INT, ULL and STR_VAL types) with its size parser, so
 * iodepth=1k is 1024 and verify_interval=1M a mebibyte; a fraction is refused (fio's strtoll
 * would drop it quietly: 1.5k is 1024 there). */
int fio_int(const struct fio_job *j, const char *v, uint64_t min, uint64_t max, uint64_t *out, char *err,
	    size_t errlen)
{
	char qb[64];
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	if (v[0] == '-' || strspn(v, "0123456789") == strlen(v))
		return parse_count(v, min, max, out, err, errlen);
	uint64_t n;
	if (strchr(v, '.') || strchr(v, '%') || parse_size_units(v, units_of(j), &n, err, errlen) < 0)
		return nm_errf(err, errlen, "\"%s\": expected a whole number, with a unit or not (4k)",
			       fio_q(v, qb, sizeof qb));
	if (n < min || n > max)
		return nm_errf(err, errlen, "\"%s\" (%llu): must be between %llu and %llu", fio_q(v, qb, sizeof qb),
			       (unsigned long long)n, (unsigned long long)min, (unsigned long long)max);
	*out = n;
	return 0;
}

int fio_count(const char *v, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return parse_count(v, min, max, out, err, errlen);
}

int fio_duration(const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	return parse_duration(v, 1000000000ull, ns, err, errlen); /* a bare number is seconds */
}

const char *fio_job_strdup(struct fio_job *j, const char *s)
{
	char *d = xstrdup(s);
	fio_strv_push(&j->strs, &j->nstrs, d);
	return d;
}
