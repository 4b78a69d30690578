#include "results/benchquery.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first error wins, with its offset in the query. */
struct errt {
	const char *orig;
	char msg[160];
	size_t off;
	int set;
};

struct tz {
	const char *q;
	struct errt *e;
};

struct tok {
	char kind;  /* 0 end, ( ) : @ , - *, w word, q quoted, r regexp, A AND, O OR */
	size_t off;
	char *text; /* owned by the caller when kind is w, q or r */
};

static int is_op(char c)
{
	return c == '(' || c == ')' || c == ':' || c == '@' || c == ',';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static struct tok tz_error(struct tz *t, const char *msg)
{
	if (!t->e->set) {
		t->e->set = 1;
		t->e->off = (size_t)(t->q - t->e->orig);
		snprintf(t->e->msg, sizeof t->e->msg, "%s", msg);
	}
	return (struct tok){ 0, (size_t)(t->q - t->e->orig), NULL };
}

static struct tok mk(struct tz *t, char kind, size_t len, char *text, struct tz *rest)
{
	struct tok k = { kind, (size_t)(t->q - t->e->orig), text };
	*rest = (struct tz){ t->q + len, t->e };
	return k;
}

/* A /regexp/: brackets and parentheses may hold a '/'. */
static struct tok tz_regexp(struct tz *t, struct tz *rest)
{
	const char *s = t->q + 1;
	int cs = 0, cp = 0;
	size_t i = 0, n = strlen(s);
	for (; i < n; i++) {
		if (cs == 0 && cp == 0 && s[i] == '/')
			break;
		if (s[i] == '[')
			cs++;
		else if (s[i] == ']' && --cs < 0)
			cs = 0;
		else if (s[i] == '(' && cs == 0)
			cp++;
		else if (s[i] == ')' && cs == 0)
			cp--;
		else if (s[i] == '\\')
			i++;
	}
	if (i >= n)
		return tz_error(t, "missing close \"/\"");
	const char *after = s + i + 1;
	if (*after && !is_space(*after) && !is_op(*after) && *after != '-' && *after != '*') {
		struct tz at = { after, t->e };
		return tz_error(&at, "regexp must be followed by space or an operator (unescaped \"/\"?)");
	}
	struct tok k = { 'r', (size_t)(t->q - t->e->orig), xstrndup(s, i) };
	*rest = (struct tz){ after, t->e };
	return k;
}

static struct tok tz_quoted(struct tz *t, struct tz *rest)
{
	const char *s = t->q;
	size_t pos = 1, n = strlen(s);
	while (pos < n && (s[pos] != '"' || s[pos - 1] == '\\'))
		pos++;
	if (pos == n)
		return tz_error(t, "missing end quote");
	char *w = xcalloc(pos, 1);
	size_t k = 0;
	for (size_t i = 1; i < pos; i++) {
		char c = s[i];
		if (c == '\\') {
			char e = s[++i];
			c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == '"' || e == '\\' ? e : 0;
			if (!c) {
				free(w);
				return tz_error(t, "bad escape sequence");
			}
		}
		w[k++] = c;
	}
	return mk(t, 'q', pos + 1, w, rest);
}

static struct tok tz_next(struct tz t, int allow_regexp, struct tz *rest)
{
	while (*t.q) {
		char c = *t.q;
		if (is_op(c) || c == '-' || c == '*')
			return mk(&t, c, 1, NULL, rest);
		if (is_space(c)) {
			t.q++;
		} else if (allow_regexp && c == '/') {
			return tz_regexp(&t, rest);
		} else if (c == '"') {
			return tz_quoted(&t, rest);
		} else {
			size_t n = 0;
			while (t.q[n] && !is_space(t.q[n]) && !is_op(t.q[n]))
				n++;
			if (n == 3 && memcmp(t.q, "AND", 3) == 0)
				return mk(&t, 'A', n, NULL, rest);
			if (n == 2 && memcmp(t.q, "OR", 2) == 0)
				return mk(&t, 'O', n, NULL, rest);
			return mk(&t, 'w', n, xstrndup(t.q, n), rest);
		}
	}
	return mk(&t, 0, 0, NULL, rest);
}

/* Peek: the token's text is not kept. */
static char peek(struct tz t, int allow_regexp, struct tz *rest)
{
	struct tok k = tz_next(t, allow_regexp, rest);
	free(k.text);
	return k.kind;
}

static int tz_end(struct tz t)
{
	struct tz rest;
	struct tok k = tz_next(t, 0, &rest);
	if (k.kind) {
		char msg[120];
		snprintf(msg, sizeof msg, "unexpected \"%.80s\"", k.text ? k.text : (char[]){ k.kind, 0 });
		tz_error(&t, msg);
	}
	free(k.text);
	return t.e->set ? -1 : 0;
}

static int fail(const struct errt *e, char *err, size_t errlen)
{
	snprintf(err, errlen, "syntax error at %zu: %s", e->off + 1, e->msg);
	return -1;
}

/* ---- projections ---- */

static struct tz parse_field(struct tz t, struct bq_field *f)
{
	struct tz rest;
	struct tok key = tz_next(t, 0, &rest);
	if (key.kind != 'w' && key.kind != 'q') {
		free(key.text);
		tz_error(&t, "expected key");
		return t;
	}
	f->key = key.text;
	f->key_off = key.off;
	f->order = BQ_FIRST;
	t = rest;
	if (peek(t, 0, &rest) != '@')
		return t;
	t = rest;
	struct tok ord = tz_next(t, 0, &rest);
	if (ord.kind == 'w' || ord.kind == 'q') {
		if (strcmp(ord.text, "first") == 0)
			f->order = BQ_FIRST;
		else if (strcmp(ord.text, "alpha") == 0)
			f->order = BQ_ALPHA;
		else if (strcmp(ord.text, "num") == 0)
			f->order = BQ_NUM;
		else {
			char msg[120];
			snprintf(msg, sizeof msg, "unknown order \"%.80s\"", ord.text);
			tz_error(&t, msg);
		}
		free(ord.text);
		return rest;
	}
	if (ord.kind != '(') {
		tz_error(&t, "expected named sort order or parenthesized list");
		return t;
	}
	f->order = BQ_FIXED;
	t = rest;
	for (;;) {
		struct tok w = tz_next(t, 0, &rest);
		if (w.kind == 'w' || w.kind == 'q') {
			f->fixed = xrealloc(f->fixed, (f->nfixed + 1) * sizeof *f->fixed);
			f->fixed[f->nfixed++] = w.text;
			t = rest;
		} else if (w.kind == ')') {
			if (f->nfixed == 0)
				tz_error(&t, "nothing to match");
			else
				t = rest;
			return t;
		} else {
			free(w.text);
			tz_error(&t, "missing )");
			return t;
		}
	}
}

int bq_parse_projection(const char *q, struct bq_field **out, size_t *n, char *err, size_t errlen)
{
	struct errt e = { .orig = q };
	struct tz t = { q, &e }, rest;
	*out = NULL;
	*n = 0;
	for (;;) {
		char k = peek(t, 0, &rest);
		if (k == 0 || e.set)
			break;
		if (k == ',' && *n > 0)
			t = rest;
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		memset(&(*out)[*n], 0, sizeof **out);
		t = parse_field(t, &(*out)[(*n)++]);
		if (e.set)
			break;
	}
	if (!e.set)
		tz_end(t);
	if (e.set) {
		bq_fields_free(*out, *n);
		*out = NULL;
		*n = 0;
		return fail(&e, err, errlen);
	}
	return 0;
}

void bq_fields_free(struct bq_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].key);
		for (size_t k = 0; k < f[i].nfixed; k++)
			free(f[i].fixed[k]);
		free(f[i].fixed);
	}
	free(f);
}

/* ---- filters ---- */

static struct bq_node *node(enum bq_op op)
{
	struct bq_node *n = xcalloc(1, sizeof *n);
	n->op = op;
	return n;
}

static void add_sub(struct bq_node *n, struct bq_node *s)
{
	n->sub = xrealloc(n->sub, (n->nsub + 1) * sizeof *n->sub);
	n->sub[n->nsub++] = s;
}

static struct bq_node *expr(struct tz *t);

static struct bq_node *mk_match(struct tz *t, size_t off, const char *key, struct tok *val)
{
	struct bq_node *m = node(BQ_MATCH);
	m->key = xstrndup(key, strlen(key));
	m->off = off;
	if (val->kind == 'r') {
		m->re = xcalloc(1, sizeof *m->re);
		if (regcomp(m->re, val->text, REG_EXTENDED | REG_NOSUB) != 0) {
			free(m->re);
			m->re = NULL;
			tz_error(t, "bad regexp (POSIX extended syntax expected)");
		}
		free(val->text);
	} else {
		m->lit = val->text;
	}
	val->text = NULL;
	return m;
}

static struct bq_node *match(struct tz *t)
{
	struct tz start = *t, rest;
	struct tok k = tz_next(*t, 0, &rest);
	if (k.kind == '(') {
		*t = rest;
		struct bq_node *q = expr(t);
		if (peek(*t, 0, &rest) != ')') {
			tz_error(t, "missing \")\"");
			return q;
		}
		*t = rest;
		return q;
	}
	if (k.kind == '-') {
		*t = rest;
		struct bq_node *n = node(BQ_NOT);
		add_sub(n, match(t));
		return n;
	}
	if (k.kind == '*') {
		*t = rest;
		return node(BQ_AND);
	}
	if (k.kind != 'w' && k.kind != 'q') {
		free(k.text);
		tz_error(&start, "expected key:value or subexpression");
		return node(BQ_AND);
	}
	char *key = k.text;
	*t = rest;
	struct bq_node *res = NULL;
	if (peek(*t, 0, &rest) != ':') {
		tz_error(&start, "expected key:value");
		goto out;
	}
	*t = rest;
	struct tok v = tz_next(*t, 1, &rest);
	if (v.kind == 'w' || v.kind == 'q' || v.kind == 'r') {
		*t = rest;
		res = mk_match(t, k.off, key, &v);
		goto out;
	}
	if (v.kind != '(') {
		free(v.text);
		tz_error(&start, "expected key:value");
		goto out;
	}
	*t = rest;
	res = node(BQ_OR);
	for (;;) {
		v = tz_next(*t, 1, &rest);
		if (v.kind != 'w' && v.kind != 'q' && v.kind != 'r') {
			free(v.text);
			tz_error(t, "expected value");
			goto out;
		}
		*t = rest;
		add_sub(res, mk_match(t, k.off, key, &v));
		char sep = peek(*t, 1, &rest);
		if (sep == ')') {
			*t = rest;
			goto out;
		}
		if (sep != 'O') {
			tz_error(t, "value list must be separated by OR");
			goto out;
		}
		*t = rest;
	}
out:
	free(key);
	return res ? res : node(BQ_AND);
}

static struct bq_node *and_expr(struct tz *t)
{
	struct bq_node *first = match(t), *n = NULL;
	struct tz rest;
	while (!t->e->set) {
		char k = peek(*t, 0, &rest);
		if (k == 'A') {
			*t = rest;
			continue;
		}
		if (k == '(' || k == '-' || k == '*' || k == 'w' || k == 'q') {
			if (!n) {
				n = node(BQ_AND);
				add_sub(n, first);
			}
			add_sub(n, match(t));
			continue;
		}
		if (k != ')' && k != 'O' && k != 0) {
			char msg[32];
			snprintf(msg, sizeof msg, "unexpected \"%c\"", k);
			tz_error(t, msg);
		}
		break;
	}
	return n ? n : first;
}

static struct bq_node *expr(struct tz *t)
{
	struct bq_node *first = and_expr(t), *n = NULL;
	struct tz rest;
	while (!t->e->set && peek(*t, 0, &rest) == 'O') {
		*t = rest;
		if (!n) {
			n = node(BQ_OR);
			add_sub(n, first);
		}
		add_sub(n, and_expr(t));
	}
	return n ? n : first;
}

struct bq_node *bq_parse_filter(const char *q, char *err, size_t errlen)
{
	struct errt e = { .orig = q };
	struct tz t = { q, &e };
	struct bq_node *n = expr(&t);
	if (!e.set)
		tz_end(t);
	if (e.set) {
		bq_node_free(n);
		fail(&e, err, errlen);
		return NULL;
	}
	return n;
}

void bq_node_free(struct bq_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nsub; i++)
		bq_node_free(n->sub[i]);
	free(n->sub);
	free(n->key);
	free(n->lit);
	if (n->re) {
		regfree(n->re);
		free(n->re);
	}
	free(n);
}

int bq_match_value(const struct bq_node *m, const char *value)
{
	if (m->re)
		return regexec(m->re, value, 0, NULL, 0) == 0;
	return m->lit && strcmp(m->lit, value) == 0;
}
