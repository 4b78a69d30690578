/* Block devices: name -> facts from /sys/class/block/<name>, the disk behind a partition,
 * and the transport read from where the device sits in /sys/devices. */
#include "inventory/block.h"
#include "inventory/parsers.h"
#include "inventory/sysfs.h"
#include "inventory/tree.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_scheduler(const char *buf, char *out, size_t len)
{
	if (!len)
		return -1;
	out[0] = '\0';
	const char *l = strchr(buf, '['), *r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		size_t n = (size_t)(r - l - 1);
		if (n == 0 || n >= len)
			return -1;
		memcpy(out, l + 1, n);
		out[n] = '\0';
		return 0;
	}
	/* One word without brackets ("none" on devices with no choice). */
	const char *s = buf;
	while (*s == ' ' || *s == '\n')
		s++;
	size_t n = strcspn(s, " \n");
	if (n == 0 || n >= len || s[n + strspn(s + n, " \n")] != '\0')
		return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

int parse_pcie_gen(const char *speed)
{
	char *end;
	double gts = strtod(speed, &end);
	if (end == speed || gts <= 0)
		return 0;
	static const struct { double gts; int gen; } gens[] = {
		{ 2.5, 1 }, { 5, 2 }, { 8, 3 }, { 16, 4 }, { 32, 5 }, { 64, 6 }, { 128, 7 },
	};
	for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++)
		if (gts > gens[i].gts * 0.9 && gts < gens[i].gts * 1.1)
			return gens[i].gen;
	return 0;
}

/* Where a device sits in the device tree tells how it is attached. */
static const char *transport_of(const char *root, const char *disk, const char *syspath)
{
	if (strstr(syspath, "/nvme")) /* also multipath heads under /devices/virtual/nvme-subsystem */
		return "nvme";
	if (strstr(syspath, "/devices/virtual/"))
		return "";
	if (strstr(syspath, "/end_device-") || sysfs_exists(root, "/sys/class/block/%s/device/sas_address", disk))
		return "sas";
	if (strstr(syspath, "/ata"))
		return "sata";
	if (strstr(syspath, "/usb"))
		return "usb";
	if (strstr(syspath, "/mmc"))
		return "mmc";
	if (strstr(syspath, "/vbd-"))
		return "xen";
	if (strstr(syspath, "/virtio"))
		return "virtio"; /* virtio-blk, and virtio-scsi's disks */
	if (strstr(syspath, "/host"))
		return "scsi";
	return "";
}

const char *block_transport_label(const char *t)
{
	static const struct { const char *t, *label; } labels[] = {
		{ "nvme", "NVMe" }, { "sata", "SATA" }, { "sas", "SAS" }, { "scsi", "SCSI" },
		{ "usb", "USB" }, { "mmc", "MMC" }, { "xen", "Xen" }, { "virtio", "virtio" },
	};
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (strcmp(t, labels[i].t) == 0)
			return labels[i].label;
	return t;
}

static void basename_of(const char *path, char *out, size_t len)
{
	const char *s = strrchr(path, '/');
	sysfs_copy(out, len, s ? s + 1 : path);
}

/* The nearest ancestor of a device directory that has `file` (numa_node, current_link_speed
 * live on the PCI function, a few levels up). Returns its path length, or 0. */
static size_t ancestor_with(const char *root, const char *syspath, const char *file)
{
	char dir[512];
	sysfs_copy(dir, sizeof dir, syspath);
	for (int depth = 0; depth < 12; depth++) {
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir || strcmp(dir, "/sys/devices") == 0)
			return 0;
		if (sysfs_exists(root, "%s/%s", dir, file))
			return strlen(dir);
		*slash = '\0';
	}
	return 0;
}

static void read_device_facts(const char *root, struct block_info *b, const char *disk_syspath)
{
	const char *d = b->disk;
	char buf[128];
	long long v;

	if (sysfs_str(root, buf, sizeof buf, "/sys/class/block/%s/queue/scheduler", d) == 0)
		parse_scheduler(buf, b->scheduler, sizeof b->scheduler);
	if (sysfs_long(root, &v, "/sys/class/block/%s/queue/rotational", d) == 0)
		b->rotational = v != 0;
	if (sysfs_long(root, &v, "/sys/class/block/%s/queue/logical_block_size", d) == 0)
		b->logical_block = v;
	if (sysfs_long(root, &v, "/sys/class/block/%s/queue/physical_block_size", d) == 0)
		b->physical_block = v;
	sysfs_str(root, b->write_cache, sizeof b->write_cache, "/sys/class/block/%s/queue/write_cache", d);
	if (sysfs_long(root, &v, "/sys/class/block/%s/queue/discard_max_bytes", d) == 0 && v >= 0)
		b->discard_max = v;
	if (sysfs_long(root, &v, "/sys/class/block/%s/queue/nr_requests", d) == 0 && v >= 0)
		b->nr_requests = v;
	if (sysfs_long(root, &v, "/sys/class/block/%s/queue/read_ahead_kb", d) == 0 && v >= 0)
		b->read_ahead_kb = v;
	if (sysfs_long(root, &v, "/sys/class/block/%s/metadata_bytes", d) == 0 && v >= 0)
		b->metadata_bytes = v;

	/* NVMe: device is the controller (model, firmware_rev, serial); SCSI/SATA: the SCSI
	 * device (vendor, model, rev); virtio-blk: nothing but a serial on the disk. */
	sysfs_str(root, b->model, sizeof b->model, "/sys/class/block/%s/device/model", d);
	if (!b->model[0])
		sysfs_str(root, b->model, sizeof b->model, "/sys/class/block/%s/device/name", d); /* mmc */
	sysfs_str(root, b->vendor, sizeof b->vendor, "/sys/class/block/%s/device/vendor", d);
	if (sysfs_str(root, b->firmware, sizeof b->firmware, "/sys/class/block/%s/device/firmware_rev", d) < 0 &&
	    sysfs_str(root, b->firmware, sizeof b->firmware, "/sys/class/block/%s/device/rev", d) < 0)
		sysfs_str(root, b->firmware, sizeof b->firmware, "/sys/class/block/%s/device/fwrev", d);
	if (sysfs_str(root, b->serial, sizeof b->serial, "/sys/class/block/%s/device/serial", d) < 0)
		sysfs_str(root, b->serial, sizeof b->serial, "/sys/class/block/%s/serial", d);
	if (strcmp(b->transport, "virtio") == 0 && strncmp(b->vendor, "0x", 2) == 0)
		b->vendor[0] = '\0'; /* a PCI vendor id, not a name */

	/* An NVMe multipath head sits under /devices/virtual; its first path sits under the PCI
	 * function that has the NUMA node and the link. */
	char path_syspath[512];
	char **paths = NULL;
	int np = strcmp(b->transport, "nvme") == 0 ? sysfs_list(root, &paths, "/sys/class/block/%s/multipath", d) : -1;
	if (np > 0 && sysfs_resolve(root, path_syspath, sizeof path_syspath, "/sys/class/block/%s/multipath/%s", d,
				    paths[0]) == 0)
		disk_syspath = path_syspath;
	sysfs_list_free(paths, np);

	size_t n = ancestor_with(root, disk_syspath, "numa_node");
	if (n && sysfs_long(root, &v, "%.*s/numa_node", (int)n, disk_syspath) == 0 && v >= 0)
		b->numa_node = (int)v;

	if (strcmp(b->transport, "nvme") == 0 && (n = ancestor_with(root, disk_syspath, "current_link_speed"))) {
		const char *p = disk_syspath;
		int w = (int)n;
		if (sysfs_str(root, buf, sizeof buf, "%.*s/current_link_speed", w, p) == 0)
			b->pcie_gen = parse_pcie_gen(buf);
		if (sysfs_str(root, buf, sizeof buf, "%.*s/max_link_speed", w, p) == 0)
			b->pcie_max_gen = parse_pcie_gen(buf);
		if (sysfs_long(root, &v, "%.*s/current_link_width", w, p) == 0 && v > 0 && v <= 64)
			b->pcie_width = (int)v;
		if (sysfs_long(root, &v, "%.*s/max_link_width", w, p) == 0 && v > 0 && v <= 64)
			b->pcie_max_width = (int)v;
	}
}

int block_read(const char *root, const char *name, struct block_info *b)
{
	memset(b, 0, sizeof *b);
	b->rotational = -1;
	b->numa_node = -1;
	b->discard_max = b->nr_requests = b->read_ahead_kb = b->metadata_bytes = -1;
	if (!*name || strchr(name, '/') || strcmp(name, "..") == 0)
		return -1;
	sysfs_copy(b->name, sizeof b->name, name);
	if (sysfs_resolve(root, b->syspath, sizeof b->syspath, "/sys/class/block/%s", name) < 0)
		return -1;

	char disk_syspath[512];
	sysfs_copy(disk_syspath, sizeof disk_syspath, b->syspath);
	b->partition = sysfs_exists(root, "/sys/class/block/%s/partition", name);
	if (b->partition) {
		char *slash = strrchr(disk_syspath, '/');
		if (slash)
			*slash = '\0';
		basename_of(disk_syspath, b->disk, sizeof b->disk);
	} else {
		sysfs_copy(b->disk, sizeof b->disk, name);
	}

	long long sectors;
	if (sysfs_long(root, &sectors, "/sys/class/block/%s/size", name) == 0 && sectors > 0)
		b->size = (uint64_t)sectors * 512; /* always 512-byte units, whatever the block size */

	if (b->partition)
		snprintf(b->kind, sizeof b->kind, "part");
	else if (sysfs_exists(root, "/sys/class/block/%s/dm", name))
		snprintf(b->kind, sizeof b->kind, "dm");
	else if (sysfs_exists(root, "/sys/class/block/%s/md", name))
		snprintf(b->kind, sizeof b->kind, "md");
	else if (strncmp(name, "loop", 4) == 0)
		snprintf(b->kind, sizeof b->kind, "loop");
	else if (strncmp(name, "zram", 4) == 0)
		snprintf(b->kind, sizeof b->kind, "zram");
	else if (strncmp(name, "ram", 3) == 0)
		snprintf(b->kind, sizeof b->kind, "ram");
	else
		snprintf(b->kind, sizeof b->kind, "disk");

	sysfs_copy(b->transport, sizeof b->transport, transport_of(root, b->disk, disk_syspath));
	read_device_facts(root, b, disk_syspath);
	return 0;
}

int block_name_of(const char *root, unsigned major, unsigned minor, char *name, size_t len)
{
	char path[512];
	if (sysfs_resolve(root, path, sizeof path, "/sys/dev/block/%u:%u", major, minor) < 0)
		return -1;
	basename_of(path, name, len);
	return 0;
}

int block_name_of_source(const char *root, const char *source, char *name, size_t len)
{
	char real[PATH_MAX];
	if (strncmp(source, "/dev/", 5) != 0)
		return -1;
	/* On the real machine /dev/mapper/x and /dev/disk/by-uuid/... are links to /dev/dm-N. */
	if (!*root && realpath(source, real) && strncmp(real, "/dev/", 5) == 0)
		source = real;
	if (strncmp(source, "/dev/mapper/", 12) == 0) {
		char **names, dmname[128];
		int n = sysfs_list(root, &names, "/sys/block");
		int found = -1;
		for (int i = 0; i < n && found < 0; i++)
			if (strncmp(names[i], "dm-", 3) == 0 &&
			    sysfs_str(root, dmname, sizeof dmname, "/sys/block/%s/dm/name", names[i]) == 0 &&
			    strcmp(dmname, source + 12) == 0)
				found = i;
		if (found >= 0)
			sysfs_copy(name, len, names[found]);
		sysfs_list_free(names, n);
		return found >= 0 ? 0 : -1;
	}
	const char *base = strrchr(source, '/') + 1;
	if (!*base || !sysfs_exists(root, "/sys/class/block/%s", base))
		return -1;
	sysfs_copy(name, len, base);
	return 0;
}

static void set_str(json_t *o, const char *key, const char *v)
{
	if (v && *v)
		json_object_set_new(o, key, json_string(v));
}

void block_disk_json(json_t *o, const struct block_info *b, int serials)
{
	set_str(o, "vendor", b->vendor);
	set_str(o, "model", b->model);
	set_str(o, "firmware", b->firmware);
	if (serials)
		set_str(o, "serial", b->serial);
	if (b->rotational >= 0)
		json_object_set_new(o, "rotational", json_boolean(b->rotational));
	set_str(o, "write_cache", b->write_cache);
	if (b->discard_max >= 0)
		json_object_set_new(o, "discard", json_boolean(b->discard_max > 0));
	set_str(o, "scheduler", b->scheduler);
	if (b->nr_requests >= 0)
		json_object_set_new(o, "nr_requests", json_integer(b->nr_requests));
	if (b->read_ahead_kb >= 0)
		json_object_set_new(o, "read_ahead_kb", json_integer(b->read_ahead_kb));
	if (b->logical_block)
		json_object_set_new(o, "logical_block", json_integer(b->logical_block));
	if (b->physical_block)
		json_object_set_new(o, "physical_block", json_integer(b->physical_block));
	if (b->numa_node >= 0)
		json_object_set_new(o, "numa_node", json_integer(b->numa_node));
	if (b->pcie_gen || b->pcie_width)
		json_object_set_new(o, "pcie", json_pack("{s:i,s:i,s:i,s:i}", "gen", b->pcie_gen, "width",
							 b->pcie_width, "max_gen", b->pcie_max_gen,
							 "max_width", b->pcie_max_width));
	if (strcmp(b->transport, "nvme") == 0 && b->logical_block && b->metadata_bytes >= 0)
		json_object_set_new(o, "lba_format", json_pack("{s:I,s:I}", "data_bytes", (json_int_t)b->logical_block,
							       "metadata_bytes", (json_int_t)b->metadata_bytes));
}

json_t *block_json(const struct block_info *b, int serials)
{
	json_t *o = json_object();
	set_str(o, "name", b->name);
	set_str(o, "kind", b->kind);
	if (b->partition)
		set_str(o, "disk", b->disk);
	set_str(o, "transport", b->transport);
	json_object_set_new(o, "size", json_integer((json_int_t)b->size));
	block_disk_json(o, b, serials);
	return o;
}

json_t *block_collect(const char *root, int serials)
{
	json_t *devs = json_array();
	char **names;
	int n = sysfs_list(root, &names, "/sys/block");
	for (int i = 0; i < n; i++) {
		struct block_info b;
		long long hidden = 0;
		/* hidden: the per-path devices behind an NVMe multipath head */
		sysfs_long(root, &hidden, "/sys/block/%s/hidden", names[i]);
		if (hidden || block_read(root, names[i], &b) < 0 || b.size == 0 || strcmp(b.kind, "ram") == 0)
			continue;
		json_t *d = block_json(&b, serials), *tree = block_tree_children(root, b.name);
		char file[PATH_MAX];
		/* what a loop device reads: its model, in effect */
		if (strcmp(b.kind, "loop") == 0 &&
		    sysfs_str(root, file, sizeof file, "/sys/block/%s/loop/backing_file", names[i]) == 0 && file[0])
			json_object_set_new(d, "backing_file", json_string(file));
		const char *keys[] = { "fstype", "mountpoint" };
		for (size_t k = 0; k < 2; k++)
			if (json_object_get(tree, keys[k]))
				json_object_set(d, keys[k], json_object_get(tree, keys[k]));
		if (json_array_size(json_object_get(tree, "children")))
			json_object_set(d, "children", json_object_get(tree, "children"));
		json_decref(tree);
		json_array_append_new(devs, d);
	}
	sysfs_list_free(names, n);
	json_t *o = json_object();
	json_object_set_new(o, "devices", devs);
	json_object_set_new(o, "source", json_string("/sys/block, /sys/class/block/*/{queue,device}"));
	if (n < 0)
		json_object_set_new(o, "error", json_string("/sys/block: not readable"));
	return o;
}
