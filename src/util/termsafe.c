#include "util/termsafe.h"

size_t term_write_clean(FILE *out, const char *s, size_t n)
{
	size_t done = 0, from = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t bad = 0;
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			bad = 1;
		else if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F)
			bad = 2;
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
