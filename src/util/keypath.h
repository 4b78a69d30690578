/* Flattened keys of nested JSON: "os.kernel", "storage.devices[nvme0n1].firmware",
 * "settings.job_options.bs".  A part is a member ("kernel", after a '.' but the first) or an
 * item of a list, by its name ("[nvme0n1]") or its index ("[0]").  A name that would read as
 * something else is quoted, with '\' before a '"' or '\' inside: a member name that is empty or
 * holds '.', '[', ']' or '"' ({"a.b": 1} is `"a.b"`, not the `a.b` of {"a": {"b": 1}}), an
 * item's name that is empty, all digits (`["1"]`: the item named 1, not the second) or holds
 * '[', ']' or '"'.  Every other name is written as it is, so ordinary keys read as before.
 * inventory/diff.c (info --diff) and compare/changes.c ("what changed") write their keys so;
 * there, items of a list that share a name are each by its index ("[3]"), so no two share a key. */
#ifndef NM_UTIL_KEYPATH_H
#define NM_UTIL_KEYPATH_H

#include <stddef.h>

#include "util/strbuf.h"

/* Append a member part to the key in sb ('.' + name; no '.' when sb is empty). */
void keypath_member(struct strbuf *sb, const char *name);
/* Append an item of a list by its name ("[name]"), or by its index ("[3]"). */
void keypath_item(struct strbuf *sb, const char *name);
void keypath_index(struct strbuf *sb, size_t index);

/* key with a member or an item appended (malloc'd, whole). */
char *keypath_join_member(const char *key, const char *name);
char *keypath_join_item(const char *key, const char *name);

enum keypath_kind { KEYPATH_END, KEYPATH_MEMBER, KEYPATH_ITEM, KEYPATH_INDEX, KEYPATH_BAD };

/* Reading a key back, part by part:
 *   struct keypath_iter it;
 *   keypath_iter_init(&it, key);
 *   while ((kind = keypath_next(&it)) != KEYPATH_END && kind != KEYPATH_BAD)
 *           ... it.name (the name as it was, unquoted), it.index (KEYPATH_INDEX),
 *               it.start/it.end (the part as written, '.' or brackets included) ...
 *   keypath_iter_free(&it);
 * KEYPATH_BAD: the rest is no key this module wrote (an unclosed quote or bracket). */
struct keypath_iter {
	const char *key, *p, *start, *end;
	struct strbuf name;
	size_t index;
};
void keypath_iter_init(struct keypath_iter *it, const char *key);
enum keypath_kind keypath_next(struct keypath_iter *it);
void keypath_iter_free(struct keypath_iter *it);

#endif
