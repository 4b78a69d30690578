/* The inventory as text for people: the summary line, then CPU, memory, OS, storage and the
 * stack under the path, each section ending with where its facts came from. */
#include "inventory/inventory.h"
#include "inventory/block.h"
#include "inventory/sections.h"
#include "util/strbuf.h"
#include "util/units.h"

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

static const char *bytes(long long v, char *buf, size_t len)
{
	return units_bytes_iec(v > 0 ? (uint64_t)v : 0, buf, len);
}

static void line(struct strbuf *sb, const char *label, const char *value)
{
	if (value && *value)
		sb_printf(sb, "  %-16s %s\n", label, value);
}

static void cpu_text(struct strbuf *sb, const json_t *cpu)
{
	struct strbuf v;
	char b[32];
	sb_init(&v);
	sb_puts(sb, "CPU\n");
	line(sb, "model", str(cpu, "model"));
	line(sb, "vendor", str(cpu, "vendor"));
	sb_printf(&v, "%lld socket%s, %lld cores, %lld threads", num(cpu, "sockets"), num(cpu, "sockets") == 1 ? "" : "s",
		  num(cpu, "cores"), num(cpu, "threads"));
	if (*str(cpu, "online"))
		sb_printf(&v, ", online %s", str(cpu, "online"));
	sb_printf(&v, ", SMT %s", str(cpu, "smt"));
	line(sb, "topology", v.buf);
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(cpu, "caches"), i, c) {
		sb_reset(&v);
		const char *type = str(c, "type");
		if (json_object_get(c, "level"))
			sb_printf(&v, "L%lld%s ", num(c, "level"),
				  strcmp(type, "Data") == 0 ? "d" : strcmp(type, "Instruction") == 0 ? "i" : "");
		sb_puts(&v, bytes(num(c, "size"), b, sizeof b));
		if (json_object_get(c, "shared_by"))
			sb_printf(&v, ", shared by %lld CPU%s", num(c, "shared_by"), num(c, "shared_by") == 1 ? "" : "s");
		if (*str(c, "source"))
			sb_printf(&v, " (%s)", str(c, "source"));
		line(sb, i == 0 ? "caches" : "", v.buf);
	}
	sb_reset(&v);
	json_array_foreach(json_object_get(cpu, "isa"), i, c)
		sb_printf(&v, "%s%s", i ? " " : "", json_string_value(c));
	line(sb, "ISA", v.len ? v.buf : "(none of sse4.2 avx2 avx512f sha_ni aes)");
	const json_t *f = json_object_get(cpu, "frequency");
	sb_reset(&v);
	sb_printf(&v, "driver %s", str(f, "driver"));
	if (*str(f, "governor"))
		sb_printf(&v, ", governor %s", str(f, "governor"));
	if (json_object_get(f, "max_mhz"))
		sb_printf(&v, ", max %lld MHz", num(f, "max_mhz"));
	if (json_object_get(f, "nominal_mhz"))
		sb_printf(&v, ", %lld MHz (cpuinfo)", num(f, "nominal_mhz"));
	line(sb, "frequency", v.buf);
	const char *k;
	json_t *val;
	int affected = 0;
	json_object_foreach((json_t *)json_object_get(cpu, "vulnerabilities"), k, val) {
		const char *s = json_string_value(val);
		if (s && strcmp(s, "Not affected") != 0) {
			sb_reset(&v);
			sb_printf(&v, "%s: %s", k, s);
			line(sb, affected++ ? "" : "vulnerabilities", v.buf);
		}
	}
	line(sb, "source", str(cpu, "source"));
	sb_free(&v);
}

static void memory_text(struct strbuf *sb, const json_t *mem)
{
	char b[32], v[256];
	sb_puts(sb, "Memory\n");
	line(sb, "total", bytes(num(mem, "total"), b, sizeof b));
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(mem, "numa_nodes"), i, n) {
		char label[32];
		snprintf(label, sizeof label, "NUMA node %lld", num(n, "node"));
		snprintf(v, sizeof v, "CPUs %s, %s", *str(n, "cpus") ? str(n, "cpus") : "none",
			 bytes(num(n, "memory"), b, sizeof b));
		line(sb, label, v);
	}
	const json_t *d = json_object_get(mem, "dimms");
	if (*str(d, "needs"))
		snprintf(v, sizeof v, "needs root (%s)", str(d, "source"));
	else if (*str(d, "error"))
		snprintf(v, sizeof v, "%s (%s)", str(d, "error"), str(d, "source"));
	else
		snprintf(v, sizeof v, "%lld x %s, %lld MT/s (%s)", num(d, "modules"), *str(d, "type") ? str(d, "type") : "?",
			 num(d, "speed_mts"), str(d, "source"));
	line(sb, "DIMMs", v);
	line(sb, "source", str(mem, "source"));
}

/* Boot parameters that change what a benchmark measures; the rest (root=, quiet) does not. */
static int notable_param(const char *w, size_t n)
{
	static const char *const keys[] = { "mitigations", "isolcpus", "nohz_full", "rcu_nocbs", "intel_pstate",
					    "amd_pstate", "transparent_hugepage", "hugepages", "default_hugepagesz",
					    "iommu", "intel_iommu", "amd_iommu", "idle", "processor.max_cstate",
					    "intel_idle.max_cstate", "cpufreq.default_governor", "numa_balancing",
					    "nosmt", "elevator", "preempt", "threadirqs", "zswap.enabled" };
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		size_t k = strlen(keys[i]);
		if (n >= k && strncmp(w, keys[i], k) == 0 && (n == k || w[k] == '='))
			return 1;
	}
	return 0;
}

/* One line: the release, how long the command line is and the parameters that matter; the
 * whole command line only when asked (it is long and mostly paths and UUIDs). */
static void kernel_text(struct strbuf *sb, const json_t *os, int verbose)
{
	struct strbuf v, notable;
	sb_init(&v);
	sb_init(&notable);
	const char *c = str(os, "cmdline");
	int words = 0;
	while (*c) {
		while (*c == ' ' || *c == '\t')
			c++;
		if (!*c)
			break;
		size_t n = strcspn(c, " \t");
		words++;
		if (notable_param(c, n))
			sb_printf(&notable, "%s%.*s", notable.len ? " " : "", (int)n, c);
		c += n;
	}
	sb_puts(&v, *str(os, "kernel") ? str(os, "kernel") : "unknown");
	if (words)
		sb_printf(&v, ", command line of %d word%s%s%s", words, words == 1 ? "" : "s",
			  notable.len ? ": " : "", notable.len ? notable.buf : "");
	line(sb, "kernel", v.buf);
	if (verbose)
		line(sb, "command line", str(os, "cmdline"));
	sb_free(&v);
	sb_free(&notable);
}

static void os_text(struct strbuf *sb, const json_t *os, int verbose)
{
	char v[256];
	sb_puts(sb, "OS\n");
	line(sb, "distribution", *str(os, "pretty_name") ? str(os, "pretty_name") : str(os, "name"));
	kernel_text(sb, os, verbose);
	const json_t *virt = json_object_get(os, "virtualization"), *ct = json_object_get(os, "container");
	snprintf(v, sizeof v, "%s (%s)", str(virt, "type"), str(virt, "source"));
	line(sb, "virtualization", v);
	snprintf(v, sizeof v, "%s (%s)", str(ct, "type"), str(ct, "source"));
	line(sb, "container", v);
	line(sb, "clock source", str(os, "clocksource"));
	const char *k;
	json_t *val;
	json_object_foreach((json_t *)json_object_get(os, "dmi"), k, val) {
		snprintf(v, sizeof v, "DMI %s", k);
		line(sb, v, json_string_value(val));
	}
	line(sb, "source", str(os, "source"));
}

static void device_text(struct strbuf *sb, const json_t *d)
{
	char b[32];
	const char *t = *str(d, "transport") ? block_transport_label(str(d, "transport")) : str(d, "kind");
	sb_printf(sb, "  %-10s %-7s %10s", str(d, "name"), t,
		  bytes(num(d, "size"), b, sizeof b));
	json_t *rot = json_object_get(d, "rotational");
	if (rot)
		sb_puts(sb, json_is_true(rot) ? "  rotational" : "  solid-state");
	if (*str(d, "model"))
		sb_printf(sb, "  %s%s%s", str(d, "vendor"), *str(d, "vendor") ? " " : "", str(d, "model"));
	if (*str(d, "firmware"))
		sb_printf(sb, "  fw %s", str(d, "firmware"));
	if (*str(d, "scheduler"))
		sb_printf(sb, "  sched %s", str(d, "scheduler"));
	if (json_object_get(d, "logical_block"))
		sb_printf(sb, "  blocks %lld/%lld", num(d, "logical_block"), num(d, "physical_block"));
	const json_t *p = json_object_get(d, "pcie");
	if (p)
		sb_printf(sb, "  PCIe %lld.0 x%lld (max %lld.0 x%lld)", num(p, "gen"), num(p, "width"), num(p, "max_gen"),
			  num(p, "max_width"));
	if (json_object_get(d, "numa_node"))
		sb_printf(sb, "  NUMA %lld", num(d, "numa_node"));
	if (*str(d, "serial"))
		sb_printf(sb, "  serial %s", str(d, "serial"));
	sb_puts(sb, "\n");
}

static void layer_text(struct strbuf *sb, const json_t *n, int depth)
{
	char b[32];
	if (depth > 16)
		return;
	sb_printf(sb, "    %*s%s%s", depth * 2, "", depth ? "└ " : "", str(n, "name"));
	const char *type = str(n, "type");
	if (strcmp(type, "crypt") == 0)
		sb_puts(sb, "  dm-crypt");
	else if (strcmp(type, "lvm") == 0)
		sb_puts(sb, "  LVM");
	else if (*type)
		sb_printf(sb, "  %s", type);
	if (*str(n, "dm_name"))
		sb_printf(sb, " %s", str(n, "dm_name"));
	if (json_object_get(n, "luks_version"))
		sb_printf(sb, ", LUKS%lld", num(n, "luks_version"));
	if (*str(n, "cipher"))
		sb_printf(sb, ", %s %lld-bit", str(n, "cipher"), num(n, "key_bits"));
	else if (*str(n, "cipher_source"))
		sb_printf(sb, ", cipher %s", str(n, "cipher_source"));
	if (*str(n, "vg"))
		sb_printf(sb, ", VG %s LV %s", str(n, "vg"), str(n, "lv"));
	if (*str(n, "level"))
		sb_printf(sb, " %s", str(n, "level"));
	if (json_object_get(n, "chunk"))
		sb_printf(sb, ", chunk %s", bytes(num(n, "chunk"), b, sizeof b));
	if (json_object_get(n, "raid_disks"))
		sb_printf(sb, ", %lld disks", num(n, "raid_disks"));
	if (*str(n, "state"))
		sb_printf(sb, ", %s%s%s%s", str(n, "state"), *str(n, "sync_completed") ? " (" : "",
			  str(n, "sync_completed"), *str(n, "sync_completed") ? ")" : "");
	if (*str(n, "layout"))
		sb_printf(sb, " %s", str(n, "layout"));
	if (*str(n, "transport"))
		sb_printf(sb, "  %s", block_transport_label(str(n, "transport")));
	sb_printf(sb, "  %s", bytes(num(n, "size"), b, sizeof b));
	if (*str(n, "model"))
		sb_printf(sb, "  %s%s%s", str(n, "vendor"), *str(n, "vendor") ? " " : "", str(n, "model"));
	if (*str(n, "firmware"))
		sb_printf(sb, "  fw %s", str(n, "firmware"));
	sb_puts(sb, "\n");
	if (*str(n, "scheduler") || *str(n, "write_cache")) {
		sb_printf(sb, "    %*s  %s cache, discard %s, sched %s, nr_requests %lld, read_ahead %lld KiB",
			  depth * 2, "", *str(n, "write_cache") ? str(n, "write_cache") : "? ",
			  json_is_true(json_object_get(n, "discard")) ? "yes" : "no", str(n, "scheduler"),
			  num(n, "nr_requests"), num(n, "read_ahead_kb"));
		const json_t *lba = json_object_get(n, "lba_format");
		if (lba)
			sb_printf(sb, ", LBA %lld+%lld", num(lba, "data_bytes"), num(lba, "metadata_bytes"));
		sb_puts(sb, "\n");
	}
	if (*str(n, "error"))
		sb_printf(sb, "  %*s  (%s)\n", depth * 2, "", str(n, "error"));
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(n, "slaves"), i, c)
		layer_text(sb, c, depth + 1);
}

static void path_text(struct strbuf *sb, const json_t *p)
{
	char v[768], b[32];
	sb_printf(sb, "Path %s%s%s%s\n", str(p, "path"), *str(p, "resolved") ? " (" : "", str(p, "resolved"),
		  *str(p, "resolved") ? ")" : "");
	if (*str(p, "error")) {
		line(sb, "error", str(p, "error"));
		return;
	}
	line(sb, "note", str(p, "note"));
	if (json_object_get(p, "fstype")) {
		snprintf(v, sizeof v, "%s  %s%s%s", *str(p, "mountpoint") ? str(p, "mountpoint") : "(not listed)",
			 str(p, "fstype"), *str(p, "mount_source") ? " from " : "", str(p, "mount_source"));
		line(sb, "mount", v);
	}
	line(sb, "options", str(p, "options"));
	if (json_object_get(p, "fs_size")) {
		char used[32], size[32];
		snprintf(v, sizeof v, "%s used of %s, %s available, block size %lld", bytes(num(p, "fs_used"), used, sizeof used),
			 bytes(num(p, "fs_size"), size, sizeof size), bytes(num(p, "fs_available"), b, sizeof b),
			 num(p, "fs_block_size"));
		line(sb, "space", v);
	}
	if (json_object_get(p, "dataset")) {
		const json_t *z = json_object_get(p, "zfs");
		/* each property by its name, as zfs get prints them */
		if (json_is_integer(json_object_get(p, "recordsize")))
			snprintf(v, sizeof v, "%s: recordsize %s, compression %s, atime %s, sync %s, primarycache %s (%s)",
				 str(p, "dataset"), bytes(num(p, "recordsize"), b, sizeof b), str(z, "compression"),
				 str(z, "atime"), str(z, "sync"), str(z, "primarycache"), str(p, "recordsize_source"));
		else
			snprintf(v, sizeof v, "%s: recordsize unknown: %s", str(p, "dataset"), str(p, "recordsize_source"));
		line(sb, "ZFS dataset", v);
		if (*str(z, "pool_health")) {
			snprintf(v, sizeof v, "%s: health %s%s%s", str(z, "pool"), str(z, "pool_health"),
				 *str(z, "layout") ? ", layout " : "", str(z, "layout"));
			if (json_is_integer(json_object_get(z, "ashift")))
				snprintf(v + strlen(v), sizeof v - strlen(v), ", ashift %lld", num(z, "ashift"));
			line(sb, "ZFS pool", v);
		}
	}
	if (json_object_get(p, "memory_backed"))
		line(sb, "backing", "memory");
	if (json_object_get(p, "stack")) {
		sb_puts(sb, "  stack\n");
		layer_text(sb, json_object_get(p, "stack"), 0);
	}
	line(sb, "source", str(p, "source"));
}

char *inventory_text(const json_t *inv, int verbose)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%s\n\n", str(inv, "summary"));
	if (*str(inv, "sysroot"))
		sb_printf(&sb, "(read from the sysroot %s)\n\n", str(inv, "sysroot"));
	overview_text(&sb, inv);
	sb_puts(&sb, "\n");
	cpu_text(&sb, json_object_get(inv, "cpu"));
	sb_puts(&sb, "\n");
	memory_text(&sb, json_object_get(inv, "memory"));
	sb_puts(&sb, "\n");
	os_text(&sb, json_object_get(inv, "os"), verbose);
	sb_puts(&sb, "\nStorage\n");
	const json_t *st = json_object_get(inv, "storage");
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(st, "devices"), i, d)
		device_text(&sb, d);
	line(&sb, "source", str(st, "source"));
	sb_puts(&sb, "\n");
	path_text(&sb, json_object_get(inv, "path"));
	return sb_detach(&sb);
}

char *inventory_overview(const json_t *inv)
{
	struct strbuf sb;
	sb_init(&sb);
	overview_text(&sb, inv);
	return sb_detach(&sb);
}
