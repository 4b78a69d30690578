/* libFuzzer harness: `info --diff`'s reading of two inventories (src/inventory/diff.c:
 * inventory_flatten, inventory_diff). Saved runs' inventories can come from imported records,
 * so they are anyone's JSON.
 *
 * Input: a first line with a number that picks a fact, then a JSON document (the inventory a).
 * b is a with that one fact changed (a text gets a '~', a number +1, a boolean flipped, null
 * becomes 1, a list of words gets a '~' on its first word).
 *
 * Oracles, besides memory safety:
 *  - an inventory against itself differs nowhere;
 *  - against b exactly one change is reported, under the fact's whole key, with a's and b's
 *    values, unless the fact is one diff leaves out (noise, deeper than it looks) and then none;
 *  - no two facts share a key (a name with a '.', '[', ']' or '"' is quoted, an item named "1"
 *    is ["1"], not the second item's [1]: util/keypath.h; two items of one name in a list are
 *    each by their place, [0] and [1]). */
#include "fuzz_util.h"
#include "inventory/diff.h"
#include "util/keypath.h"

#include <limits.h>
#include <stdbool.h>

#define MAX_DEPTH 12 /* diff.c's DIFF_MAX_DEPTH */

struct leaf {
	char *key;     /* the flat key */
	json_t *at;    /* the value (in a) */
	json_t *parent;
	const char *name;  /* in parent (object), or NULL with index */
	size_t index;
	bool kept;     /* diff compares it (no noise on its way, not too deep) */
};

struct walk {
	struct leaf *v;
	size_t n, cap;
};

static bool all_strings(const json_t *arr)
{
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x) if (!json_is_string(x)) return false;
	return true;
}

static char *join(const char *key, const char *open, const char *name, const char *close)
{
	size_t n = strlen(key) + strlen(name) + 3;
	char *k = malloc(n);
	if (!k)
		abort();
	snprintf(k, n, "%s%s%s%s", key, *key || *open != '.' ? open : "", name, close);
	return k;
}

/* How many items of arr are named name. */
static size_t named(const json_t *arr, const char *name)
{
	size_t i, n = 0;
	json_t *c;
	json_array_foreach(arr, i, c) {
		const char *nm = json_string_value(json_object_get(c, "name"));
		n += nm && strcmp(nm, name) == 0;
	}
	return n;
}

/* Every fact of v, as diff.c's flatten walks: objects by name, arrays of words whole, other
 * arrays by their items' "name" (when no other item has it) or index. kept: every step on the
 * way passes the noise rule. */
static void walk(struct walk *w, const char *key, const char *leafname, json_t *v, json_t *parent, const char *name,
		 size_t index, int depth, bool kept)
{
	kept = kept && depth <= MAX_DEPTH && !inventory_diff_is_noise(key, leafname);
	if (json_is_object(v)) {
		const char *k;
		json_t *c;
		json_object_foreach(v, k, c) {
			char *ck = keypath_join_member(key, k);
			walk(w, ck, k, c, v, k, 0, depth + 1, kept);
			free(ck);
		}
		return;
	}
	if (json_is_array(v) && !all_strings(v)) {
		size_t i;
		json_t *c;
		json_array_foreach(v, i, c) {
			const char *nm = json_string_value(json_object_get(c, "name"));
			struct strbuf ck;
			sb_init(&ck);
			sb_puts(&ck, key);
			if (nm && named(v, nm) == 1)
				keypath_item(&ck, nm);
			else
				keypath_index(&ck, i);
			walk(w, ck.buf, leafname, c, v, NULL, i, depth + 1, kept);
			sb_free(&ck);
		}
		return;
	}
	if (!*key)
		return;
	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		w->v = realloc(w->v, w->cap * sizeof *w->v);
	}
	w->v[w->n++] = (struct leaf){ strdup(key), v, parent, name, index, kept };
}

/* The changed value of a fact (a new reference). */
static json_t *changed(json_t *v)
{
	if (json_is_string(v)) {
		char *s = join(json_string_value(v), "", "~", "");
		json_t *r = json_string(s);
		free(s);
		return r;
	}
	if (json_is_integer(v)) {
		json_int_t x = json_integer_value(v);
		return json_integer(x == LLONG_MAX ? x - 1 : x + 1);
	}
	if (json_is_real(v)) {
		double x = json_real_value(v), y = x + 1;
		return json_real(y != x ? y : -x != x ? -x : 1);
	}
	if (json_is_boolean(v))
		return json_boolean(!json_is_true(v));
	if (json_is_null(v))
		return json_integer(1);
	/* a list of words: the first word changed, or one word where there were none */
	json_t *r = json_deep_copy(v);
	if (json_array_size(r) == 0) {
		json_array_append_new(r, json_string("~"));
	} else {
		json_t *first = changed(json_array_get(r, 0));
		json_array_set_new(r, 0, first);
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	if (!nl)
		return 0;
	char *sel = fuzz_cstring(data, (size_t)(nl - (const char *)data));
	size_t pick = strtoul(sel, NULL, 10);
	free(sel);
	const char *doc = nl + 1;
	size_t len = size - (size_t)(doc - (const char *)data);
	json_t *a = json_loadb(doc, len, JSON_DECODE_ANY, NULL);
	if (!a)
		return 0;

	json_t *self = inventory_diff(a, a);
	FUZZ_ASSERT(json_is_array(self) && json_array_size(self) == 0);
	json_decref(self);

	struct walk w = { 0 };
	walk(&w, "", "", a, NULL, NULL, 0, 0, true);
	if (w.n) {
		struct leaf *l = &w.v[pick % w.n];
		bool shared = false;
		for (size_t i = 0; i < w.n; i++)
			shared |= &w.v[i] != l && strcmp(w.v[i].key, l->key) == 0;
		if (shared) {
			fprintf(stderr, "key \"%.100s\": two facts\n", l->key);
			FUZZ_ASSERT(!"two facts never share a key");
		}
		/* a key shared with a value that is not a leaf here ("a.b": {} beside a: {b: 1}) */
		json_t *flat = inventory_flatten(a);
		json_t *old = json_object_get(flat, l->key);
		json_t *want_a = l->kept ? old : NULL;
		json_incref(want_a);
		json_decref(flat);

		json_t *b = json_deep_copy(a);
		/* the same place in b: walk b alike, it has the same shape */
		struct walk wb = { 0 };
		walk(&wb, "", "", b, NULL, NULL, 0, 0, true);
		FUZZ_ASSERT(wb.n == w.n);
		struct leaf *lb = &wb.v[pick % w.n];
		json_t *nv = changed(lb->at);
		if (lb->name)
			json_object_set_new(lb->parent, lb->name, nv);
		else if (lb->parent)
			json_array_set_new(lb->parent, lb->index, nv);
		else
			json_decref(nv); /* the document itself is the fact: never one (no key) */

		json_t *d = inventory_diff(a, b);
		FUZZ_ASSERT(json_is_array(d));
		/* an item's "name" is part of the keys under it: changing it renames them all */
		bool renames = lb->name && strcmp(lb->name, "name") == 0;
		if (!shared && !renames && lb->parent) {
			if (!l->kept) {
				FUZZ_ASSERT(json_array_size(d) == 0);
			} else {
				if (json_array_size(d) != 1) {
					fprintf(stderr, "key \"%.100s\": %zu changes\n", l->key, json_array_size(d));
					FUZZ_ASSERT(!"one changed fact is one change");
				}
				json_t *c = json_array_get(d, 0);
				FUZZ_ASSERT(strcmp(json_string_value(json_object_get(c, "key")), l->key) == 0);
				FUZZ_ASSERT(json_equal(json_object_get(c, "a"), want_a));
				json_t *fb = inventory_flatten(b);
				FUZZ_ASSERT(json_equal(json_object_get(c, "b"), json_object_get(fb, l->key)));
				FUZZ_ASSERT(!json_equal(json_object_get(c, "a"), json_object_get(c, "b")));
				json_decref(fb);
			}
		}
		json_decref(d);
		json_decref(want_a);
		for (size_t i = 0; i < wb.n; i++)
			free(wb.v[i].key);
		free(wb.v);
		json_decref(b);
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.v[i].key);
	free(w.v);
	json_decref(a);
	return 0;
}
