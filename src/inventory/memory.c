/* Memory: total and NUMA nodes from /proc and /sys; DIMM type and speed from udev's
 * database or (as root) the SMBIOS table. */
#include "inventory/parsers.h"
#include "inventory/sections.h"
#include "inventory/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_meminfo_field(const char *buf, const char *key, uint64_t *bytes)
{
	size_t k = strlen(key);
	for (const char *line = buf; *line;) {
		const char *p = line;
		if (strncmp(p, "Node ", 5) == 0) { /* a node's meminfo: "Node 0 MemTotal: ..." */
			p += 5;
			while (isdigit((unsigned char)*p))
				p++;
			while (*p == ' ')
				p++;
		}
		if (strncmp(p, key, k) == 0 && p[k] == ':') {
			p += k + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			char *end;
			errno = 0;
			unsigned long long v = strtoull(p, &end, 10);
			if (errno || v > (1ull << 52))
				return -1;
			while (*end == ' ')
				end++;
			*bytes = strncmp(end, "kB", 2) == 0 ? v * 1024 : v;
			return 0;
		}
		line += strcspn(line, "\n");
		if (*line)
			line++;
	}
	return -1;
}

static const char *smbios_memory_type(unsigned t)
{
	switch (t) {
	case 0x12: return "DDR";
	case 0x13: return "DDR2";
	case 0x18: return "DDR3";
	case 0x1A: return "DDR4";
	case 0x1B: return "LPDDR";
	case 0x1C: return "LPDDR2";
	case 0x1D: return "LPDDR3";
	case 0x1E: return "LPDDR4";
	case 0x20: return "HBM";
	case 0x21: return "HBM2";
	case 0x22: return "DDR5";
	case 0x23: return "LPDDR5";
	case 0x24: return "HBM3";
	default: return NULL;
	}
}

static unsigned le16(const uint8_t *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | (uint32_t)le16(p + 2) << 16; }

static void dimm_add(struct dimm_info *d, const char *type, unsigned speed, unsigned configured, uint64_t size)
{
	d->count++;
	d->total += size;
	if (type && !d->type[0])
		sysfs_copy(d->type, sizeof d->type, type);
	/* Mixed modules run at the slowest one's speed: report the lowest. */
	if (speed && (!d->speed_mts || speed < d->speed_mts))
		d->speed_mts = speed;
	if (configured && (!d->configured_mts || configured < d->configured_mts))
		d->configured_mts = configured;
}

int parse_smbios_memory(const uint8_t *buf, size_t len, struct dimm_info *d)
{
	memset(d, 0, sizeof *d);
	size_t off = 0;
	while (off + 4 <= len) {
		unsigned type = buf[off], hlen = buf[off + 1];
		if (hlen < 4 || off + hlen > len)
			break;
		const uint8_t *s = buf + off;
		if (type == 17 && hlen >= 0x15) {
			unsigned sz = le16(s + 0x0C);
			uint64_t bytes = 0;
			if (sz == 0x7FFF && hlen >= 0x20)
				bytes = (uint64_t)(le32(s + 0x1C) & 0x7FFFFFFF) << 20;
			else if (sz != 0 && sz != 0xFFFF)
				bytes = sz & 0x8000 ? (uint64_t)(sz & 0x7FFF) << 10 : (uint64_t)sz << 20;
			if (sz != 0) /* 0: an empty slot */
				dimm_add(d, smbios_memory_type(s[0x12]), hlen >= 0x17 ? le16(s + 0x15) : 0,
					 hlen >= 0x22 ? le16(s + 0x20) : 0, bytes);
		}
		if (type == 127)
			break;
		/* Skip the formatted area, then the strings up to the double NUL. */
		size_t p = off + hlen;
		while (p + 1 < len && (buf[p] || buf[p + 1]))
			p++;
		off = p + 2;
	}
	return d->count ? 0 : -1;
}

int parse_udev_memory(const char *buf, struct dimm_info *d)
{
	memset(d, 0, sizeof *d);
	for (int i = 0; i < 256; i++) {
		char key[64], type[32] = "";
		unsigned long long speed = 0, conf = 0, size = 0;
		int seen = 0, absent = 0;
		for (const char *line = buf; *line;) {
			size_t n = strcspn(line, "\n");
			int k = snprintf(key, sizeof key, "E:MEMORY_DEVICE_%d_", i);
			if (n > (size_t)k && strncmp(line, key, (size_t)k) == 0) {
				const char *f = line + k;
				char val[64];
				const char *eq = memchr(f, '=', n - (size_t)k);
				if (eq) {
					size_t vl = (size_t)(line + n - eq - 1);
					snprintf(val, sizeof val, "%.*s", (int)(vl < 63 ? vl : 63), eq + 1);
					size_t fl = (size_t)(eq - f);
					seen = 1;
					if (fl == 4 && strncmp(f, "TYPE", 4) == 0)
						sysfs_copy(type, sizeof type, val);
					else if (fl == 9 && strncmp(f, "SPEED_MTS", 9) == 0)
						speed = strtoull(val, NULL, 10);
					else if (fl == 20 && strncmp(f, "CONFIGURED_SPEED_MTS", 20) == 0)
						conf = strtoull(val, NULL, 10);
					else if (fl == 4 && strncmp(f, "SIZE", 4) == 0)
						size = strtoull(val, NULL, 10);
					else if (fl == 7 && strncmp(f, "PRESENT", 7) == 0 && val[0] == '0')
						absent = 1;
				}
			}
			line += n;
			if (*line)
				line++;
		}
		if (!seen)
			break;
		sysfs_clean(type);
		if (!absent && size)
			dimm_add(d, type[0] && strcmp(type, "Unknown") ? type : NULL, speed < 100000 ? (unsigned)speed : 0,
				 conf < 100000 ? (unsigned)conf : 0, size);
	}
	return d->count ? 0 : -1;
}

static json_t *dimm_json(const struct dimm_info *d, const char *source)
{
	json_t *o = json_object();
	if (d->type[0])
		json_object_set_new(o, "type", json_string(d->type));
	if (d->speed_mts)
		json_object_set_new(o, "speed_mts", json_integer(d->speed_mts));
	if (d->configured_mts)
		json_object_set_new(o, "configured_mts", json_integer(d->configured_mts));
	json_object_set_new(o, "modules", json_integer(d->count));
	json_object_set_new(o, "source", json_string(source));
	return o;
}

static json_t *dimms(const char *root)
{
	struct dimm_info d;
	char *buf = malloc(SYSFS_MAX_READ + 1);
	json_t *o = NULL;
	if (!buf)
		return json_pack("{s:s}", "error", "out of memory");
	if (sysfs_read(root, buf, SYSFS_MAX_READ + 1, "/run/udev/data/+dmi:id") >= 0 && parse_udev_memory(buf, &d) == 0) {
		o = dimm_json(&d, "/run/udev/data/+dmi:id");
	} else {
		ssize_t n = sysfs_read(root, buf, SYSFS_MAX_READ + 1, "/sys/firmware/dmi/tables/DMI");
		int err = errno;
		if (n > 0 && parse_smbios_memory((const uint8_t *)buf, (size_t)n, &d) == 0)
			o = dimm_json(&d, "/sys/firmware/dmi/tables/DMI");
		else if (n < 0 && sysfs_needs_root(err))
			o = json_pack("{s:s,s:s}", "needs", "root", "source", "/sys/firmware/dmi/tables/DMI");
		else if (n < 0)
			o = json_pack("{s:s,s:s}", "error", "no SMBIOS table (a VM without DMI?)", "source",
				      "/sys/firmware/dmi/tables/DMI");
		else
			o = json_pack("{s:s,s:s}", "error", "no memory devices in the SMBIOS table", "source",
				      "/sys/firmware/dmi/tables/DMI");
	}
	free(buf);
	return o;
}

json_t *memory_collect(const char *root)
{
	json_t *o = json_object();
	char buf[8192];
	uint64_t total;
	if (sysfs_read(root, buf, sizeof buf, "/proc/meminfo") >= 0 && parse_meminfo_field(buf, "MemTotal", &total) == 0)
		json_object_set_new(o, "total", json_integer((json_int_t)total));

	json_t *nodes = json_array();
	char **names;
	int n = sysfs_list(root, &names, "/sys/devices/system/node");
	for (int i = 0; i < n; i++) {
		const char *nm = names[i];
		if (strncmp(nm, "node", 4) != 0 || !isdigit((unsigned char)nm[4]))
			continue;
		json_t *node = json_pack("{s:i}", "node", atoi(nm + 4));
		char cpus[1024];
		if (sysfs_str(root, cpus, sizeof cpus, "/sys/devices/system/node/%s/cpulist", nm) == 0)
			json_object_set_new(node, "cpus", json_string(cpus));
		if (sysfs_read(root, buf, sizeof buf, "/sys/devices/system/node/%s/meminfo", nm) >= 0 &&
		    parse_meminfo_field(buf, "MemTotal", &total) == 0)
			json_object_set_new(node, "memory", json_integer((json_int_t)total));
		json_array_append_new(nodes, node);
	}
	sysfs_list_free(names, n);
	json_object_set_new(o, "numa_nodes", nodes);
	json_object_set_new(o, "dimms", dimms(root));
	json_object_set_new(o, "source", json_string("/proc/meminfo, /sys/devices/system/node"));
	return o;
}
