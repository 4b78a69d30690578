/* libFuzzer harness: compare's keys (src/compare/keys.c) over anyone's records: imported JSON
 * records and Go benchmark text carry any settings, tags and inventory, and --row, --col and
 * --filter name any key.
 *
 * Input: a JSON object
 *   {"key": K, "as": "row"|"col", "by": P, "filters": ["KEY=GLOB", "KEY!=GLOB", ...],
 *    "runs": [{"label": L, "tags": {k: v}, "inventory": {...},
 *              "benches": [{"name": N, "settings": {...}, "samples": [numbers]}]}]}
 * every member optional.
 *
 * Oracles, besides memory safety:
 *  - key_value reads back to the value it was built from: a run's own field or tag as it is,
 *    else the setting found first (the bench's, then parameters, job_options, global_options,
 *    then the inventory fact): a text as it is, an integer and a real to the same number, a
 *    boolean as true/false, anything else (an object, a list, null, nothing) NULL;
 *  - two benches whose values differ (same JSON type) never get the same key value;
 *  - key_number and key_spelling agree with the value found; keys_known with key_value;
 *  - keys_list names every key once, whole (its length is the names' and the separators');
 *  - --filter's KEY=GLOB parses back to the expression it was; a filtered comparison over K
 *    as the columns has one column per distinct value of the benches that pass (as rows: one
 *    row per distinct value), or fails with a one-line message;
 *  - key_row_name is the bench's name unless it has a template with the parameter P;
 *  - what changed (compare/changes.c): a run against itself changes nothing; every key of two
 *    runs' changes reads back part by part (util/keypath.h), and no two settings' changes share
 *    a key when each run's benches have distinct names. */
#include "fuzz_util.h"
#include "compare/changes.h"
#include "compare/keys.h"
#include "compare/table.h"
#include "util/keypath.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>

#define MAX_RUNS 4
#define MAX_BENCHES 8
#define MAX_FILTERS 4

static const char *const builtin_keys[] = { "input", "name", "id", "host", "label", "command", "version" };

/* keys.c's inventory facts: where they are. */
static const struct {
	const char *key, *path[3];
} facts[] = {
	{ "kernel", { "os", "kernel" } },    { "os", { "os", "pretty_name" } },
	{ "virt", { "os", "virtualization", "type" } }, { "cpu", { "cpu", "model" } },
	{ "fs", { "path", "fstype" } },       { "device", { "path", "device" } },
	{ "mount", { "path", "mountpoint" } },
};

static const char *builtin(const struct ct_input *in, const struct bench *b, const char *key)
{
	const struct record *r = in->r;
	const char *v[] = { in->name, b->name, r->id, r->host, r->label, r->command, r->version };
	for (size_t i = 0; i < sizeof builtin_keys / sizeof builtin_keys[0]; i++)
		if (strcmp(key, builtin_keys[i]) == 0)
			return v[i];
	return NULL;
}

static json_t *fact(const struct record *r, const char *key)
{
	for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
		if (strcmp(facts[i].key, key) == 0) {
			json_t *j = r->inventory;
			for (size_t k = 0; k < 3 && facts[i].path[k]; k++)
				j = json_object_get(j, facts[i].path[k]);
			return j;
		}
	return NULL;
}

static bool is_scalar(const json_t *v)
{
	return json_is_string(v) || json_is_number(v) || json_is_boolean(v);
}

/* What KEY names for b: a text (the run's field or tag), else the JSON value found (or NULL). */
static json_t *found(const struct ct_input *in, const struct bench *b, const char *key, const char **text)
{
	*text = builtin(in, b, key);
	if (!*text)
		*text = record_tag(in->r, key);
	if (*text)
		return NULL;
	/* the first place that holds a value: an object or a list hides nothing */
	json_t *s = json_object_get(b->settings, key);
	static const char *const nests[] = { "parameters", "job_options", "global_options" };
	for (size_t i = 0; !is_scalar(s) && i < 3; i++)
		s = json_object_get(json_object_get(b->settings, nests[i]), key);
	return is_scalar(s) ? s : is_scalar(fact(in->r, key)) ? fact(in->r, key) : NULL;
}

/* key_value's text reads back to what it was built from. */
static void check_value(const struct ct_input *in, const struct bench *b, const char *key)
{
	const char *text;
	json_t *s = found(in, b, key, &text);
	char *v = key_value(in, b, key);
	if (text) {
		FUZZ_ASSERT(v && strcmp(v, text) == 0);
	} else if (json_is_string(s)) {
		FUZZ_ASSERT(v && strcmp(v, json_string_value(s)) == 0);
	} else if (json_is_integer(s)) {
		char *end;
		FUZZ_ASSERT(v && *v);
		errno = 0;
		long long x = strtoll(v, &end, 10);
		FUZZ_ASSERT(!*end && errno == 0 && x == (long long)json_integer_value(s));
	} else if (json_is_real(s)) {
		char *end;
		FUZZ_ASSERT(v && *v);
		double x = strtod(v, &end);
		if (x != json_real_value(s))
			fprintf(stderr, "real %.17g keyed as \"%s\"\n", json_real_value(s), v);
		FUZZ_ASSERT(!*end && x == json_real_value(s));
	} else if (json_is_boolean(s)) {
		FUZZ_ASSERT(v && strcmp(v, json_is_true(s) ? "true" : "false") == 0);
	} else {
		FUZZ_ASSERT(!v);
	}

	double num = 0;
	int has = key_number(in, b, key, &num);
	FUZZ_ASSERT(has == (!text && json_is_number(s)));
	FUZZ_ASSERT(!has || num == json_number_value(s));

	char *sp = key_spelling(in, b, key);
	json_t *p = json_object_get(json_object_get(b->settings, "parameters"), key);
	if (!text && json_is_string(p))
		FUZZ_ASSERT(sp && strcmp(sp, json_string_value(p)) == 0);
	else
		FUZZ_ASSERT((!sp && !v) || (sp && v && strcmp(sp, v) == 0));
	free(sp);
	free(v);
}

/* Two values of one JSON type that differ never share a key value. */
static void check_apart(const struct ct_input *ia, const struct bench *a, const struct ct_input *ib,
			const struct bench *b, const char *key)
{
	const char *ta, *tb;
	json_t *sa = found(ia, a, key, &ta), *sb = found(ib, b, key, &tb);
	if (ta || tb || !is_scalar(sa) || !is_scalar(sb) || json_typeof(sa) != json_typeof(sb) ||
	    json_is_boolean(sa) || json_equal(sa, sb))
		return;
	char *va = key_value(ia, a, key), *vb = key_value(ib, b, key);
	FUZZ_ASSERT(va && vb);
	if (strcmp(va, vb) == 0)
		fprintf(stderr, "two values keyed as \"%.100s\"\n", va);
	FUZZ_ASSERT(strcmp(va, vb) != 0);
	free(va);
	free(vb);
}

/* The names keys_list should list: each non-empty one once. */
static void add_name(json_t *names, const char *k)
{
	if (*k)
		json_object_set_new(names, k, json_true());
}

static void add_scalar_names(json_t *names, json_t *obj)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) if (is_scalar(v)) add_name(names, k);
}

static void check_list(const struct ct_input *in, size_t nin)
{
	json_t *names = json_object();
	for (size_t i = 0; i < sizeof builtin_keys / sizeof builtin_keys[0]; i++)
		add_name(names, builtin_keys[i]);
	for (size_t i = 0; i < nin; i++) {
		const struct record *r = in[i].r;
		for (size_t t = 0; t < r->ntags; t++)
			add_name(names, r->tag_keys[t]);
		for (size_t k = 0; k < r->nbenches; k++) {
			json_t *s = r->benches[k]->settings;
			add_scalar_names(names, s);
			add_scalar_names(names, json_object_get(s, "parameters"));
			add_scalar_names(names, json_object_get(s, "job_options"));
			add_scalar_names(names, json_object_get(s, "global_options"));
		}
		for (size_t f = 0; f < sizeof facts / sizeof facts[0]; f++)
			if (is_scalar(fact(r, facts[f].key)))
				add_name(names, facts[f].key);
	}
	size_t want = 0, n = 0;
	const char *k;
	json_t *v;
	json_object_foreach(names, k, v) {
		want += strlen(k);
		n++;
	}
	want += n ? 2 * (n - 1) : 0;
	char *list = malloc(want + 16);
	if (!list)
		abort();
	keys_list(in, nin, list, want + 16);
	if (strlen(list) != want)
		fprintf(stderr, "keys_list: %zu bytes for %zu names of %zu: %.200s\n", strlen(list), n, want, list);
	FUZZ_ASSERT(strlen(list) == want);
	json_object_foreach(names, k, v) FUZZ_ASSERT(strstr(list, k) != NULL);
	free(list);
	json_decref(names);
}

static char *or_empty(const struct ct_input *in, const struct bench *b, const char *key)
{
	char *v = key_value(in, b, key);
	return v ? v : strdup("");
}

/* A bench passes the filters as compare's table.c says: the value (or its spelling) matches. */
static bool passes(const struct ct_input *in, const struct bench *b, const struct ct_filter *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++) {
		char *v = or_empty(in, b, f[i].key), *sp = key_spelling(in, b, f[i].key);
		bool match = fnmatch(f[i].pattern, v, 0) == 0 || (sp && fnmatch(f[i].pattern, sp, 0) == 0);
		free(v);
		free(sp);
		if (match == (bool)f[i].negate)
			return false;
	}
	return true;
}

static void check_table(const struct ct_input *in, size_t nin, const char *key, bool as_row, const struct ct_filter *f,
			size_t nf)
{
	struct ct_opts o = { .filters = f, .nfilters = nf };
	if (as_row)
		o.row_key = key;
	else
		o.col_key = key;
	struct ct_result res;
	char err[512];
	if (ct_build(in, nin, &o, &res, err, sizeof err) != 0) {
		fuzz_check_message(err);
		return;
	}
	/* the distinct values of the benches that pass, in order */
	json_t *seen = json_object();
	for (size_t i = 0; i < nin; i++)
		for (size_t k = 0; k < in[i].r->nbenches; k++) {
			const struct bench *b = in[i].r->benches[k];
			if (!passes(&in[i], b, f, nf))
				continue;
			char *v = or_empty(&in[i], b, key);
			json_object_set_new(seen, v, json_true());
			free(v);
		}
	size_t distinct = json_object_size(seen);
	if (as_row) {
		for (size_t t = 0; t < res.ntables && strcmp(key, "name") != 0; t++) /* by name: x, x #2 */
			FUZZ_ASSERT(res.tables[t]->nrows == distinct);
	} else {
		if (res.ncols != distinct)
			fprintf(stderr, "%zu columns for %zu values\n", res.ncols, distinct);
		FUZZ_ASSERT(res.ncols == distinct);
	}
	json_decref(seen);
	ct_free(&res);
}

/* A --filter expression: parsed, or refused for no '=' / no key; parsed, it prints back. */
static void check_filter(const char *expr, struct ct_filter *f, size_t *nf)
{
	struct ct_filter x;
	const char *eq = strchr(expr, '=');
	bool bad = !eq || eq == expr || (eq == expr + 1 && expr[0] == '!');
	int rc = key_filter_parse(expr, &x);
	FUZZ_ASSERT((rc < 0) == bad);
	if (rc < 0)
		return;
	FUZZ_ASSERT(*x.key && !strchr(x.key, '='));
	char *back = malloc(strlen(expr) + 3);
	if (!back)
		abort();
	sprintf(back, "%s%s=%s", x.key, x.negate ? "!" : "", x.pattern);
	FUZZ_ASSERT(strcmp(back, expr) == 0);
	free(back);
	f[(*nf)++] = x;
}

static bool distinct_names(const struct record *r)
{
	for (size_t i = 0; i < r->nbenches; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(r->benches[i]->name, r->benches[j]->name) == 0)
				return false;
	return true;
}

static void check_changes(const struct record *a, const struct record *b)
{
	json_t *self = record_changes(a, a);
	FUZZ_ASSERT(json_array_size(self) == 0);
	json_decref(self);

	json_t *c = record_changes(a, b), *e, *settings = json_object();
	bool apart = distinct_names(a) && distinct_names(b) && !json_object_get(a->inventory, "settings") &&
		     !json_object_get(b->inventory, "settings");
	size_t i;
	json_array_foreach(c, i, e) {
		const char *key = json_string_value(json_object_get(e, "key"));
		FUZZ_ASSERT(key);
		struct keypath_iter it;
		enum keypath_kind kind;
		size_t nparts = 0;
		bool is_setting = false;
		keypath_iter_init(&it, key);
		while ((kind = keypath_next(&it)) != KEYPATH_END) {
			FUZZ_ASSERT(kind != KEYPATH_BAD);
			if (nparts++ == 0)
				is_setting = kind == KEYPATH_MEMBER && strcmp(it.name.buf, "settings") == 0;
		}
		keypath_iter_free(&it);
		FUZZ_ASSERT(nparts > 0);
		if (is_setting && apart) {
			if (json_object_get(settings, key))
				fprintf(stderr, "two settings' changes at \"%.200s\"\n", key);
			FUZZ_ASSERT(!json_object_get(settings, key));
			json_object_set_new(settings, key, json_true());
		}
	}
	json_decref(settings);
	json_decref(c);
}

static struct record *make_run(json_t *spec, size_t index)
{
	struct record *r = record_new("time", 0, NULL);
	const char *label = json_string_value(json_object_get(spec, "label"));
	if (label)
		record_set_label(r, label);
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(spec, "tags"), k, v) if (json_is_string(v) && *k)
		record_set_tag(r, k, json_string_value(v));
	json_t *inv = json_object_get(spec, "inventory");
	if (json_is_object(inv))
		record_set_inventory(r, json_deep_copy(inv));
	size_t i;
	json_t *bj;
	json_array_foreach(json_object_get(spec, "benches"), i, bj) {
		if (i == MAX_BENCHES)
			break;
		const char *name = json_string_value(json_object_get(bj, "name"));
		char dflt[32];
		snprintf(dflt, sizeof dflt, "b%zu", i);
		struct bench *b = record_add_bench(r, name ? name : dflt);
		json_object_foreach(json_object_get(bj, "settings"), k, v) bench_set(b, k, json_deep_copy(v));
		struct metric *m = bench_metric(b, "wall_s", "s", LOWER_IS_BETTER);
		json_t *samples = json_object_get(bj, "samples"), *x;
		size_t s;
		size_t added = 0;
		json_array_foreach(samples, s, x) if (json_is_number(x) && added < 16) {
			metric_add(m, json_number_value(x));
			added++;
		}
		if (!added)
			for (int j = 0; j < 3; j++)
				metric_add(m, 1 + (double)index + j * 0.01);
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, 0, NULL);
	if (!json_is_object(doc)) {
		json_decref(doc);
		return 0;
	}
	struct record *runs[MAX_RUNS];
	struct ct_input in[MAX_RUNS];
	char names[MAX_RUNS][8];
	size_t nin = 0, i;
	json_t *spec;
	json_array_foreach(json_object_get(doc, "runs"), i, spec) {
		if (nin == MAX_RUNS)
			break;
		runs[nin] = make_run(spec, nin);
		snprintf(names[nin], sizeof names[nin], "r%zu", nin);
		in[nin] = (struct ct_input){ runs[nin], names[nin] };
		nin++;
	}
	const char *key = json_string_value(json_object_get(doc, "key"));
	if (!key)
		key = "name";

	for (size_t x = 0; x < nin; x++)
		for (size_t k = 0; k < runs[x]->nbenches; k++) {
			check_value(&in[x], runs[x]->benches[k], key);
			for (size_t y = 0; y <= x; y++)
				for (size_t l = 0; l < runs[y]->nbenches; l++)
					check_apart(&in[x], runs[x]->benches[k], &in[y], runs[y]->benches[l], key);
		}
	bool known = false;
	for (size_t x = 0; x < nin; x++)
		for (size_t k = 0; k < runs[x]->nbenches; k++) {
			char *v = key_value(&in[x], runs[x]->benches[k], key);
			known |= v != NULL;
			free(v);
		}
	FUZZ_ASSERT(keys_known(in, nin, key) == known);
	check_list(in, nin);

	struct ct_filter filters[MAX_FILTERS];
	size_t nf = 0;
	json_t *fj;
	json_array_foreach(json_object_get(doc, "filters"), i, fj) if (json_is_string(fj) && nf < MAX_FILTERS)
		check_filter(json_string_value(fj), filters, &nf);
	const char *as = json_string_value(json_object_get(doc, "as"));
	check_table(in, nin, key, as && strcmp(as, "row") == 0, filters, nf);

	const char *by = json_string_value(json_object_get(doc, "by"));
	for (size_t x = 0; x < nin; x++)
		for (size_t k = 0; k < runs[x]->nbenches; k++) {
			const struct bench *b = runs[x]->benches[k];
			char *row = key_row_name(b, by);
			json_t *params = json_object_get(b->settings, "parameters");
			if (!by || !json_is_string(json_object_get(b->settings, "template")) ||
			    !json_object_get(params, by))
				FUZZ_ASSERT(strcmp(row, b->name) == 0);
			free(row);
		}

	if (nin >= 2)
		check_changes(runs[0], runs[1]);

	for (size_t f = 0; f < nf; f++)
		free((char *)filters[f].key);
	for (size_t x = 0; x < nin; x++)
		record_free(runs[x]);
	json_decref(doc);
	return 0;
}
