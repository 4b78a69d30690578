#include "util/gofloat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "d.ddde+XX" (in a buffer of len) with its last digit one up, a carry going left; all nines
 * become "1.000e+YY", one decade up. */
static void round_up_last(char *e, size_t len)
{
	char *x = strchr(e, 'e'), *first = *e == '-' ? e + 1 : e;
	for (char *d = x - 1; d >= first; d--) {
		if (*d == '.')
			continue;
		if (*d != '9') {
			(*d)++;
			return;
		}
		*d = '0';
	}
	*first = '1';
	int exp = atoi(x + 1) + 1;
	snprintf(x, len - (size_t)(x - e), "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
}

const char *go_float(double v, char *buf, size_t len)
{
	if (isnan(v))
		return snprintf(buf, len, "NaN"), buf;
	if (isinf(v))
		return snprintf(buf, len, v > 0 ? "+Inf" : "-Inf"), buf;
	if (v == 0)
		return snprintf(buf, len, signbit(v) ? "-0" : "0"), buf;
	char e[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(e, sizeof e, "%.*e", p - 1, v);
		double back = strtod(e, NULL);
		if (back == v)
			break;
		/* At a power of two the doubles below are twice as dense as those above, so the
		 * nearest p digits can fall below v's interval while the next p digits up are inside
		 * it: those are the shortest, as Go finds them (2^-1017 is 7.120236347223045e-307). */
		if (fabs(back) < fabs(v) && (round_up_last(e, sizeof e), strtod(e, NULL) == v))
			break;
	}
	/* e is "-d.ddde+XX": the digits and the decimal exponent */
	char digits[24];
	size_t nd = 0;
	const char *s = e;
	int neg = *s == '-';
	if (neg)
		s++;
	for (; *s && *s != 'e'; s++)
		if (*s != '.')
			digits[nd++] = *s;
	digits[nd] = '\0';
	int exp = atoi(s + 1);
	size_t used = 0;
#define OUT(...) (used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__))
	if (neg)
		OUT("-");
	if (exp < -4 || exp >= 6) {
		OUT("%c", digits[0]);
		if (nd > 1)
			OUT(".%s", digits + 1);
		OUT("e%c%02d", exp < 0 ? '-' : '+', abs(exp));
	} else if (exp < 0) {
		OUT("0.");
		for (int i = -1; i > exp; i--)
			OUT("0");
		OUT("%s", digits);
	} else {
		for (int i = 0; i <= exp; i++)
			OUT("%c", (size_t)i < nd ? digits[i] : '0');
		if (nd > (size_t)exp + 1)
			OUT(".%s", digits + exp + 1);
	}
#undef OUT
	return buf;
}
