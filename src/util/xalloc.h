/* Allocation that cannot fail: on out-of-memory each prints one line and aborts, so callers
 * never carry a NULL check for memory.  A size of 0 allocates 1 byte (never NULL). */
#ifndef NM_UTIL_XALLOC_H
#define NM_UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* xstrdup(NULL) and xstrndup(NULL, n) are NULL. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
