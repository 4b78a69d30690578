#include "util/parse.h"
#include "util/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define SIZE_HINT "expected a size like 4k, 1MiB"
#define DURATION_HINT "expected a duration like 500ms, 5s, 2m, 1h30m"

/* Quote at most 40 characters of user input in messages, so garbage cannot flood stderr. */
static const char *q(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);
	if (n < 40) {
		snprintf(buf, len, "%s", s);
	} else {
		snprintf(buf, len, "%.37s...", s);
	}
	for (char *p = buf; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	return buf;
}

/* Decimal number "123" or "1.25" as an exact fraction: value = mant / 10^scale.
 * Returns the number of characters used, 0 when there is no number. */
static size_t scan_decimal(const char *s, u128 *mant, unsigned *scale, int *overflow)
{
	size_t i = 0;
	int digits = 0, dot = 0;
	*mant = 0;
	*scale = 0;
	*overflow = 0;
	for (;; i++) {
		if (s[i] == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (!isdigit((unsigned char)s[i]))
			break;
		digits++;
		if (*mant > ((u128)1 << 100)) {
			*overflow = 1;
			continue;
		}
		*mant = *mant * 10 + (u128)(s[i] - '0');
		if (dot)
			(*scale)++;
	}
	if (!digits)
		return 0;
	if (s[i - 1] == '.' && i == 1)
		return 0;
	return i;
}

static u128 pow10u(unsigned n)
{
	u128 r = 1;
	while (n--)
		r *= 10;
	return r;
}

int parse_size_units(const char *s, enum size_units units, uint64_t *out, char *err, size_t errlen)
{
	char qb[48];
	u128 mant, mult = 1;
	unsigned scale;
	int overflow;

	if (!s || !*s)
		return nm_errf(err, errlen, "empty value: " SIZE_HINT);
	if (*s == '-')
		return nm_errf(err, errlen, "\"%s\": must not be negative", q(s, qb, sizeof qb));
	size_t n = scan_decimal(s, &mant, &scale, &overflow);
	if (!n)
		return nm_errf(err, errlen, "\"%s\": " SIZE_HINT, q(s, qb, sizeof qb));
	const char *u = s + n;
	if (*u) {
		static const char prefixes[] = "kmgtpe";
		const char *p = strchr(prefixes, tolower((unsigned char)*u));
		if (*u == 'b' || *u == 'B') {
			if (u[1])
				return nm_errf(err, errlen, "\"%s\": " SIZE_HINT, q(s, qb, sizeof qb));
		} else if (p) {
			unsigned power = (unsigned)(p - prefixes) + 1;
			const char *rest = u + 1;
			int binary;
			if (!*rest) {
				binary = units != SIZE_UNITS_FIO_1000;        /* 4k */
			} else if ((rest[0] == 'i' || rest[0] == 'I') && (rest[1] == 'B' || rest[1] == 'b') &&
				   !rest[2]) {
				binary = 1;                                   /* 4KiB */
			} else if ((rest[0] == 'B' || rest[0] == 'b') && !rest[1]) {
				binary = units == SIZE_UNITS_FIO_1024;       /* 4kB */
			} else {
				return nm_errf(err, errlen, "\"%s\": " SIZE_HINT, q(s, qb, sizeof qb));
			}
			for (unsigned i = 0; i < power; i++)
				mult *= binary ? 1024 : 1000;
		} else {
			return nm_errf(err, errlen, "\"%s\": " SIZE_HINT, q(s, qb, sizeof qb));
		}
	}
	if (overflow)
		return nm_errf(err, errlen, "\"%s\": too large", q(s, qb, sizeof qb));
	if (scale > 18)
		return nm_errf(err, errlen, "\"%s\": too many decimals", q(s, qb, sizeof qb));
	/* mant < 2^101 and mult <= 2^60: the product fits in 128 bits before the check. */
	u128 den = pow10u(scale);
	u128 num = mant * mult;
	if (mant != 0 && num / mant != mult)
		return nm_errf(err, errlen, "\"%s\": too large", q(s, qb, sizeof qb));
	u128 v = (num + den / 2) / den; /* round to the nearest byte */
	if (v > UINT64_MAX)
		return nm_errf(err, errlen, "\"%s\": too large (the limit is 16 EiB)", q(s, qb, sizeof qb));
	*out = (uint64_t)v;
	return 0;
}

int parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
	return parse_size_units(s, SIZE_UNITS_NODEMARK, out, err, errlen);
}

/* Unit suffix of a duration, longest match first ("ms" before "m"). */
static int duration_unit(const char *u, size_t *len, uint64_t *ns)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1ull }, { "us", 1000ull }, { "\xc2\xb5s", 1000ull }, { "ms", 1000000ull },
		{ "s", 1000000000ull }, { "m", 60000000000ull }, { "min", 60000000000ull },
		{ "h", 3600000000000ull }, { "d", 86400000000000ull },
	};
	size_t best = 0;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t l = strlen(units[i].name);
		if (l > best && strncmp(u, units[i].name, l) == 0) {
			best = l;
			*ns = units[i].ns;
		}
	}
	*len = best;
	return best ? 0 : -1;
}

int parse_duration(const char *s, uint64_t default_unit_ns, uint64_t *out, char *err, size_t errlen)
{
	char qb[48];
	u128 total = 0;
	const char *p = s;
	int parts = 0;

	if (!s || !*s)
		return nm_errf(err, errlen, "empty value: " DURATION_HINT);
	if (*s == '-')
		return nm_errf(err, errlen, "\"%s\": must not be negative", q(s, qb, sizeof qb));
	while (*p) {
		u128 mant;
		unsigned scale;
		int overflow;
		size_t n = scan_decimal(p, &mant, &scale, &overflow), ulen;
		uint64_t unit;
		if (!n)
			return nm_errf(err, errlen, "\"%s\": " DURATION_HINT, q(s, qb, sizeof qb));
		if (overflow || scale > 18)
			return nm_errf(err, errlen, "\"%s\": too large", q(s, qb, sizeof qb));
		p += n;
		if (!*p) {
			if (parts) /* "1h30": a bare number only stands alone */
				return nm_errf(err, errlen, "\"%s\": " DURATION_HINT, q(s, qb, sizeof qb));
			unit = default_unit_ns;
			ulen = 0;
		} else if (duration_unit(p, &ulen, &unit) < 0) {
			return nm_errf(err, errlen, "\"%s\": " DURATION_HINT, q(s, qb, sizeof qb));
		}
		p += ulen;
		u128 part = mant * unit;
		if (mant && part / mant != unit)
			return nm_errf(err, errlen, "\"%s\": too large", q(s, qb, sizeof qb));
		total += part / pow10u(scale);
		if (total > UINT64_MAX)
			return nm_errf(err, errlen, "\"%s\": too large", q(s, qb, sizeof qb));
		parts++;
	}
	*out = (uint64_t)total;
	return 0;
}

int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	char qb[48];
	uint64_t v = 0;

	if (!s || !*s)
		return nm_errf(err, errlen, "empty value: expected a whole number");
	if (*s == '-')
		return nm_errf(err, errlen, "\"%s\": must not be negative", q(s, qb, sizeof qb));
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return nm_errf(err, errlen, "\"%s\": expected a whole number", q(s, qb, sizeof qb));
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return nm_errf(err, errlen, "\"%s\": too large (at most %llu)", q(s, qb, sizeof qb),
				       (unsigned long long)max);
		v = v * 10 + d;
	}
	if (v < min || v > max)
		return nm_errf(err, errlen, "\"%s\": must be between %llu and %llu", q(s, qb, sizeof qb),
			       (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int parse_percent(const char *s, double *out, char *err, size_t errlen)
{
	char qb[48];
	char *end;

	if (!s || !*s)
		return nm_errf(err, errlen, "empty value: expected a percentage from 0 to 100");
	if (!isdigit((unsigned char)*s) && *s != '.')
		return nm_errf(err, errlen, "\"%s\": expected a percentage from 0 to 100", q(s, qb, sizeof qb));
	double v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (*end || !(v >= 0 && v <= 100))
		return nm_errf(err, errlen, "\"%s\": expected a percentage from 0 to 100", q(s, qb, sizeof qb));
	*out = v;
	return 0;
}

int parse_tag(const char *s, char **key, char **value, char *err, size_t errlen)
{
	char qb[48];
	const char *eq;

	if (!s || !*s)
		return nm_errf(err, errlen, "empty value: expected key=value");
	eq = strchr(s, '=');
	if (!eq || eq == s || !eq[1])
		return nm_errf(err, errlen, "\"%s\": expected key=value", q(s, qb, sizeof qb));
	for (const char *p = s; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			return nm_errf(err, errlen, "\"%s\": a key has only letters, digits, '_', '.', '-'",
				       q(s, qb, sizeof qb));
	char *copy = strdup(s);
	if (!copy)
		return nm_errf(err, errlen, "out of memory");
	copy[eq - s] = '\0';
	*key = copy;
	*value = copy + (eq - s) + 1;
	return 0;
}

int split_list(const char *s, char sep, char ***out, char *err, size_t errlen)
{
	char qb[48];
	size_t n = 1, k = 0;

	if (!s || !*s)
		return nm_errf(err, errlen, "empty list");
	for (const char *p = s; *p; p++)
		n += *p == sep;
	char **v = calloc(n + 1, sizeof *v);
	if (!v)
		return nm_errf(err, errlen, "out of memory");
	const char *start = s;
	for (const char *p = s;; p++) {
		if (*p == sep || !*p) {
			if (p == start) {
				free_strv(v);
				return nm_errf(err, errlen, "\"%s\": empty item in list", q(s, qb, sizeof qb));
			}
			v[k++] = strndup(start, (size_t)(p - start));
			start = p + 1;
			if (!*p)
				break;
		}
	}
	*out = v;
	return (int)k;
}

void free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}
