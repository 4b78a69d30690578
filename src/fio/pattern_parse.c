/* fio's pattern syntax (its lib/pattern.c), read by verify_pattern and buffer_pattern: parts one
 * after another, each "text", 'file' (the file's first bytes), 0xHEX or a decimal integer. */
#include "fio/parse_util.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static int room(unsigned n, unsigned max, char *err, size_t errlen)
{
	return n < max ? 0 : nm_errf(err, errlen, "at most %u bytes", max);
}

/* "text": the bytes between the quotes (no escapes, as fio). */
static const char *part_string(const char *s, uint8_t *out, unsigned *len, unsigned max, char *err, size_t errlen)
{
	char qb[64];
	const char *e = strchr(s + 1, '"');
	if (!e)
		return nm_errf(err, errlen, "\"%s\": a string without its closing quote", fio_q(s, qb, sizeof qb)), NULL;
	for (s++; s < e; s++) {
		if (room(*len, max, err, errlen) < 0)
			return NULL;
		out[(*len)++] = (uint8_t)*s;
	}
	return e + 1;
}

/* 'file': as many of the file's first bytes as the pattern has room for, as fio reads it. */
static const char *part_file(const char *s, uint8_t *out, unsigned *len, unsigned max, char *err, size_t errlen)
{
	char qb[64];
	const char *e = strchr(s + 1, '\'');
	if (!e)
		return nm_errf(err, errlen, "'%s': a file name without its closing quote", fio_q(s + 1, qb, sizeof qb)), NULL;
	char *path = xstrndup(s + 1, (size_t)(e - s - 1));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, out + *len, max - *len);
	int saved = errno;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		nm_errf(err, errlen, "%s: cannot read the pattern file: %s", fio_q(path, qb, sizeof qb),
			n < 0 ? strerror(saved) : "it is empty");
	free(path);
	if (n <= 0)
		return NULL;
	*len += (unsigned)n;
	return e + 1;
}

/* 0xHEX: two digits a byte, an odd count's first digit a byte alone; a following "0x" starts
 * the next part (0xff0x14: ff, then 14), as fio. */
static const char *part_hex(const char *s, uint8_t *out, unsigned *len, unsigned max, char *err, size_t errlen)
{
	char qb[64];
	const char *h = s + 2, *e = h;
	while (*e && strchr("0123456789abcdefABCDEF", *e) && !(*e == '0' && (e[1] == 'x' || e[1] == 'X')))
		e++;
	if (e == h)
		return nm_errf(err, errlen, "\"%s\": 0x without hex digits", fio_q(s, qb, sizeof qb)), NULL;
	for (const char *d = h; d < e;) {
		int two = (e - d) % 2 == 0;
		char b[3] = { d[0], two ? d[1] : 0, 0 };
		if (room(*len, max, err, errlen) < 0)
			return NULL;
		out[(*len)++] = (uint8_t)strtoul(b, NULL, 16);
		d += two ? 2 : 1;
	}
	return e;
}

/* A decimal integer of 32 bits, its bytes little-endian, as few as hold it (0: one byte); it
 * ends where a "0x" starts (-100xab: -10, then 0xab), as fio looks ahead. */
static const char *part_decimal(const char *s, uint8_t *out, unsigned *len, unsigned max, char *err, size_t errlen)
{
	char qb[64], num[32];
	const char *x = strcasestr(s, "0x");
	size_t n = x ? (size_t)(x - s) : strlen(s);
	if (n >= sizeof num)
		n = sizeof num - 1;
	memcpy(num, s, n);
	num[n] = 0;
	char *e;
	errno = 0;
	long long v = strtoll(num, &e, 10);
	if (e == num || errno || v > INT_MAX || v < INT_MIN)
		return nm_errf(err, errlen, "\"%s\": expected \"text\", 'file', 0xHEX or a decimal integer (%%o is not "
			       "implemented)", fio_q(s, qb, sizeof qb)), NULL;
	uint32_t u = (uint32_t)v;
	do {
		if (room(*len, max, err, errlen) < 0)
			return NULL;
		out[(*len)++] = (uint8_t)u;
		u >>= 8;
	} while (u);
	return s + (e - num);
}

int fio_parse_pattern(const char *v, uint8_t *out, unsigned max, unsigned *len, char *err, size_t errlen)
{
	*len = 0;
	if (fio_need_value(v, err, errlen) < 0)
		return -1;
	for (const char *s = v; s && *s;) {
		if (*s == '"')
			s = part_string(s, out, len, max, err, errlen);
		else if (*s == '\'')
			s = part_file(s, out, len, max, err, errlen);
		else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s = part_hex(s, out, len, max, err, errlen);
		else
			s = part_decimal(s, out, len, max, err, errlen);
		if (!s)
			return -1;
	}
	return *len ? 0 : nm_errf(err, errlen, "an empty pattern");
}
