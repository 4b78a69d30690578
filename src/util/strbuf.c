#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char empty[1];

void sb_init(struct strbuf *sb)
{
	sb->buf = empty;
	sb->len = sb->cap = 0;
}

void sb_free(struct strbuf *sb)
{
	if (sb->cap)
		free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->cap)
		sb->buf[0] = '\0';
}

static void grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *nb = sb->cap ? realloc(sb->buf, cap) : malloc(cap);
	if (!nb) {
		fputs("nodemark: out of memory\n", stderr);
		abort();
	}
	if (!sb->cap)
		nb[0] = '\0';
	sb->buf = nb;
	sb->cap = cap;
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s) { sb_add(sb, s, strlen(s)); }

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *sb_detach(struct strbuf *sb)
{
	char *r = sb->cap ? sb->buf : strdup("");
	sb_init(sb);
	return r;
}
