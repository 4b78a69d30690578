/* What changed between two runs: the benchmarks' settings, the run's (nodemark's version, the
 * CPUs it was allowed), then the machine (inventory_diff). */
#include "compare/changes.h"
#include "inventory/diff.h"
#include "util/keypath.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(json_t *changes, const char *key, const char *what, json_t *a, json_t *b)
{
	json_array_append_new(changes, json_pack("{s:s,s:s,s:O,s:O}", "key", key, "what", what, "a",
						 a ? a : json_null(), "b", b ? b : json_null()));
}

/* Settings whose numbers carry a unit: named by the key's suffix (runtime_ns), or sizes by
 * name (disk's bs and size, pieces' size and block, hash's block, memory's buffer). */
static const struct {
	const char *suffix, *unit;
} suffix_units[] = { { "_bytes_per_sec", "B/s" }, { "_bytes", "B" }, { "_ns", "ns" }, { "_s", "s" } };
static const char *const size_keys[] = { "bs", "size", "block", "buffer", "bytes" };

static int is_size(const json_t *v)
{
	return !v || (json_is_integer(v) && json_integer_value(v) >= 0);
}

/* The unit of a setting's two values (NULL: none, or not both numbers) and the length of its
 * name without the suffix that says it. */
static const char *setting_unit(const char *name, const json_t *a, const json_t *b, size_t *stem)
{
	size_t n = strlen(name);
	*stem = n;
	if ((a && !json_is_number(a)) || (b && !json_is_number(b)) || (!a && !b))
		return NULL;
	for (size_t i = 0; i < sizeof size_keys / sizeof size_keys[0]; i++)
		if (strcmp(name, size_keys[i]) == 0)
			return is_size(a) && is_size(b) ? "B" : NULL;
	for (size_t i = 0; i < sizeof suffix_units / sizeof suffix_units[0]; i++) {
		size_t k = strlen(suffix_units[i].suffix);
		if (n > k && strcmp(name + n - k, suffix_units[i].suffix) == 0) {
			if (strcmp(suffix_units[i].unit, "B") == 0 && !(is_size(a) && is_size(b)))
				return NULL;
			*stem = n - k;
			return suffix_units[i].unit;
		}
	}
	return NULL;
}

/* A setting's change: with "unit" and "name" (the line's name without the unit's suffix) when
 * its values carry a unit, so a line can say "runtime 200 ms -> 100 ms". */
static void add_setting(json_t *changes, const char *key, const char *prefix, const char *label, json_t *a,
			json_t *b)
{
	char what[1024];
	size_t stem;
	snprintf(what, sizeof what, "%s%s", prefix, label);
	add(changes, key, what, a, b);
	const char *unit = setting_unit(label, a, b, &stem);
	if (!unit)
		return;
	snprintf(what, sizeof what, "%s%.*s", prefix, (int)stem, label);
	json_t *c = json_array_get(changes, json_array_size(changes) - 1);
	json_object_set_new(c, "unit", json_string(unit));
	json_object_set_new(c, "name", json_string(what));
}

/* A copy of v with each run's private directory name ("/.nodemark-1a2b3c4d", a new one every
 * run) written as "/.nodemark-*", so the same target in two runs is the same setting. */
static json_t *without_workdir_names(const json_t *v)
{
	if (json_is_array(v)) {
		json_t *c = json_array(), *e;
		size_t i;
		json_array_foreach(v, i, e)
			json_array_append_new(c, without_workdir_names(e));
		return c;
	}
	if (!json_is_string(v))
		return json_deep_copy(v);
	struct strbuf sb;
	sb_init(&sb);
	const char *p = json_string_value(v), *m;
	while ((m = strstr(p, "/.nodemark-")) != NULL) {
		size_t hex = strspn(m + strlen("/.nodemark-"), "0123456789abcdef");
		sb_printf(&sb, "%.*s/.nodemark-%s", (int)(m - p), p, hex ? "*" : "");
		p = m + strlen("/.nodemark-") + hex;
	}
	sb_puts(&sb, p);
	char *text = sb_detach(&sb);
	json_t *c = json_string(text);
	free(text);
	return c;
}

/* NULL (a setting the benchmark lacks) is the same only as NULL. */
static int same_setting(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return !a && !b;
	if (json_equal(a, b))
		return 1;
	json_t *x = without_workdir_names(a), *y = without_workdir_names(b);
	int same = json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

/* Settings objects whose members are settings of their own: fio's job options and the global
 * options in force for the job, a sweep's or time's parameters. */
static const char *const nested[] = { "job_options", "global_options", "parameters" };

/* A setting's flat key (malloc'd, util/keypath.h's): "bs", or "job_options.bs" under a nested
 * one; a name with a '.' is quoted ("job_options.bs" as one setting's name is
 * `"job_options.bs"`), so it never reads as another nesting. */
static char *setting_key(const char *nest, const char *name)
{
	struct strbuf sb;
	sb_init(&sb);
	if (nest)
		keypath_member(&sb, nest);
	keypath_member(&sb, name);
	return sb_detach(&sb);
}

/* A bench's settings as one flat object: "bs", "job_options.bs", "global_options.direct".
 * "paired" is a result (a turn's paired verdict), not a setting; a setting that holds null (an
 * imported record) is none, so null against none is no change. */
static json_t *flat_settings(const struct bench *b)
{
	json_t *flat = json_object(), *v, *w;
	const char *k, *k2;
	char *key;
	json_object_foreach(b->settings, k, v) {
		int is_nested = 0;
		for (size_t i = 0; i < sizeof nested / sizeof nested[0]; i++)
			is_nested |= strcmp(k, nested[i]) == 0 && json_is_object(v);
		if (strcmp(k, "paired") == 0 || json_is_null(v))
			continue;
		if (!is_nested) {
			key = setting_key(NULL, k);
			json_object_set(flat, key, v);
			free(key);
			continue;
		}
		json_object_foreach(v, k2, w) {
			if (json_is_null(w))
				continue;
			key = setting_key(k, k2);
			json_object_set(flat, key, w);
			free(key);
		}
	}
	/* a sweep's parameter is also its setting (bs: "4k" and 4096): one fact, as the user
	 * spelled it */
	json_object_foreach(json_object_get(b->settings, "parameters"), k2, w) {
		key = setting_key(NULL, k2);
		json_object_del(flat, key);
		free(key);
	}
	return flat;
}

/* A setting's name on its line: a job option or parameter by its own name, fio's global ones
 * as a job file has them. */
static void setting_label(const char *key, char *out, size_t len)
{
	if (strncmp(key, "global_options.", 15) == 0)
		snprintf(out, len, "[global] %s", key + 15);
	else if (strncmp(key, "job_options.", 12) == 0)
		snprintf(out, len, "%s", key + 12);
	else if (strncmp(key, "parameters.", 11) == 0)
		snprintf(out, len, "%s", key + 11);
	else
		snprintf(out, len, "%s", key);
}

/* The benchmark's name as the user wrote it: fio's "NAME (group G, entry E)" without the place. */
static size_t user_name_len(const char *name)
{
	const char *p = strstr(name, " (group ");
	return p && name[strlen(name) - 1] == ')' ? (size_t)(p - name) : strlen(name);
}

static int same_user_name(const char *x, const char *y)
{
	size_t n = user_name_len(x);
	return n == user_name_len(y) && strncmp(x, y, n) == 0;
}

/* Bench i of r on a line: its name as the user wrote it, and " #K" (the K-th of that name)
 * when another bench of r shares it (two fio jobs named x, a test per target of disk --turns),
 * so two lines never read alike. */
static void user_name(const struct record *r, size_t i, char *out, size_t len)
{
	const char *name = r->benches[i]->name;
	size_t nth = 1, shared = 0;
	for (size_t k = 0; k < r->nbenches; k++)
		if (k != i && same_user_name(r->benches[k]->name, name)) {
			shared = 1;
			nth += k < i;
		}
	if (shared)
		snprintf(out, len, "%.*s #%zu", (int)user_name_len(name), name, nth);
	else
		snprintf(out, len, "%.*s", (int)user_name_len(name), name);
}

/* Bench i of r as an item of the change's key: by its name ("settings[randw].bs"), or by its
 * place in r ("settings[3].bs") when another bench of r has the same name, so two benches'
 * changes never share a key (a name of digits is quoted, ["3"], so the place is not a name). */
static void bench_item(struct strbuf *k, const struct record *r, size_t i)
{
	const char *name = r->benches[i]->name;
	for (size_t j = 0; j < r->nbenches; j++)
		if (j != i && strcmp(r->benches[j]->name, name) == 0) {
			keypath_index(k, i);
			return;
		}
	keypath_item(k, name);
}

struct side {
	const struct record *r;
	json_t **flat; /* [r->nbenches] */
};

static void side_init(struct side *s, const struct record *r)
{
	s->r = r;
	s->flat = calloc(r->nbenches ? r->nbenches : 1, sizeof *s->flat);
	if (!s->flat)
		abort();
	for (size_t i = 0; i < r->nbenches; i++)
		s->flat[i] = flat_settings(r->benches[i]);
}

static void side_free(struct side *s)
{
	for (size_t i = 0; i < s->r->nbenches; i++)
		json_decref(s->flat[i]);
	free(s->flat);
}

/* The bench of b paired with a's bench i: the one of the same name, the k-th of that name for
 * a's k-th (an imported record may hold two benches of one name: each is paired with its own,
 * so a run against itself changes nothing); -1 when none. */
static long find_bench(const struct record *a, size_t i, const struct record *b)
{
	const char *name = a->benches[i]->name;
	size_t nth = 0;
	for (size_t k = 0; k < i; k++)
		nth += strcmp(a->benches[k]->name, name) == 0;
	for (size_t j = 0; j < b->nbenches; j++)
		if (strcmp(b->benches[j]->name, name) == 0 && nth-- == 0)
			return (long)j;
	return -1;
}

/* The one value every bench of s that has key holds: 1 with *v set (NULL when none has it),
 * 0 when two benches differ. */
static int run_wide(const struct side *s, const char *key, json_t **v)
{
	*v = NULL;
	for (size_t i = 0; i < s->r->nbenches; i++) {
		json_t *x = json_object_get(s->flat[i], key);
		if (!x)
			continue;
		if (*v && !same_setting(*v, x))
			return 0;
		*v = x;
	}
	return 1;
}

/* The changes of one setting.  Benchmarks of the same name are paired: when every pair that
 * has the key changed it the same way, one entry says so; otherwise one entry per changed
 * pair, named.  No pair has the key (disk names a test after its block size, so --bs 4k and
 * --bs 8k share no test): one entry when each run holds one value for it throughout. */
static void setting_changes(json_t *changes, const struct side *A, const struct side *B, const char *key)
{
	char label[512], prefix[260], name[256];
	struct strbuf k;
	size_t npaired = 0, ndiff = 0, nsame = 0;
	json_t *first_a = NULL, *first_b = NULL;
	for (size_t i = 0; i < A->r->nbenches; i++) {
		long j = find_bench(A->r, i, B->r);
		if (j < 0)
			continue;
		json_t *va = json_object_get(A->flat[i], key), *vb = json_object_get(B->flat[j], key);
		if (!va && !vb)
			continue;
		npaired++;
		if (same_setting(va, vb))
			continue;
		if (!ndiff++) {
			first_a = va;
			first_b = vb;
		}
		if (same_setting(va, first_a) && same_setting(vb, first_b))
			nsame++;
	}
	setting_label(key, label, sizeof label);
	sb_init(&k);
	sb_printf(&k, "settings.%s", key);
	if (ndiff && nsame == ndiff && ndiff == npaired) {
		add_setting(changes, k.buf, "", label, first_a, first_b);
		sb_free(&k);
		return;
	}
	if (ndiff) {
		for (size_t i = 0; i < A->r->nbenches; i++) {
			long j = find_bench(A->r, i, B->r);
			if (j < 0)
				continue;
			json_t *va = json_object_get(A->flat[i], key), *vb = json_object_get(B->flat[j], key);
			if (same_setting(va, vb))
				continue;
			user_name(A->r, i, name, sizeof name);
			sb_reset(&k);
			sb_puts(&k, "settings");
			bench_item(&k, A->r, i);
			sb_printf(&k, ".%s", key);
			snprintf(prefix, sizeof prefix, "%s: ", name);
			add_setting(changes, k.buf, prefix, label, va, vb);
		}
		sb_free(&k);
		return;
	}
	json_t *va, *vb;
	if (!npaired && run_wide(A, key, &va) && run_wide(B, key, &vb) && !same_setting(va, vb) &&
	    A->r->nbenches && B->r->nbenches)
		add_setting(changes, k.buf, "", label, va, vb);
	sb_free(&k);
}

static void settings_changes(json_t *changes, const struct record *a, const struct record *b)
{
	struct side A, B;
	side_init(&A, a);
	side_init(&B, b);
	/* every key once, in the order first met, fio's global options first (they are every job's) */
	json_t *keys = json_object(), *v;
	const char *key;
	for (int pass = 0; pass < 2; pass++)
		for (int s = 0; s < 2; s++) {
			const struct side *x = s ? &B : &A;
			for (size_t i = 0; i < x->r->nbenches; i++)
				json_object_foreach(x->flat[i], key, v)
					if ((strncmp(key, "global_options.", 15) == 0) == !pass &&
					    !json_object_get(keys, key))
						json_object_set_new(keys, key, json_true());
		}
	json_object_foreach(keys, key, v)
		setting_changes(changes, &A, &B, key);
	json_decref(keys);
	side_free(&A);
	side_free(&B);
}

/* The first parts of the run's own keys ("settings.bs", "nodemark.version", "cpus_allowed"), and
 * "inventory" itself: a machine fact under a top-level inventory member of one of these names
 * is keyed under "inventory." ("inventory.settings.bs"), so it never shares a key with the run's
 * fact of that name.  Every other machine fact keeps its key ("os.kernel"), as info --diff has
 * always written it. */
static const char *const run_key_roots[] = { "settings", "nodemark", "cpus_allowed", "inventory" };

static void key_machine_facts_apart(json_t *machine)
{
	size_t i;
	json_t *c;
	json_array_foreach(machine, i, c) {
		const char *key = json_string_value(json_object_get(c, "key"));
		struct keypath_iter it;
		keypath_iter_init(&it, key ? key : "");
		int clash = 0;
		if (keypath_next(&it) == KEYPATH_MEMBER)
			for (size_t r = 0; r < sizeof run_key_roots / sizeof run_key_roots[0]; r++)
				clash |= strcmp(it.name.buf, run_key_roots[r]) == 0;
		keypath_iter_free(&it);
		if (!clash)
			continue;
		struct strbuf k;
		sb_init(&k);
		sb_printf(&k, "inventory.%s", key);
		char what[256];
		inventory_diff_label(k.buf, what, sizeof what);
		json_object_set_new(c, "key", json_string(k.buf));
		json_object_set_new(c, "what", json_string(what));
		sb_free(&k);
	}
}

json_t *record_changes(const struct record *a, const struct record *b)
{
	json_t *changes = json_array();
	settings_changes(changes, a, b);
	if (a->version && b->version && strcmp(a->version, b->version) != 0) {
		json_t *va = json_string(a->version), *vb = json_string(b->version);
		add(changes, "nodemark.version", "nodemark version", va, vb);
		json_decref(va);
		json_decref(vb);
	}
	/* the CPUs the run could use (taskset, a cgroup's cpuset): a run fact, not the machine's; a
	 * record without it (older, imported) says nothing either way */
	json_t *ca = json_object_get(json_object_get(a->extra, "cpus_allowed"), "list");
	json_t *cb = json_object_get(json_object_get(b->extra, "cpus_allowed"), "list");
	if (json_is_string(ca) && json_is_string(cb) && !json_equal(ca, cb))
		add(changes, "cpus_allowed", "CPUs allowed", ca, cb);
	/* a run that skipped the inventory phase says nothing of the machine, not that it changed */
	if (a->inventory && b->inventory) {
		json_t *machine = inventory_diff(a->inventory, b->inventory);
		key_machine_facts_apart(machine);
		json_array_extend(changes, machine);
		json_decref(machine);
	}
	return changes;
}
