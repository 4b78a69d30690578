#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked(void *p)
{
	if (!p) {
		fputs("nodemark: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return checked(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return checked(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return s ? checked(strdup(s)) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
	return s ? checked(strndup(s, n)) : NULL;
}
