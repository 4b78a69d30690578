/* The overview node operators post (a seed write-up's hw.sh output): VENDOR, MEMORY, CPUs,
 * then DISKS as an lsblk-like tree with FSTYPE, MOUNTPOINT, VENDOR and MODEL. */
#include "inventory/sections.h"
#include "util/strbuf.h"
#include "util/textwidth.h"

#include <stdio.h>
#include <stdlib.h>
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

/* lsblk names a device-mapper device by its mapper name ("vg0-root"). */
static const char *shown_name(const json_t *n)
{
	return *str(n, "dm_name") ? str(n, "dm_name") : str(n, "name");
}

/* lsblk's TYPE: disk, part, loop, crypt, lvm, dm, and an md device by its level (raid1). */
static const char *shown_type(const json_t *n)
{
	const char *t = *str(n, "type") ? str(n, "type") : str(n, "kind");
	if (strcmp(t, "md") == 0 && *str(n, "level"))
		return str(n, "level");
	return *t ? t : "disk";
}

enum { C_NAME, C_SIZE, C_TYPE, C_FSTYPE, C_MOUNT, C_VENDOR, C_MODEL, C_REV, NCOLS };
static const char *const heads[NCOLS] = { "NAME", "SIZE", "TYPE", "FSTYPE", "MOUNTPOINT", "VENDOR", "MODEL", "REV" };

/* The table is built first and printed once every width is known, so a long mount point or
 * model widens its column instead of pushing the rest of its row out of line. */
struct table {
	char *(*cell)[NCOLS];
	size_t n, cap;
	int width[NCOLS];
};

static void table_add(struct table *t, const char *prefix, const json_t *n, const json_t *disk)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		void *c = realloc(t->cell, cap * sizeof *t->cell);
		if (!c)
			return;
		t->cell = c;
		t->cap = cap;
	}
	char size[16], name[192], model[600];
	lsblk_size(num(n, "size"), size, sizeof size);
	snprintf(name, sizeof name, "%s%s", prefix, shown_name(n));
	/* a loop device has no model: what it reads is its backing file */
	if (disk && *str(disk, "backing_file"))
		snprintf(model, sizeof model, "file %s", str(disk, "backing_file"));
	else
		snprintf(model, sizeof model, "%s", disk ? str(disk, "model") : "");
	const char *v[NCOLS] = { name, size, shown_type(n), str(n, "fstype"), str(n, "mountpoint"),
				 disk ? str(disk, "vendor") : "", model, disk ? str(disk, "firmware") : "" };
	for (int k = 0; k < NCOLS; k++)
		t->cell[t->n][k] = strdup(v[k]);
	t->n++;
}

static void subtree(struct table *t, const json_t *n, const char *indent, int depth)
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
		table_add(t, prefix, child, NULL);
		subtree(t, child, next, depth + 1);
	}
}

/* md and dm devices are drawn under the disks they are built on, not as roots. */
static int drawn(const json_t *d)
{
	const char *kind = str(d, "kind");
	return strcmp(kind, "dm") != 0 && strcmp(kind, "md") != 0;
}

static void put_cell(struct strbuf *sb, const char *s, int width, int right)
{
	int pad = width - (int)text_width(s);
	if (pad < 0)
		pad = 0;
	if (right)
		sb_printf(sb, "%*s%s", pad, "", s);
	else
		sb_printf(sb, "%s%*s", s, pad, "");
}

static void disks(struct strbuf *sb, const json_t *devices)
{
	struct table t = { 0 };
	size_t i;
	json_t *d;
	json_array_foreach(devices, i, d) {
		if (!drawn(d))
			continue;
		table_add(&t, "", d, d);
		subtree(&t, d, "", 0);
	}
	for (int k = 0; k < NCOLS; k++)
		t.width[k] = (int)text_width(heads[k]);
	for (size_t r = 0; r < t.n; r++)
		for (int k = 0; k < NCOLS; k++)
			if (t.cell[r][k] && (int)text_width(t.cell[r][k]) > t.width[k])
				t.width[k] = (int)text_width(t.cell[r][k]);
	for (size_t r = 0; r <= t.n; r++) {
		sb_puts(sb, "  ");
		for (int k = 0; k < NCOLS; k++) {
			const char *s = r == 0 ? heads[k] : t.cell[r - 1][k];
			if (k)
				sb_puts(sb, " ");
			put_cell(sb, s ? s : "", t.width[k], k == C_SIZE);
		}
		/* trailing blanks off */
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->buf[--sb->len] = '\0';
		sb_puts(sb, "\n");
	}
	for (size_t r = 0; r < t.n; r++)
		for (int k = 0; k < NCOLS; k++)
			free(t.cell[r][k]);
	free(t.cell);
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
	/* rated and configured speed as the SMBIOS table has them; never a guess */
	if (json_object_get(dimms, "modules")) {
		sb_printf(sb, ", %lld x %s", num(dimms, "modules"), *str(dimms, "type") ? str(dimms, "type") : "?");
		if (json_object_get(dimms, "speed_mts"))
			sb_printf(sb, ", rated %lld MT/s", num(dimms, "speed_mts"));
		else
			sb_puts(sb, ", rated speed unknown");
		if (json_object_get(dimms, "configured_mts"))
			sb_printf(sb, ", configured %lld MT/s", num(dimms, "configured_mts"));
		else
			sb_puts(sb, ", configured speed unknown");
	} else if (*str(dimms, "needs")) {
		sb_printf(sb, ", modules unknown: %s needs %s", str(dimms, "source"), str(dimms, "needs"));
	} else {
		sb_printf(sb, ", modules unknown: %s", *str(dimms, "error") ? str(dimms, "error") : "not readable");
	}
	sb_puts(sb, "\n");
	const json_t *f = json_object_get(cpu, "frequency");
	sb_printf(sb, "CPUs     %s", *str(cpu, "model") ? str(cpu, "model") : *str(cpu, "vendor") ? str(cpu, "vendor") : "unknown model");
	if (json_object_get(f, "max_mhz"))
		sb_printf(sb, ", max %lld MHz", num(f, "max_mhz"));
	else if (json_object_get(f, "nominal_mhz"))
		sb_printf(sb, ", %lld MHz (max unknown)", num(f, "nominal_mhz"));
	else
		sb_puts(sb, ", max speed unknown");
	if (num(cpu, "sockets") > 1)
		sb_printf(sb, ", %lld sockets", num(cpu, "sockets"));
	sb_printf(sb, ", %lld cores, %lld threads\n", num(cpu, "cores"), num(cpu, "threads"));
	sb_puts(sb, "DISKS\n");
	disks(sb, json_object_get(json_object_get(inv, "storage"), "devices"));
}
