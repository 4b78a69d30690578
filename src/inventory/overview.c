/* The overview node operators post (a seed write-up's hw.sh output): VENDOR, MEMORY, CPUs,
 * then DISKS as an lsblk-like tree with FSTYPE, MOUNTPOINT, VENDOR and MODEL. */
#include "inventory/sections.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

#define TREE_MAX_DEPTH 6

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static long long num(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* lsblk's sizes: "3.6T", "512M", "931.5G". */
static void lsblk_size(long long bytes, char *out, size_t len)
{
	static const char units[] = "BKMGTPE";
	double v = bytes > 0 ? (double)bytes : 0;
	int i = 0;
	while (v >= 1024 && i < 6) {
		v /= 1024;
		i++;
	}
	if (i == 0 || v >= 100 || v == (double)(long long)v)
		snprintf(out, len, "%.0f%c", v, units[i]);
	else
		snprintf(out, len, "%.1f%c", v, units[i]);
}

struct cols {
	int name;
};

/* Columns on a terminal: UTF-8 continuation bytes take none. */
static int columns(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* lsblk names a device-mapper device by its mapper name ("vg0-root"). */
static const char *shown_name(const json_t *n)
{
	return *str(n, "dm_name") ? str(n, "dm_name") : str(n, "name");
}

static void row(struct strbuf *sb, const struct cols *c, const char *prefix, const json_t *n, const json_t *disk)
{
	char size[16], name[160];
	lsblk_size(num(n, "size"), size, sizeof size);
	snprintf(name, sizeof name, "%s%s", prefix, shown_name(n));
	int pad = c->name - columns(name);
	sb_printf(sb, "  %s%*s %7s %-17s %-12s", name, pad > 0 ? pad : 0, "", size, str(n, "fstype"),
		  str(n, "mountpoint"));
	if (disk)
		sb_printf(sb, " %-8s %s", *str(disk, "vendor") ? str(disk, "vendor") : "-", str(disk, "model"));
	/* trailing blanks off */
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
	sb_puts(sb, "\n");
}

/* The widest "prefix + name" in a subtree, for the NAME column. */
static int widest(const json_t *n, int depth)
{
	int w = columns(shown_name(n)) + depth * 2;
	size_t i;
	json_t *c;
	if (depth < TREE_MAX_DEPTH)
		json_array_foreach(json_object_get(n, "children"), i, c) {
			int cw = widest(c, depth + 1);
			if (cw > w)
				w = cw;
		}
	return w;
}

static void subtree(struct strbuf *sb, const struct cols *c, const json_t *n, const char *indent, int depth)
{
	size_t i, count = json_array_size(json_object_get(n, "children"));
	json_t *child;
	if (depth >= TREE_MAX_DEPTH)
		return;
	json_array_foreach(json_object_get(n, "children"), i, child) {
		int last = i + 1 == count;
		char prefix[128], next[128];
		snprintf(prefix, sizeof prefix, "%s%s", indent, last ? "└─" : "├─");
		snprintf(next, sizeof next, "%s%s", indent, last ? "  " : "│ ");
		row(sb, c, prefix, child, NULL);
		subtree(sb, c, child, next, depth + 1);
	}
}

/* md and dm devices are drawn under the disks they are built on, not as roots. */
static int drawn(const json_t *d)
{
	const char *kind = str(d, "kind");
	return strcmp(kind, "dm") != 0 && strcmp(kind, "md") != 0;
}

static void disks(struct strbuf *sb, const json_t *devices)
{
	struct cols c = { 4 };
	size_t i;
	json_t *d;
	json_array_foreach(devices, i, d) {
		if (!drawn(d))
			continue;
		int w = widest(d, 0);
		if (w > c.name)
			c.name = w;
	}
	sb_printf(sb, "  %-*s %7s %-17s %-12s %-8s %s\n", c.name, "NAME", "SIZE", "FSTYPE", "MOUNTPOINT", "VENDOR", "MODEL");
	json_array_foreach(devices, i, d) {
		if (!drawn(d))
			continue;
		row(sb, &c, "", d, d);
		subtree(sb, &c, d, "", 0);
	}
}

void overview_text(struct strbuf *sb, const json_t *inv)
{
	const json_t *os = json_object_get(inv, "os"), *dmi = json_object_get(os, "dmi");
	const json_t *mem = json_object_get(inv, "memory"), *cpu = json_object_get(inv, "cpu");
	const json_t *dimms = json_object_get(mem, "dimms");
	char v[512];
	snprintf(v, sizeof v, "%s%s%s", str(dmi, "sys_vendor"), *str(dmi, "product_name") ? " " : "",
		 str(dmi, "product_name"));
	if (*str(dmi, "bios_version"))
		snprintf(v + strlen(v), sizeof v - strlen(v), ", BIOS %s", str(dmi, "bios_version"));
	sb_printf(sb, "VENDOR   %s\n", *v ? v : "(no DMI strings)");
	sb_printf(sb, "MEMORY   %lld GiB", num(mem, "total") >> 30);
	if (json_object_get(dimms, "modules"))
		sb_printf(sb, ", %lld x %s at %lld MT/s", num(dimms, "modules"), str(dimms, "type"),
			  json_object_get(dimms, "configured_mts") ? num(dimms, "configured_mts") : num(dimms, "speed_mts"));
	else if (*str(dimms, "needs"))
		sb_printf(sb, ", DIMMs need root");
	sb_puts(sb, "\n");
	sb_printf(sb, "CPUs     %lld x %s\n", num(cpu, "threads"), *str(cpu, "model") ? str(cpu, "model") : str(cpu, "vendor"));
	sb_puts(sb, "DISKS\n");
	disks(sb, json_object_get(json_object_get(inv, "storage"), "devices"));
}
