#include "results/benchproc.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_PARTS 64
#define KEY_BUCKETS 1024

static void push_str(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static int has_str(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

enum part_kind { PART_CONFIG, PART_FULLNAME, PART_KEY };

struct part {
	enum part_kind kind;
	struct bp_field *field;    /* the field, or the .config group */
	char *key;
};

struct bp_projection {
	struct bp_parser *parser;
	struct bp_field root;      /* top-level fields */
	size_t nfields;
	struct part *parts;
	size_t nparts;
	struct bp_field *unit_field;
	struct bp_field **flat;
	size_t nflat;
	int flat_valid;
	const char **row;
	struct bp_key *buckets[KEY_BUCKETS];
	struct bp_key **keys;      /* every key, for freeing */
	size_t nkeys;
	struct bf_set pool;
};

/* ---- extracting a key's value from a result ---- */

static const char *name_part(const char *name, const char *key, char *buf, size_t len)
{
	size_t off[NAME_PARTS], plen[NAME_PARTS];
	size_t n = bf_name_parts(name, off, plen, NAME_PARTS), klen = strlen(key);
	if (strcmp(key, "/gomaxprocs") == 0 && n > 1 && name[off[n - 1]] == '-') {
		snprintf(buf, len, "%.*s", (int)plen[n - 1] - 1, name + off[n - 1] + 1);
		return buf;
	}
	for (size_t i = 1; i < n; i++)
		if (plen[i] > klen && memcmp(name + off[i], key, klen) == 0 && name[off[i] + klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(plen[i] - klen - 1), name + off[i] + klen + 1);
			return buf;
		}
	return "";
}

/* The value of KEY (not .config, .unit, or a .fullname with exclusions) for r. */
static const char *extract(const struct bf_result *r, const char *key, char *buf, size_t len)
{
	if (strcmp(key, ".name") == 0) {
		size_t off[NAME_PARTS], plen[NAME_PARTS];
		bf_name_parts(r->name, off, plen, NAME_PARTS);
		snprintf(buf, len, "%.*s", (int)plen[0], r->name);
		return buf;
	}
	if (strcmp(key, ".fullname") == 0)
		return r->name;
	if (key[0] == '/')
		return name_part(r->name, key, buf, len);
	const char *v = bf_config_get(r, key);
	return v ? v : "";
}

/* .fullname less the parts other fields project ("*" stands for a projected .name). */
static const char *fullname(const struct bp_parser *p, const struct bf_result *r, char *buf, size_t len)
{
	int exc_name = has_str(p->name_keys, p->nname_keys, ".name");
	int exc_procs = has_str(p->name_keys, p->nname_keys, "/gomaxprocs");
	int found = exc_name || (exc_procs && strchr(r->name, '-'));
	for (size_t k = 0; k < p->nname_keys && !found; k++) {
		char pat[256];
		snprintf(pat, sizeof pat, "%s=", p->name_keys[k]);
		found = p->name_keys[k][0] == '/' && strstr(r->name, pat);
	}
	if (!found)
		return r->name;
	size_t off[NAME_PARTS], plen[NAME_PARTS];
	size_t n = bf_name_parts(r->name, off, plen, NAME_PARTS), used;
	used = (size_t)snprintf(buf, len, "%.*s", exc_name ? 1 : (int)plen[0], exc_name ? "*" : r->name);
	for (size_t i = 1; i < n && used < len; i++) {
		const char *part = r->name + off[i];
		int drop = exc_procs && part[0] == '-';
		for (size_t k = 0; k < p->nname_keys && !drop; k++) {
			size_t kl = strlen(p->name_keys[k]);
			drop = p->name_keys[k][0] == '/' && plen[i] > kl && memcmp(part, p->name_keys[k], kl) == 0 &&
			       part[kl] == '=';
		}
		if (!drop)
			used += (size_t)snprintf(buf + used, len - used, "%.*s", (int)plen[i], part);
	}
	return buf;
}

/* ---- parsing ---- */

static struct bp_field *add_field(struct bp_projection *pr, struct bp_field *group, const char *name,
				  const struct bq_field *q)
{
	struct bp_field *f = xcalloc(1, sizeof *f);
	f->name = xstrdup(name);
	f->idx = (int)pr->nfields++;
	f->proj = pr;
	if (q) {
		f->order = q->order;
		f->nfixed = q->nfixed;
		f->fixed = xcalloc(q->nfixed, sizeof *f->fixed);
		for (size_t i = 0; i < q->nfixed; i++)
			f->fixed[i] = xstrdup(q->fixed[i]);
	}
	f->ranks_seen = group == &pr->root && f->order == BQ_FIRST;
	group->sub = xrealloc(group->sub, (group->nsub + 1) * sizeof *group->sub);
	group->sub[group->nsub++] = f;
	pr->flat_valid = 0;
	pr->row = xrealloc(pr->row, pr->nfields * sizeof *pr->row);
	return f;
}

static struct bp_projection *new_projection(struct bp_parser *p)
{
	struct bp_projection *pr = xcalloc(1, sizeof *pr);
	pr->parser = p;
	pr->root.idx = -1;
	bf_init(&pr->pool);
	p->all = xrealloc(p->all, (p->nall + 1) * sizeof *p->all);
	p->all[p->nall++] = pr;
	return pr;
}

static void add_part(struct bp_projection *pr, enum part_kind kind, struct bp_field *f, const char *key)
{
	pr->parts = xrealloc(pr->parts, (pr->nparts + 1) * sizeof *pr->parts);
	pr->parts[pr->nparts++] = (struct part){ kind, f, key ? xstrdup(key) : NULL };
}

static int make_part(struct bp_parser *p, struct bp_projection *pr, const struct bq_field *q, char *err,
		     size_t errlen)
{
	if (q->order == BQ_FIXED) {
		if (strcmp(q->key, ".config") == 0)
			return snprintf(err, errlen, "fixed order not allowed for .config"), -1;
		p->fixed = xrealloc(p->fixed, (p->nfixed + 1) * sizeof *p->fixed);
		struct bp_fixed *fx = &p->fixed[p->nfixed++];
		fx->key = xstrdup(q->key);
		fx->nvals = q->nfixed;
		fx->vals = xcalloc(q->nfixed, sizeof *fx->vals);
		for (size_t i = 0; i < q->nfixed; i++)
			fx->vals[i] = xstrdup(q->fixed[i]);
	}
	if (strcmp(q->key, ".config") == 0) {
		p->have_config = 1;
		struct bp_field *g = xcalloc(1, sizeof *g);
		g->name = xstrdup(".config");
		g->idx = -1;
		g->order = q->order;
		g->proj = pr;
		pr->root.sub = xrealloc(pr->root.sub, (pr->root.nsub + 1) * sizeof *pr->root.sub);
		pr->root.sub[pr->root.nsub++] = g;
		pr->flat_valid = 0;
		add_part(pr, PART_CONFIG, g, NULL);
		return 0;
	}
	if (strcmp(q->key, ".unit") == 0)
		return snprintf(err, errlen, ".unit is only allowed in filters"), -1;
	if (!*q->key)
		return snprintf(err, errlen, "key must not be empty"), -1;
	if (strcmp(q->key, ".fullname") == 0) {
		p->have_fullname = 1;
		add_part(pr, PART_FULLNAME, add_field(pr, &pr->root, q->key, q), NULL);
		return 0;
	}
	if (strcmp(q->key, ".name") == 0 || q->key[0] == '/')
		push_str(&p->name_keys, &p->nname_keys, q->key);
	else
		push_str(&p->config_keys, &p->nconfig_keys, q->key);
	push_str(&p->used_keys, &p->nused_keys, q->key);
	add_part(pr, PART_KEY, add_field(pr, &pr->root, q->key, q), q->key);
	return 0;
}

struct bp_projection *bp_parse(struct bp_parser *p, const char *query, int with_unit, char *err, size_t errlen)
{
	struct bq_field *fields;
	size_t n;
	if (bq_parse_projection(query, &fields, &n, err, errlen) < 0)
		return NULL;
	struct bp_projection *pr = new_projection(p);
	for (size_t i = 0; i < n; i++)
		if (make_part(p, pr, &fields[i], err, errlen) < 0) {
			bq_fields_free(fields, n);
			return NULL;
		}
	bq_fields_free(fields, n);
	if (with_unit) {
		pr->unit_field = add_field(pr, &pr->root, ".unit", NULL);
		pr->unit_field->ranks_seen = 1;
	}
	return pr;
}

struct bp_projection *bp_residue(struct bp_parser *p)
{
	struct bp_projection *pr = new_projection(p);
	if (!p->have_config) {
		struct bq_field q = { .key = ".config" };
		char err[64];
		make_part(p, pr, &q, err, sizeof err);
		p->have_config = 0;
	}
	if (!p->have_fullname)
		add_part(pr, PART_FULLNAME, add_field(pr, &pr->root, ".fullname", NULL), NULL);
	return pr;
}

struct bp_field *bp_unit_field(const struct bp_projection *proj)
{
	return proj->unit_field;
}

static void flatten(struct bp_projection *pr, struct bp_field *f)
{
	if (f->idx >= 0) {
		pr->flat = xrealloc(pr->flat, (pr->nflat + 1) * sizeof *pr->flat);
		pr->flat[pr->nflat++] = f;
		return;
	}
	for (size_t i = 0; i < f->nsub; i++)
		flatten(pr, f->sub[i]);
}

struct bp_field *const *bp_flat_fields(struct bp_projection *proj, size_t *n)
{
	if (!proj->flat_valid) {
		proj->nflat = 0;
		flatten(proj, &proj->root);
		proj->flat_valid = 1;
	}
	*n = proj->nflat;
	return proj->flat;
}

/* ---- projecting ---- */

/* A key's values are kept by the projection: they outlive the results and name buffers. */
static const char *intern(struct bp_projection *pr, const char *s)
{
	return bf_intern(&pr->pool, s, strlen(s));
}

static void populate(struct bp_projection *pr, const struct bf_result *r)
{
	char buf[1024];
	for (size_t i = 0; i < pr->nfields; i++)
		pr->row[i] = "";
	for (size_t k = 0; k < pr->nparts; k++) {
		struct part *pt = &pr->parts[k];
		if (pt->kind == PART_CONFIG) {
			struct bp_field *g = pt->field;
			for (size_t c = 0; c < r->nconfig; c++) {
				if (!r->config[c].file)
					continue;
				struct bp_field *f = NULL;
				for (size_t s = 0; s < g->nsub && !f; s++)
					if (strcmp(g->sub[s]->name, r->config[c].key) == 0)
						f = g->sub[s];
				if (!f) {
					if (has_str(pr->parser->config_keys, pr->parser->nconfig_keys, r->config[c].key))
						continue;
					struct bq_field q = { .order = g->order };
					f = add_field(pr, g, r->config[c].key, &q);
					pr->row[f->idx] = "";
				}
				pr->row[f->idx] = intern(pr, r->config[c].value);
			}
			continue;
		}
		const char *v = pt->kind == PART_FULLNAME ? fullname(pr->parser, r, buf, sizeof buf)
							   : extract(r, pt->key, buf, sizeof buf);
		pr->row[pt->field->idx] = intern(pr, v);
	}
}

static uint64_t row_hash(const char *const *row, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		for (const char *s = row[i]; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ULL;
		h = (h ^ 0x1f) * 1099511628211ULL;
	}
	return h;
}

static void note_seen(struct bp_field *f, const char *v)
{
	for (size_t i = 0; i < f->nseen; i++)
		if (strcmp(f->seen[i], v) == 0)
			return;
	if (f->nseen == f->seencap) {
		f->seencap = f->seencap ? f->seencap * 2 : 16;
		f->seen = xrealloc(f->seen, f->seencap * sizeof *f->seen);
	}
	f->seen[f->nseen++] = v;
}

static const struct bp_key *intern_row(struct bp_projection *pr)
{
	size_t n = pr->nfields;
	while (n > 0 && !*pr->row[n - 1])
		n--;
	uint64_t h = row_hash(pr->row, n);
	struct bp_key **b = &pr->buckets[h % KEY_BUCKETS];
	for (struct bp_key *k = *b; k; k = k->next) {
		size_t i = 0;
		if (k->nvals != n)
			continue;
		while (i < n && strcmp(k->vals[i], pr->row[i]) == 0)
			i++;
		if (i == n)
			return k;
	}
	/* a new key: it ranks its values in the first-seen orders (top-level fields only) */
	for (size_t i = 0; i < pr->root.nsub; i++) {
		struct bp_field *f = pr->root.sub[i];
		if (f->ranks_seen && f->idx >= 0)
			note_seen(f, (size_t)f->idx < n ? pr->row[f->idx] : "");
	}
	struct bp_key *k = xcalloc(1, sizeof *k);
	k->proj = pr;
	k->nvals = n;
	k->vals = xcalloc(n, sizeof *k->vals);
	if (n)
		memcpy(k->vals, pr->row, n * sizeof *k->vals);
	k->next = *b;
	*b = k;
	pr->keys = xrealloc(pr->keys, (pr->nkeys + 1) * sizeof *pr->keys);
	pr->keys[pr->nkeys++] = k;
	return k;
}

const struct bp_key *bp_project(struct bp_projection *proj, const struct bf_result *r)
{
	populate(proj, r);
	return intern_row(proj);
}

void bp_project_values(struct bp_projection *proj, const struct bf_result *r, const struct bp_key **keys)
{
	populate(proj, r);
	for (size_t i = 0; i < r->nvalues; i++) {
		if (proj->unit_field)
			proj->row[proj->unit_field->idx] = intern(proj, r->values[i].unit);
		keys[i] = intern_row(proj);
	}
}

const char *bp_key_get(const struct bp_key *k, const struct bp_field *f)
{
	return f->idx >= 0 && (size_t)f->idx < k->nvals ? k->vals[f->idx] : "";
}

void bp_key_values(const struct bp_key *k, char *buf, size_t len)
{
	size_t n, used = 0;
	struct bp_field *const *flat = bp_flat_fields(k->proj, &n);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *v = bp_key_get(k, flat[i]);
		if (*v && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", v);
	}
}

/* benchproc's "num" order: a number, or the first number in the text with an SI/IEC prefix. */
static int parse_num(const char *s, double *out)
{
	char *end;
	*out = strtod(s, &end);
	if (*s && !*end && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
		return 0;
	const char *p = s;
	while (*p && !((*p >= '0' && *p <= '9') || *p == '.'))
		p++;
	if (!*p)
		return -1;
	size_t n = strspn(p, "0123456789.");
	char num[64];
	if (n >= sizeof num)
		return -1;
	memcpy(num, p, n);
	num[n] = '\0';
	*out = strtod(num, &end);
	if (*end || end == num)
		return -1;
	static const char prefixes[] = "KMGTPEZY";
	char pre = p[n] == 'k' ? 'K' : p[n];
	const char *at = pre ? strchr(prefixes, pre) : NULL;
	if (at) {
		int exp = 1 + (int)(at - prefixes);
		*out *= pow(p[n + 1] == 'i' ? 1024 : 1000, exp);
	}
	return 0;
}

static long index_in(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return (long)i;
	return 0; /* as a missing map entry in benchproc: ranks with the first */
}

static int field_cmp(const struct bp_field *f, const char *a, const char *b)
{
	switch (f->order) {
	case BQ_ALPHA:
		return strcmp(a, b);
	case BQ_NUM: {
		double x, y;
		int ea = parse_num(a, &x), eb = parse_num(b, &y);
		if (ea == 0 && eb == 0) {
			if (x < y || (!isnan(x) && isnan(y)))
				return -1;
			if (x > y || (isnan(x) && !isnan(y)))
				return 1;
			return 0;
		}
		return ea && eb ? 0 : ea == 0 ? -1 : 1;
	}
	case BQ_FIXED:
		return (int)(index_in((const char *const *)f->fixed, f->nfixed, a) -
			     index_in((const char *const *)f->fixed, f->nfixed, b));
	case BQ_FIRST:
	default:
		if (!f->ranks_seen)
			return 0;
		return (int)(index_in(f->seen, f->nseen, a) - index_in(f->seen, f->nseen, b));
	}
}

static int key_cmp(const void *pa, const void *pb)
{
	const struct bp_key *a = *(const struct bp_key *const *)pa, *b = *(const struct bp_key *const *)pb;
	size_t n;
	struct bp_field *const *flat = bp_flat_fields(a->proj, &n);
	for (size_t i = 0; i < n; i++) {
		const char *x = bp_key_get(a, flat[i]), *y = bp_key_get(b, flat[i]);
		if (strcmp(x, y) == 0)
			continue;
		int c = field_cmp(flat[i], x, y);
		return c ? c : strcmp(x, y);
	}
	return 0;
}

void bp_sort_keys(const struct bp_key **keys, size_t n)
{
	qsort(keys, n, sizeof *keys, key_cmp);
}

size_t bp_nonsingular(const struct bp_key *const *keys, size_t n, struct bp_field **out, size_t max)
{
	size_t nf, nout = 0;
	if (n <= 1)
		return 0;
	struct bp_field *const *flat = bp_flat_fields(keys[0]->proj, &nf);
	for (size_t f = 0; f < nf && nout < max; f++)
		for (size_t i = 1; i < n; i++)
			if (strcmp(bp_key_get(keys[i], flat[f]), bp_key_get(keys[0], flat[f])) != 0) {
				out[nout++] = flat[f];
				break;
			}
	return nout;
}

/* ---- filters ---- */

static int check_filter_keys(const struct bq_node *n, char *err, size_t errlen)
{
	if (n->op == BQ_MATCH) {
		if (strcmp(n->key, ".config") == 0)
			return snprintf(err, errlen, "syntax error at %zu: .config is only allowed in projections",
					n->off + 1), -1;
		if (!*n->key)
			return snprintf(err, errlen, "syntax error at %zu: key must not be empty", n->off + 1), -1;
	}
	for (size_t i = 0; i < n->nsub; i++)
		if (check_filter_keys(n->sub[i], err, errlen) < 0)
			return -1;
	return 0;
}

int bp_filter_parse(struct bp_filter *f, const struct bp_parser *p, const char *query, char *err, size_t errlen)
{
	f->parser = p;
	f->root = bq_parse_filter(query, err, errlen);
	if (!f->root)
		return -1;
	if (check_filter_keys(f->root, err, errlen) < 0) {
		bq_node_free(f->root);
		f->root = NULL;
		return -1;
	}
	return 0;
}

/* Whether value i of r passes (every match but .unit is the same for all values). */
static int eval(const struct bq_node *n, const struct bf_result *r, size_t i)
{
	char buf[1024];
	switch (n->op) {
	case BQ_MATCH:
		if (strcmp(n->key, ".unit") == 0)
			return bq_match_value(n, r->values[i].unit) ||
			       (r->values[i].orig_unit && bq_match_value(n, r->values[i].orig_unit));
		return bq_match_value(n, extract(r, n->key, buf, sizeof buf));
	case BQ_NOT:
		return !eval(n->sub[0], r, i);
	case BQ_AND:
		for (size_t k = 0; k < n->nsub; k++)
			if (!eval(n->sub[k], r, i))
				return 0;
		return 1;
	case BQ_OR:
		for (size_t k = 0; k < n->nsub; k++)
			if (eval(n->sub[k], r, i))
				return 1;
		return 0;
	}
	return 0;
}

static int passes_fixed(const struct bp_parser *p, const struct bf_result *r)
{
	char buf[1024];
	for (size_t i = 0; i < p->nfixed; i++) {
		const char *v = extract(r, p->fixed[i].key, buf, sizeof buf);
		if (!has_str(p->fixed[i].vals, p->fixed[i].nvals, v))
			return 0;
	}
	return 1;
}

int bp_filter_apply(const struct bp_filter *f, struct bf_result *r)
{
	if (f->parser && !passes_fixed(f->parser, r)) {
		r->nvalues = 0;
		return 0;
	}
	size_t j = 0;
	for (size_t i = 0; i < r->nvalues; i++)
		if (!f->root || eval(f->root, r, i))
			r->values[j++] = r->values[i];
	r->nvalues = j;
	return j > 0;
}

void bp_filter_free(struct bp_filter *f)
{
	bq_node_free(f->root);
	f->root = NULL;
}

/* ---- keys nobody has ---- */

static int key_known(const struct bf_set *s, const char *key)
{
	char pat[256];
	if (key[0] == '.')
		return !strcmp(key, ".name") || !strcmp(key, ".fullname") || !strcmp(key, ".file") ||
		       !strcmp(key, ".unit");
	snprintf(pat, sizeof pat, "%s=", key);
	for (size_t i = 0; i < s->n; i++) {
		const char *name = s->results[i].name;
		if (key[0] != '/' && bf_config_get(&s->results[i], key))
			return 1;
		if (key[0] == '/' && strcmp(key, "/gomaxprocs") == 0) {
			size_t off[NAME_PARTS], plen[NAME_PARTS];
			size_t n = bf_name_parts(name, off, plen, NAME_PARTS);
			if (n > 1 && name[off[n - 1]] == '-')
				return 1;
		} else if (key[0] == '/' && strstr(name, pat)) {
			return 1;
		}
	}
	return 0;
}

static const char *unknown_in(const struct bq_node *n, const struct bf_set *s)
{
	if (n->op == BQ_MATCH)
		return key_known(s, n->key) ? NULL : n->key;
	for (size_t i = 0; i < n->nsub; i++) {
		const char *k = unknown_in(n->sub[i], s);
		if (k)
			return k;
	}
	return NULL;
}

int bp_check_keys(const struct bp_parser *p, const struct bp_filter *f, const struct bf_set *s, char *err,
		  size_t errlen)
{
	if (s->n == 0)
		return 0;
	for (size_t i = 0; i < p->nused_keys; i++)
		if (!key_known(s, p->used_keys[i]))
			return snprintf(err, errlen, "unknown key \"%s\": no result has it (keys: .name, .fullname, "
					"/PART of the name, .file, .unit, configuration keys)", p->used_keys[i]), -1;
	const char *k = f && f->root ? unknown_in(f->root, s) : NULL;
	if (k)
		return snprintf(err, errlen, "-filter: unknown key \"%s\": no result has it", k), -1;
	return 0;
}

static void field_free(struct bp_field *f)
{
	for (size_t i = 0; i < f->nsub; i++)
		field_free(f->sub[i]);
	free(f->sub);
	free(f->name);
	for (size_t i = 0; i < f->nfixed; i++)
		free(f->fixed[i]);
	free(f->fixed);
	free(f->seen);
	free(f);
}

static void projection_free(struct bp_projection *pr)
{
	for (size_t i = 0; i < pr->root.nsub; i++)
		field_free(pr->root.sub[i]);
	free(pr->root.sub);
	for (size_t i = 0; i < pr->nparts; i++)
		free(pr->parts[i].key);
	free(pr->parts);
	free(pr->flat);
	free(pr->row);
	for (size_t i = 0; i < pr->nkeys; i++) {
		free(pr->keys[i]->vals);
		free(pr->keys[i]);
	}
	free(pr->keys);
	bf_free(&pr->pool);
	free(pr);
}

static void strs_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void bp_parser_free(struct bp_parser *p)
{
	for (size_t i = 0; i < p->nall; i++)
		projection_free(p->all[i]);
	free(p->all);
	strs_free(p->config_keys, p->nconfig_keys);
	strs_free(p->name_keys, p->nname_keys);
	strs_free(p->used_keys, p->nused_keys);
	for (size_t i = 0; i < p->nfixed; i++) {
		free(p->fixed[i].key);
		strs_free(p->fixed[i].vals, p->fixed[i].nvals);
	}
	free(p->fixed);
	memset(p, 0, sizeof *p);
}
