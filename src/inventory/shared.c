/* Which of several targets share a disk: each target's physical disks (the leaves of its
 * stack), or, without a block device (tmpfs, ZFS without its tools), its mount. */
#include "inventory/inventory.h"
#include "inventory/stack.h"
#include "inventory/sysfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SHARED_MAX 64

/* What a target lies on: its physical disks, or "mount:<point>" when it has none. */
static json_t *places(const char *root, const char *path)
{
	json_t *p = stack_collect(root, path, 0), *out = json_array();
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(p, "physical"), i, d)
		json_array_append(out, d);
	const char *mp = json_string_value(json_object_get(p, "mountpoint"));
	if (!json_array_size(out) && mp) {
		char key[300];
		snprintf(key, sizeof key, "the mount %s", mp);
		json_array_append_new(out, json_string(key));
	}
	json_decref(p);
	return out;
}

/* The first place both lie on, or NULL. */
static const char *common(const json_t *a, const json_t *b)
{
	size_t i, j;
	json_t *x, *y;
	json_array_foreach(a, i, x)
		json_array_foreach(b, j, y) if (json_equal(x, y)) return json_string_value(x);
	return NULL;
}

static void append(char *out, size_t len, size_t *used, const char *a, const char *b)
{
	if (*used + 1 >= len)
		return;
	int n = snprintf(out + *used, len - *used, "%s%s", a, b);
	*used = n < 0 ? *used : *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

int inventory_shared_disks(const char *sysroot, const char *const *paths, size_t n, char *out, size_t len)
{
	const char *root = sysfs_root(sysroot);
	json_t *on[SHARED_MAX];
	int group[SHARED_MAX], groups = 0;
	size_t used = 0;
	if (len)
		out[0] = '\0';
	if (n > SHARED_MAX)
		n = SHARED_MAX;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		/* a block device is its own disk; the stack under a path is that of a file system */
		int blk = !*root && stat(paths[i], &st) == 0 && S_ISBLK(st.st_mode);
		on[i] = blk ? json_array() : places(root, paths[i]);
		group[i] = -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (group[i] >= 0)
			continue;
		const char *where = NULL;
		for (size_t k = i + 1; k < n; k++) {
			const char *c = group[k] < 0 ? common(on[i], on[k]) : NULL;
			if (!c)
				continue;
			if (!where) {
				where = c;
				group[i] = groups;
				append(out, len, &used, groups ? "; " : "", paths[i]);
			}
			group[k] = groups;
			append(out, len, &used, " and ", paths[k]);
		}
		if (where) {
			append(out, len, &used, " are on ", where);
			groups++;
		}
	}
	for (size_t i = 0; i < n; i++)
		json_decref(on[i]);
	return groups;
}
