/* Text written into a markup or a table format: HTML's special characters, and a CSV field
 * (RFC 4180: quoted when it holds a comma, a quote or a line break, its quotes doubled). */
#ifndef NM_UTIL_ESCAPE_H
#define NM_UTIL_ESCAPE_H

#include <stdio.h>

void esc_html(FILE *f, const char *s);
void esc_csv(FILE *f, const char *s);

/* Text from a record (a name, a host, a tag) as Markdown's inline text: HTML's <, > and & as
 * entities, so an imported name cannot inject markup (<script>) into a rendered page; '|' escaped
 * so a table row stays one row; control characters (terminal escapes, newlines) as '?'. */
void md_put(FILE *f, const char *s);

#endif
