/* The storage stack under a directory: which mount holds it (mountinfo), which block device
 * backs the mount, and down through device-mapper (crypt, LVM), md RAID and partitions to
 * the physical disks, following each device's slaves/ directory. */
#include "inventory/stack.h"
#include "inventory/block.h"
#include "inventory/inventory.h"
#include "inventory/layers.h"
#include "inventory/mount.h"
#include "inventory/parsers.h"
#include "inventory/sysfs.h"
#include "inventory/zfs.h"

#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define STACK_MAX_DEPTH 8
#define STACK_MAX_NODES 256
#define STACK_MAX_PHYS 64

const char *parse_dm_uuid_kind(const char *uuid)
{
	static const struct { const char *prefix, *kind; } kinds[] = {
		{ "CRYPT-", "crypt" }, { "LVM-", "lvm" }, { "mpath-", "multipath" },
		{ "part", "partition" }, { "raid", "raid" }, { "VDO-", "vdo" }, { "stratis-", "stratis" },
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strncmp(uuid, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
			return kinds[i].kind;
	return "dm";
}

struct walk {
	const char *root;
	int serials;
	int nodes;
	char phys[STACK_MAX_PHYS][64];
	int nphys;
	char transport[16];
	int transport_set;
	int rotational;
	int numa_node;
	int numa_set;
};

static void add_physical(struct walk *w, const struct block_info *b)
{
	for (int i = 0; i < w->nphys; i++)
		if (strcmp(w->phys[i], b->disk) == 0)
			return;
	if (w->nphys < STACK_MAX_PHYS)
		sysfs_copy(w->phys[w->nphys++], sizeof w->phys[0], b->disk);
	if (!w->transport_set) {
		sysfs_copy(w->transport, sizeof w->transport, b->transport);
		w->transport_set = 1;
	} else if (strcmp(w->transport, b->transport) != 0) {
		snprintf(w->transport, sizeof w->transport, "mixed");
	}
	if (b->rotational == 1 || (b->rotational == 0 && w->rotational == -1))
		w->rotational = b->rotational;
	if (!w->numa_set) {
		w->numa_node = b->numa_node;
		w->numa_set = 1;
	} else if (w->numa_node != b->numa_node) {
		w->numa_node = -1; /* spread over nodes: no one node to pin to */
	}
}

static json_t *walk_device(struct walk *w, const char *name, int depth)
{
	struct block_info b;
	json_t *node = json_object();
	json_object_set_new(node, "name", json_string(name));
	if (++w->nodes > STACK_MAX_NODES || block_read(w->root, name, &b) < 0) {
		json_object_set_new(node, "error", json_string("not found in /sys/class/block"));
		return node;
	}
	const char *type = b.kind;
	char buf[256] = "";
	if (strcmp(b.kind, "dm") == 0) {
		char uuid[256] = "";
		sysfs_str(w->root, uuid, sizeof uuid, "/sys/class/block/%s/dm/uuid", name);
		type = parse_dm_uuid_kind(uuid);
		if (sysfs_str(w->root, buf, sizeof buf, "/sys/class/block/%s/dm/name", name) == 0 && buf[0])
			json_object_set_new(node, "dm_name", json_string(buf));
		if (w->serials && uuid[0])
			json_object_set_new(node, "uuid", json_string(uuid));
		layer_dm(w->root, name, type, buf, uuid, node);
	}
	json_object_set_new(node, "type", json_string(type));
	json_object_set_new(node, "size", json_integer((json_int_t)b.size));
	if (strcmp(b.kind, "md") == 0)
		layer_md(w->root, name, node);
	if (b.partition)
		json_object_set_new(node, "disk", json_string(b.disk));

	char **slaves = NULL;
	int n = depth < STACK_MAX_DEPTH ? sysfs_list(w->root, &slaves, "/sys/class/block/%s/slaves", name) : -1;
	if (n > 0) {
		json_t *arr = json_array(), *members = json_array();
		for (int i = 0; i < n; i++) {
			json_array_append_new(arr, walk_device(w, slaves[i], depth + 1));
			json_array_append_new(members, json_string(slaves[i]));
		}
		json_object_set_new(node, "slaves", arr);
		if (strcmp(b.kind, "md") == 0)
			json_object_set_new(node, "members", members);
		else
			json_decref(members);
	} else {
		/* A leaf: a disk, or a partition of one, with the disk's own facts. */
		if (b.transport[0])
			json_object_set_new(node, "transport", json_string(b.transport));
		block_disk_json(node, &b, w->serials);
		add_physical(w, &b);
	}
	sysfs_list_free(slaves, n);
	return node;
}

/* The path as the machine being described sees it: on the real machine its real path (and
 * device), under a sysroot the string itself, made absolute and without trailing slashes. */
static int absolute_path(const char *root, const char *path, char *abs, size_t len, int *have_dev, dev_t *dev)
{
	*have_dev = 0;
	if (!*root) {
		struct stat st;
		char real[PATH_MAX], up[PATH_MAX];
		/* A file that is yet to be created lies where its nearest existing parent lies. */
		sysfs_copy(up, sizeof up, path);
		while (stat(up, &st) < 0) {
			char *slash = strrchr(up, '/');
			if (!slash)
				snprintf(up, sizeof up, ".");
			else if (slash == up)
				up[1] = '\0';
			else
				*slash = '\0';
			if (strcmp(up, ".") == 0 || strcmp(up, "/") == 0) {
				if (stat(up, &st) < 0)
					return -1;
				break;
			}
		}
		if (!realpath(up, real))
			return -1;
		*have_dev = 1;
		*dev = st.st_dev;
		sysfs_copy(abs, len, real);
		return 0;
	}
	while (path[0] == '.' && (path[1] == '/' || path[1] == '\0'))
		path += path[1] ? 2 : 1; /* "./x" and "." are relative to the fake machine's "/" */
	if (snprintf(abs, len, "%s%s", path[0] == '/' ? "" : "/", path) >= (int)len)
		return -1;
	size_t n = strlen(abs);
	while (n > 1 && abs[n - 1] == '/')
		abs[--n] = '\0';
	return 0;
}

static int memory_backed_fs(const char *fstype)
{
	return strcmp(fstype, "tmpfs") == 0 || strcmp(fstype, "ramfs") == 0;
}

/* A ZFS pool as the top of the stack: its data vdevs' members walked as block devices
 * ("/dev/disk/by-id/nvme-...-part3" resolves to nvme0n1p3 on the machine). NULL without vdevs. */
static json_t *zfs_pool_node(struct walk *w, const json_t *zfs)
{
	const json_t *vdevs = json_object_get(zfs, "vdevs");
	if (!json_array_size(vdevs))
		return NULL;
	json_t *node = json_pack("{s:s,s:s}", "name", json_string_value(json_object_get(zfs, "pool")), "type", "zpool");
	if (json_object_get(zfs, "layout"))
		json_object_set(node, "layout", json_object_get(zfs, "layout"));
	if (json_is_integer(json_object_get(zfs, "pool_size")))
		json_object_set(node, "size", json_object_get(zfs, "pool_size"));
	json_t *slaves = json_array();
	size_t i, j;
	json_t *v, *mem;
	json_array_foreach(vdevs, i, v) {
		const char *cls = json_string_value(json_object_get(v, "class"));
		if (!cls || strcmp(cls, "data") != 0)
			continue;
		json_array_foreach(json_object_get(v, "members"), j, mem) {
			const char *dev = json_string_value(mem);
			char real[PATH_MAX];
			if (!*w->root && dev && realpath(dev, real))
				dev = real;
			const char *base = dev ? strrchr(dev, '/') : NULL;
			if (base && base[1])
				json_array_append_new(slaves, walk_device(w, base + 1, 1));
		}
	}
	json_object_set_new(node, "slaves", slaves);
	return node;
}

/* Walks the devices under the mount (top, or a ZFS pool's vdev members) into path.stack,
 * path.physical and what pd wants. */
static void describe_stack(const char *root, int serials, const char *top, const json_t *zfs, json_t *o,
			   struct path_device *pd)
{
	struct walk *w = calloc(1, sizeof *w);
	if (!w)
		return;
	w->root = root;
	w->serials = serials;
	w->rotational = -1;
	w->numa_node = -1;
	json_t *stack;
	if (top) {
		stack = walk_device(w, top, 0);
		json_object_set_new(o, "size", json_incref(json_object_get(stack, "size")));
	} else {
		stack = zfs_pool_node(w, zfs);
		if (!stack) {
			free(w);
			return;
		}
	}
	sysfs_copy(pd->transport, sizeof pd->transport, w->transport);
	pd->rotational = w->rotational;
	pd->numa_node = w->numa_node;
	if (w->transport[0])
		json_object_set_new(o, "transport", json_string(w->transport));
	if (w->rotational >= 0)
		json_object_set_new(o, "rotational", json_boolean(w->rotational));
	if (w->numa_node >= 0)
		json_object_set_new(o, "numa_node", json_integer(w->numa_node));
	json_t *phys = json_array();
	for (int i = 0; i < w->nphys; i++)
		json_array_append_new(phys, json_string(w->phys[i]));
	json_object_set_new(o, "physical", phys);
	json_object_set_new(o, "stack", stack);
	free(w);
}

/* Free and used space and the block size, from statvfs(2) on the real machine. */
static void fs_space(const char *abs, json_t *o)
{
	struct statvfs sv;
	if (statvfs(abs, &sv) < 0)
		return;
	unsigned long long frag = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
	json_object_set_new(o, "fs_block_size", json_integer((json_int_t)sv.f_bsize));
	json_object_set_new(o, "fs_size", json_integer((json_int_t)(sv.f_blocks * frag)));
	json_object_set_new(o, "fs_used", json_integer((json_int_t)((sv.f_blocks - sv.f_bfree) * frag)));
	json_object_set_new(o, "fs_available", json_integer((json_int_t)(sv.f_bavail * frag)));
}

/* The mount of a path that our mountinfo does not list, as far as its device tells. */
static void unlisted_mount(const char *root, const char *abs, dev_t dev, int seen_by_init,
			   struct mountinfo_entry *m, json_t *o)
{
	char dev_name[64] = "", note[512];
	block_name_of(root, m->major, m->minor, dev_name, sizeof dev_name);
	if (!*root) {
		mount_point_of(abs, dev, m->mountpoint, sizeof m->mountpoint);
		if (!seen_by_init)
			mount_fstype_of(abs, dev_name, m->fstype, sizeof m->fstype);
	}
	snprintf(note, sizeof note,
		 "the mount is not in /proc/self/mountinfo (a chroot or container hides it); found by the path's "
		 "device %u:%u, %s",
		 m->major, m->minor,
		 seen_by_init ? "the file system as /proc/1/mountinfo lists it"
			      : "the file system type from statfs");
	json_object_set_new(o, "mount_visible", json_false());
	json_object_set_new(o, "note", json_string(note));
}

/* The stack as JSON, and what struct path_device wants, in one walk.  fake_dev: under a
 * sysroot, the device the path is on (as stat would say on the machine); else NULL. */
static json_t *resolve(const char *root, const char *path, int serials, const dev_t *fake_dev,
		       struct path_device *pd)
{
	memset(pd, 0, sizeof *pd);
	pd->rotational = -1;
	pd->numa_node = -1;
	json_t *o = json_object();
	json_object_set_new(o, "path", json_string(path));

	char abs[PATH_MAX];
	int have_dev, seen_by_init;
	dev_t dev = 0;
	struct mountinfo_entry m;
	if (absolute_path(root, path, abs, sizeof abs, &have_dev, &dev) < 0) {
		json_object_set_new(o, "error", json_string("no such directory"));
		return o;
	}
	if (*root && fake_dev) {
		have_dev = 1;
		dev = *fake_dev;
	}
	enum mount_seen seen = mount_find(root, abs, have_dev, dev, &m, &seen_by_init);
	if (seen == MOUNT_UNSEEN) {
		json_object_set_new(o, "mount_visible", json_false());
		json_object_set_new(o, "note", json_string("no mount in /proc/self/mountinfo holds this path "
							   "(a chroot or container hides it), and its device is unknown"));
		return o;
	}
	if (seen == MOUNT_BY_DEVICE)
		unlisted_mount(root, abs, dev, seen_by_init, &m, o);
	if (strcmp(abs, path) != 0)
		json_object_set_new(o, "resolved", json_string(abs));
	sysfs_copy(pd->fstype, sizeof pd->fstype, m.fstype);
	sysfs_copy(pd->mountpoint, sizeof pd->mountpoint, m.mountpoint);
	sysfs_copy(pd->mount_options, sizeof pd->mount_options, m.options);
	pd->memory_backed = memory_backed_fs(m.fstype);
	json_object_set_new(o, "mountpoint", m.mountpoint[0] ? json_string(m.mountpoint) : json_null());
	json_object_set_new(o, "fstype", json_string(m.fstype));
	if (m.options[0])
		json_object_set_new(o, "options", json_string(m.options));
	if (m.source[0])
		json_object_set_new(o, "mount_source", json_string(m.source));

	/* The device: by major:minor, else (btrfs, anonymous devices) by the mount source. */
	char top[64] = "";
	if (!pd->memory_backed && m.major != 0)
		block_name_of(root, m.major, m.minor, top, sizeof top);
	if (!pd->memory_backed && !top[0])
		block_name_of_source(root, m.source, top, sizeof top);

	if (strcmp(m.fstype, "zfs") == 0) {
		json_t *z = zfs_collect(root, m.source);
		json_t *rs = json_object_get(z, "recordsize");
		json_object_set_new(o, "dataset", json_string(m.source));
		json_object_set_new(o, "recordsize", json_is_integer(rs) ? json_incref(rs) : json_null());
		json_object_set_new(o, "recordsize_source", json_incref(json_object_get(z, "properties_source")));
		json_object_set_new(o, "zfs", z);
	}
	if (top[0]) {
		sysfs_copy(pd->device, sizeof pd->device, top);
		json_object_set_new(o, "device", json_string(top));
		describe_stack(root, serials, top, NULL, o, pd);
	} else if (json_object_get(o, "zfs")) {
		describe_stack(root, serials, NULL, json_object_get(o, "zfs"), o, pd);
	}
	if (!*root)
		fs_space(abs, o);
	if (pd->memory_backed)
		json_object_set_new(o, "memory_backed", json_true());
	json_object_set_new(o, "source", json_string("/proc/self/mountinfo, /sys/dev/block, /sys/class/block/*/{slaves,dm,md}"));
	return o;
}

json_t *stack_collect(const char *root, const char *path, int serials)
{
	struct path_device pd;
	return resolve(root, path ? path : ".", serials, NULL, &pd);
}

json_t *stack_collect_on_device(const char *root, const char *path, dev_t dev)
{
	struct path_device pd;
	return resolve(root, path, 0, &dev, &pd);
}

int stack_mount_of(const char *root, const char *abs, struct mountinfo_entry *m)
{
	struct stat st;
	int have_dev = !*root && stat(abs, &st) == 0, by_init;
	return mount_find(root, abs, have_dev, have_dev ? st.st_dev : 0, m, &by_init) == MOUNT_UNSEEN ? -1 : 0;
}

int inventory_path_device(const char *sysroot, const char *path, struct path_device *out)
{
	json_t *o = resolve(sysfs_root(sysroot), path ? path : ".", 0, NULL, out);
	/* a mount that cannot be seen is no failure of the JSON, but here nothing is known */
	int ok = json_object_get(o, "error") == NULL && (out->fstype[0] || out->device[0]);
	json_decref(o);
	if (!ok) {
		memset(out, 0, sizeof *out);
		out->rotational = -1;
		out->numa_node = -1;
	}
	return ok ? 0 : -1;
}
