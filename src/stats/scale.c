#include "stats/scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split a unit into tokens separated by '*', '/', '-' and spaces; '/' starts the denominator,
 * '*' goes back to the numerator.  Calls fn for each token. */
static void unit_tokens(const char *unit, void (*fn)(const char *tok, size_t len, size_t pos, int denom, void *arg),
			void *arg)
{
	int denom = 0;
	size_t i = 0, n = strlen(unit);
	while (i < n) {
		char c = unit[i];
		if (c == '*' || c == '/' || c == '-' || c == ' ' || c == '\t') {
			if (c == '*')
				denom = 0;
			else if (c == '/')
				denom = 1;
			i++;
			continue;
		}
		size_t start = i;
		while (i < n && !strchr("*/- \t", unit[i]))
			i++;
		fn(unit + start, i - start, start, denom, arg);
	}
}

static int tok_is(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(tok, word, len) == 0;
}

static void find_bytes(const char *tok, size_t len, size_t pos, int denom, void *arg)
{
	(void)pos;
	if (!denom && (tok_is(tok, len, "B") || tok_is(tok, len, "MB") || tok_is(tok, len, "bytes")))
		*(int *)arg = 1;
}

enum scale_class scale_class_of(const char *unit)
{
	int bytes = 0;
	unit_tokens(unit, find_bytes, &bytes);
	return bytes ? SCALE_BINARY : SCALE_DECIMAL;
}

struct factor {
	double factor;
	const char *prefix;
	double t100, t10, t1; /* 99.995, 9.9995 and .99995 of this prefix: where rounding to 4 digits crosses */
};

static const struct factor *factors(enum scale_class cls, size_t *n)
{
	static struct factor si[8], iec[5];
	static int ready;
	if (!ready) {
		static const char *sp[] = { "T", "G", "M", "k", "", "m", "µ", "n" };
		static const char *ip[] = { "Ti", "Gi", "Mi", "Ki", "" };
		for (int i = 0, exp = 12; i < 8; i++, exp -= 3) {
			char b[32];
			si[i].factor = pow(10, exp);
			si[i].prefix = sp[i];
			snprintf(b, sizeof b, "99.995e%d", exp);
			si[i].t100 = strtod(b, NULL);
			snprintf(b, sizeof b, "9.9995e%d", exp);
			si[i].t10 = strtod(b, NULL);
			snprintf(b, sizeof b, ".99995e%d", exp);
			si[i].t1 = strtod(b, NULL);
		}
		for (int i = 0, exp = 40; i < 5; i++, exp -= 10) {
			iec[i].factor = ldexp(1, exp);
			iec[i].prefix = ip[i];
			iec[i].t100 = ldexp(99.995, exp);
			iec[i].t10 = ldexp(9.9995, exp);
			iec[i].t1 = ldexp(.99995, exp);
		}
		ready = 1;
	}
	*n = cls == SCALE_BINARY ? 5 : 8;
	return cls == SCALE_BINARY ? iec : si;
}

struct scaler scale_common(const double *vals, size_t n, enum scale_class cls)
{
	double min = 0;
	for (size_t i = 0; i < n; i++) {
		double v = fabs(vals[i]);
		if (v != 0 && isfinite(v) && (min == 0 || v < min))
			min = v;
	}
	if (min == 0)
		return (struct scaler){ 3, 1, "" };
	size_t nf;
	const struct factor *f = factors(cls, &nf);
	for (size_t i = 0; i < nf; i++) {
		if (min >= f[i].t100)
			return (struct scaler){ 1, f[i].factor, f[i].prefix };
		if (min >= f[i].t10)
			return (struct scaler){ 2, f[i].factor, f[i].prefix };
		if (min >= f[i].t1)
			return (struct scaler){ 3, f[i].factor, f[i].prefix };
	}
	/* Smaller than the smallest prefix: more digits after the point, up to 10. */
	const struct factor *last = &f[nf - 1];
	double v = min / last->factor;
	for (int i = 0; i < 8; i++) {
		char b[32];
		snprintf(b, sizeof b, "9.9995e%d", -1 - i);
		if (v >= strtod(b, NULL) || i == 7)
			return (struct scaler){ i + 3, last->factor, last->prefix };
	}
	return (struct scaler){ 3, 1, "" };
}

const char *scale_format(const struct scaler *s, double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*f%s", s->prec, v / s->factor, s->prefix);
	return buf;
}

const char *scale_one(double v, enum scale_class cls, char *buf, size_t len)
{
	struct scaler s = scale_common(&v, 1, cls);
	return scale_format(&s, v, buf, len);
}

struct tidy {
	char *out;
	size_t len;
	const char *unit;
	size_t copied;
	double factor;
};

static void tidy_tok(const char *tok, size_t len, size_t pos, int denom, void *arg)
{
	struct tidy *t = arg;
	const char *repl = NULL;
	if (denom)
		return;
	if (tok_is(tok, len, "ns")) {
		repl = "sec";
		t->factor /= 1e9;
	} else if (tok_is(tok, len, "MB")) {
		repl = "B";
		t->factor *= 1e6;
	}
	if (!repl)
		return;
	size_t used = strlen(t->out);
	snprintf(t->out + used, t->len - used, "%.*s%s", (int)(pos - t->copied), t->unit + t->copied, repl);
	t->copied = pos + len;
}

double scale_tidy_unit(const char *unit, char *out, size_t len)
{
	struct tidy t = { out, len, unit, 0, 1 };
	if (len == 0)
		return 1;
	out[0] = '\0';
	unit_tokens(unit, tidy_tok, &t);
	size_t used = strlen(out);
	snprintf(out + used, len - used, "%s", unit + t.copied);
	return t.factor;
}
