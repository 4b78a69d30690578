/* A growable string. sb.buf is always NUL-terminated (never NULL after sb_init). */
#ifndef NM_UTIL_STRBUF_H
#define NM_UTIL_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len, cap;
};

void sb_init(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hand the buffer to the caller (who frees it) and reset sb. */
char *sb_detach(struct strbuf *sb);

#endif
