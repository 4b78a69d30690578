#include "util/termsafe.h"

#include <stdlib.h>
#include <string.h>

/* How many bytes at s[i] make a control character (0: none): a C0 control or DEL (newline and tab
 * only where layout keeps them), or a C1 control, two bytes in UTF-8. */
static size_t control_len(const char *s, size_t i, size_t n, int layout)
{
	unsigned char c = (unsigned char)s[i];
	if ((c < 0x20 && !(layout && (c == '\n' || c == '\t'))) || c == 0x7f)
		return 1;
	if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F)
		return 2;
	return 0;
}

size_t term_write_clean(FILE *out, const char *s, size_t n)
{
	size_t done = 0, from = 0;
	for (size_t i = 0; i < n; i++) {
		size_t bad = control_len(s, i, n, 1);
		if (!bad)
			continue;
		done += fwrite(s + from, 1, i - from, out);
		done += fwrite("?", 1, 1, out);
		i += bad - 1;
		from = i + 1;
	}
	done += fwrite(s + from, 1, n - from, out);
	return done;
}

char *term_clean_dup(const char *s)
{
	size_t n = strlen(s), j = 0;
	char *d = malloc(n + 1); /* a C1 control's two bytes become one */
	if (!d)
		abort();
	for (size_t i = 0; i < n; i++) {
		size_t bad = control_len(s, i, n, 0);
		d[j++] = bad ? '?' : s[i];
		i += bad ? bad - 1 : 0;
	}
	d[j] = '\0';
	return d;
}
