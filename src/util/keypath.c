/* Flattened keys: names quoted where they would read as another path (util/keypath.h). */
#include "util/keypath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static void quoted(struct strbuf *sb, const char *name)
{
	sb_add(sb, "\"", 1);
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_add(sb, "\\", 1);
		sb_add(sb, p, 1);
	}
	sb_add(sb, "\"", 1);
}

void keypath_member(struct strbuf *sb, const char *name)
{
	if (sb->len)
		sb_add(sb, ".", 1);
	if (!*name || strpbrk(name, ".[]\""))
		quoted(sb, name);
	else
		sb_puts(sb, name);
}

void keypath_item(struct strbuf *sb, const char *name)
{
	sb_add(sb, "[", 1);
	if (!*name || all_digits(name) || strpbrk(name, "[]\""))
		quoted(sb, name);
	else
		sb_puts(sb, name);
	sb_add(sb, "]", 1);
}

void keypath_index(struct strbuf *sb, size_t index)
{
	sb_printf(sb, "[%zu]", index);
}

char *keypath_join_member(const char *key, const char *name)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, key);
	keypath_member(&sb, name);
	return sb_detach(&sb);
}

char *keypath_join_item(const char *key, const char *name)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, key);
	keypath_item(&sb, name);
	return sb_detach(&sb);
}

void keypath_iter_init(struct keypath_iter *it, const char *key)
{
	it->key = it->p = it->start = it->end = key;
	sb_init(&it->name);
	it->index = 0;
}

void keypath_iter_free(struct keypath_iter *it)
{
	sb_free(&it->name);
}

/* A quoted name at p (on its '"'): its text into name; past the closing '"', or NULL. */
static const char *read_quoted(const char *p, struct strbuf *name)
{
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		sb_add(name, p, 1);
	}
	return *p == '"' ? p + 1 : NULL;
}

enum keypath_kind keypath_next(struct keypath_iter *it)
{
	const char *p = it->p;
	sb_reset(&it->name);
	it->start = p;
	if (!*p)
		return KEYPATH_END;
	if (*p == '[') {
		enum keypath_kind kind = KEYPATH_ITEM;
		p++;
		if (*p == '"') {
			p = read_quoted(p, &it->name);
		} else {
			size_t n = strcspn(p, "]");
			sb_add(&it->name, p, n);
			p += n;
			if (all_digits(it->name.buf)) {
				kind = KEYPATH_INDEX;
				it->index = strtoul(it->name.buf, NULL, 10);
			}
		}
		if (!p || *p != ']')
			return KEYPATH_BAD;
		it->p = it->end = p + 1;
		return kind;
	}
	if (p != it->key) {
		if (*p != '.')
			return KEYPATH_BAD;
		p++;
	}
	if (*p == '"') {
		p = read_quoted(p, &it->name);
		if (!p || (*p && *p != '.' && *p != '['))
			return KEYPATH_BAD;
	} else {
		size_t n = strcspn(p, ".[");
		sb_add(&it->name, p, n);
		p += n;
	}
	it->p = it->end = p;
	return KEYPATH_MEMBER;
}
