/* OS: distribution, kernel, boot command line, virtualization and containers, clock source,
 * and the DMI strings that name the machine. */
#include "inventory/parsers.h"
#include "inventory/sections.h"
#include "inventory/stack.h"
#include "inventory/sysfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

void parse_os_release(const char *buf, struct os_release *o)
{
	memset(o, 0, sizeof *o);
	static const struct { const char *key; size_t off, len; } keys[] = {
		{ "NAME", offsetof(struct os_release, name), sizeof o->name },
		{ "VERSION_ID", offsetof(struct os_release, version_id), sizeof o->version_id },
		{ "PRETTY_NAME", offsetof(struct os_release, pretty), sizeof o->pretty },
		{ "ID", offsetof(struct os_release, id), sizeof o->id },
	};
	for (const char *line = buf; *line;) {
		size_t n = strcspn(line, "\n");
		const char *eq = memchr(line, '=', n);
		for (size_t k = 0; eq && k < sizeof keys / sizeof keys[0]; k++) {
			size_t kl = strlen(keys[k].key);
			if ((size_t)(eq - line) != kl || strncmp(line, keys[k].key, kl) != 0)
				continue;
			const char *v = eq + 1, *end = line + n;
			if (v < end && (*v == '"' || *v == '\'')) {
				char q = *v++;
				const char *close = memchr(v, q, (size_t)(end - v));
				if (close)
					end = close;
			}
			char *out = (char *)o + keys[k].off;
			size_t vl = (size_t)(end - v);
			if (vl >= keys[k].len)
				vl = keys[k].len - 1;
			memcpy(out, v, vl);
			out[vl] = '\0';
			sysfs_clean(out);
		}
		line += n;
		if (*line)
			line++;
	}
}

/* A hypervisor named by DMI strings (what the firmware says the machine is). */
static const char *virt_from_dmi(const char *vendor, const char *product, const char *bios)
{
	static const struct { const char *needle, *virt; } known[] = {
		{ "KVM", "kvm" }, { "QEMU", "qemu" }, { "VMware", "vmware" }, { "VirtualBox", "virtualbox" },
		{ "innotek", "virtualbox" }, { "Xen", "xen" }, { "Amazon EC2", "kvm" },
		{ "Google Compute Engine", "kvm" }, { "Bochs", "bochs" }, { "Parallels", "parallels" },
		{ "BHYVE", "bhyve" }, { "OpenStack", "kvm" }, { "Firecracker", "kvm" },
	};
	const char *fields[] = { product, vendor, bios };
	for (size_t f = 0; f < 3; f++)
		for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
			if (strstr(fields[f], known[i].needle))
				return known[i].virt;
	if (strstr(vendor, "Microsoft") && strstr(product, "Virtual"))
		return "hyperv";
	return NULL;
}

/* The hypervisor's own signature (CPUID leaf 0x40000000); only about the real machine. */
static const char *virt_from_cpuid(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return NULL;
	__cpuid(0x40000000, a, b, c, d);
	char sig[13];
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	static const struct { const char *sig, *virt; } known[] = {
		{ "KVMKVMKVM", "kvm" }, { "Microsoft Hv", "hyperv" }, { "VMwareVMware", "vmware" },
		{ "XenVMMXenVMM", "xen" }, { "TCGTCGTCGTCG", "qemu" }, { "bhyve bhyve ", "bhyve" },
		{ " lrpepyh  vr", "parallels" }, { "ACRNACRNACRN", "acrn" }, { "VBoxVBoxVBox", "virtualbox" },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strncmp(sig, known[i].sig, strlen(known[i].sig)) == 0)
			return known[i].virt;
#endif
	return NULL;
}

/* The kernel's own findings first (/sys/hypervisor, DMI, the paravirtual clock it chose),
 * then CPUID from here: under nested or ring-3 designs (PVM) a user-space CPUID answers for
 * an outer hypervisor, not the one this kernel talks to. */
static json_t *virtualization(const char *root, int hypervisor_flag, const char *clocksource, json_t *dmi)
{
	char s[128];
	const char *virt = NULL, *source = NULL, *cpuid = !*root && hypervisor_flag ? virt_from_cpuid() : NULL;
	if (sysfs_str(root, s, sizeof s, "/sys/hypervisor/type") == 0 && s[0]) {
		virt = s;
		source = "/sys/hypervisor/type";
	}
	if (!virt) {
		const char *v = json_string_value(json_object_get(dmi, "sys_vendor"));
		const char *p = json_string_value(json_object_get(dmi, "product_name"));
		const char *b = json_string_value(json_object_get(dmi, "bios_vendor"));
		if ((virt = virt_from_dmi(v ? v : "", p ? p : "", b ? b : "")))
			source = "/sys/class/dmi/id";
	}
	if (!virt && hypervisor_flag) {
		source = "/proc/cpuinfo hypervisor flag, clocksource";
		if (strcmp(clocksource, "kvm-clock") == 0)
			virt = "kvm";
		else if (strncmp(clocksource, "hyperv", 6) == 0)
			virt = "hyperv";
		else if (strcmp(clocksource, "xen") == 0)
			virt = "xen";
		else if ((virt = cpuid))
			source = "cpuid 0x40000000";
		else
			virt = "unknown", source = "/proc/cpuinfo hypervisor flag";
	}
	if (!virt)
		virt = "none", source = "/proc/cpuinfo (no hypervisor flag)";
	json_t *o = json_pack("{s:s,s:s}", "type", virt, "source", source);
	if (cpuid && strcmp(cpuid, virt) != 0)
		json_object_set_new(o, "cpuid", json_string(cpuid));
	return o;
}

/* Image builders leave /.dockerenv behind, so a marker file alone is no proof: a container's
 * root is an overlay (or similar), a VM's is a block device. */
static int root_is_block_device(const char *root)
{
	struct mountinfo_entry m;
	return stack_mount_of(root, "/", &m) == 0 && m.major != 0;
}

static json_t *container(const char *root)
{
	char s[4096], type[64] = "none";
	const char *source = NULL;
	if (sysfs_exists(root, "/.dockerenv") && !root_is_block_device(root)) {
		snprintf(type, sizeof type, "docker");
		source = "/.dockerenv";
	} else if (sysfs_exists(root, "/run/.containerenv") && !root_is_block_device(root)) {
		snprintf(type, sizeof type, "podman");
		source = "/run/.containerenv";
	} else if (sysfs_str(root, type, sizeof type, "/run/systemd/container") == 0 && type[0]) {
		source = "/run/systemd/container";
	} else if (sysfs_read(root, s, sizeof s, "/proc/1/cgroup") > 0 &&
		   (strstr(s, "/docker") || strstr(s, "/kubepods") || strstr(s, "/lxc") || strstr(s, "/libpod"))) {
		sysfs_copy(type, sizeof type, strstr(s, "/kubepods") ? "kubernetes" : strstr(s, "/lxc") ? "lxc"
						  : strstr(s, "/libpod") ? "podman" : "docker");
		source = "/proc/1/cgroup";
	} else if (sysfs_exists(root, "/proc/vz") && !sysfs_exists(root, "/proc/bc")) {
		snprintf(type, sizeof type, "openvz");
		source = "/proc/vz";
	}
	if (!source)
		snprintf(type, sizeof type, "none");
	return json_pack("{s:s,s:s}", "type", type, "source",
			 source ? source : "/.dockerenv, /run/.containerenv, /run/systemd/container, /proc/1/cgroup");
}

static json_t *dmi_strings(const char *root)
{
	static const char *fields[] = { "sys_vendor", "product_name", "board_vendor", "board_name", "bios_vendor", "bios_version" };
	json_t *o = json_object();
	char s[128];
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (sysfs_str(root, s, sizeof s, "/sys/class/dmi/id/%s", fields[i]) == 0 && s[0])
			json_object_set_new(o, fields[i], json_string(s));
	return o;
}

json_t *os_collect(const char *root, int hypervisor_flag)
{
	json_t *o = json_object();
	char buf[8192], s[4096];
	struct os_release rel;
	const char *relsrc = "/etc/os-release";
	if (sysfs_read(root, buf, sizeof buf, "/etc/os-release") < 0) {
		relsrc = "/usr/lib/os-release";
		if (sysfs_read(root, buf, sizeof buf, "/usr/lib/os-release") < 0)
			buf[0] = '\0';
	}
	parse_os_release(buf, &rel);
	if (rel.name[0])
		json_object_set_new(o, "name", json_string(rel.name));
	if (rel.version_id[0])
		json_object_set_new(o, "version_id", json_string(rel.version_id));
	if (rel.id[0])
		json_object_set_new(o, "id", json_string(rel.id));
	if (rel.pretty[0])
		json_object_set_new(o, "pretty_name", json_string(rel.pretty));
	if (sysfs_str(root, s, 256, "/proc/sys/kernel/osrelease") == 0 && s[0])
		json_object_set_new(o, "kernel", json_string(s));
	if (sysfs_str(root, s, sizeof s, "/proc/cmdline") == 0 && s[0])
		json_object_set_new(o, "cmdline", json_string(s));
	char clock[64] = "";
	if (sysfs_str(root, clock, sizeof clock, "/sys/devices/system/clocksource/clocksource0/current_clocksource") == 0 &&
	    clock[0])
		json_object_set_new(o, "clocksource", json_string(clock));
	json_t *dmi = dmi_strings(root);
	json_object_set_new(o, "virtualization", virtualization(root, hypervisor_flag, clock, dmi));
	json_object_set_new(o, "container", container(root));
	json_object_set_new(o, "dmi", dmi);
	char sources[128];
	snprintf(sources, sizeof sources, "%s, /proc/sys/kernel/osrelease, /proc/cmdline, /sys/class/dmi/id", relsrc);
	json_object_set_new(o, "source", json_string(sources));
	return o;
}
