/* CPU: model and ISA from /proc/cpuinfo, topology, caches, frequency scaling, SMT and
 * vulnerabilities from /sys/devices/system/cpu. */
#include "inventory/parsers.h"
#include "inventory/sections.h"
#include "inventory/sysfs.h"
#include "util/cpulist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cpu_isa_names[5] = { "sse4.2", "avx2", "avx512f", "sha_ni", "aes" };
static const char *const isa_flags[5] = { "sse4_2", "avx2", "avx512f", "sha_ni", "aes" };

/* "key\t: value" -> value copied into out; 1 when the line has this key. */
static int cpuinfo_value(const char *line, size_t linelen, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);
	if (linelen < k || strncmp(line, key, k) != 0)
		return 0;
	const char *p = line + k;
	const char *end = line + linelen;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != ':')
		return 0;
	p++;
	while (p < end && *p == ' ')
		p++;
	size_t n = (size_t)(end - p);
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	sysfs_clean(out);
	return 1;
}

static unsigned isa_bits(const char *flags)
{
	unsigned bits = 0;
	for (const char *p = flags; *p;) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		for (int i = 0; i < 5; i++)
			if (strlen(isa_flags[i]) == n && strncmp(p, isa_flags[i], n) == 0)
				bits |= 1u << i;
		if (n == 10 && strncmp(p, "hypervisor", 10) == 0)
			bits |= 1u << 31;
		p += n;
	}
	return bits;
}

void parse_cpuinfo(const char *buf, struct cpuinfo *ci)
{
	memset(ci, 0, sizeof *ci);
	char val[4096];
	int block = 0; /* index of the "processor" block we are in */
	for (const char *line = buf; *line;) {
		size_t n = strcspn(line, "\n");
		if (cpuinfo_value(line, n, "processor", val, sizeof val))
			block = ++ci->processors;
		else if (block <= 1) {
			if (cpuinfo_value(line, n, "model name", val, sizeof val) ||
			    (!ci->model[0] && (cpuinfo_value(line, n, "Model", val, sizeof val) ||
					       cpuinfo_value(line, n, "Hardware", val, sizeof val))))
				sysfs_copy(ci->model, sizeof ci->model, val);
			else if (cpuinfo_value(line, n, "vendor_id", val, sizeof val) ||
				 (!ci->vendor[0] && cpuinfo_value(line, n, "CPU implementer", val, sizeof val)))
				sysfs_copy(ci->vendor, sizeof ci->vendor, val);
			else if (cpuinfo_value(line, n, "flags", val, sizeof val) ||
				 cpuinfo_value(line, n, "Features", val, sizeof val)) {
				unsigned bits = isa_bits(val);
				ci->isa = bits & 31;
				ci->hypervisor = !!(bits & (1u << 31));
			} else if (cpuinfo_value(line, n, "cpu cores", val, sizeof val))
				ci->cpu_cores = atoi(val);
			else if (cpuinfo_value(line, n, "siblings", val, sizeof val))
				ci->siblings = atoi(val);
			else if (cpuinfo_value(line, n, "cache size", val, sizeof val))
				ci->cache_bytes = parse_cache_size(val);
			else if (cpuinfo_value(line, n, "cpu MHz", val, sizeof val))
				ci->mhz = atof(val);
		}
		line += n;
		if (*line)
			line++;
	}
	if (ci->cpu_cores < 0 || ci->cpu_cores > 1 << 20)
		ci->cpu_cores = 0;
	if (ci->siblings < 0 || ci->siblings > 1 << 20)
		ci->siblings = 0;
	if (!(ci->mhz >= 0 && ci->mhz < 1e7))
		ci->mhz = 0;
}

uint64_t parse_cache_size(const char *s)
{
	char *end;
	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	unsigned long long v = strtoull(s, &end, 10);
	while (*end == ' ')
		end++;
	uint64_t mult = 1;
	if (*end == 'K' || *end == 'k')
		mult = 1024;
	else if (*end == 'M' || *end == 'm')
		mult = 1024 * 1024;
	else if (*end == 'G' || *end == 'g')
		mult = 1024ull * 1024 * 1024;
	if (v > (1ull << 40))
		return 0;
	return v * mult;
}

/* sockets, cores and threads from each online CPU's topology directory. */
static int topology(const char *root, int *sockets, int *cores, int *threads)
{
	char **names;
	int n = sysfs_list(root, &names, "/sys/devices/system/cpu");
	long long *pkg = calloc(n > 0 ? (size_t)n : 1, sizeof *pkg), *core = calloc(n > 0 ? (size_t)n : 1, sizeof *core);
	int t = 0, s = 0, c = 0;
	for (int i = 0; pkg && core && i < n; i++) {
		const char *nm = names[i];
		if (strncmp(nm, "cpu", 3) != 0 || !isdigit((unsigned char)nm[3]))
			continue;
		long long p, cid;
		if (sysfs_long(root, &p, "/sys/devices/system/cpu/%s/topology/physical_package_id", nm) < 0 ||
		    sysfs_long(root, &cid, "/sys/devices/system/cpu/%s/topology/core_id", nm) < 0)
			continue; /* offline CPUs have no topology */
		int new_pkg = 1, new_core = 1;
		for (int j = 0; j < t; j++) {
			if (pkg[j] == p) {
				new_pkg = 0;
				if (core[j] == cid)
					new_core = 0;
			}
		}
		pkg[t] = p;
		core[t] = cid;
		t++;
		s += new_pkg;
		c += new_core;
	}
	free(pkg);
	free(core);
	sysfs_list_free(names, n);
	if (!t)
		return -1;
	*sockets = s;
	*cores = c;
	*threads = t;
	return 0;
}

static json_t *caches(const char *root, const struct cpuinfo *ci)
{
	json_t *arr = json_array();
	char **idx;
	int n = sysfs_list(root, &idx, "/sys/devices/system/cpu/cpu0/cache");
	for (int i = 0; i < n; i++) {
		char type[32], size[32], shared[256];
		long long level;
		if (strncmp(idx[i], "index", 5) != 0 ||
		    sysfs_long(root, &level, "/sys/devices/system/cpu/cpu0/cache/%s/level", idx[i]) < 0 ||
		    sysfs_str(root, size, sizeof size, "/sys/devices/system/cpu/cpu0/cache/%s/size", idx[i]) < 0)
			continue;
		json_t *c = json_pack("{s:I,s:I}", "level", (json_int_t)level, "size", (json_int_t)parse_cache_size(size));
		if (sysfs_str(root, type, sizeof type, "/sys/devices/system/cpu/cpu0/cache/%s/type", idx[i]) == 0)
			json_object_set_new(c, "type", json_string(type));
		if (sysfs_str(root, shared, sizeof shared, "/sys/devices/system/cpu/cpu0/cache/%s/shared_cpu_list", idx[i]) == 0 &&
		    cpulist_count(shared) > 0)
			json_object_set_new(c, "shared_by", json_integer(cpulist_count(shared)));
		json_array_append_new(arr, c);
	}
	sysfs_list_free(idx, n);
	if (n <= 0 && ci->cache_bytes)
		/* VMs often have no cache directory: cpuinfo's one figure (L2 on AMD, L3 on Intel). */
		json_array_append_new(arr, json_pack("{s:I,s:s}", "size", (json_int_t)ci->cache_bytes, "source",
						     "/proc/cpuinfo \"cache size\" (level not given)"));
	return arr;
}

static json_t *vulnerabilities(const char *root)
{
	json_t *o = json_object();
	char **names;
	int n = sysfs_list(root, &names, "/sys/devices/system/cpu/vulnerabilities");
	for (int i = 0; i < n; i++) {
		char v[256];
		if (sysfs_str(root, v, sizeof v, "/sys/devices/system/cpu/vulnerabilities/%s", names[i]) == 0)
			json_object_set_new(o, names[i], json_string(v));
	}
	sysfs_list_free(names, n);
	return o;
}

json_t *cpu_collect(const char *root)
{
	char *buf = malloc(SYSFS_MAX_READ + 1);
	struct cpuinfo ci;
	if (!buf || sysfs_read(root, buf, SYSFS_MAX_READ + 1, "/proc/cpuinfo") < 0) {
		if (buf)
			buf[0] = '\0';
	}
	parse_cpuinfo(buf ? buf : "", &ci);
	free(buf);

	json_t *o = json_object();
	if (ci.model[0])
		json_object_set_new(o, "model", json_string(ci.model));
	if (ci.vendor[0])
		json_object_set_new(o, "vendor", json_string(ci.vendor));

	int sockets, cores, threads;
	if (topology(root, &sockets, &cores, &threads) < 0) {
		/* No topology in /sys: cpuinfo's per-package counts. */
		threads = ci.processors;
		sockets = ci.siblings > 0 && ci.processors >= ci.siblings ? ci.processors / ci.siblings : 1;
		cores = ci.cpu_cores > 0 ? ci.cpu_cores * sockets : threads;
	}
	json_object_set_new(o, "sockets", json_integer(sockets));
	json_object_set_new(o, "cores", json_integer(cores));
	json_object_set_new(o, "threads", json_integer(threads));

	char s[256];
	if (sysfs_str(root, s, sizeof s, "/sys/devices/system/cpu/online") == 0) {
		json_object_set_new(o, "online", json_string(s));
		if (cpulist_count(s) >= 0)
			json_object_set_new(o, "online_count", json_integer(cpulist_count(s)));
	}
	if (sysfs_str(root, s, sizeof s, "/sys/devices/system/cpu/smt/control") == 0)
		json_object_set_new(o, "smt", json_string(s));
	else
		json_object_set_new(o, "smt", json_string(threads > cores ? "on" : "off"));

	json_object_set_new(o, "caches", caches(root, &ci));
	json_t *isa = json_array();
	for (int i = 0; i < 5; i++)
		if (ci.isa & (1u << i))
			json_array_append_new(isa, json_string(cpu_isa_names[i]));
	json_object_set_new(o, "isa", isa);
	json_object_set_new(o, "hypervisor_flag", json_boolean(ci.hypervisor));

	json_t *freq = json_object();
	long long khz;
	if (sysfs_str(root, s, sizeof s, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver") == 0)
		json_object_set_new(freq, "driver", json_string(s));
	if (sysfs_str(root, s, sizeof s, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") == 0)
		json_object_set_new(freq, "governor", json_string(s));
	if (sysfs_long(root, &khz, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq") == 0 && khz > 0)
		json_object_set_new(freq, "max_mhz", json_integer(khz / 1000));
	/* cpuinfo's "cpu MHz" is left out: it changes from read to read, and the inventory is
	 * compared between runs. Without cpufreq it is the only figure there is. */
	if (!json_object_get(freq, "max_mhz") && ci.mhz > 0)
		json_object_set_new(freq, "nominal_mhz", json_integer((json_int_t)(ci.mhz + 0.5)));
	if (!json_object_get(freq, "driver"))
		json_object_set_new(freq, "driver", json_string("none (no cpufreq in /sys: the host or firmware controls it)"));
	json_object_set_new(o, "frequency", freq);
	json_object_set_new(o, "vulnerabilities", vulnerabilities(root));
	json_object_set_new(o, "source", json_string("/proc/cpuinfo, /sys/devices/system/cpu"));
	return o;
}
