/* The seed machines of issue 20 (tests/fixtures/sysroot-*, written by make-sysroots.py): every
 * layer's facts under the path, the disks' settings, the ZFS pool, and the summary line. */
#include "test.h"

#include "inventory/inventory.h"
#include "inventory/layers.h"
#include "inventory/zfs.h"

#include <stdlib.h>
#include <string.h>

static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("TESTS_DIR");
	snprintf(path, sizeof path, "%s/fixtures/sysroot-%s", dir ? dir : "tests", name);
	return path;
}

static json_t *inv_of(const char *name, const char *path)
{
	struct inventory_opts o = { .sysroot = fixture(name), .path = path };
	return inventory_collect(&o);
}

/* A value by a path of keys and array indexes: at(o, "path.stack.slaves.0.name"). */
static json_t *at(json_t *o, const char *keys)
{
	char buf[256], *save = NULL;
	snprintf(buf, sizeof buf, "%s", keys);
	for (char *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	return o;
}

static const char *s_at(json_t *o, const char *keys)
{
	const char *s = json_string_value(at(o, keys));
	return s ? s : "(none)";
}

static long long i_at(json_t *o, const char *keys)
{
	json_t *v = at(o, keys);
	return json_is_integer(v) ? json_integer_value(v) : -999;
}

/* One fact of an inventory: the string at key, or (str NULL) the integer. */
struct fact {
	const char *key, *str;
	long long num;
};
#define FACT_S(k, v) { (k), (v), 0 }
#define FACT_I(k, v) { (k), NULL, (v) }

/* 1 when every fact of the table (ended by a NULL key) holds; each one that does not is named. */
static int facts_hold(json_t *inv, const struct fact *f)
{
	int ok = 1;
	for (; f->key; f++) {
		if (f->str && strcmp(s_at(inv, f->key), f->str) != 0) {
			test_failed(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", f->key, s_at(inv, f->key), f->str);
			ok = 0;
		} else if (!f->str && i_at(inv, f->key) != f->num) {
			test_failed(__FILE__, __LINE__, "%s == %lld, expected %lld", f->key, i_at(inv, f->key), f->num);
			ok = 0;
		}
	}
	return ok;
}

static const struct fact desktop_luks2_root_on_nvme_facts[] = {
	FACT_S("summary", "16-core/32-thread AMD Ryzen 9 5950X, 62 GiB RAM, NVMe dm-crypt 930 GiB ext4, Ubuntu 23.10, Linux 6.5"),
	FACT_S("path.fstype", "ext4"),
	FACT_S("path.options", "rw,relatime,errors=remount-ro"),
	FACT_S("path.stack.type", "crypt"),
	FACT_I("path.stack.luks_version", 2),
	FACT_S("path.stack.cipher", "aes-xts-plain64"), /* dmsetup's stand-in: as root */
	FACT_I("path.stack.key_bits", 512),
	FACT_S("path.stack.cipher_source", "dmsetup table"),
	FACT_S("path.stack.slaves.0.type", "part"),
	FACT_S("path.stack.slaves.0.disk", "nvme0n1"),
	FACT_S("path.stack.slaves.0.model", "Samsung SSD 970 EVO Plus 1TB"),
	FACT_S("path.stack.slaves.0.firmware", "2B2QEXM7"),
	FACT_I("path.stack.slaves.0.pcie.gen", 3),
	FACT_I("path.stack.slaves.0.pcie.width", 4),
	FACT_I("path.stack.slaves.0.lba_format.data_bytes", 512),
	FACT_I("path.stack.slaves.0.lba_format.metadata_bytes", 0),
	FACT_S("path.stack.slaves.0.write_cache", "write back"),
	FACT_S("path.stack.slaves.0.scheduler", "none"),
	FACT_I("path.stack.slaves.0.nr_requests", 1023),
	FACT_I("path.stack.slaves.0.read_ahead_kb", 128),
	FACT_S("cpu.frequency.governor", "schedutil"),
	FACT_I("memory.dimms.speed_mts", 3600),
	FACT_S("os.dmi.bios_version", "A.G0"),
	{ NULL, NULL, 0 },
};

TEST(seed_desktop_luks2_root_on_nvme)
{
	json_t *inv = inv_of("desktop-md-raid1-luks", "/home/me");
	CHECK(facts_hold(inv, desktop_luks2_root_on_nvme_facts));
	CHECK(json_is_true(at(inv, "path.stack.slaves.0.discard")));
	json_decref(inv);
}

static const struct fact desktop_md_raid1_of_two_wd_red_facts[] = {
	FACT_S("summary", "16-core/32-thread AMD Ryzen 9 5950X, 62 GiB RAM, 2x SATA HDD RAID1 3.6 TiB ext4, Ubuntu 23.10, Linux 6.5"),
	FACT_S("path.mountpoint", "/data"),
	FACT_S("path.options", "rw,noatime,stripe=0"),
	FACT_S("path.stack.level", "raid1"),
	FACT_S("path.stack.state", "clean"),
	FACT_I("path.stack.raid_disks", 2),
	FACT_I("path.stack.degraded", 0),
	FACT_S("path.stack.members.0", "sda1"),
	FACT_S("path.stack.members.1", "sdb1"),
	FACT_S("path.physical.1", "sdb"),
	{ NULL, NULL, 0 },
};

TEST(seed_desktop_md_raid1_of_two_wd_red)
{
	json_t *inv = inv_of("desktop-md-raid1-luks", "/data/chain");
	CHECK(facts_hold(inv, desktop_md_raid1_of_two_wd_red_facts));
	CHECK(at(inv, "path.stack.chunk") == NULL); /* RAID1 has no chunk */
	for (int i = 0; i < 2; i++) {
		char k[64];
		snprintf(k, sizeof k, "path.stack.slaves.%d.model", i);
		CHECK_EQ_STR(s_at(inv, k), "WDC WD40EFRX-68N32N0");
		snprintf(k, sizeof k, "path.stack.slaves.%d.firmware", i);
		CHECK_EQ_STR(s_at(inv, k), "82.00A82");
		snprintf(k, sizeof k, "path.stack.slaves.%d.rotational", i);
		CHECK(json_is_true(at(inv, k)));
		snprintf(k, sizeof k, "path.stack.slaves.%d.discard", i);
		CHECK(json_is_false(at(inv, k)));
		snprintf(k, sizeof k, "path.stack.slaves.%d.scheduler", i);
		CHECK_EQ_STR(s_at(inv, k), "mq-deadline");
	}
	/* the disk tree: the member partitions say what they are, md0 where it is mounted */
	char *text = inventory_text(inv, 0);
	CHECK_CONTAINS(text, "VENDOR   Micro-Star International Co., Ltd. MS-7C35, BIOS A.G0\n");
	CHECK_CONTAINS(text, "MEMORY   62 GiB, 4 x DDR4, rated 3600 MT/s, configured 3600 MT/s\n");
	CHECK_CONTAINS(text, "CPUs     AMD Ryzen 9 5950X 16-Core Processor, max 3500 MHz, 16 cores, 32 threads\n");
	CHECK_CONTAINS(text, "  └─sda1      3.6T part  linux_raid_member\n");
	CHECK_CONTAINS(text, "    └─md0     3.6T raid1 ext4              /data\n");
	CHECK_CONTAINS(text, "  └─nvme0n1p3 930G part  crypto_LUKS\n");
	CHECK_CONTAINS(text, "    └─root    930G crypt ext4              /\n");
	CHECK_CONTAINS(text, "ATA    WDC WD40EFRX-68N32N0         82.00A82\n");
	free(text);
	json_decref(inv);
}

static const struct fact server_md_raid1_toshiba_resyncing_facts[] = {
	FACT_S("summary", "6-core/12-thread Intel Xeon E-2236, 31 GiB RAM, 2x SATA HDD RAID1 15 TiB ext4, Debian 12, Linux 6.1"),
	FACT_S("path.stack.state", "resyncing"),
	FACT_S("path.stack.sync_completed", "5860533168 / 31251496960"),
	FACT_S("path.stack.slaves.0.model", "TOSHIBA MG08ACA16TE"),
	FACT_S("path.stack.slaves.1.firmware", "0102"),
	FACT_S("path.stack.slaves.0.write_cache", "write through"),
	FACT_I("path.stack.slaves.0.nr_requests", 64),
	FACT_S("path.transport", "sata"),
	{ NULL, NULL, 0 },
};

TEST(seed_server_md_raid1_toshiba_resyncing)
{
	json_t *inv = inv_of("server-md-raid1-toshiba", "/var/lib/node");
	CHECK(facts_hold(inv, server_md_raid1_toshiba_resyncing_facts));
	json_decref(inv);
}

static const struct fact gce_vm_persistent_disk_facts[] = {
	FACT_S("summary", "2-core/4-thread Intel Xeon (KVM), 15 GiB RAM, virtio 100 GiB ext4, Ubuntu 22.04, Linux 6.5"),
	FACT_S("os.virtualization.type", "kvm"),
	FACT_S("path.stack.name", "sda1"),
	FACT_S("path.stack.vendor", "Google"),
	FACT_S("path.stack.model", "PersistentDisk"),
	FACT_S("path.stack.firmware", "1"),
	FACT_S("path.options", "rw,relatime,discard,errors=remount-ro"),
	FACT_I("path.stack.read_ahead_kb", 4096),
	FACT_I("path.stack.physical_block", 4096),
	{ NULL, NULL, 0 },
};

TEST(seed_gce_vm_persistent_disk)
{
	json_t *inv = inv_of("gce-vm", "/home/user");
	CHECK(facts_hold(inv, gce_vm_persistent_disk_facts));
	CHECK(json_is_true(at(inv, "path.stack.discard")));
	CHECK(at(inv, "path.stack.lba_format") == NULL); /* NVMe only */
	char *text = inventory_text(inv, 0);
	CHECK_CONTAINS(text, "Google PersistentDisk 1\n");
	CHECK_CONTAINS(text, "├─sda1  99.9G part ext4   /\n");
	free(text);
	json_decref(inv);
}

static const struct fact zfs_pool_on_a_990_pro_facts[] = {
	FACT_S("summary", "8-core/16-thread AMD Ryzen 7 7700X, 31 GiB RAM, NVMe 1.8 TiB zfs, Ubuntu 22.04, Linux 5.15"),
	FACT_S("path.mountpoint", "/tank/db"), /* the child dataset, not the pool's */
	FACT_S("path.zfs.dataset", "tank/db"),
	FACT_S("path.zfs.pool", "tank"),
	FACT_I("path.zfs.recordsize", 32768),
	FACT_I("path.recordsize", 32768),
	FACT_S("path.zfs.compression", "lz4"),
	FACT_S("path.zfs.atime", "off"),
	FACT_S("path.zfs.sync", "standard"),
	FACT_S("path.zfs.primarycache", "all"),
	FACT_I("path.zfs.ashift", 12),
	FACT_S("path.zfs.pool_health", "ONLINE"),
	FACT_S("path.zfs.layout", "1 disk"),
	FACT_S("path.zfs.vdevs.0.members.0", "/dev/nvme0n1p3"),
	FACT_S("path.stack.type", "zpool"),
	FACT_S("path.stack.slaves.0.model", "Samsung SSD 990 PRO 2TB"),
	FACT_S("path.stack.slaves.0.firmware", "4B2QJXD7"),
	FACT_I("path.stack.slaves.0.pcie.gen", 4),
	FACT_S("path.physical.0", "nvme0n1"),
	FACT_S("memory.dimms.type", "DDR5"),
	FACT_I("memory.dimms.configured_mts", 5600),
	{ NULL, NULL, 0 },
};

static const struct fact zfs_pool_on_a_990_pro_facts_2[] = {
	FACT_S("path.zfs.dataset", "tank"),
	FACT_S("path.zfs.properties_source", "unreadable: not in /proc or /sys, and no zfs tool"),
	FACT_S("path.zfs.pool_health", "ONLINE"), /* from /proc/spl */
	FACT_S("path.zfs.source", "/proc/spl/kstat/zfs"),
	{ NULL, NULL, 0 },
};

TEST(seed_zfs_pool_on_a_990_pro)
{
	json_t *inv = inv_of("zfs-990pro", "/tank/db/data");
	CHECK(facts_hold(inv, zfs_pool_on_a_990_pro_facts));
	json_decref(inv);
	/* the pool's own mount: the same pool */
	inv = inv_of("zfs-990pro", "/tank");
	CHECK(facts_hold(inv, zfs_pool_on_a_990_pro_facts_2));
	json_decref(inv);
}

static const struct fact laptop_lvm_on_luks_facts[] = {
	FACT_S("summary", "8-core/16-thread 12th Gen Intel Core i7-1260P, 31 GiB RAM, NVMe LVM on dm-crypt 944 GiB ext4, Fedora 40, Linux 6.8"),
	FACT_S("path.stack.type", "lvm"),
	FACT_S("path.stack.vg", "vg0"),
	FACT_S("path.stack.lv", "root"),
	FACT_S("path.stack.slaves.0.type", "crypt"),
	FACT_I("path.stack.slaves.0.luks_version", 2),
	FACT_S("path.stack.slaves.0.cipher_source", "needs root (the dm table)"),
	FACT_S("path.stack.slaves.0.slaves.0.name", "nvme0n1p3"),
	FACT_S("path.stack.slaves.0.slaves.0.model", "WD_BLACK SN850X 1000GB"),
	FACT_S("path.stack.slaves.0.slaves.0.firmware", "620311WD"),
	{ NULL, NULL, 0 },
};

TEST(seed_laptop_lvm_on_luks)
{
	json_t *inv = inv_of("laptop-lvm-luks", "/home/me");
	/* dm-crypt under LVM is not dropped */
	CHECK(facts_hold(inv, laptop_lvm_on_luks_facts));
	CHECK(json_is_null(at(inv, "path.stack.slaves.0.cipher")));
	char *text = inventory_text(inv, 0);
	CHECK_CONTAINS(text, "      ├─vg0-root");
	CHECK_CONTAINS(text, "LVM2_member");
	free(text);
	json_decref(inv);
}

static const struct fact summaries_of_the_older_fixtures_hold_facts[] = {
	FACT_S("summary", "2x 4-core AMD EPYC 7543, 251 GiB RAM, 16x NVMe RAID0 56 TiB xfs, Debian 12, Linux 6.1"),
	FACT_S("path.stack.state", "clean"),
	{ NULL, NULL, 0 },
};

TEST(seed_summaries_of_the_older_fixtures_hold)
{
	json_t *inv = inv_of("md-raid0-nvme", "/data");
	CHECK(facts_hold(inv, summaries_of_the_older_fixtures_hold_facts));
	CHECK(at(inv, "path.stack.degraded") == NULL); /* RAID0 has no redundancy to lose */
	CHECK_EQ_INT(json_array_size(at(inv, "path.stack.members")), 16);
	json_decref(inv);
}

TEST(layer_parsers)
{
	char vg[64], lv[64], cipher[64];
	int bits;
	CHECK(parse_lvm_name("vg0-root", vg, sizeof vg, lv, sizeof lv) == 0);
	CHECK_EQ_STR(vg, "vg0");
	CHECK_EQ_STR(lv, "root");
	CHECK(parse_lvm_name("my--vg-lv--data", vg, sizeof vg, lv, sizeof lv) == 0);
	CHECK_EQ_STR(vg, "my-vg");
	CHECK_EQ_STR(lv, "lv-data");
	CHECK(parse_lvm_name("vg-snap-cow", vg, sizeof vg, lv, sizeof lv) == -1);
	CHECK(parse_lvm_name("novg", vg, sizeof vg, lv, sizeof lv) == -1);
	CHECK(parse_lvm_name("-x", vg, sizeof vg, lv, sizeof lv) == -1);
	CHECK_EQ_INT(parse_luks_version("CRYPT-LUKS2-abc-name"), 2);
	CHECK_EQ_INT(parse_luks_version("CRYPT-LUKS1-abc-name"), 1);
	CHECK_EQ_INT(parse_luks_version("CRYPT-PLAIN-name"), 0);
	CHECK_EQ_INT(parse_luks_version("CRYPT-LUKS"), 0);
	CHECK(parse_dm_crypt_table("0 100 crypt aes-xts-plain64 :64:logon:cryptsetup:x-d0 0 259:3 32768\n", cipher,
				   sizeof cipher, &bits) == 0);
	CHECK_EQ_STR(cipher, "aes-xts-plain64");
	CHECK_EQ_INT(bits, 512);
	CHECK(parse_dm_crypt_table("0 100 crypt aes-cbc-essiv:sha256 00000000000000000000000000000000 0 8:3 4096",
				   cipher, sizeof cipher, &bits) == 0);
	CHECK_EQ_INT(bits, 128);
	CHECK(parse_dm_crypt_table("0 100 linear 8:3 0", cipher, sizeof cipher, &bits) == -1);
	CHECK(parse_dm_crypt_table("", cipher, sizeof cipher, &bits) == -1);
	CHECK_EQ_STR(md_state("clean", 0, "idle"), "clean");
	CHECK_EQ_STR(md_state("active", 1, "idle"), "degraded");
	CHECK_EQ_STR(md_state("active", 1, "recover"), "recovering");
	CHECK_EQ_STR(md_state("active", 0, "resync"), "resyncing");
	CHECK_EQ_STR(md_state("inactive", 0, ""), "inactive");
	CHECK_EQ_STR(md_state("readonly", 0, ""), "readonly");
}

TEST(zpool_status_layouts)
{
	const char *mirror = "  pool: z\n state: ONLINE\nconfig:\n\n\tNAME        STATE\n\tz           ONLINE\n"
			     "\t  mirror-0  ONLINE\n\t    sda     ONLINE\n\t    sdb     ONLINE\n"
			     "\t  mirror-1  ONLINE\n\t    sdc     ONLINE\n\t    sdd     ONLINE\n"
			     "\tlogs\n\t  nvme0n1   ONLINE\n\ncache\n\terrors: No known data errors\n";
	json_t *v = parse_zpool_status(mirror);
	char layout[64];
	CHECK_EQ_INT(json_array_size(v), 3);
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(v, 0), "type")), "mirror");
	CHECK_EQ_INT(json_array_size(json_object_get(json_array_get(v, 1), "members")), 2);
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(v, 2), "class")), "logs");
	zfs_layout(v, layout, sizeof layout);
	CHECK_EQ_STR(layout, "2 x mirror of 2");
	json_decref(v);
	v = parse_zpool_status(" pool: p\nconfig:\n\tNAME\n\tp\n\t  raidz2-0\n\t    a\n\t    b\n\t    c\n\t    d\nerrors:\n");
	zfs_layout(v, layout, sizeof layout);
	CHECK_EQ_STR(layout, "raidz2 of 4");
	json_decref(v);
	v = parse_zpool_status("no config here");
	CHECK_EQ_INT(json_array_size(v), 0);
	zfs_layout(v, layout, sizeof layout);
	CHECK_EQ_STR(layout, "");
	json_decref(v);
}

TEST(targets_on_one_disk_are_named)
{
	char out[512];
	const char *raid[] = { "/data/a", "/data/b" };
	CHECK_EQ_INT(inventory_shared_disks(fixture("md-raid0-nvme"), raid, 2, out, sizeof out), 1);
	CHECK_EQ_STR(out, "/data/a and /data/b are on nvme0n1");
	/* the OS disk and the array: apart */
	const char *apart[] = { "/", "/data" };
	CHECK_EQ_INT(inventory_shared_disks(fixture("md-raid0-nvme"), apart, 2, out, sizeof out), 0);
	CHECK_EQ_STR(out, "");
	/* two partitions of one NVMe, and two tmpfs mounts that share nothing */
	const char *parts[] = { "/home", "/run/x", "/boot/efi", "/mnt/my disk" };
	CHECK_EQ_INT(inventory_shared_disks(fixture("nvme-pcie4"), parts, 4, out, sizeof out), 1);
	CHECK_EQ_STR(out, "/home and /boot/efi are on nvme0n1");
	/* one tmpfs mount twice; the md RAID1 and a directory on it */
	const char *mem[] = { "/run/a", "/run/b" };
	CHECK_EQ_INT(inventory_shared_disks(fixture("nvme-pcie4"), mem, 2, out, sizeof out), 1);
	CHECK_EQ_STR(out, "/run/a and /run/b are on the mount /run");
	const char *two[] = { "/a", "/b", "/data/c", "/data/d" };
	CHECK_EQ_INT(inventory_shared_disks(fixture("desktop-md-raid1-luks"), two, 4, out, sizeof out), 2);
	CHECK_EQ_STR(out, "/a and /b are on nvme0n1; /data/c and /data/d are on sda");
	/* a short buffer is cut, never overrun */
	char tiny[8];
	CHECK_EQ_INT(inventory_shared_disks(fixture("md-raid0-nvme"), raid, 2, tiny, sizeof tiny), 1);
	CHECK_EQ_INT(strlen(tiny), 7);
}
