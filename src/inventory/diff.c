/* Inventory differences: both sides flattened to "key" -> scalar, then compared key by key. */
#include "inventory/diff.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"
#include "util/keypath.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIFF_MAX_DEPTH 12

/* Noise by the key's parts (read as util/keypath.h writes them, so a quoted name such as
 * "x.children" is one name, not a part "children"): the disk tree repeats what mountinfo and the
 * stack say; a stack's leaves repeat their disk's facts, which storage.devices already has. */
static int parts_noise(const char *key)
{
	static const char *const disk_facts[] = { "vendor", "model", "firmware", "rotational", "write_cache",
						  "discard", "scheduler", "nr_requests", "read_ahead_kb", "logical_block",
						  "physical_block", "pcie", "lba_format", "serial" };
	struct keypath_iter it;
	enum keypath_kind kind = KEYPATH_END;
	int noise = 0, nth = 0, in_stack = 0;
	const char *fact = NULL; /* a disk fact's member just read: noise when nothing but members follow */
	keypath_iter_init(&it, key);
	while (!noise && (kind = keypath_next(&it)) != KEYPATH_END && kind != KEYPATH_BAD) {
		int member = kind == KEYPATH_MEMBER;
		if (fact && member)
			noise = 1;
		fact = NULL;
		if (member && strcmp(it.name.buf, "children") == 0)
			noise = 1;
		if (nth == 0)
			in_stack = member && strcmp(it.name.buf, "path") == 0;
		else if (nth == 1)
			in_stack = in_stack && member && strcmp(it.name.buf, "stack") == 0;
		else if (in_stack && member)
			for (size_t i = 0; i < sizeof disk_facts / sizeof disk_facts[0]; i++)
				if (strcmp(it.name.buf, disk_facts[i]) == 0)
					fact = disk_facts[i];
		nth++;
	}
	keypath_iter_free(&it);
	return noise || (fact && kind == KEYPATH_END);
}

/* Facts that change from run to run without anyone changing a setting, or that only say
 * where a fact came from. */
int inventory_diff_is_noise(const char *key, const char *leaf)
{
	static const char *const leaves[] = { "source", "fs_used", "fs_available", "pool_allocated", "pool_free",
					      "sync_completed", "online_count" };
	static const char *const keys[] = { "summary", "sysroot", "path.path", "path.resolved", "path.recordsize",
					    "path.dataset" };
	size_t n = strlen(leaf);
	if (n > 7 && strcmp(leaf + n - 7, "_source") == 0)
		return 1;
	for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++)
		if (strcmp(leaf, leaves[i]) == 0)
			return 1;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(key, keys[i]) == 0)
			return 1;
	return parts_noise(key);
	return 0;
}

static int all_strings(const json_t *arr)
{
	size_t i;
	json_t *v;
	json_array_foreach(arr, i, v) if (!json_is_string(v)) return 0;
	return 1;
}

/* The names that two or more items of arr have, as members of an object. */
static json_t *shared_names(const json_t *arr)
{
	json_t *seen = json_object(), *shared = json_object(), *item;
	size_t i;
	json_array_foreach(arr, i, item) {
		const char *name = json_string_value(json_object_get(item, "name"));
		if (name && json_object_get(seen, name))
			json_object_set_new(shared, name, json_true());
		else if (name)
			json_object_set_new(seen, name, json_true());
	}
	json_decref(seen);
	return shared;
}

static void flatten(json_t *out, const char *key, const char *leaf, const json_t *v, int depth)
{
	if (depth > DIFF_MAX_DEPTH || inventory_diff_is_noise(key, leaf))
		return;
	if (json_is_object(v)) {
		const char *name;
		json_t *child;
		json_object_foreach((json_t *)v, name, child) {
			char *k = keypath_join_member(key, name);
			flatten(out, k, name, child, depth + 1);
			free(k);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *child;
		if (all_strings(v)) { /* ISA flags, members: one fact, every word of it */
			struct strbuf words;
			sb_init(&words);
			json_array_foreach(v, i, child) {
				if (i)
					sb_add(&words, " ", 1);
				sb_puts(&words, json_string_value(child));
			}
			json_object_set_new(out, key, json_string(words.len ? words.buf : ""));
			sb_free(&words);
			return;
		}
		json_t *shared = shared_names(v);
		json_array_foreach(v, i, child) {
			/* an item by its name, else its index: an item named "1" is ["1"], not [1]; two
			 * items of one name are each by its index, so neither's facts overwrite the other's */
			const char *name = json_string_value(json_object_get(child, "name"));
			if (name && json_object_get(shared, name))
				name = NULL;
			struct strbuf k;
			sb_init(&k);
			sb_puts(&k, key);
			if (name)
				keypath_item(&k, name);
			else
				keypath_index(&k, i);
			flatten(out, k.buf, leaf, child, depth + 1);
			sb_free(&k);
		}
		json_decref(shared);
	} else if (*key) {
		json_object_set(out, key, (json_t *)v);
	}
}

json_t *inventory_flatten(const json_t *inv)
{
	json_t *out = json_object();
	if (inv)
		flatten(out, "", "", inv, 0);
	return out;
}

static void add(json_t *changes, const char *key, json_t *a, json_t *b)
{
	char what[256];
	inventory_diff_label(key, what, sizeof what);
	json_array_append_new(changes, json_pack("{s:s,s:s,s:O,s:O}", "key", key, "what", what, "a",
						 a ? a : json_null(), "b", b ? b : json_null()));
}

/* The facts of the block device under the path: its name, size, transport, rotation, disks,
 * NUMA node, and the stack of layers under it.  Another device is one fact, not one per
 * layer's field. */
static int is_device_fact(const char *key)
{
	static const char *const keys[] = { "path.device", "path.size", "path.transport", "path.rotational",
					    "path.physical", "path.numa_node" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(key, keys[i]) == 0)
			return 1;
	return strncmp(key, "path.stack", 10) == 0 && strchr(".[", key[10]) != NULL;
}

static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* 1 when some fact of flat is prefix itself or lies under it ("storage.devices[sdb]"). */
static int has_prefix(const json_t *flat, const char *prefix)
{
	const char *key;
	json_t *v;
	size_t n = strlen(prefix);
	json_object_foreach((json_t *)flat, key, v)
		if (strncmp(key, prefix, n) == 0 && strchr(".[", key[n]))
			return 1;
	return 0;
}

/* A named element that only one side has ("storage.devices[nvme2n1]": a disk added): the
 * prefix of key that names it, malloc'd and whole (a quoted name's ']' closes nothing); NULL
 * when key lies in no such element. */
static char *one_sided_element(const char *key, const json_t *fa, const json_t *fb)
{
	struct keypath_iter it;
	enum keypath_kind kind;
	char *out = NULL;
	keypath_iter_init(&it, key);
	while (!out && (kind = keypath_next(&it)) != KEYPATH_END && kind != KEYPATH_BAD) {
		if (kind != KEYPATH_ITEM && kind != KEYPATH_INDEX)
			continue;
		char *prefix = strndup(key, (size_t)(it.end - key));
		if (!prefix)
			abort();
		if (has_prefix(fa, prefix) != has_prefix(fb, prefix))
			out = prefix;
		else
			free(prefix);
	}
	keypath_iter_free(&it);
	return out;
}

/* A device of storage.devices ("storage.devices[nvme0n1].firmware"): 1 with its name (as it
 * is, unquoted) in name and the key after its part in *rest (".firmware"). */
static int device_key(const char *key, struct strbuf *name, const char **rest)
{
	struct keypath_iter it;
	keypath_iter_init(&it, key);
	int ok = keypath_next(&it) == KEYPATH_MEMBER && strcmp(it.name.buf, "storage") == 0 &&
		 keypath_next(&it) == KEYPATH_MEMBER && strcmp(it.name.buf, "devices") == 0 &&
		 keypath_next(&it) == KEYPATH_ITEM;
	if (ok) {
		sb_reset(name);
		sb_puts(name, it.name.buf);
		*rest = it.end;
	}
	keypath_iter_free(&it);
	return ok;
}

/* What a one-sided element is: its model, or type, or "present". */
static json_t *element_text(const json_t *flat, const char *prefix)
{
	static const char *const leaves[] = { "model", "type", "name" };
	char k[600];
	if (!has_prefix(flat, prefix))
		return NULL;
	for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
		snprintf(k, sizeof k, "%s.%s", prefix, leaves[i]);
		json_t *v = json_object_get(flat, k);
		if (json_is_string(v))
			return json_incref(v);
	}
	return json_string("present");
}

static json_t *text_or_null(char *s)
{
	json_t *j = s ? json_string(s) : json_null();
	free(s);
	return j;
}

/* One line per fact: the device under the path as one fact when it is another device; a
 * stack field that repeats the path's own (path.stack.size and path.size) once; an element
 * only one side has as one line; the device's own mount facts not again beside the path's. */
static json_t *collapse(json_t *changes, const json_t *a, const json_t *b, const json_t *fa, const json_t *fb)
{
	const json_t *pa = json_object_get(a, "path"), *pb = json_object_get(b, "path");
	const char *da = json_string_value(json_object_get(pa, "device"));
	const char *db = json_string_value(json_object_get(pb, "device"));
	char *sa = inventory_path_storage(pa), *sb = inventory_path_storage(pb);
	int other_device = !same_text(da, db) || !same_text(sa, sb);
	int fs_changed = 0, storage_done = 0;
	json_t *out = json_array(), *c, *seen = json_object();
	struct strbuf dev; /* a storage.devices key's device */
	sb_init(&dev);
	size_t i;
	json_array_foreach(changes, i, c) {
		const char *key = json_string_value(json_object_get(c, "key"));
		fs_changed |= strcmp(key, "path.fstype") == 0 || strcmp(key, "path.mountpoint") == 0;
	}
	json_array_foreach(changes, i, c) {
		const char *key = json_string_value(json_object_get(c, "key"));
		if (is_device_fact(key) && other_device) {
			if (!storage_done++)
				json_array_append_new(out, json_pack("{s:s,s:s,s:o,s:o}", "key", "path.storage", "what",
								     "storage", "a", text_or_null(sa), "b",
								     text_or_null(sb)));
			sa = sb = NULL;
			continue;
		}
		if (strncmp(key, "path.stack.", 11) == 0) {
			struct strbuf t;
			sb_init(&t);
			sb_printf(&t, "path.%s", key + 11);
			json_t *ta = json_object_get(fa, t.buf), *tb = json_object_get(fb, t.buf);
			sb_free(&t);
			if (json_equal(ta, json_object_get(c, "a")) && json_equal(tb, json_object_get(c, "b")))
				continue;
		}
		const char *leaf;
		if (fs_changed && device_key(key, &dev, &leaf)) {
			int ours = same_text(da, dev.buf) || same_text(db, dev.buf);
			if (ours && (strcmp(leaf, ".fstype") == 0 || strcmp(leaf, ".mountpoint") == 0))
				continue;
		}
		char *prefix = one_sided_element(key, fa, fb);
		if (prefix) {
			if (!json_object_get(seen, prefix)) {
				json_object_set_new(seen, prefix, json_true());
				char what[256];
				inventory_diff_label(prefix, what, sizeof what);
				json_t *ea = element_text(fa, prefix), *eb = element_text(fb, prefix);
				json_array_append_new(out, json_pack("{s:s,s:s,s:o,s:o}", "key", prefix, "what", what,
								     "a", ea ? ea : json_null(), "b",
								     eb ? eb : json_null()));
			}
			free(prefix);
			continue;
		}
		json_array_append(out, c);
	}
	free(sa);
	free(sb);
	sb_free(&dev);
	json_decref(seen);
	json_decref(changes);
	return out;
}

json_t *inventory_diff(const json_t *a, const json_t *b)
{
	json_t *fa = inventory_flatten(a), *fb = inventory_flatten(b), *changes = json_array();
	const char *key;
	json_t *va, *vb;
	/* a fact that holds null (an imported record) is the same as none: no change between them */
	json_object_foreach(fa, key, va) {
		vb = json_object_get(fb, key);
		if (vb ? !json_equal(va, vb) : !json_is_null(va))
			add(changes, key, va, vb);
	}
	json_object_foreach(fb, key, vb)
		if (!json_object_get(fa, key) && !json_is_null(vb))
			add(changes, key, NULL, vb);
	changes = collapse(changes, a, b, fa, fb);
	json_decref(fa);
	json_decref(fb);
	return changes;
}

void inventory_diff_label(const char *key, char *out, size_t len)
{
	static const struct { const char *key, *label; } labels[] = {
		{ "os.kernel", "kernel" }, { "os.pretty_name", "OS" }, { "os.version_id", "OS version" },
		{ "os.name", "OS name" }, { "os.cmdline", "kernel command line" },
		{ "os.dmi.bios_version", "BIOS version" }, { "os.clocksource", "clock source" },
		{ "os.virtualization.type", "virtualization" }, { "cpu.model", "CPU" },
		{ "cpu.frequency.governor", "CPU governor" }, { "cpu.frequency.driver", "CPU frequency driver" },
		{ "cpu.frequency.max_mhz", "CPU max frequency" }, { "cpu.smt", "SMT" }, { "cpu.threads", "CPU threads" },
		{ "memory.total", "memory" }, { "memory.dimms.speed_mts", "memory speed (rated)" },
		{ "memory.dimms.configured_mts", "memory speed" }, { "memory.dimms.type", "memory type" },
		{ "memory.dimms.modules", "memory modules" }, { "path.options", "mount options" },
		{ "path.fstype", "file system" }, { "path.mountpoint", "mount point" }, { "path.device", "device" },
		{ "path.fs_block_size", "file system block size" }, { "path.fs_size", "file system size" },
		{ "path.memory_backed", "memory-backed" }, { "path.size", "device size" },
		{ "path.transport", "device transport" }, { "path.rotational", "rotational" },
		{ "path.physical", "disks" }, { "path.numa_node", "device NUMA node" },
	};
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (strcmp(key, labels[i].key) == 0) {
			sysfs_copy(out, len, labels[i].label);
			return;
		}
	if (strncmp(key, "cpu.vulnerabilities.", 20) == 0) {
		snprintf(out, len, "mitigation %s", key + 20);
		return;
	}
	if (strncmp(key, "path.stack.", 11) == 0) {
		snprintf(out, len, "device %s", key + 11);
		return;
	}
	if (strncmp(key, "path.zfs.", 9) == 0) {
		snprintf(out, len, "ZFS %s", key + 9);
		return;
	}
	struct strbuf dev;
	const char *rest;
	sb_init(&dev);
	if (device_key(key, &dev, &rest) && rest[0] == '.')
		snprintf(out, len, "%s %s", dev.buf, rest + 1);
	else
		sysfs_copy(out, len, key);
	sb_free(&dev);
}
