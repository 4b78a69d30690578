/* Text from a saved run (labels, names, commands: anything an import or a user typed) printed
 * to a terminal without its control characters: an escape sequence in a stored name must not
 * move the cursor, retitle the window or hide the lines before it. */
#ifndef NM_UTIL_TERMSAFE_H
#define NM_UTIL_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the n bytes of s with every C0 control but newline and tab, DEL, and every C1
 * control (UTF-8 C2 80..C2 9F) written as '?'.  Returns what fwrite returns in all. */
size_t term_write_clean(FILE *out, const char *s, size_t n);

/* A copy of s for one cell of a table, every control character (newline and tab too: they would
 * break the row or the column) and every C1 control written as '?': cleaned before it is padded,
 * so its width is what the terminal shows.  Aborts when out of memory. */
char *term_clean_dup(const char *s);

#endif
