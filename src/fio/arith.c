/* fio's arithmetic in option values (see expand.h): the "(...)" expressions of its expression
 * parser, and the whole-number arithmetic fio has bc do after a keyword ($mb_memory) went into
 * a value.  Both are small precedence-climbing parsers over a string. */
#include "fio/expand.h"
#include "fio/parse_util.h"
#include "util/error.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- fio's expression parser ------------------------------------------------------------------
 * Each value carries an integer and a real reading, and whether a real took part: fio's rules
 * for mixing them are kept (a product of integers stays exact, a real anywhere goes through
 * the double), as are its precedences, lowest first: + -, a unit suffix, * /, ^, %, unary -. */

struct aval {
	double d;
	long long i;
	int real;
};

enum tok_kind { T_END, T_NUM, T_SUFFIX, T_OP, T_BAD };

struct arith {
	const char *p;
	int is_time;                /* "m" is minutes, not MiB */
	enum tok_kind kind;
	char op;
	struct aval v;
	int units;                  /* a unit suffix was given: no implied unit */
	unsigned depth;             /* nesting, bounded: no input can exhaust the stack */
	const char *why;            /* the first problem, or NULL */
};

enum { P_ADD = 1, P_SUFFIX, P_MUL, P_POW, P_MOD, P_UNARY };

/* Whole-number steps wrap instead of overflowing (fio's would overflow; nodemark must not
 * have undefined behaviour on any input), and reals convert clamped. */
static long long wrap_add(long long x, long long y) { return (long long)((unsigned long long)x + (unsigned long long)y); }
static long long wrap_sub(long long x, long long y) { return (long long)((unsigned long long)x - (unsigned long long)y); }
static long long wrap_mul(long long x, long long y) { return (long long)((unsigned long long)x * (unsigned long long)y); }

static long long to_ll(double d)
{
	if (d != d)
		return 0;
	if (d >= 9.2e18)
		return LLONG_MAX;
	if (d <= -9.2e18)
		return LLONG_MIN;
	return (long long)d;
}

static void fail(struct arith *a, const char *why)
{
	if (!a->why)
		a->why = why;
}

/* The longest of fio's number forms at p: digits, 0xHEX, digits.digits, with an exponent. */
static size_t number_len(const char *p, int *real, int *hex)
{
	size_t i = 0, best = 0;
	*real = *hex = 0;
	while (isdigit((unsigned char)p[i]))
		i++;
	best = i;
	size_t mant = i;
	if (p[i] == '.' && isdigit((unsigned char)p[i + 1])) {
		mant = i + 1;
		while (isdigit((unsigned char)p[mant]))
			mant++;
		best = mant;
		*real = 1;
	}
	if (mant && (p[mant] == 'e' || p[mant] == 'E')) {
		size_t j = mant + 1;
		while (p[j] == '-' || p[j] == '+')
			j++;
		if (isdigit((unsigned char)p[j])) {
			while (isdigit((unsigned char)p[j]))
				j++;
			best = j;
			*real = 1;
		}
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		size_t j = 2;
		while (isxdigit((unsigned char)p[j]))
			j++;
		if (j > best) {
			best = j;
			*real = 0;
			*hex = 1;
		}
	}
	return best;
}

static int lex_number(struct arith *a)
{
	int real, hex;
	size_t n = number_len(a->p, &real, &hex);
	if (!n)
		return 0;
	char buf[64];
	if (n >= sizeof buf) {
		fail(a, "a number is too long");
		n = sizeof buf - 1;
	}
	memcpy(buf, a->p, n);
	buf[n] = '\0';
	a->p += n;
	a->kind = T_NUM;
	if (real) {
		a->v.d = strtod(buf, NULL);
		a->v.i = to_ll(a->v.d);
		a->v.real = 1;
		return 1;
	}
	unsigned long long u = strtoull(buf, NULL, hex ? 16 : 10);
	if (u > INT_MAX) /* fio reads whole numbers as an int */
		fail(a, "a whole number is larger than 2147483647 (use a unit: 4g)");
	a->v.i = (long long)u;
	a->v.d = (double)u;
	a->v.real = 0;
	return 1;
}

struct unit {
	const char *name;
	long long i;
	double d;
	int real;
};

/* fio's unit words inside expressions (longest first); kib and the like are fio's 1000s. */
static const struct unit units[] = {
	{ "kib", 1000LL, 1e3, 0 },
	{ "mib", 1000000LL, 1e6, 0 },
	{ "gib", 1000000000LL, 1e9, 0 },
	{ "pib", 1000000000000LL, 1e12, 0 },
	{ "kb", 1LL << 10, 1024.0, 0 },
	{ "mb", 1LL << 20, 1048576.0, 0 },
	{ "ms", 1000LL, 1000.0, 1 },
	{ "us", 1LL, 1.0, 1 },
	{ "gb", 1LL << 30, 1073741824.0, 0 },
	{ "tb", 1LL << 40, 1125899906842624.0, 0 }, /* fio's real reading of t is 1024^5 */
	{ "pb", 1LL << 50, 1125899906842624.0, 0 },
	{ "k", 1LL << 10, 1024.0, 0 },
	{ "g", 1LL << 30, 1073741824.0, 0 },
	{ "t", 1LL << 40, 1125899906842624.0, 0 },
	{ "p", 1LL << 50, 1125899906842624.0, 0 },
	{ "s", 1000000LL, 1e6, 0 },
	{ "m", 1LL << 20, 1048576.0, 0 }, /* minutes in a time: below */
	{ "d", 86400000000LL, 86400e6, 0 },
	{ "h", 3600000000LL, 3600e6, 0 },
};

static int lex_unit(struct arith *a)
{
	for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
		size_t n = strlen(units[k].name);
		if (strncasecmp(a->p, units[k].name, n) != 0)
			continue;
		a->p += n;
		a->kind = T_SUFFIX;
		a->v.i = units[k].i;
		a->v.d = units[k].d;
		a->v.real = units[k].real;
		if (n == 1 && tolower((unsigned char)units[k].name[0]) == 'm' && a->is_time) {
			a->v.i = 60000000LL;
			a->v.d = 60e6;
		}
		return 1;
	}
	return 0;
}

static void next(struct arith *a)
{
	while (*a->p == ' ' || *a->p == '\t')
		a->p++;
	char c = *a->p;
	if (!c || c == '\n' || c == '#' || c == ':' || c == ',') { /* fio ignores what follows these */
		a->kind = T_END;
		return;
	}
	if (lex_number(a) || lex_unit(a))
		return;
	a->p++;
	a->op = c;
	a->kind = strchr("+-*/()^%", c) ? T_OP : T_BAD;
	if (a->kind == T_BAD)
		fail(a, "a character that is not part of an expression");
}

static int is_op(const struct arith *a, char c)
{
	return a->kind == T_OP && a->op == c;
}

static struct aval expr(struct arith *a, int minprec);

#define MAX_DEPTH 200

static struct aval primary(struct arith *a)
{
	struct aval v = { 0, 0, 0 };
	if (a->kind == T_NUM) {
		v = a->v;
		next(a);
	} else if (is_op(a, '(')) {
		next(a);
		v = expr(a, P_ADD);
		if (!is_op(a, ')'))
			fail(a, "a '(' without its ')'");
		else
			next(a);
	} else if (is_op(a, '-')) {
		next(a);
		v = expr(a, P_UNARY);
		v.i = wrap_sub(0, v.i);
		v.d = -v.d;
	} else {
		fail(a, "a number is missing");
	}
	return v;
}

/* l op r with fio's rules; the result keeps l's real flag, as fio's parser does. */
static struct aval combine(struct arith *a, char op, struct aval l, struct aval r)
{
	struct aval v = l;
	int exact = !l.real && !r.real;
	switch (op) {
	case '+': v.d = l.d + r.d; v.i = exact ? wrap_add(l.i, r.i) : to_ll(v.d); break;
	case '-': v.d = l.d - r.d; v.i = exact ? wrap_sub(l.i, r.i) : to_ll(v.d); break;
	case '*': v.d = l.d * r.d; v.i = exact ? wrap_mul(l.i, r.i) : to_ll(v.d); break;
	case '/':
		if (r.i == 0 || fabs(r.d) < 1e-20) {
			fail(a, "division by zero");
			break;
		}
		v.i = r.i == -1 ? wrap_sub(0, l.i) : l.i / r.i;
		v.d = l.d / r.d;
		if (!exact)
			v.i = to_ll(v.d);
		break;
	case '%':
		if (r.i == 0) {
			fail(a, "division by zero");
			break;
		}
		v.i = r.i == -1 ? 0 : l.i % r.i;
		v.d = (double)v.i;
		break;
	case '^':
		v.d = pow(l.d, r.d);
		if (exact && r.i >= 0) {
			v.i = 1;
			for (long long k = 0; k < r.i && k < 64; k++) /* past 2^63 it has wrapped anyway */
				v.i = wrap_mul(v.i, l.i);
		} else {
			v.i = to_ll(exact ? pow((double)l.i, (double)r.i) : v.d);
		}
		break;
	}
	return v;
}

static struct aval suffix(struct arith *a, struct aval l, struct aval s)
{
	struct aval v = l;
	if (!l.real && !s.real) {
		v.i = wrap_mul(l.i, s.i);
		v.d = (double)v.i;
	} else {
		v.i = to_ll((double)to_ll(l.d) * s.d); /* fio truncates the real first */
		v.d = l.d * s.d;
	}
	a->units = 1;
	return v;
}

static int op_prec(const struct arith *a)
{
	if (a->kind == T_SUFFIX)
		return P_SUFFIX;
	if (a->kind != T_OP)
		return 0;
	switch (a->op) {
	case '+': case '-': return P_ADD;
	case '*': case '/': return P_MUL;
	case '^': return P_POW;
	case '%': return P_MOD;
	}
	return 0;
}

static struct aval expr(struct arith *a, int minprec)
{
	if (++a->depth > MAX_DEPTH) {
		fail(a, "nested too deep");
		struct aval none = { 0, 0, 0 };
		return none;
	}
	struct aval l = primary(a);
	for (int prec; !a->why && (prec = op_prec(a)) && prec >= minprec;) {
		if (a->kind == T_SUFFIX) {
			struct aval s = a->v;
			next(a);
			l = suffix(a, l, s);
			continue;
		}
		char op = a->op;
		next(a);
		/* ^ groups to the right, the others to the left */
		struct aval r = expr(a, op == '^' ? prec : prec + 1);
		l = combine(a, op, l, r);
	}
	a->depth--;
	return l;
}

int fio_arith_eval(const char *s, enum fio_arith_kind kind, long long *out, char *err, size_t errlen)
{
	char qb[64];
	struct arith a = { .p = s, .is_time = kind != FIO_ARITH_NUMBER };
	next(&a);
	struct aval v = expr(&a, P_ADD);
	if (!a.why && a.kind != T_END)
		fail(&a, "something after the expression");
	if (a.why)
		return nm_errf(err, errlen, "\"%s\": %s", fio_q(s, qb, sizeof qb), a.why);
	long long n = v.i;
	if (kind == FIO_ARITH_SECONDS) {
		if (!a.units)
			n = to_ll((double)n * 1e6);
		n = n / 1000000 * 1000000; /* fio keeps whole seconds of it */
	}
	*out = n;
	return 0;
}

/* --- bc's whole numbers --------------------------------------------------------------------- */

struct bc {
	const char *p;
	const char *why;
	unsigned depth;
};

static void bc_skip(struct bc *b)
{
	while (*b->p == ' ' || *b->p == '\t')
		b->p++;
}

static long long bc_expr(struct bc *b, int minprec);

static int bc_mul_ok(long long x, long long y, long long *r)
{
	return !__builtin_mul_overflow(x, y, r);
}

static long long bc_primary(struct bc *b)
{
	bc_skip(b);
	if (*b->p == '-') { /* bc's unary minus binds tighter than ^ */
		b->p++;
		if (++b->depth > MAX_DEPTH) {
			b->why = b->why ? b->why : "nested too deep";
			return 0;
		}
		long long v = bc_primary(b);
		b->depth--;
		if (v == LLONG_MIN)
			b->why = b->why ? b->why : "the result is too large";
		return v == LLONG_MIN ? 0 : -v;
	}
	if (*b->p == '(') {
		b->p++;
		long long v = bc_expr(b, P_ADD);
		bc_skip(b);
		if (*b->p != ')') {
			b->why = b->why ? b->why : "a '(' without its ')'";
			return 0;
		}
		b->p++;
		return v;
	}
	if (!isdigit((unsigned char)*b->p)) {
		b->why = b->why ? b->why : "not whole-number arithmetic";
		return 0;
	}
	long long v = 0;
	while (isdigit((unsigned char)*b->p)) {
		if (!bc_mul_ok(v, 10, &v) || __builtin_add_overflow(v, *b->p - '0', &v))
			b->why = b->why ? b->why : "a number is too large";
		b->p++;
	}
	return v;
}

static int bc_prec(char c)
{
	switch (c) {
	case '+': case '-': return P_ADD;
	case '*': case '/': case '%': return P_MUL;
	case '^': return P_POW;
	}
	return 0;
}

static long long bc_apply(struct bc *b, char op, long long l, long long r)
{
	long long v = 0;
	int ok = 1;
	switch (op) {
	case '+': ok = !__builtin_add_overflow(l, r, &v); break;
	case '-': ok = !__builtin_sub_overflow(l, r, &v); break;
	case '*': ok = bc_mul_ok(l, r, &v); break;
	case '/':
	case '%':
		if (r == 0) {
			b->why = b->why ? b->why : "division by zero";
			return 0;
		}
		if (r == -1 && l == LLONG_MIN) {
			b->why = b->why ? b->why : "the result is too large";
			return 0;
		}
		v = op == '/' ? l / r : l % r;
		break;
	case '^':
		if (r < 0) {
			b->why = b->why ? b->why : "a negative power";
			return 0;
		}
		/* 0, 1 and -1 never overflow, so their powers are not multiplied out (r may be huge);
		 * any other base overflows within 63 steps */
		if (l == 0 || l == 1 || l == -1) {
			v = l == 0 ? (r == 0) : l == 1 ? 1 : (r % 2 ? -1 : 1);
			break;
		}
		v = 1;
		for (long long k = 0; k < r && ok; k++)
			ok = bc_mul_ok(v, l, &v);
		break;
	}
	if (!ok)
		b->why = b->why ? b->why : "the result is too large";
	return v;
}

static long long bc_expr(struct bc *b, int minprec)
{
	if (++b->depth > MAX_DEPTH) {
		b->why = b->why ? b->why : "nested too deep";
		return 0;
	}
	long long l = bc_primary(b);
	for (;;) {
		bc_skip(b);
		int prec = bc_prec(*b->p);
		if (b->why || !prec || prec < minprec) {
			b->depth--;
			return l;
		}
		char op = *b->p++;
		long long r = bc_expr(b, op == '^' ? prec : prec + 1);
		l = bc_apply(b, op, l, r);
	}
}

int fio_bc_eval(const char *s, long long *out, char *err, size_t errlen)
{
	char qb[64];
	struct bc b = { .p = s };
	long long v = bc_expr(&b, P_ADD);
	bc_skip(&b);
	if (!b.why && *b.p)
		b.why = "not whole-number arithmetic";
	if (b.why)
		return nm_errf(err, errlen, "\"%s\": %s", fio_q(s, qb, sizeof qb), b.why);
	*out = v;
	return 0;
}
