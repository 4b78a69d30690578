/* What changed between two runs: the machine (inventory_diff) and the benchmark's settings. */
#include "export/changes.h"
#include "inventory/diff.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(json_t *changes, const char *key, const char *what, json_t *a, json_t *b)
{
	json_array_append_new(changes, json_pack("{s:s,s:s,s:O,s:O}", "key", key, "what", what, "a",
						 a ? a : json_null(), "b", b ? b : json_null()));
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

static int same_setting(const json_t *a, const json_t *b)
{
	if (json_equal(a, b))
		return 1;
	json_t *x = without_workdir_names(a), *y = without_workdir_names(b);
	int same = json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

static void settings_changes(json_t *changes, const struct bench *x, const struct bench *y)
{
	char key[512], what[512];
	const char *k;
	json_t *va, *vb;
	json_object_foreach(x->settings, k, va) {
		vb = json_object_get(y->settings, k);
		if (!vb || !same_setting(va, vb)) {
			snprintf(key, sizeof key, "settings[%s].%s", x->name, k);
			snprintf(what, sizeof what, "%s: %s", x->name, k);
			add(changes, key, what, va, vb);
		}
	}
	json_object_foreach(y->settings, k, vb)
		if (!json_object_get(x->settings, k)) {
			snprintf(key, sizeof key, "settings[%s].%s", x->name, k);
			snprintf(what, sizeof what, "%s: %s", x->name, k);
			add(changes, key, what, NULL, vb);
		}
}

json_t *record_changes(const struct record *a, const struct record *b)
{
	json_t *changes = inventory_diff(a->inventory, b->inventory);
	if (a->version && b->version && strcmp(a->version, b->version) != 0) {
		json_t *va = json_string(a->version), *vb = json_string(b->version);
		add(changes, "nodemark.version", "nodemark version", va, vb);
		json_decref(va);
		json_decref(vb);
	}
	for (size_t i = 0; i < a->nbenches; i++) {
		const struct bench *y = record_find_bench(b, a->benches[i]->name);
		if (y)
			settings_changes(changes, a->benches[i], y);
	}
	return changes;
}

static void value_text(struct strbuf *sb, const json_t *v)
{
	if (!v || json_is_null(v)) {
		sb_puts(sb, "(none)");
	} else if (json_is_string(v)) {
		sb_puts(sb, *json_string_value(v) ? json_string_value(v) : "\"\"");
	} else {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		sb_puts(sb, s ? s : "?");
		free(s);
	}
}

char *changes_text(const json_t *changes)
{
	struct strbuf sb;
	sb_init(&sb);
	size_t i, width = 0;
	json_t *c;
	json_array_foreach(changes, i, c) {
		size_t n = strlen(json_string_value(json_object_get(c, "what")));
		if (n > width && n < 48)
			width = n;
	}
	json_array_foreach(changes, i, c) {
		sb_printf(&sb, "  %-*s  ", (int)width, json_string_value(json_object_get(c, "what")));
		value_text(&sb, json_object_get(c, "a"));
		sb_puts(&sb, " -> ");
		value_text(&sb, json_object_get(c, "b"));
		sb_puts(&sb, "\n");
	}
	if (!json_array_size(changes))
		sb_puts(&sb, "  (none)\n");
	return sb_detach(&sb);
}

void changes_write_text(FILE *f, const struct record *a, const char *name_a, const struct record *b,
			const char *name_b)
{
	if (!a->inventory || !b->inventory)
		return;
	json_t *changes = record_changes(a, b);
	char *text = changes_text(changes);
	fprintf(f, "\nWhat changed from %s to %s\n%s", name_a, name_b, text);
	free(text);
	json_decref(changes);
}
