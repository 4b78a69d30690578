/* Text written into a markup or a table format: HTML's special characters, and a CSV field
 * (RFC 4180: quoted when it holds a comma, a quote or a line break, its quotes doubled). */
#ifndef NM_UTIL_ESCAPE_H
#define NM_UTIL_ESCAPE_H

#include <stdio.h>

void esc_html(FILE *f, const char *s);
void esc_csv(FILE *f, const char *s);

#endif
