/* util/keypath: flattened keys, names quoted where they would read as another path. */
#include "test.h"
#include "util/keypath.h"

#include <stdlib.h>
#include <string.h>

/* The parts of key as "m:NAME", "i:NAME", "#:INDEX", joined by '|'; "BAD" at an unreadable rest. */
static char *parts(const char *key)
{
	struct strbuf out;
	struct keypath_iter it;
	enum keypath_kind kind;
	sb_init(&out);
	keypath_iter_init(&it, key);
	while ((kind = keypath_next(&it)) != KEYPATH_END) {
		if (out.len)
			sb_puts(&out, "|");
		if (kind == KEYPATH_BAD) {
			sb_puts(&out, "BAD");
			break;
		}
		if (kind == KEYPATH_INDEX)
			sb_printf(&out, "#:%zu", it.index);
		else
			sb_printf(&out, "%s:%s", kind == KEYPATH_MEMBER ? "m" : "i", it.name.buf);
	}
	keypath_iter_free(&it);
	return sb_detach(&out);
}

#define CHECK_PARTS(key, want)                   \
	do {                                     \
		char *p_ = parts(key);           \
		int ok_ = strcmp(p_, want) == 0; \
		if (!ok_)                        \
			fprintf(stderr, "%s -> %s\n", key, p_); \
		free(p_);                        \
		CHECK(ok_);                      \
	} while (0)

TEST(keypath_writes_ordinary_names_as_they_are)
{
	struct strbuf sb;
	sb_init(&sb);
	keypath_member(&sb, "storage");
	keypath_member(&sb, "devices");
	keypath_item(&sb, "nvme0n1");
	keypath_member(&sb, "firmware");
	CHECK_EQ_STR(sb.buf, "storage.devices[nvme0n1].firmware");
	sb_reset(&sb);
	keypath_member(&sb, "zpool");
	keypath_index(&sb, 3);
	keypath_item(&sb, "/srv/pool.img"); /* a '.' in brackets reads as the name it is */
	CHECK_EQ_STR(sb.buf, "zpool[3][/srv/pool.img]");
	sb_free(&sb);
	CHECK_PARTS("storage.devices[nvme0n1].firmware", "m:storage|m:devices|i:nvme0n1|m:firmware");
	CHECK_PARTS("zpool[3][/srv/pool.img]", "m:zpool|#:3|i:/srv/pool.img");
}

/* {"a.b": 1} and {"a": {"b": 1}}; an item named "1" and the second item; quotes inside. */
TEST(keypath_quotes_a_name_that_would_read_as_another_path)
{
	char *k = keypath_join_member("disks", "sda.1");
	char *k2 = keypath_join_member(k, "model");
	CHECK_EQ_STR(k2, "disks.\"sda.1\".model");
	CHECK_PARTS(k2, "m:disks|m:sda.1|m:model");
	free(k);
	free(k2);
	k = keypath_join_member("", "a.b");
	CHECK_EQ_STR(k, "\"a.b\"");
	free(k);
	k = keypath_join_item("x", "1");
	CHECK_EQ_STR(k, "x[\"1\"]");
	CHECK_PARTS(k, "m:x|i:1");
	CHECK_PARTS("x[1]", "m:x|#:1");
	free(k);
	k = keypath_join_member("a", "say \"hi\\\" [0]");
	CHECK_EQ_STR(k, "a.\"say \\\"hi\\\\\\\" [0]\"");
	CHECK_PARTS(k, "m:a|m:say \"hi\\\" [0]");
	free(k);
	k = keypath_join_item("d", "x]y");
	CHECK_EQ_STR(k, "d[\"x]y\"]");
	CHECK_PARTS(k, "m:d|i:x]y");
	free(k);
	k = keypath_join_member("e", "");
	CHECK_EQ_STR(k, "e.\"\"");
	CHECK_PARTS(k, "m:e|m:");
	free(k);
	CHECK_PARTS("a.\"open", "m:a|BAD");
	CHECK_PARTS("a[open", "m:a|BAD");
	CHECK_PARTS("a.\"b\"c", "m:a|BAD");
}
