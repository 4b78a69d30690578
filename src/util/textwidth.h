/* The columns a string takes on a terminal, for every text table that pads: a character is a
 * column whatever its bytes ("µs" is two columns, four bytes with "±"), a wide East Asian
 * character two, a combining mark none, a colour escape none.  printf's "%-10s" counts bytes,
 * so a cell with "±" or "µ" would end short of its column: pad with these instead. */
#ifndef NM_UTIL_TEXTWIDTH_H
#define NM_UTIL_TEXTWIDTH_H

#include <stddef.h>
#include <stdio.h>

size_t text_width(const char *s);

/* The spaces that pad s to width columns (0 when it is as wide or wider). */
int text_fill(const char *s, size_t width);

/* s padded with spaces to width columns: left-aligned (spaces after) or right-aligned. */
void text_put(FILE *f, const char *s, size_t width, int right);

#endif
