#include "util/textwidth.h"

#include <stdint.h>

/* Zero-width code points: combining marks, zero-width spaces and joiners. */
static int zero_width(uint32_t c)
{
	return (c >= 0x0300 && c <= 0x036f) || (c >= 0x1ab0 && c <= 0x1aff) || (c >= 0x1dc0 && c <= 0x1dff) ||
	       (c >= 0x20d0 && c <= 0x20ff) || (c >= 0xfe20 && c <= 0xfe2f) || (c >= 0x200b && c <= 0x200f) ||
	       c == 0xfe0f;
}

/* Two columns: the East Asian wide and full-width blocks, and emoji. */
static int double_width(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) || (c >= 0x3041 && c <= 0x33ff) ||
	       (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
	       (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	       (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd);
}

size_t text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;
	while (*p) {
		if (p[0] == 0x1b && p[1] == '[') { /* a colour escape (CSI ... final byte) */
			p += 2;
			while (*p && !(*p >= 0x40 && *p <= 0x7e))
				p++;
			if (*p)
				p++;
			continue;
		}
		uint32_t c = *p;
		int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		if (more)
			c &= 0x3f >> more;
		p++;
		for (; more && (*p & 0xc0) == 0x80; more--, p++)
			c = c << 6 | (*p & 0x3f);
		if (!zero_width(c)) /* a stray byte counts one column, as a terminal shows it */
			w += double_width(c) ? 2 : 1;
	}
	return w;
}

int text_fill(const char *s, size_t width)
{
	size_t w = text_width(s);
	return w < width ? (int)(width - w) : 0;
}

void text_put(FILE *f, const char *s, size_t width, int right)
{
	int n = text_fill(s, width);
	if (right)
		fprintf(f, "%*s%s", n, "", s);
	else
		fprintf(f, "%s%*s", s, n, "");
}
