/* fio's expansion of job-file option lines (see expand.h): ${VAR}, then its keywords, then the
 * bc arithmetic of a value a keyword went into -- in that order, on the whole "key=value", as
 * fio does it. */
#include "fio/expand.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* fio refuses an option line longer than this */
#define MAX_LINE 4096

void fio_sysvals_get(struct fio_sysvals *sv)
{
	long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES), cpus = sysconf(_SC_NPROCESSORS_CONF);
	sv->pagesize = page > 0 ? (unsigned long long)page : 4096;
	sv->mb_memory = page > 0 && pages > 0 ? (unsigned long long)pages * (unsigned long long)page >> 20 : 0;
	sv->ncpus = cpus > 0 ? (unsigned long long)cpus : 1;
}

struct buf {
	char s[MAX_LINE + 1];
	size_t n;
	int overflow;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n > MAX_LINE) {
		b->overflow = 1;
		return;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* ${VAR}: the variable's value, or nothing when it is unset (fio's rule); a "${" without a
 * closing brace stays as it is. */
static void expand_env(const char *in, struct buf *out)
{
	const char *p = in;
	while (*p) {
		const char *close = p[0] == '$' && p[1] == '{' ? strchr(p + 2, '}') : NULL;
		if (!close) {
			put(out, p, 1);
			p++;
			continue;
		}
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(close - p - 2), p + 2);
		const char *v = getenv(name);
		if (v)
			put(out, v, strlen(v));
		p = close + 1;
	}
}

/* Every occurrence of word replaced by the number; 1 when there was one. */
static int replace_word(struct buf *b, const char *word, unsigned long long n)
{
	char num[32];
	int len = snprintf(num, sizeof num, "%llu", n);
	int any = 0;
	char *at;
	while (!b->overflow && (at = strstr(b->s, word)) != NULL) {
		struct buf next = { .n = 0 };
		put(&next, b->s, (size_t)(at - b->s));
		put(&next, num, (size_t)len);
		const char *rest = at + strlen(word);
		put(&next, rest, strlen(rest));
		b->overflow |= next.overflow;
		memcpy(b->s, next.s, next.n + 1);
		b->n = next.n;
		any = 1;
	}
	return any;
}

/* fio pipes a value with + - * or / through bc once a keyword went into it (unless the line
 * is 128 characters or more, or the value over 100, which it leaves as they are). */
static int bc_value(struct buf *b, char *err, size_t errlen)
{
	if (!strpbrk(b->s, "+-*/") || strchr(b->s, '\''))
		return 0;
	char *eq = strchr(b->s, '=');
	if (!eq || b->n >= 128 || strlen(eq + 1) > 100)
		return 0;
	long long v;
	char msg[160];
	if (fio_bc_eval(eq + 1, &v, msg, sizeof msg) < 0)
		return nm_errf(err, errlen, "after $-keyword expansion, fio computes the value with bc: %s", msg);
	snprintf(eq + 1, sizeof b->s - (size_t)(eq + 1 - b->s), "%lld", v);
	b->n = strlen(b->s);
	return 0;
}

int fio_expand_line(const char *line, const struct fio_sysvals *sv, char **out, char *err, size_t errlen)
{
	if (!strchr(line, '$')) {
		*out = xstrdup(line);
		return 0;
	}
	struct buf *b = xcalloc(1, sizeof *b);
	expand_env(line, b);
	int keyword = 0;
	keyword |= replace_word(b, "$pagesize", sv->pagesize);
	keyword |= replace_word(b, "$mb_memory", sv->mb_memory);
	keyword |= replace_word(b, "$ncpus", sv->ncpus);
	int rc = 0;
	if (b->overflow)
		rc = nm_errf(err, errlen, "longer than %d characters after ${VAR} and $-keyword expansion", MAX_LINE);
	else if (keyword)
		rc = bc_value(b, err, errlen);
	*out = rc == 0 ? xstrdup(b->s) : NULL;
	free(b);
	return rc;
}
