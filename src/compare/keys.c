#include "compare/keys.h"
#include "util/gofloat.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const builtin[] = { "input", "name", "id", "host", "label", "command", "version" };

/* Inventory facts by a short key: where they are in the inventory. */
static const struct {
	const char *key, *path[3];
} facts[] = {
	{ "kernel", { "os", "kernel" } },
	{ "os", { "os", "pretty_name" } },
	{ "virt", { "os", "virtualization", "type" } },
	{ "cpu", { "cpu", "model" } },
	{ "fs", { "path", "fstype" } },
	{ "device", { "path", "device" } },
	{ "mount", { "path", "mountpoint" } },
};

/* A scalar JSON value as text (malloc'd and whole, so two values never print alike: a real in
 * the shortest digits that read back, not %g's six); NULL for objects, arrays and null. */
static char *scalar(json_t *s)
{
	char buf[64];
	if (json_is_string(s))
		return xstrdup(json_string_value(s));
	if (json_is_integer(s))
		snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(s));
	else if (json_is_real(s))
		go_float(json_real_value(s), buf, sizeof buf);
	else if (json_is_boolean(s))
		snprintf(buf, sizeof buf, "%s", json_is_true(s) ? "true" : "false");
	else
		return NULL;
	return xstrdup(buf);
}

static int is_scalar(json_t *s)
{
	return json_is_string(s) || json_is_number(s) || json_is_boolean(s);
}

static const char *builtin_value(const struct ct_input *in, const struct bench *b, const char *key)
{
	const struct record *r = in->r;
	if (strcmp(key, "input") == 0)
		return in->name;
	if (strcmp(key, "name") == 0)
		return b->name;
	if (strcmp(key, "id") == 0)
		return r->id;
	if (strcmp(key, "host") == 0)
		return r->host;
	if (strcmp(key, "label") == 0)
		return r->label;
	if (strcmp(key, "command") == 0)
		return r->command;
	if (strcmp(key, "version") == 0)
		return r->version;
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

/* A setting of the benchmark (a sweep's parameter, a fio job option) or an inventory fact: the
 * first of them that holds a value (a text, a number, a boolean).  A setting that holds an
 * object or a list is no value to key by, so it hides nothing: keys_list names a key where any
 * of them holds a value, and every key it names finds one. */
static json_t *setting(const struct ct_input *in, const struct bench *b, const char *key)
{
	json_t *const found[] = {
		json_object_get(b->settings, key),
		json_object_get(json_object_get(b->settings, "parameters"), key),
		json_object_get(json_object_get(b->settings, "job_options"), key),
		json_object_get(json_object_get(b->settings, "global_options"), key),
		fact(in->r, key),
	};
	for (size_t i = 0; i < sizeof found / sizeof found[0]; i++)
		if (is_scalar(found[i]))
			return found[i];
	return NULL;
}

char *key_value(const struct ct_input *in, const struct bench *b, const char *key)
{
	const char *v = builtin_value(in, b, key);
	if (!v)
		v = record_tag(in->r, key);
	if (v)
		return xstrdup(v);
	return scalar(setting(in, b, key));
}

char *key_spelling(const struct ct_input *in, const struct bench *b, const char *key)
{
	json_t *p = json_object_get(json_object_get(b->settings, "parameters"), key);
	if (json_is_string(p) && !builtin_value(in, b, key) && !record_tag(in->r, key))
		return xstrdup(json_string_value(p));
	return key_value(in, b, key);
}

int key_number(const struct ct_input *in, const struct bench *b, const char *key, double *v)
{
	if (builtin_value(in, b, key) || record_tag(in->r, key))
		return 0;
	json_t *s = setting(in, b, key);
	if (!json_is_number(s))
		return 0;
	*v = json_number_value(s);
	return 1;
}

int keys_known(const struct ct_input *in, size_t nin, const char *key)
{
	for (size_t i = 0; i < nin; i++)
		for (size_t k = 0; k < in[i].r->nbenches; k++) {
			char *v = key_value(&in[i], in[i].r->benches[k], key);
			free(v);
			if (v)
				return 1;
		}
	return 0;
}

/* Each key once, in the order first seen: seen holds the keys listed (a key is compared
 * whole, so "b" is listed after a setting named "a, b"). */
static void add_key(struct strbuf *sb, json_t *seen, const char *key)
{
	if (!*key || json_object_get(seen, key)) /* a setting named "" (an imported record): nothing to list */
		return;
	json_object_set_new(seen, key, json_true());
	if (sb->len)
		sb_add(sb, ", ", 2);
	sb_puts(sb, key);
}

static void add_scalars(struct strbuf *sb, json_t *seen, json_t *obj)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		if (is_scalar(v))
			add_key(sb, seen, k);
	}
}

void keys_list(const struct ct_input *in, size_t nin, char *buf, size_t len)
{
	struct strbuf sb;
	json_t *seen = json_object();
	sb_init(&sb);
	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
		if (keys_known(in, nin, builtin[i])) /* no run labelled: label is no key here */
			add_key(&sb, seen, builtin[i]);
	for (size_t i = 0; i < nin; i++) {
		const struct record *r = in[i].r;
		if (!r->nbenches) /* no benchmark to have them: naming them would offer keys no one has */
			continue;
		for (size_t t = 0; t < r->ntags; t++)
			add_key(&sb, seen, r->tag_keys[t]);
		for (size_t k = 0; k < r->nbenches; k++) {
			json_t *s = r->benches[k]->settings;
			add_scalars(&sb, seen, s);
			add_scalars(&sb, seen, json_object_get(s, "parameters"));
			add_scalars(&sb, seen, json_object_get(s, "job_options"));
			add_scalars(&sb, seen, json_object_get(s, "global_options"));
		}
		for (size_t f = 0; f < sizeof facts / sizeof facts[0]; f++)
			if (is_scalar(fact(r, facts[f].key)))
				add_key(&sb, seen, facts[f].key);
	}
	json_decref(seen);
	const char *all = sb.len ? sb.buf : "";
	if (strlen(all) < len)
		snprintf(buf, len, "%s", all);
	else
		snprintf(buf, len, "%.*s...", (int)(len > 4 ? len - 4 : 0), all);
	sb_free(&sb);
}

int key_filter_parse(const char *expr, struct ct_filter *f)
{
	const char *eq = strchr(expr, '=');
	if (!eq || eq == expr || (eq == expr + 1 && expr[0] == '!'))
		return -1;
	int neg = eq[-1] == '!';
	*f = (struct ct_filter){ xstrndup(expr, (size_t)(eq - expr) - (size_t)neg), eq + 1, neg };
	return 0;
}

char *key_row_name(const struct bench *b, const char *by)
{
	json_t *params = json_object_get(b->settings, "parameters");
	const char *tmpl = json_string_value(json_object_get(b->settings, "template"));
	if (!by || !tmpl || !json_object_get(params, by))
		return xstrdup(b->name);
	/* the template with every parameter but the projected one substituted */
	struct strbuf sb;
	sb_init(&sb);
	for (const char *p = tmpl; *p;) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;
		if (close) {
			char *name = xstrndup(p + 1, (size_t)(close - p - 1)); /* whole: a long name is a name */
			json_t *v = json_object_get(params, name);
			int other = v && strcmp(name, by) != 0 && json_is_string(v);
			free(name);
			if (other) {
				sb_add(&sb, json_string_value(v), strlen(json_string_value(v)));
				p = close + 1;
				continue;
			}
		}
		sb_add(&sb, p, 1);
		p++;
	}
	char *row = xstrdup(sb.len ? sb.buf : "");
	sb_free(&sb);
	return row;
}
