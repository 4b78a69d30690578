/* The disk tree: /sys/block/<disk>/<part> for partitions, /sys/class/block/<dev>/holders for
 * what is built on a device, mountinfo's major:minor for what is mounted from it. */
#include "inventory/tree.h"
#include "inventory/mount.h"
#include "inventory/parsers.h"
#include "inventory/sysfs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREE_MAX_DEPTH 6

/* The first (shortest) mount of major:minor in our view, and its fstype; 0 or -1. */
static int mount_of_dev(const char *root, const char *dev, struct mountinfo_entry *out)
{
	unsigned major, minor;
	char path[PATH_MAX];
	if (sscanf(dev, "%u:%u", &major, &minor) != 2 || sysfs_path(path, sizeof path, root, "/proc/self/mountinfo") < 0)
		return -1;
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	int found = 0;
	struct mountinfo_entry e;
	for (int lines = 0; getline(&line, &cap, f) > 0 && lines < 100000; lines++)
		if (parse_mountinfo_line(line, &e) == 0 && e.major == major && e.minor == minor &&
		    (!found || strlen(e.mountpoint) < strlen(out->mountpoint))) {
			*out = e;
			found = 1;
		}
	free(line);
	fclose(f);
	return found ? 0 : -1;
}

static const char *holder_type(const char *root, const char *name)
{
	char uuid[256] = "";
	if (sysfs_exists(root, "/sys/class/block/%s/md", name))
		return "md";
	if (sysfs_str(root, uuid, sizeof uuid, "/sys/class/block/%s/dm/uuid", name) == 0) {
		if (strncmp(uuid, "CRYPT-", 6) == 0)
			return "crypt";
		if (strncmp(uuid, "LVM-", 4) == 0)
			return "lvm";
		return "dm";
	}
	return "disk";
}

static json_t *tree_node(const char *root, const char *name, const char *type, int depth);

/* The holders of name as nodes; what a member is, named as blkid names it. */
static void add_holders(const char *root, const char *name, json_t *node, json_t *children, int depth)
{
	char **holders = NULL;
	int n = sysfs_list(root, &holders, "/sys/class/block/%s/holders", name);
	for (int i = 0; i < n; i++) {
		const char *t = holder_type(root, holders[i]);
		if (!json_object_get(node, "fstype")) {
			const char *member = strcmp(t, "md") == 0 ? "linux_raid_member" : strcmp(t, "crypt") == 0
					     ? "crypto_LUKS" : strcmp(t, "lvm") == 0 ? "LVM2_member" : NULL;
			if (member)
				json_object_set_new(node, "fstype", json_string(member));
		}
		json_array_append_new(children, tree_node(root, holders[i], t, depth + 1));
	}
	sysfs_list_free(holders, n);
}

/* What udev's probe (blkid) found on device dev ("major:minor"): E:ID_FS_TYPE= in
 * /run/udev/data/bMAJ:MIN, as lsblk reads it.  That names what is on a device nothing mounts
 * by its number: a ZFS pool's member (zfs_member), swap, an unmounted file system.  0 or -1. */
static int udev_fs_type(const char *root, const char *dev, char *out, size_t len)
{
	char buf[16384];
	if (sysfs_read(root, buf, sizeof buf, "/run/udev/data/b%s", dev) < 0)
		return -1;
	for (char *save, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (strncmp(l, "E:ID_FS_TYPE=", 13) == 0) {
			snprintf(out, len, "%s", l + 13);
			sysfs_clean(out);
			return *out ? 0 : -1;
		}
	return -1;
}

static json_t *tree_node(const char *root, const char *name, const char *type, int depth)
{
	json_t *node = json_pack("{s:s,s:s}", "name", name, "type", type);
	long long sectors;
	char buf[128], dev[32] = "";
	if (sysfs_long(root, &sectors, "/sys/class/block/%s/size", name) == 0 && sectors >= 0)
		json_object_set_new(node, "size", json_integer(sectors * 512));
	if (strcmp(type, "crypt") == 0 || strcmp(type, "lvm") == 0 || strcmp(type, "dm") == 0) {
		if (sysfs_str(root, buf, sizeof buf, "/sys/class/block/%s/dm/name", name) == 0 && buf[0])
			json_object_set_new(node, "dm_name", json_string(buf));
	}
	/* lsblk's TYPE for an md device is its level: raid1, raid0 */
	if (strcmp(type, "md") == 0 && sysfs_str(root, buf, sizeof buf, "/sys/class/block/%s/md/level", name) == 0 && buf[0])
		json_object_set_new(node, "level", json_string(buf));
	struct mountinfo_entry m;
	if (sysfs_str(root, dev, sizeof dev, "/sys/class/block/%s/dev", name) == 0 && mount_of_dev(root, dev, &m) == 0) {
		json_object_set_new(node, "fstype", json_string(m.fstype));
		json_object_set_new(node, "mountpoint", json_string(m.mountpoint));
	} else if (dev[0] && udev_fs_type(root, dev, buf, sizeof buf) == 0) {
		json_object_set_new(node, "fstype", json_string(buf));
	}
	json_t *children = json_array();
	if (depth < TREE_MAX_DEPTH)
		add_holders(root, name, node, children, depth);
	if (json_array_size(children))
		json_object_set_new(node, "children", children);
	else
		json_decref(children);
	return node;
}

json_t *block_tree_children(const char *root, const char *disk)
{
	json_t *children = json_array();
	char **names = NULL;
	int n = sysfs_list(root, &names, "/sys/block/%s", disk);
	for (int i = 0; i < n; i++)
		if (strncmp(names[i], disk, strlen(disk)) == 0 &&
		    sysfs_exists(root, "/sys/block/%s/%s/partition", disk, names[i]))
			json_array_append_new(children, tree_node(root, names[i], "part", 1));
	sysfs_list_free(names, n);
	/* a whole disk used directly: a md member, a crypt device, a mounted file system */
	json_t *self = tree_node(root, disk, "disk", 0);
	json_t *held = json_object_get(self, "children");
	size_t i;
	json_t *c;
	json_array_foreach(held, i, c)
		json_array_append(children, c);
	json_t *top = json_object();
	if (json_object_get(self, "fstype"))
		json_object_set(top, "fstype", json_object_get(self, "fstype"));
	if (json_object_get(self, "mountpoint"))
		json_object_set(top, "mountpoint", json_object_get(self, "mountpoint"));
	json_decref(self);
	json_object_set_new(top, "children", children);
	return top;
}
