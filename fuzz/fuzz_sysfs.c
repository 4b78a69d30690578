/* libFuzzer harness: the inventory's parsers of /proc and /sys file contents
 * (src/inventory/parsers.h), fed any bytes. Seeds are files of the fixture trees under
 * tests/fixtures/ (cpuinfo, meminfo, mountinfo, os-release, scheduler, link speed, ...).
 *
 * Every parser sees every input (they are cheap, and each finds its own way in). Besides
 * memory safety it checks that every string they fill stays NUL-terminated inside its field
 * and that the numbers stay in their documented ranges. */
#include "fuzz_util.h"
#include "inventory/layers.h"
#include "inventory/parsers.h"
#include "util/cpulist.h"
#include "inventory/zfs.h"

#define TERMINATED(field) FUZZ_ASSERT(memchr((field), '\0', sizeof(field)) != NULL)

static void check_cpuinfo(const char *s)
{
	struct cpuinfo ci;
	memset(&ci, 0x55, sizeof ci);
	parse_cpuinfo(s, &ci);
	TERMINATED(ci.model);
	TERMINATED(ci.vendor);
	FUZZ_ASSERT((ci.isa & ~31u) == 0);
	FUZZ_ASSERT(ci.processors >= 0 && ci.cpu_cores >= 0 && ci.siblings >= 0);
	FUZZ_ASSERT(cpulist_count(s) >= -1);
	(void)parse_cache_size(s);
}

static void check_memory(const char *s, const uint8_t *raw, size_t size)
{
	uint64_t bytes;
	static const char *const keys[] = { "MemTotal", "MemAvailable", "Node 0 MemTotal", "" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		int rc = parse_meminfo_field(s, keys[i], &bytes);
		FUZZ_ASSERT(rc == 0 || rc == -1);
	}
	struct dimm_info d;
	memset(&d, 0x55, sizeof d);
	if (parse_smbios_memory(raw, size, &d) == 0) {
		TERMINATED(d.type);
		FUZZ_ASSERT(d.count > 0);
	}
	memset(&d, 0x55, sizeof d);
	if (parse_udev_memory(s, &d) == 0)
		TERMINATED(d.type);
}

static void check_os_and_block(const char *s)
{
	struct os_release o;
	memset(&o, 0x55, sizeof o);
	parse_os_release(s, &o);
	TERMINATED(o.name);
	TERMINATED(o.version_id);
	TERMINATED(o.pretty);
	TERMINATED(o.id);

	char sched[16];
	memset(sched, 0x55, sizeof sched);
	if (parse_scheduler(s, sched, sizeof sched) == 0)
		TERMINATED(sched);
	int gen = parse_pcie_gen(s);
	FUZZ_ASSERT(gen >= 0 && gen < 100);
}

static void check_mountinfo(const char *s)
{
	struct mountinfo_entry e;
	memset(&e, 0x55, sizeof e);
	if (parse_mountinfo_line(s, &e) == 0) {
		TERMINATED(e.root);
		TERMINATED(e.mountpoint);
		TERMINATED(e.options);
		TERMINATED(e.fstype);
		TERMINATED(e.source);
	}
	const char *k = parse_dm_uuid_kind(s);
	FUZZ_ASSERT(k && *k);
}

/* The stack layers' parsers (dm names, dm tables, md state) and zpool status. */
static void check_layers(const char *s)
{
	char vg[32], lv[32], cipher[32];
	int bits = -1;
	memset(vg, 0x55, sizeof vg);
	memset(lv, 0x55, sizeof lv);
	if (parse_lvm_name(s, vg, sizeof vg, lv, sizeof lv) == 0) {
		TERMINATED(vg);
		TERMINATED(lv);
		FUZZ_ASSERT(vg[0] && lv[0]);
	}
	memset(cipher, 0x55, sizeof cipher);
	if (parse_dm_crypt_table(s, cipher, sizeof cipher, &bits) == 0) {
		TERMINATED(cipher);
		FUZZ_ASSERT(bits >= 0);
	}
	int luks = parse_luks_version(s);
	FUZZ_ASSERT(luks >= 0 && luks <= 9);
	FUZZ_ASSERT(md_state(s, 0, s) != NULL);
	json_t *v = parse_zpool_status(s);
	FUZZ_ASSERT(json_is_array(v));
	char layout[64];
	zfs_layout(v, layout, sizeof layout);
	FUZZ_ASSERT(memchr(layout, '\0', sizeof layout) != NULL);
	json_decref(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstring(data, size);
	check_cpuinfo(s);
	check_memory(s, data, size);
	check_os_and_block(s);
	check_mountinfo(s);
	check_layers(s);
	free(s);
	return 0;
}
