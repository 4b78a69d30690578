/* The inventory's buffer parsers: real file contents, odd contents and garbage. */
#include "test.h"

#include "inventory/parsers.h"
#include "util/cpulist.h"

#include <stdio.h>
#include "inventory/sysfs.h"

#include <stdlib.h>

static const char cpuinfo_x86[] =
	"processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz\n"
	"cpu MHz\t\t: 2000.000\ncache size\t: 49152 KB\nsiblings\t: 64\ncpu cores\t: 32\n"
	"flags\t\t: fpu sse4_1 sse4_2 aes avx avx2 avx512f sha_ni hypervisor\n\n"
	"processor\t: 1\nvendor_id\t: OtherVendor\nmodel name\t: not the first block\n\n";

TEST(cpuinfo_reads_the_first_block)
{
	struct cpuinfo ci;
	parse_cpuinfo(cpuinfo_x86, &ci);
	CHECK_EQ_STR(ci.model, "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
	CHECK_EQ_STR(ci.vendor, "GenuineIntel");
	CHECK_EQ_INT(ci.processors, 2);
	CHECK_EQ_INT(ci.cpu_cores, 32);
	CHECK_EQ_INT(ci.siblings, 64);
	CHECK_EQ_U64(ci.cache_bytes, 49152ull * 1024);
	CHECK_NEAR(ci.mhz, 2000, 0.001);
	CHECK_EQ_INT(ci.isa, ISA_SSE42 | ISA_AES | ISA_AVX2 | ISA_AVX512F | ISA_SHA_NI);
	CHECK_EQ_INT(ci.hypervisor, 1);
}

TEST(cpuinfo_matches_whole_flag_words_only)
{
	struct cpuinfo ci;
	/* "avx512fx" and "sse4_2x" are not avx512f and sse4_2; "hypervisorx" is no hypervisor. */
	parse_cpuinfo("processor : 0\nflags : avx512fx sse4_2x aesni avx2 hypervisorx\n", &ci);
	CHECK_EQ_INT(ci.isa, ISA_AVX2);
	CHECK_EQ_INT(ci.hypervisor, 0);
}

TEST(cpuinfo_arm_uses_features_and_implementer)
{
	struct cpuinfo ci;
	parse_cpuinfo("processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd aes pmull sha1 sha2\n"
		      "CPU implementer\t: 0x41\n\nprocessor\t: 1\n",
		      &ci);
	CHECK_EQ_STR(ci.vendor, "0x41");
	CHECK_EQ_INT(ci.isa, ISA_AES);
	CHECK_EQ_INT(ci.processors, 2);
}

TEST(cpuinfo_garbage_never_crashes)
{
	struct cpuinfo ci;
	parse_cpuinfo("", &ci);
	CHECK_EQ_INT(ci.processors, 0);
	CHECK_EQ_STR(ci.model, "");
	parse_cpuinfo(":::\n\n\nmodel name\ncpu cores : -5\nsiblings: 99999999999\ncpu MHz : nan\nflags :", &ci);
	CHECK_EQ_INT(ci.cpu_cores, 0);
	CHECK(ci.mhz == 0);
	/* a model name longer than the field is cut, not overrun */
	char *big = malloc(10000);
	strcpy(big, "model name : ");
	memset(big + 13, 'x', 9000);
	big[9013] = '\0';
	parse_cpuinfo(big, &ci);
	CHECK_EQ_U64(strlen(ci.model), sizeof ci.model - 1);
	free(big);
}

/* A mask written as Linux writes a CPU list (Cpus_allowed_list, taskset -p): ranges, commas. */
TEST(cpulist_formats_masks)
{
	unsigned char m[2] = { 0x0f | 0x40, 0x01 }; /* 0-3, 6, 8 */
	char buf[64];
	CHECK_EQ_INT(cpulist_format(m, 16, buf, sizeof buf), 6);
	CHECK_EQ_STR(buf, "0-3,6,8");
	CHECK_EQ_INT(cpulist_count(buf), 6);
	unsigned char one[1] = { 0x01 }, none[1] = { 0 }, all[1] = { 0xff };
	CHECK_EQ_INT(cpulist_format(one, 8, buf, sizeof buf), 1);
	CHECK_EQ_STR(buf, "0");
	CHECK_EQ_INT(cpulist_format(none, 8, buf, sizeof buf), 0);
	CHECK_EQ_STR(buf, "");
	CHECK_EQ_INT(cpulist_format(all, 8, buf, sizeof buf), 8);
	CHECK_EQ_STR(buf, "0-7");
	CHECK_EQ_INT(cpulist_format(m, 16, buf, 5), -1); /* "0-3," does not fit with "6" */
	/* this process's own: what the kernel says in /proc/self/status */
	int n = cpulist_allowed(buf, sizeof buf);
	CHECK(n >= 1);
	CHECK_EQ_INT(cpulist_count(buf), n);
	FILE *f = fopen("/proc/self/status", "r");
	char line[512], want[512] = "";
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "Cpus_allowed_list: %511s", want) == 1)
			break;
	if (f)
		fclose(f);
	if (want[0])
		CHECK_EQ_STR(buf, want);
}

TEST(cpulist_counts_ranges)
{
	CHECK_EQ_INT(cpulist_count("0-3,8-11\n"), 8);
	CHECK_EQ_INT(cpulist_count("5"), 1);
	CHECK_EQ_INT(cpulist_count("0,2,4-5"), 4);
	CHECK_EQ_INT(cpulist_count("\n"), 0);
	CHECK_EQ_INT(cpulist_count("3-1"), -1);
	CHECK_EQ_INT(cpulist_count("a-b"), -1);
	CHECK_EQ_INT(cpulist_count("0-"), -1);
	CHECK_EQ_INT(cpulist_count("0-99999999999"), -1);
	CHECK_EQ_INT(cpulist_count("1,,2"), -1);
	CHECK_EQ_INT(cpulist_count("0,"), -1);
}

/* The same parser for pinning (--cpus, a NUMA node's list): the CPUs in order, bounded. */
TEST(cpulist_lists_cpus)
{
	int c[8];
	CHECK_EQ_INT(cpulist_cpus("0-2,7", c, 8), 4);
	CHECK_EQ_INT(c[0], 0);
	CHECK_EQ_INT(c[2], 2);
	CHECK_EQ_INT(c[3], 7);
	CHECK_EQ_INT(cpulist_cpus("", c, 8), -1);
	CHECK_EQ_INT(cpulist_cpus("0-8", c, 8), -1);
	CHECK_EQ_INT(cpulist_cpus("0,", c, 8), -1);
	CHECK_EQ_INT(cpulist_cpus("1023", c, 8), 1);
	CHECK_EQ_INT(cpulist_cpus("1024", c, 8), -1);
	CHECK_EQ_INT(cpulist_cpus("2-1", c, 8), -1);
}

TEST(cache_size_units)
{
	CHECK_EQ_U64(parse_cache_size("32K"), 32768);
	CHECK_EQ_U64(parse_cache_size("1024 KB"), 1048576);
	CHECK_EQ_U64(parse_cache_size("8M"), 8 << 20);
	CHECK_EQ_U64(parse_cache_size("512"), 512);
	CHECK_EQ_U64(parse_cache_size("K"), 0);
	CHECK_EQ_U64(parse_cache_size("-5K"), 0);
	CHECK_EQ_U64(parse_cache_size("99999999999999999999K"), 0);
}

TEST(meminfo_field_in_bytes)
{
	uint64_t v;
	CHECK(parse_meminfo_field("MemTotal:       24683620 kB\nMemFree: 1 kB\n", "MemTotal", &v) == 0);
	CHECK_EQ_U64(v, 24683620ull * 1024);
	CHECK(parse_meminfo_field("Node 1 MemTotal:  100 kB\n", "MemTotal", &v) == 0);
	CHECK_EQ_U64(v, 102400);
	CHECK(parse_meminfo_field("MemTotalX: 5 kB\nMemFree: 1 kB\n", "MemTotal", &v) == -1);
	CHECK(parse_meminfo_field("MemTotal: lots\n", "MemTotal", &v) == -1);
	CHECK(parse_meminfo_field("", "MemTotal", &v) == -1);
}

static size_t smbios17(uint8_t *p, unsigned size_field, uint32_t ext_mb, uint8_t type, unsigned speed, unsigned conf)
{
	memset(p, 0, 0x28);
	p[0] = 17;
	p[1] = 0x28;
	p[0x0C] = (uint8_t)size_field;
	p[0x0D] = (uint8_t)(size_field >> 8);
	memcpy(p + 0x1C, &ext_mb, 4);
	p[0x12] = type;
	p[0x15] = (uint8_t)speed;
	p[0x16] = (uint8_t)(speed >> 8);
	p[0x20] = (uint8_t)conf;
	p[0x21] = (uint8_t)(conf >> 8);
	p[0x28] = 0; /* no strings: the double NUL */
	p[0x29] = 0;
	return 0x2A;
}

TEST(smbios_memory_devices)
{
	uint8_t buf[256] = { 0 };
	size_t n = 0;
	struct dimm_info d;
	n += smbios17(buf + n, 16384, 0, 0x22, 4800, 4400); /* 16 GiB DDR5 */
	n += smbios17(buf + n, 0x7FFF, 65536, 0x22, 5600, 4400); /* 64 GiB, extended size */
	n += smbios17(buf + n, 0, 0, 0x22, 0, 0); /* an empty slot */
	CHECK(parse_smbios_memory(buf, n, &d) == 0);
	CHECK_EQ_STR(d.type, "DDR5");
	CHECK_EQ_INT(d.count, 2);
	CHECK_EQ_U64(d.total, 80ull << 30);
	CHECK_EQ_INT(d.speed_mts, 4800); /* the slowest module sets the pace */
	CHECK_EQ_INT(d.configured_mts, 4400);
}

TEST(smbios_truncated_or_garbage)
{
	uint8_t buf[64] = { 0 };
	struct dimm_info d;
	CHECK(parse_smbios_memory(buf, 0, &d) == -1);
	memset(buf, 0xff, sizeof buf);
	CHECK(parse_smbios_memory(buf, sizeof buf, &d) == -1);
	/* a record whose length runs past the end */
	memset(buf, 0, sizeof buf);
	buf[0] = 17;
	buf[1] = 200;
	CHECK(parse_smbios_memory(buf, sizeof buf, &d) == -1);
	/* a length below the header size stops the walk instead of looping */
	buf[1] = 2;
	CHECK(parse_smbios_memory(buf, sizeof buf, &d) == -1);
}

TEST(udev_memory_devices)
{
	struct dimm_info d;
	CHECK(parse_udev_memory("E:MEMORY_DEVICE_0_PRESENT=1\nE:MEMORY_DEVICE_0_SIZE=17179869184\n"
				"E:MEMORY_DEVICE_0_TYPE=DDR4\nE:MEMORY_DEVICE_0_SPEED_MTS=3200\n"
				"E:MEMORY_DEVICE_1_PRESENT=0\nE:MEMORY_DEVICE_1_TYPE=Unknown\n",
				&d) == 0);
	CHECK_EQ_INT(d.count, 1);
	CHECK_EQ_STR(d.type, "DDR4");
	CHECK_EQ_INT(d.speed_mts, 3200);
	CHECK(parse_udev_memory("E:ID_VENDOR=x\n", &d) == -1);
	CHECK(parse_udev_memory("E:MEMORY_DEVICE_0_SIZE\nE:MEMORY_DEVICE_0_=\n", &d) == -1);
}

TEST(os_release_quotes_and_order)
{
	struct os_release o;
	parse_os_release("# comment\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME='Debian GNU/Linux'\n"
			 "VERSION_ID=12\nID=debian\nID_LIKE=x\n",
			 &o);
	CHECK_EQ_STR(o.name, "Debian GNU/Linux");
	CHECK_EQ_STR(o.version_id, "12");
	CHECK_EQ_STR(o.id, "debian");
	CHECK_EQ_STR(o.pretty, "Debian GNU/Linux 12 (bookworm)");
	parse_os_release("NAME=\"unterminated\nVERSION_ID=\n=x\n", &o);
	CHECK_EQ_STR(o.name, "unterminated");
	CHECK_EQ_STR(o.version_id, "");
}

TEST(scheduler_in_brackets)
{
	char s[32];
	CHECK(parse_scheduler("none [mq-deadline] kyber bfq\n", s, sizeof s) == 0);
	CHECK_EQ_STR(s, "mq-deadline");
	CHECK(parse_scheduler("none\n", s, sizeof s) == 0);
	CHECK_EQ_STR(s, "none");
	CHECK(parse_scheduler("[]", s, sizeof s) == -1);
	CHECK(parse_scheduler("a b", s, sizeof s) == -1);
	CHECK(parse_scheduler("[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]", s, sizeof s) == -1);
	CHECK(parse_scheduler("", s, sizeof s) == -1);
}

TEST(pcie_generation_from_speed)
{
	CHECK_EQ_INT(parse_pcie_gen("16.0 GT/s PCIe"), 4);
	CHECK_EQ_INT(parse_pcie_gen("8.0 GT/s PCIe"), 3);
	CHECK_EQ_INT(parse_pcie_gen("32.0 GT/s PCIe"), 5);
	CHECK_EQ_INT(parse_pcie_gen("2.5 GT/s"), 1);
	CHECK_EQ_INT(parse_pcie_gen("Unknown"), 0);
	CHECK_EQ_INT(parse_pcie_gen("11 GT/s"), 0);
}

TEST(mountinfo_line_fields)
{
	struct mountinfo_entry e;
	CHECK(parse_mountinfo_line("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n",
				   &e) == 0);
	CHECK_EQ_INT(e.major, 98);
	CHECK_EQ_INT(e.minor, 0);
	CHECK_EQ_STR(e.root, "/mnt1");
	CHECK_EQ_STR(e.mountpoint, "/mnt2");
	CHECK_EQ_STR(e.fstype, "ext3");
	CHECK_EQ_STR(e.source, "/dev/root");
	CHECK_EQ_STR(e.options, "rw,noatime,errors=continue"); /* "rw" said once */
}

TEST(mountinfo_escapes_and_no_optional_fields)
{
	struct mountinfo_entry e;
	CHECK(parse_mountinfo_line("25 22 0:23 / /mnt/my\\040disk rw - tmpfs tmpfs rw", &e) == 0);
	CHECK_EQ_STR(e.mountpoint, "/mnt/my disk");
	CHECK_EQ_STR(e.options, "rw");
}

TEST(mountinfo_garbage)
{
	struct mountinfo_entry e;
	CHECK(parse_mountinfo_line("", &e) == -1);
	CHECK(parse_mountinfo_line("1 2 x:y / / rw - ext4 /dev/x rw", &e) == -1);
	CHECK(parse_mountinfo_line("1 2 8:1 / / rw shared:1 ext4 /dev/x rw", &e) == -1); /* no "-" */
	CHECK(parse_mountinfo_line("1 2 8:1 / relative rw - ext4 /dev/x rw", &e) == -1);
	CHECK(parse_mountinfo_line("1 2 8:1 / / rw -", &e) == -1);
	/* a field longer than its buffer is cut */
	char line[2048];
	snprintf(line, sizeof line, "1 2 8:1 / /%01000d rw - ext4 /dev/x rw", 0);
	CHECK(parse_mountinfo_line(line, &e) == 0);
	CHECK_EQ_U64(strlen(e.mountpoint), sizeof e.mountpoint - 1);
}

TEST(dm_uuid_kinds)
{
	CHECK_EQ_STR(parse_dm_uuid_kind("CRYPT-LUKS2-abc-name"), "crypt");
	CHECK_EQ_STR(parse_dm_uuid_kind("LVM-Xyz"), "lvm");
	CHECK_EQ_STR(parse_dm_uuid_kind("mpath-3600"), "multipath");
	CHECK_EQ_STR(parse_dm_uuid_kind(""), "dm");
	CHECK_EQ_STR(parse_dm_uuid_kind("crypt-lowercase"), "dm");
}

TEST(clean_trims_and_makes_printable)
{
	char s[] = "  Samsung SSD\x01\xff 980  \n";
	sysfs_clean(s);
	CHECK_EQ_STR(s, "Samsung SSD?? 980");
	char t[] = "\n\n";
	sysfs_clean(t);
	CHECK_EQ_STR(t, "");
}
