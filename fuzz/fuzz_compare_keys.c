/* libFuzzer harness: compare's keys (src/compare/keys.c) and what changed (compare/changes.c)
 * over anyone's records: imported JSON records and Go benchmark text carry any settings, tags
 * and inventory, and --row, --col and --filter name any key.
 *
 * Input: a JSON object
 *   {"key": K, "as": "row"|"col", "by": P, "filters": ["KEY=GLOB", "KEY!=GLOB", ...],
 *    "runs": [{"label": L, "tags": {k: v}, "inventory": {...},
 *              "benches": [{"name": N, "settings": {...}, "samples": [numbers]}]}]}
 * every member optional.
 *
 * The oracle is a second, deliberately plain implementation kept here: it never calls keys.c or
 * changes.c, and it reads each run as its saved JSON (record_to_json), walking the JSON by hand.
 * Every input is checked against it; a mismatch aborts.
 *
 *  Keys (the projection of --row/--col/--filter):
 *  - key_value is the naive value: the run's field (input, name, id, host, label, command,
 *    version) when it is a text, else the tag, else the first of the bench's settings,
 *    parameters, job_options, global_options and the inventory fact (kernel: os.kernel, ...)
 *    that holds a text, number or boolean; a text as it is, an integer and a real read back
 *    to the same number, a boolean as true/false, no value NULL;
 *  - equal values get equal keys, and two values of one kind (texts, integers, reals,
 *    booleans) that differ never share a key;
 *  - key_number, key_spelling and keys_known agree with the naive value;
 *  - keys_list names every key once, whole, and every key it names is known;
 *  - a table over K (filtered by --filter's KEY=GLOB, which parses back to itself) has one
 *    column per distinct value (one row per distinct name and place in its run, over rows by
 *    name), and is refused exactly when the naive walk says it must be: an unknown key, no
 *    benchmark left, or two benchmarks of one run in one cell;
 *  - key_row_name is the bench's name unless it has a template with the parameter P.
 *  What changed (runs 0 and 1, both ways):
 *  - a run against itself changes nothing;
 *  - no two entries share a key, and every key reads back part by part (util/keypath.h);
 *  - every key resolves by a walk of the JSON to the entry's values: settings[NAME] (NAME the
 *    only bench of a with that name) or settings[I] (bench I of a, whose name another bench
 *    shares), paired with the K-th bench of that name in b, then the setting's members;
 *    settings.S (one fact for the run) to a value some bench of each run holds;
 *    nodemark.version and cpus_allowed to the runs' own; every other key to the inventory
 *    (under "inventory." exactly when its first member is settings, nodemark, cpus_allowed or
 *    inventory), items by their name where no other item has it, else by their place. */
#include "fuzz_util.h"
#include "compare/changes.h"
#include "compare/keys.h"
#include "compare/table.h"
#include "results/record_json.h"
#include "util/keypath.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>

#define MAX_RUNS 4
#define MAX_BENCHES 8
#define MAX_FILTERS 4

/* ---- the oracle's key projection ------------------------------------------------------- */

/* A run as the oracle sees it: its saved JSON and the input's name. */
struct view {
	json_t *rec;
	const char *input;
};

static json_t *bench_json(const struct view *v, size_t k)
{
	return json_array_get(json_object_get(v->rec, "benches"), k);
}

static bool plain_scalar(const json_t *j)
{
	return json_is_string(j) || json_is_number(j) || json_is_boolean(j);
}

/* The inventory fact of a key (kernel: os.kernel, ...), or NULL. */
static json_t *naive_fact(const struct view *v, const char *key)
{
	json_t *inv = json_object_get(v->rec, "inventory");
	json_t *os = json_object_get(inv, "os"), *path = json_object_get(inv, "path");
	return strcmp(key, "kernel") == 0   ? json_object_get(os, "kernel")
	       : strcmp(key, "os") == 0     ? json_object_get(os, "pretty_name")
	       : strcmp(key, "virt") == 0   ? json_object_get(json_object_get(os, "virtualization"), "type")
	       : strcmp(key, "cpu") == 0    ? json_object_get(json_object_get(inv, "cpu"), "model")
	       : strcmp(key, "fs") == 0     ? json_object_get(path, "fstype")
	       : strcmp(key, "device") == 0 ? json_object_get(path, "device")
	       : strcmp(key, "mount") == 0  ? json_object_get(path, "mountpoint")
					    : NULL;
}

/* KEY's value for bench k of v (a new reference, or NULL); *of_run set when it is the run's
 * field or tag (which a setting of the name never is). */
static json_t *naive_value(const struct view *v, size_t k, const char *key, bool *of_run)
{
	json_t *bench = bench_json(v, k);
	*of_run = true;
	if (strcmp(key, "input") == 0)
		return json_string(v->input);
	if (strcmp(key, "name") == 0)
		return json_incref(json_object_get(bench, "name"));
	if (strcmp(key, "id") == 0 || strcmp(key, "host") == 0 || strcmp(key, "label") == 0 ||
	    strcmp(key, "command") == 0 || strcmp(key, "version") == 0) {
		json_t *f = json_object_get(v->rec, key);
		if (json_is_string(f))
			return json_incref(f);
	}
	json_t *tag = json_object_get(json_object_get(v->rec, "tags"), key);
	if (json_is_string(tag))
		return json_incref(tag);
	*of_run = false;
	json_t *s = json_object_get(bench, "settings"), *fact = naive_fact(v, key);
	json_t *places[] = { json_object_get(s, key), json_object_get(json_object_get(s, "parameters"), key),
			     json_object_get(json_object_get(s, "job_options"), key),
			     json_object_get(json_object_get(s, "global_options"), key), fact };
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
		if (plain_scalar(places[i]))
			return json_incref(places[i]);
	return NULL;
}

/* A value's text, malloc'd: a text as it is, an integer in decimal, a boolean as true/false;
 * NULL for none, and for a real (its shortest digits are keys.c's to choose: they are checked
 * to read back to the same number, and used as they are). */
static char *naive_text(const json_t *x)
{
	char buf[32];
	if (json_is_string(x))
		return strdup(json_string_value(x));
	if (json_is_integer(x)) {
		snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(x));
		return strdup(buf);
	}
	if (json_is_boolean(x))
		return strdup(json_is_true(x) ? "true" : "false");
	return NULL;
}

/* How a sweep spelled the value (its parameter's text, malloc'd) when the value is a setting;
 * NULL when it is spelled as it is. */
static char *naive_spelling(const struct view *v, size_t k, const char *key)
{
	bool of_run;
	json_t *x = naive_value(v, k, key, &of_run);
	json_t *p = json_object_get(json_object_get(json_object_get(bench_json(v, k), "settings"), "parameters"), key);
	char *out = x && !of_run && json_is_string(p) ? strdup(json_string_value(p)) : NULL;
	json_decref(x);
	return out;
}

/* Whether two naive values get one key: 1 yes, 0 no, -1 not decided here (values of two kinds,
 * a real and an integer, 0.0 and -0.0: their texts are keys.c's business). */
static int naive_same(const json_t *a, const json_t *b)
{
	if (!a || !b) {
		const json_t *x = a ? a : b;
		return !x || (json_is_string(x) && !*json_string_value(x)); /* none is "" */
	}
	if (json_is_string(a) && json_is_string(b))
		return strcmp(json_string_value(a), json_string_value(b)) == 0;
	if (json_is_integer(a) && json_is_integer(b))
		return json_integer_value(a) == json_integer_value(b);
	if (json_is_real(a) && json_is_real(b)) {
		double x = json_real_value(a), y = json_real_value(b);
		if (x != y)
			return 0;
		return signbit(x) == signbit(y) ? 1 : -1;
	}
	if (json_is_boolean(a) && json_is_boolean(b))
		return json_is_true(a) == json_is_true(b);
	return -1;
}

/* key_value, key_number, key_spelling against the naive value. */
static void check_value(const struct view *v, const struct ct_input *in, size_t k, const char *key)
{
	const struct bench *b = in->r->benches[k];
	bool of_run;
	json_t *x = naive_value(v, k, key, &of_run);
	char *got = key_value(in, b, key);
	if (!x) {
		FUZZ_ASSERT(!got);
	} else if (json_is_string(x)) {
		FUZZ_ASSERT(got && strcmp(got, json_string_value(x)) == 0);
	} else if (json_is_integer(x)) {
		char *end;
		FUZZ_ASSERT(got && *got);
		errno = 0;
		long long n = strtoll(got, &end, 10);
		FUZZ_ASSERT(!*end && errno == 0 && n == (long long)json_integer_value(x));
	} else if (json_is_real(x)) {
		char *end;
		FUZZ_ASSERT(got && *got);
		double d = strtod(got, &end);
		if (d != json_real_value(x))
			fprintf(stderr, "real %.17g keyed as \"%s\"\n", json_real_value(x), got);
		FUZZ_ASSERT(!*end && d == json_real_value(x));
	} else {
		FUZZ_ASSERT(got && strcmp(got, json_is_true(x) ? "true" : "false") == 0);
	}

	double num = 0;
	int has = key_number(in, b, key, &num);
	FUZZ_ASSERT(has == (x && json_is_number(x)));
	FUZZ_ASSERT(!has || num == json_number_value(x));

	char *sp = key_spelling(in, b, key), *want = naive_spelling(v, k, key);
	if (want)
		FUZZ_ASSERT(sp && strcmp(sp, want) == 0);
	else
		FUZZ_ASSERT((!sp && !got) || (sp && got && strcmp(sp, got) == 0));
	(void)of_run;
	free(want);
	free(sp);
	free(got);
	json_decref(x);
}

/* Two benches' keys: the same when the values are, apart when they differ (decided kinds). */
static void check_apart(const struct view *va, const struct ct_input *ia, size_t ka, const struct view *vb,
			const struct ct_input *ib, size_t kb, const char *key)
{
	bool of_run;
	json_t *xa = naive_value(va, ka, key, &of_run), *xb = naive_value(vb, kb, key, &of_run);
	int same = naive_same(xa, xb);
	if (xa && xb && same >= 0) {
		char *a = key_value(ia, ia->r->benches[ka], key), *b = key_value(ib, ib->r->benches[kb], key);
		FUZZ_ASSERT(a && b);
		if ((strcmp(a, b) == 0) != same)
			fprintf(stderr, "values %s keyed \"%.100s\" and \"%.100s\"\n", same ? "alike" : "apart", a, b);
		FUZZ_ASSERT((strcmp(a, b) == 0) == same);
		free(a);
		free(b);
	}
	json_decref(xa);
	json_decref(xb);
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
	json_t *x;
	json_object_foreach(obj, k, x) if (plain_scalar(x)) add_name(names, k);
}

static void check_list(const struct view *v, const struct ct_input *in, size_t nin)
{
	static const char *const run_keys[] = { "input", "name", "id", "host", "label", "command", "version" };
	static const char *const facts[] = { "kernel", "os", "virt", "cpu", "fs", "device", "mount" };
	json_t *names = json_object();
	for (size_t i = 0; i < sizeof run_keys / sizeof run_keys[0]; i++)
		for (size_t r = 0; r < nin; r++)
			for (size_t b = 0; b < json_array_size(json_object_get(v[r].rec, "benches")); b++) {
				bool of_run;
				json_t *x = naive_value(&v[r], b, run_keys[i], &of_run);
				if (x)
					add_name(names, run_keys[i]);
				json_decref(x);
			}
	for (size_t i = 0; i < nin; i++) {
		const char *k;
		json_t *x;
		size_t nb = json_array_size(json_object_get(v[i].rec, "benches"));
		if (!nb) /* a run without benches has no keys: none would be known */
			continue;
		json_object_foreach(json_object_get(v[i].rec, "tags"), k, x) add_name(names, k);
		for (size_t b = 0; b < nb; b++) {
			json_t *s = json_object_get(bench_json(&v[i], b), "settings");
			add_scalar_names(names, s);
			add_scalar_names(names, json_object_get(s, "parameters"));
			add_scalar_names(names, json_object_get(s, "job_options"));
			add_scalar_names(names, json_object_get(s, "global_options"));
		}
		for (size_t f = 0; f < sizeof facts / sizeof facts[0]; f++)
			if (plain_scalar(naive_fact(&v[i], facts[f])))
				add_name(names, facts[f]);
	}
	size_t want = 0, n = 0;
	const char *k;
	json_t *x;
	json_object_foreach(names, k, x) {
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
	json_object_foreach(names, k, x) {
		FUZZ_ASSERT(strstr(list, k) != NULL);
		/* every key named resolves somewhere: a refusal never names a key it refuses */
		if (!keys_known(in, nin, k))
			fprintf(stderr, "keys_list names \"%.100s\", which no bench has\n", k);
		FUZZ_ASSERT(keys_known(in, nin, k));
	}
	free(list);
	json_decref(names);
}

/* A bench passes the filters: its value's text (or the sweep's spelling) matches each; a
 * bench without the key has the text "". */
static bool passes(const struct view *v, const struct ct_input *in, size_t k, const struct ct_filter *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++) {
		bool of_run;
		json_t *x = naive_value(v, k, f[i].key, &of_run);
		char *text = json_is_real(x) ? key_value(in, in->r->benches[k], f[i].key) : naive_text(x);
		char *spelled = naive_spelling(v, k, f[i].key);
		bool match = fnmatch(f[i].pattern, text ? text : "", 0) == 0 ||
			     (spelled && fnmatch(f[i].pattern, spelled, 0) == 0);
		json_decref(x);
		free(text);
		free(spelled);
		if (match == (bool)f[i].negate)
			return false;
	}
	return true;
}

/* One bench that passes the filters, with its key's value. */
struct passed {
	size_t run, k;
	json_t *x;
	const char *name;
};

static void check_table(const struct view *v, const struct ct_input *in, size_t nin, const char *key, bool as_row,
			const struct ct_filter *f, size_t nf)
{
	bool by_name = as_row && strcmp(key, "name") == 0;
	struct passed p[MAX_RUNS * MAX_BENCHES];
	size_t np = 0;
	bool known = false, filters_known = true;
	for (size_t i = 0; i < nin; i++)
		for (size_t k = 0; k < in[i].r->nbenches; k++) {
			bool of_run;
			json_t *x = naive_value(&v[i], k, key, &of_run);
			known |= x != NULL;
			if (passes(&v[i], &in[i], k, f, nf))
				p[np++] = (struct passed){ i, k, x, in[i].r->benches[k]->name };
			else
				json_decref(x);
		}
	for (size_t j = 0; j < nf; j++) {
		bool any = false;
		for (size_t i = 0; i < nin && !any; i++)
			for (size_t k = 0; k < in[i].r->nbenches && !any; k++) {
				bool of_run;
				json_t *y = naive_value(&v[i], k, f[j].key, &of_run);
				any = y != NULL;
				json_decref(y);
			}
		filters_known &= any;
	}
	/* distinct values (or names and places) and, for rows by a key, two of one run in a cell */
	size_t distinct = 0, runs_with = 0;
	bool undecided = false, pooled = false;
	for (size_t a = 0; a < np; a++) {
		bool first = true, first_of_run = true;
		size_t nth = 1; /* the a-th's place among its run's passing benches of its name */
		for (size_t b = 0; b < a; b++) {
			first_of_run &= p[b].run != p[a].run;
			if (by_name) {
				if (p[b].run == p[a].run && strcmp(p[b].name, p[a].name) == 0)
					nth++;
				continue;
			}
			int same = naive_same(p[a].x, p[b].x);
			undecided |= same < 0;
			first &= same != 1;
			pooled |= as_row && same == 1 && p[b].run == p[a].run;
			undecided |= as_row && same < 0 && p[b].run == p[a].run;
		}
		if (by_name) { /* a new row when no other run had this name as often */
			size_t most = 0;
			for (size_t b = 0; b < a; b++)
				if (strcmp(p[b].name, p[a].name) == 0 && p[b].run != p[a].run) {
					size_t c = 0;
					for (size_t d = 0; d < a; d++)
						c += p[d].run == p[b].run && strcmp(p[d].name, p[a].name) == 0;
					most = c > most ? c : most;
				}
			first = nth > most;
		}
		distinct += first;
		runs_with += first_of_run;
	}
	bool refused = !known || !filters_known || np == 0 || pooled;

	struct ct_opts o = { .filters = f, .nfilters = nf };
	if (as_row)
		o.row_key = key;
	else
		o.col_key = key;
	struct ct_result res;
	char err[512];
	int rc = ct_build(in, nin, &o, &res, err, sizeof err);
	if (!undecided || refused) {
		if ((rc != 0) != refused)
			fprintf(stderr, "ct_build %s where the walk says %s: %s\n", rc ? "refused" : "built",
				refused ? "refuse" : "build", rc ? err : "");
		FUZZ_ASSERT((rc != 0) == refused);
	}
	if (rc == 0) {
		if (!undecided && as_row) {
			FUZZ_ASSERT(res.ntables == 1 && res.tables[0]->nrows == distinct);
			FUZZ_ASSERT(res.ncols == runs_with);
		} else if (!undecided) {
			if (res.ncols != distinct)
				fprintf(stderr, "%zu columns for %zu values\n", res.ncols, distinct);
			FUZZ_ASSERT(res.ncols == distinct);
		}
		ct_free(&res);
	} else {
		fuzz_check_message(err);
	}
	for (size_t a = 0; a < np; a++)
		json_decref(p[a].x);
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

/* ---- the oracle's walk of what changed ----------------------------------------------------- */

struct part {
	enum keypath_kind kind;
	char *name;
	size_t index;
};

/* A key's parts, read back (each must read). */
static size_t key_parts(const char *key, struct part **out)
{
	struct keypath_iter it;
	enum keypath_kind kind;
	size_t n = 0;
	*out = NULL;
	keypath_iter_init(&it, key);
	while ((kind = keypath_next(&it)) != KEYPATH_END) {
		FUZZ_ASSERT(kind != KEYPATH_BAD);
		*out = realloc(*out, (n + 1) * sizeof **out);
		if (!*out)
			abort();
		(*out)[n++] = (struct part){ kind, strdup(it.name.buf), it.index };
	}
	keypath_iter_free(&it);
	return n;
}

static void free_parts(struct part *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].name);
	free(p);
}

/* How many items of arr are named name. */
static size_t named(const json_t *arr, const char *name)
{
	size_t i, n = 0;
	json_t *item;
	json_array_foreach(arr, i, item) {
		const char *other = json_string_value(json_object_get(item, "name"));
		n += other && strcmp(other, name) == 0;
	}
	return n;
}

/* The inventory's node at parts[0..n): members by name, items by a name no other item has, or
 * by their place when they have none or share it; NULL when there is none. */
static json_t *walk(json_t *node, const struct part *parts, size_t n)
{
	for (size_t i = 0; i < n && node; i++) {
		const struct part *p = &parts[i];
		if (p->kind == KEYPATH_MEMBER) {
			node = json_is_object(node) ? json_object_get(node, p->name) : NULL;
		} else if (p->kind == KEYPATH_ITEM) {
			json_t *found = NULL, *item;
			size_t k;
			if (json_is_array(node) && named(node, p->name) == 1)
				json_array_foreach(node, k, item) {
					const char *name = json_string_value(json_object_get(item, "name"));
					if (name && strcmp(name, p->name) == 0)
						found = item;
				}
			node = found;
		} else {
			json_t *item = json_is_array(node) ? json_array_get(node, p->index) : NULL;
			const char *name = json_string_value(json_object_get(item, "name"));
			node = name && named(node, name) == 1 ? NULL : item;
		}
	}
	return node;
}

static bool all_strings(const json_t *arr)
{
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x) if (!json_is_string(x)) return false;
	return true;
}

/* A fact's value as what changed has it: a scalar as it is, a list of texts as its words. */
static bool fact_is(const json_t *node, const json_t *value)
{
	if (json_is_array(node) && all_strings(node)) {
		size_t i, len = 0;
		json_t *x;
		json_array_foreach(node, i, x) len += strlen(json_string_value(x)) + 1;
		char *words = calloc(len + 1, 1);
		if (!words)
			abort();
		json_array_foreach(node, i, x) {
			if (i)
				strcat(words, " ");
			strcat(words, json_string_value(x));
		}
		bool same = json_is_string(value) && strcmp(json_string_value(value), words) == 0;
		free(words);
		return same;
	}
	return json_equal((json_t *)node, (json_t *)value);
}

/* A bench's setting at parts[0..n) as one fact: a name ("bs") or a nest and a name
 * ("job_options", "bs"); a nest that holds an object is no setting itself, a setting of a
 * parameter's name is the parameter's, "paired" is a result. */
static json_t *setting_at(json_t *settings, const struct part *parts, size_t n)
{
	static const char *const nests[] = { "job_options", "global_options", "parameters" };
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(parts[i].kind == KEYPATH_MEMBER);
	FUZZ_ASSERT(n == 1 || n == 2);
	bool nest = false;
	for (size_t i = 0; i < 3; i++)
		nest |= strcmp(parts[0].name, nests[i]) == 0 && json_is_object(json_object_get(settings, nests[i]));
	if (n == 2)
		return nest ? json_object_get(json_object_get(settings, parts[0].name), parts[1].name) : NULL;
	if (nest || strcmp(parts[0].name, "paired") == 0 ||
	    json_object_get(json_object_get(settings, "parameters"), parts[0].name))
		return NULL;
	return json_object_get(settings, parts[0].name);
}

static json_t *or_null(json_t *x)
{
	return x ? x : json_null();
}

/* A settings entry: settings[NAME|I].S... (one bench of a and its pair in b) or settings.S...
 * (a value some bench of each run holds; none: some bench lacks it). */
static void check_setting_entry(json_t *ra, json_t *rb, const struct part *parts, size_t n, json_t *va, json_t *vb)
{
	json_t *ba = json_object_get(ra, "benches"), *bb = json_object_get(rb, "benches");
	FUZZ_ASSERT(n >= 2);
	if (parts[1].kind == KEYPATH_ITEM || parts[1].kind == KEYPATH_INDEX) {
		size_t i;
		const char *name;
		if (parts[1].kind == KEYPATH_ITEM) {
			/* by name: the only bench of a so named */
			FUZZ_ASSERT(named(ba, parts[1].name) == 1);
			i = 0;
			while (strcmp(json_string_value(json_object_get(json_array_get(ba, i), "name")), parts[1].name) != 0)
				i++;
		} else {
			/* by place: a bench whose name another bench of a has */
			i = parts[1].index;
			FUZZ_ASSERT(i < json_array_size(ba));
			FUZZ_ASSERT(named(ba, json_string_value(json_object_get(json_array_get(ba, i), "name"))) > 1);
		}
		name = json_string_value(json_object_get(json_array_get(ba, i), "name"));
		size_t nth = 0, j, k;
		for (k = 0; k < i; k++)
			nth += strcmp(json_string_value(json_object_get(json_array_get(ba, k), "name")), name) == 0;
		for (j = 0; j < json_array_size(bb); j++)
			if (strcmp(json_string_value(json_object_get(json_array_get(bb, j), "name")), name) == 0 && nth-- == 0)
				break;
		FUZZ_ASSERT(j < json_array_size(bb)); /* paired */
		json_t *xa = setting_at(json_object_get(json_array_get(ba, i), "settings"), parts + 2, n - 2);
		json_t *xb = setting_at(json_object_get(json_array_get(bb, j), "settings"), parts + 2, n - 2);
		FUZZ_ASSERT(json_equal(or_null(xa), va) && json_equal(or_null(xb), vb));
		return;
	}
	json_t *sides[2][2] = { { ba, va }, { bb, vb } };
	for (int s = 0; s < 2; s++) {
		bool held = false;
		size_t i;
		json_t *bench;
		json_array_foreach(sides[s][0], i, bench) {
			json_t *x = setting_at(json_object_get(bench, "settings"), parts + 1, n - 1);
			held |= json_equal(or_null(x), sides[s][1]);
		}
		if (!held)
			fprintf(stderr, "a run-wide setting's value is no bench's\n");
		FUZZ_ASSERT(held);
	}
}

static bool is_run_root(const char *name)
{
	static const char *const roots[] = { "settings", "nodemark", "cpus_allowed", "inventory" };
	for (size_t i = 0; i < 4; i++)
		if (strcmp(name, roots[i]) == 0)
			return true;
	return false;
}

/* A machine fact: its walk over each inventory finds what the entry says. */
static void check_fact_entry(json_t *ra, json_t *rb, const char *key, const struct part *parts, size_t n, json_t *va,
			     json_t *vb)
{
	if (strcmp(key, "path.storage") == 0) /* the device under the path, said once: made, not walked */
		return;
	FUZZ_ASSERT(n > 0);
	json_t *wa = walk(json_object_get(ra, "inventory"), parts, n), *wb = walk(json_object_get(rb, "inventory"), parts, n);
	if (!wa && !wb)
		fprintf(stderr, "no inventory has \"%.200s\"\n", key);
	FUZZ_ASSERT(wa || wb);
	FUZZ_ASSERT(wa || json_is_null(va));
	FUZZ_ASSERT(wb || json_is_null(vb));
	bool items = false;
	for (size_t i = 0; i < n; i++)
		items |= parts[i].kind != KEYPATH_MEMBER;
	/* an element only one side has is one line saying what it is (its model, "present"): the
	 * values are the facts' own where both sides have one, or where no item is in the key */
	if (items && (json_is_null(va) || json_is_null(vb)))
		return;
	if (wa && (plain_scalar(wa) || (json_is_array(wa) && all_strings(wa))))
		FUZZ_ASSERT(fact_is(wa, va));
	if (wb && (plain_scalar(wb) || (json_is_array(wb) && all_strings(wb))))
		FUZZ_ASSERT(fact_is(wb, vb));
}

static void check_changes(const struct record *a, const struct record *b, json_t *ra, json_t *rb)
{
	json_t *self = record_changes(a, a);
	FUZZ_ASSERT(json_array_size(self) == 0);
	json_decref(self);

	json_t *c = record_changes(a, b), *e, *keys = json_object();
	size_t i;
	json_array_foreach(c, i, e) {
		const char *key = json_string_value(json_object_get(e, "key"));
		json_t *va = json_object_get(e, "a"), *vb = json_object_get(e, "b");
		FUZZ_ASSERT(key && va && vb);
		FUZZ_ASSERT(json_is_string(json_object_get(e, "what")));
		if (json_object_get(keys, key))
			fprintf(stderr, "two changes at \"%.200s\"\n", key);
		FUZZ_ASSERT(!json_object_get(keys, key));
		json_object_set_new(keys, key, json_true());
		if (json_equal(va, vb))
			fprintf(stderr, "\"%.200s\" changed from a value to itself\n", key);
		FUZZ_ASSERT(!json_equal(va, vb));

		struct part *parts;
		size_t n = key_parts(key, &parts);
		FUZZ_ASSERT(n > 0);
		const char *root = parts[0].kind == KEYPATH_MEMBER ? parts[0].name : "";
		if (strcmp(root, "settings") == 0) {
			check_setting_entry(ra, rb, parts, n, va, vb);
		} else if (strcmp(root, "nodemark") == 0) {
			FUZZ_ASSERT(n == 2 && strcmp(parts[1].name, "version") == 0 && parts[1].kind == KEYPATH_MEMBER);
			FUZZ_ASSERT(json_equal(va, json_object_get(ra, "version")) && json_equal(vb, json_object_get(rb, "version")));
		} else if (strcmp(root, "cpus_allowed") == 0) {
			FUZZ_ASSERT(n == 1);
			FUZZ_ASSERT(json_equal(va, json_object_get(json_object_get(json_object_get(ra, "extra"), "cpus_allowed"), "list")));
			FUZZ_ASSERT(json_equal(vb, json_object_get(json_object_get(json_object_get(rb, "extra"), "cpus_allowed"), "list")));
		} else if (strcmp(root, "inventory") == 0) {
			/* a fact under a member the run's own keys start with */
			FUZZ_ASSERT(n > 1 && parts[1].kind == KEYPATH_MEMBER && is_run_root(parts[1].name));
			check_fact_entry(ra, rb, key, parts + 1, n - 1, va, vb);
		} else {
			check_fact_entry(ra, rb, key, parts, n, va, vb);
		}
		free_parts(parts, n);
	}
	json_decref(keys);
	json_decref(c);
}

/* ---- the input ------------------------------------------------------------------------------- */

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
	const char *version = json_string_value(json_object_get(spec, "version"));
	if (version) {
		free(r->version);
		r->version = strdup(version);
	}
	const char *cpus = json_string_value(json_object_get(spec, "cpus_allowed"));
	if (cpus)
		json_object_set_new(r->extra, "cpus_allowed", json_pack("{s:s,s:i}", "list", cpus, "count", 1));
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
	struct view views[MAX_RUNS];
	char names[MAX_RUNS][8];
	size_t nin = 0, i;
	json_t *spec;
	json_array_foreach(json_object_get(doc, "runs"), i, spec) {
		if (nin == MAX_RUNS)
			break;
		runs[nin] = make_run(spec, nin);
		snprintf(names[nin], sizeof names[nin], "r%zu", nin);
		in[nin] = (struct ct_input){ runs[nin], names[nin] };
		views[nin] = (struct view){ record_to_json(runs[nin]), names[nin] };
		nin++;
	}
	const char *key = json_string_value(json_object_get(doc, "key"));
	if (!key)
		key = "name";

	bool known = false;
	for (size_t x = 0; x < nin; x++)
		for (size_t k = 0; k < runs[x]->nbenches; k++) {
			check_value(&views[x], &in[x], k, key);
			for (size_t y = 0; y <= x; y++)
				for (size_t l = 0; l < runs[y]->nbenches; l++)
					check_apart(&views[x], &in[x], k, &views[y], &in[y], l, key);
			bool of_run;
			json_t *v = naive_value(&views[x], k, key, &of_run);
			known |= v != NULL;
			json_decref(v);
		}
	FUZZ_ASSERT(keys_known(in, nin, key) == known);
	check_list(views, in, nin);

	struct ct_filter filters[MAX_FILTERS];
	size_t nf = 0;
	json_t *fj;
	json_array_foreach(json_object_get(doc, "filters"), i, fj) if (json_is_string(fj) && nf < MAX_FILTERS)
		check_filter(json_string_value(fj), filters, &nf);
	const char *as = json_string_value(json_object_get(doc, "as"));
	check_table(views, in, nin, key, as && strcmp(as, "row") == 0, filters, nf);

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

	if (nin >= 2) {
		check_changes(runs[0], runs[1], views[0].rec, views[1].rec);
		check_changes(runs[1], runs[0], views[1].rec, views[0].rec);
	}

	for (size_t f = 0; f < nf; f++)
		free((char *)filters[f].key);
	for (size_t x = 0; x < nin; x++) {
		json_decref(views[x].rec);
		record_free(runs[x]);
	}
	json_decref(doc);
	return 0;
}
