/* The one-line summary people write in benchmark posts:
 * "2-core Intel Xeon (KVM), 23 GiB RAM, virtio 256 GiB ext4, Debian 12, Linux 6.18". */
#include "inventory/inventory.h"
#include "inventory/sysfs.h"
#include "inventory/block.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static long long num(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* Removes every occurrence of word from s. */
static void drop(char *s, const char *word)
{
	size_t n = strlen(word);
	for (char *p; (p = strstr(s, word));)
		memmove(p, p + n, strlen(p + n) + 1);
}

/* "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz" -> "Intel Xeon Gold 6338";
 * "AMD EPYC 7763 64-Core Processor" -> "AMD EPYC 7763". */
static void short_model(const char *model, char *out, size_t len)
{
	sysfs_copy(out, len, model);
	char *at = strstr(out, " @ ");
	if (at)
		*at = '\0';
	drop(out, "(R)");
	drop(out, "(r)");
	drop(out, "(TM)");
	drop(out, "(tm)");
	drop(out, " CPU");
	drop(out, " Processor");
	char *core = strstr(out, "-Core");
	if (core) { /* " 64-Core" */
		char *start = core;
		while (start > out && start[-1] != ' ')
			start--;
		memmove(start > out ? start - 1 : start, core + 5, strlen(core + 5) + 1);
	}
	/* squeeze spaces */
	char *w = out;
	for (char *r = out; *r; r++)
		if (*r != ' ' || (w > out && w[-1] != ' '))
			*w++ = *r;
	while (w > out && w[-1] == ' ')
		w--;
	*w = '\0';
}

static void short_size(unsigned long long bytes, char *out, size_t len)
{
	static const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int i = 0;
	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	if (v < 10 && i > 0 && (long long)(v * 10 + 0.5) % 10 != 0)
		snprintf(out, len, "%.1f %s", v, u[i]);
	else
		snprintf(out, len, "%.0f %s", v, u[i]);
}

static const char *virt_label(const char *v)
{
	static const struct { const char *v, *label; } labels[] = {
		{ "kvm", "KVM" }, { "qemu", "QEMU" }, { "xen", "Xen" }, { "vmware", "VMware" }, { "hyperv", "Hyper-V" },
		{ "virtualbox", "VirtualBox" }, { "bhyve", "bhyve" }, { "parallels", "Parallels" }, { "unknown", "VM" },
	};
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (strcmp(v, labels[i].v) == 0)
			return labels[i].label;
	return v;
}

/* The first md level and the dm kinds (crypt, LVM) met walking the stack from the top, in
 * that order: LVM on dm-crypt is "LVM", "dm-crypt". */
struct features {
	const char *md_level;
	const char *dm[4];
	int ndm;
};

static void stack_features(const json_t *node, struct features *f, int depth)
{
	if (!node || depth > 16)
		return;
	const char *type = str(node, "type");
	if (strcmp(type, "md") == 0 && !f->md_level)
		f->md_level = str(node, "level");
	if (strcmp(type, "crypt") == 0 || strcmp(type, "lvm") == 0) {
		int seen = 0;
		for (int i = 0; i < f->ndm; i++)
			seen |= strcmp(f->dm[i], type) == 0;
		if (!seen && f->ndm < 4)
			f->dm[f->ndm++] = type;
	}
	size_t i;
	json_t *child;
	json_array_foreach(json_object_get(node, "slaves"), i, child)
		stack_features(child, f, depth + 1);
}

/* ", 16x NVMe RAID0 56 TiB xfs"; without the file system when fs is 0. */
static void storage_part(struct strbuf *sb, const json_t *path, int fs)
{
	const char *fstype = str(path, "fstype");
	const json_t *stack = json_object_get(path, "stack");
	size_t nphys = json_array_size(json_object_get(path, "physical"));
	if (!json_object_get(path, "device") && !nphys) {
		if (*fstype && fs)
			sb_printf(sb, ", %s", fstype);
		return;
	}
	const char *transport = str(path, "transport");
	json_t *rot = json_object_get(path, "rotational");
	sb_puts(sb, ", ");
	if (nphys > 1)
		sb_printf(sb, "%zux ", nphys);
	if (*transport)
		sb_printf(sb, "%s ", block_transport_label(transport));
	if ((strcmp(transport, "sata") == 0 || strcmp(transport, "sas") == 0 || strcmp(transport, "scsi") == 0 ||
	     strcmp(transport, "usb") == 0) && rot)
		sb_puts(sb, json_is_true(rot) ? "HDD " : "SSD ");
	struct features f = { 0 };
	stack_features(stack, &f, 0);
	if (f.md_level && *f.md_level) {
		if (strncmp(f.md_level, "raid", 4) == 0)
			sb_printf(sb, "RAID%s ", f.md_level + 4);
		else
			sb_printf(sb, "md %s ", f.md_level);
	}
	for (int i = 0; i < f.ndm; i++)
		sb_printf(sb, "%s%s", strcmp(f.dm[i], "crypt") == 0 ? "dm-crypt" : "LVM", i + 1 < f.ndm ? " on " : " ");
	/* a pool's layout in its own words: "mirror", "raidz2" (one disk or a stripe: nothing) */
	const char *layout = str(stack, "layout");
	if (*layout && strstr(layout, " of ") && !strstr(layout, "mixed")) {
		const char *of = strstr(layout, " of ");
		const char *start = strstr(layout, " x ") ? strstr(layout, " x ") + 3 : layout;
		if (start < of)
			sb_printf(sb, "%.*s ", (int)(of - start), start);
	}
	long long size = json_object_get(path, "size") ? num(path, "size") : num(stack, "size");
	if (size > 0) {
		char sz[32];
		short_size((unsigned long long)size, sz, sizeof sz);
		sb_printf(sb, "%s ", sz);
	}
	if (fs)
		sb_puts(sb, fstype);
	else if (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = '\0';
}

char *inventory_path_storage(const json_t *path)
{
	const char *dev = str(path, "device");
	if (!*dev && !json_array_size(json_object_get(path, "physical")))
		return NULL;
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, *dev ? dev : "?");
	sb_puts(&sb, ":");
	storage_part(&sb, path, 0);
	char *text = sb_detach(&sb);
	/* storage_part begins ", ": "md0: 16x NVMe RAID0 56 TiB" */
	char *comma = strstr(text, ":, ");
	if (comma)
		memmove(comma + 1, comma + 2, strlen(comma + 2) + 1);
	return text;
}

static void os_part(struct strbuf *sb, const json_t *os)
{
	char name[64];
	sysfs_copy(name, sizeof name, *str(os, "name") ? str(os, "name") : str(os, "id"));
	drop(name, " GNU/Linux");
	size_t n = strlen(name);
	if (n > 6 && strcmp(name + n - 6, " Linux") == 0)
		name[n - 6] = '\0';
	if (name[0])
		sb_printf(sb, ", %s%s%s", name, *str(os, "version_id") ? " " : "", str(os, "version_id"));
	const char *k = str(os, "kernel");
	if (*k) {
		int major, minor;
		if (sscanf(k, "%d.%d", &major, &minor) == 2)
			sb_printf(sb, ", Linux %d.%d", major, minor);
		else
			sb_printf(sb, ", Linux %s", k);
	}
}

char *inventory_summary(const json_t *inv)
{
	struct strbuf sb;
	sb_init(&sb);
	const json_t *cpu = json_object_get(inv, "cpu"), *mem = json_object_get(inv, "memory");
	const json_t *os = json_object_get(inv, "os");

	long long sockets = num(cpu, "sockets"), cores = num(cpu, "cores"), threads = num(cpu, "threads");
	/* an inventory without the CPU's facts (an import, a partial record) says nothing of cores,
	 * rather than "0-core" */
	if (cores > 0 && sockets > 1 && cores % sockets == 0)
		sb_printf(&sb, "%lldx %lld-core", sockets, cores / sockets);
	else if (cores > 0)
		sb_printf(&sb, "%lld-core", cores);
	if (cores > 0 && threads > cores)
		sb_printf(&sb, "/%lld-thread", threads);
	char model[128];
	short_model(*str(cpu, "model") ? str(cpu, "model") : str(cpu, "vendor"), model, sizeof model);
	if (model[0])
		sb_printf(&sb, " %s", model);
	const char *virt = str(json_object_get(os, "virtualization"), "type");
	if (*virt && strcmp(virt, "none") != 0)
		sb_printf(&sb, " (%s)", virt_label(virt));

	long long total = num(mem, "total");
	if (total >= 1LL << 30)
		sb_printf(&sb, ", %lld GiB RAM", total >> 30); /* MemTotal is below the DIMMs' sum: floor */
	else if (total > 0)
		sb_printf(&sb, ", %lld MiB RAM", total >> 20);
	storage_part(&sb, json_object_get(inv, "path"), 1);
	os_part(&sb, os);
	char *text = sb_detach(&sb);
	/* the parts after the CPU begin ", ": without the CPU, the first one's comma goes */
	if (strncmp(text, ", ", 2) == 0)
		memmove(text, text + 2, strlen(text + 2) + 1);
	else if (text[0] == ' ')
		memmove(text, text + 1, strlen(text));
	return text;
}
