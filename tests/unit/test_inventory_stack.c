/* The storage stack and the summary, on the fixture machines in tests/fixtures/sysroot-*,
 * and the readers on a fake root full of odd files. */
#include "test.h"

#include "inventory/block.h"
#include "inventory/inventory.h"
#include "inventory/mount.h"
#include "inventory/stack.h"
#include "inventory/sysfs.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("TESTS_DIR");
	snprintf(path, sizeof path, "%s/fixtures/sysroot-%s", dir ? dir : "tests", name);
	return path;
}

static char *summary_of(const char *name, const char *path)
{
	struct inventory_opts o = { .sysroot = fixture(name), .path = path };
	json_t *inv = inventory_collect(&o);
	char *s = inventory_summary(inv);
	json_decref(inv);
	return s;
}

TEST(path_device_nvme_partition)
{
	struct path_device pd;
	CHECK(inventory_path_device(fixture("nvme-pcie4"), "/home/user", &pd) == 0);
	CHECK_EQ_STR(pd.fstype, "ext4");
	CHECK_EQ_STR(pd.mountpoint, "/");
	CHECK_EQ_STR(pd.device, "nvme0n1p2");
	CHECK_EQ_STR(pd.transport, "nvme");
	CHECK_EQ_INT(pd.rotational, 0);
	CHECK_EQ_INT(pd.numa_node, 0);
	CHECK_EQ_INT(pd.memory_backed, 0);
}

TEST(path_device_tmpfs_is_memory_backed)
{
	struct path_device pd;
	CHECK(inventory_path_device(fixture("nvme-pcie4"), "/run/lock/", &pd) == 0);
	CHECK_EQ_STR(pd.fstype, "tmpfs");
	CHECK_EQ_STR(pd.mountpoint, "/run");
	CHECK_EQ_STR(pd.device, "");
	CHECK_EQ_INT(pd.memory_backed, 1);
	CHECK_EQ_INT(pd.rotational, -1);
	/* an escaped mount point ("my\040disk") matches the path with the space */
	CHECK(inventory_path_device(fixture("nvme-pcie4"), "/mnt/my disk/x", &pd) == 0);
	CHECK_EQ_STR(pd.mountpoint, "/mnt/my disk");
	/* a prefix of a name is not a parent directory: /running is on / */
	CHECK(inventory_path_device(fixture("nvme-pcie4"), "/running", &pd) == 0);
	CHECK_EQ_STR(pd.mountpoint, "/");
	/* relative paths are relative to the fake machine's root */
	CHECK(inventory_path_device(fixture("nvme-pcie4"), "./run/x", &pd) == 0);
	CHECK_EQ_STR(pd.mountpoint, "/run");
}

TEST(path_device_zfs_dataset)
{
	struct path_device pd;
	CHECK(inventory_path_device(fixture("nvme-pcie4"), "/tank/chain/db", &pd) == 0);
	CHECK_EQ_STR(pd.fstype, "zfs");
	CHECK_EQ_STR(pd.device, "");
	CHECK_EQ_INT(pd.memory_backed, 0);
	struct inventory_opts o = { .sysroot = fixture("nvme-pcie4"), .path = "/tank/chain" };
	json_t *inv = inventory_collect(&o);
	json_t *path = json_object_get(inv, "path");
	CHECK_EQ_STR(json_string_value(json_object_get(path, "dataset")), "tank/chain");
	CHECK(json_is_null(json_object_get(path, "recordsize"))); /* never a guess */
	CHECK_CONTAINS(json_string_value(json_object_get(path, "recordsize_source")), "unreadable");
	CHECK_CONTAINS(json_string_value(json_object_get(inv, "summary")), "RAM, zfs, Ubuntu");
	json_decref(inv);
}

TEST(path_device_md_raid0_spans_numa_nodes)
{
	struct path_device pd;
	CHECK(inventory_path_device(fixture("md-raid0-nvme"), "/data/chain", &pd) == 0);
	CHECK_EQ_STR(pd.fstype, "xfs");
	CHECK_EQ_STR(pd.device, "md0");
	CHECK_EQ_STR(pd.transport, "nvme");
	CHECK_EQ_INT(pd.rotational, 0);
	CHECK_EQ_INT(pd.numa_node, -1); /* members on nodes 0 and 1 */
	CHECK(inventory_path_device(fixture("md-raid0-nvme"), "/", &pd) == 0);
	CHECK_EQ_STR(pd.device, "sda1");
	CHECK_EQ_STR(pd.transport, "sata");
}

TEST(path_device_dm_crypt_and_sata_raid1)
{
	struct path_device pd;
	CHECK(inventory_path_device(fixture("dm-crypt-nvme"), "/", &pd) == 0);
	CHECK_EQ_STR(pd.device, "dm-0");
	CHECK_EQ_STR(pd.transport, "nvme");
	CHECK_EQ_INT(pd.numa_node, -1);
	CHECK(inventory_path_device(fixture("sata-md-raid1"), "/srv/storage", &pd) == 0);
	CHECK_EQ_STR(pd.device, "md0");
	CHECK_EQ_STR(pd.transport, "sata");
	CHECK_EQ_INT(pd.rotational, 1);
}

TEST(path_device_failures_are_minus_one)
{
	struct path_device pd;
	/* a sysroot without mountinfo */
	CHECK(inventory_path_device(test_tmpdir(), "/", &pd) == -1);
}

TEST(path_device_real_machine)
{
	/* Whatever this machine is, "." resolves to some mount with a file system type. */
	struct path_device pd, file;
	CHECK(inventory_path_device("/", ".", &pd) == 0);
	CHECK(pd.fstype[0] != '\0');
	CHECK(pd.mountpoint[0] == '/');
	/* a file yet to be created is on its directory's mount */
	CHECK(inventory_path_device("/", "./not-yet/created.dat", &file) == 0);
	CHECK_EQ_STR(file.mountpoint, pd.mountpoint);
	CHECK_EQ_STR(file.device, pd.device);
	CHECK(inventory_path_device("/", "/proc/self/status", &file) == 0);
	CHECK_EQ_STR(file.fstype, "proc");
}

TEST(stack_md_raid0_members_and_chunk)
{
	struct inventory_opts o = { .sysroot = fixture("md-raid0-nvme"), .path = "/data" };
	json_t *inv = inventory_collect(&o);
	json_t *stack = json_object_get(json_object_get(inv, "path"), "stack");
	CHECK_EQ_STR(json_string_value(json_object_get(stack, "type")), "md");
	CHECK_EQ_STR(json_string_value(json_object_get(stack, "level")), "raid0");
	CHECK_EQ_INT(json_integer_value(json_object_get(stack, "chunk")), 131072);
	CHECK_EQ_INT(json_array_size(json_object_get(stack, "slaves")), 16);
	CHECK_EQ_INT(json_array_size(json_object_get(json_object_get(inv, "path"), "physical")), 16);
	/* natural order: nvme2n1 before nvme10n1 */
	json_t *third = json_array_get(json_object_get(stack, "slaves"), 2);
	CHECK_EQ_STR(json_string_value(json_object_get(third, "name")), "nvme2n1");
	json_decref(inv);
}

TEST(stack_dm_crypt_named_no_uuid_without_serials)
{
	struct inventory_opts o = { .sysroot = fixture("dm-crypt-nvme"), .path = "/" };
	json_t *inv = inventory_collect(&o);
	json_t *stack = json_object_get(json_object_get(inv, "path"), "stack");
	CHECK_EQ_STR(json_string_value(json_object_get(stack, "type")), "crypt");
	CHECK_EQ_STR(json_string_value(json_object_get(stack, "dm_name")), "luks-7f3a2b1c-9d8e-4f00-a1b2-c3d4e5f60718");
	CHECK(json_object_get(stack, "uuid") == NULL);
	json_t *part = json_array_get(json_object_get(stack, "slaves"), 0);
	CHECK_EQ_STR(json_string_value(json_object_get(part, "type")), "part");
	CHECK_EQ_STR(json_string_value(json_object_get(part, "disk")), "nvme0n1");
	json_decref(inv);

	o.serials = 1;
	inv = inventory_collect(&o);
	stack = json_object_get(json_object_get(inv, "path"), "stack");
	CHECK_CONTAINS(json_string_value(json_object_get(stack, "uuid")), "CRYPT-LUKS2-");
	json_decref(inv);
}

TEST(block_nvme_pcie_link_and_firmware)
{
	struct block_info b;
	CHECK(block_read(fixture("nvme-pcie4"), "nvme0n1", &b) == 0);
	CHECK_EQ_STR(b.model, "Samsung SSD 980 PRO 2TB");
	CHECK_EQ_STR(b.firmware, "5B2QGXA7");
	CHECK_EQ_INT(b.pcie_gen, 4);
	CHECK_EQ_INT(b.pcie_width, 4);
	CHECK_EQ_INT(b.pcie_max_gen, 4);
	CHECK_EQ_U64(b.size, 2000398934016ull);
	CHECK_EQ_STR(b.scheduler, "none");
	/* a partition reports its disk's queue and transport */
	CHECK(block_read(fixture("nvme-pcie4"), "nvme0n1p2", &b) == 0);
	CHECK_EQ_INT(b.partition, 1);
	CHECK_EQ_STR(b.disk, "nvme0n1");
	CHECK_EQ_STR(b.transport, "nvme");
	CHECK_EQ_INT(b.rotational, 0);
	CHECK(block_read(fixture("nvme-pcie4"), "../../etc", &b) == -1);
	CHECK(block_read(fixture("nvme-pcie4"), "nosuch", &b) == -1);
}

TEST(block_nvme_multipath_head)
{
	/* The head disk sits under /devices/virtual/nvme-subsystem; the link and NUMA node are
	 * found through its first path, the model through the subsystem. */
	struct block_info b;
	CHECK(block_read(fixture("dm-crypt-nvme"), "nvme0n1", &b) == 0);
	CHECK_EQ_STR(b.transport, "nvme");
	CHECK_EQ_STR(b.model, "SAMSUNG MZVLB512HBJQ-000L7");
	CHECK_EQ_INT(b.pcie_gen, 3);
	CHECK_EQ_INT(b.pcie_width, 4);
	json_t *st = block_collect(fixture("dm-crypt-nvme"), 0);
	char *dump = json_dumps(st, 0);
	CHECK(dump && strstr(dump, "nvme0c0n1") == NULL); /* the hidden per-path device */
	CHECK_CONTAINS(dump, "\"nvme0n1\"");
	free(dump);
	json_decref(st);
}

TEST(block_sata_hdd)
{
	struct block_info b;
	CHECK(block_read(fixture("sata-md-raid1"), "sdb", &b) == 0);
	CHECK_EQ_STR(b.transport, "sata");
	CHECK_EQ_STR(b.model, "ST4000NM0035-1V4");
	CHECK_EQ_STR(b.firmware, "TN03");
	CHECK_EQ_INT(b.rotational, 1);
	CHECK_EQ_STR(b.scheduler, "mq-deadline");
	CHECK_EQ_INT(b.physical_block, 4096);
	CHECK_EQ_INT(b.pcie_gen, 0);
}

TEST(summary_lines_of_the_fixture_machines)
{
	char *s = summary_of("nvme-pcie4", "/");
	CHECK_EQ_STR(s, "4-core/8-thread Intel Xeon E-2388G, 62 GiB RAM, NVMe 1.8 TiB ext4, Ubuntu 22.04, Linux 5.15");
	free(s);
	s = summary_of("md-raid0-nvme", "/data");
	CHECK_EQ_STR(s, "2x 4-core AMD EPYC 7543, 251 GiB RAM, 16x NVMe RAID0 56 TiB xfs, Debian 12, Linux 6.1");
	free(s);
	s = summary_of("dm-crypt-nvme", "/home");
	CHECK_EQ_STR(s, "4-core/8-thread 11th Gen Intel Core i7-1165G7, 15 GiB RAM, NVMe dm-crypt 475 GiB ext4, Fedora 39, Linux 6.5");
	free(s);
	s = summary_of("sata-md-raid1", "/");
	CHECK_EQ_STR(s, "4-core/8-thread Intel Xeon E3-1230 v6, 31 GiB RAM, 2x SATA HDD RAID1 3.6 TiB ext4, Rocky 9.3, Linux 5.14");
	free(s);
}

/* An inventory without the CPU's facts (an import, a partial record) says what it knows and
 * nothing of cores: never "0-core". */
TEST(summary_of_an_empty_inventory)
{
	json_t *inv = json_object();
	char *s = inventory_summary(inv);
	CHECK(s != NULL);
	CHECK_EQ_STR(s, "");
	free(s);
	json_object_set_new(inv, "memory", json_pack("{s:I}", "total", (json_int_t)8 << 30));
	s = inventory_summary(inv);
	CHECK_EQ_STR(s, "8 GiB RAM");
	free(s);
	json_decref(inv);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[1024], *slash;
	snprintf(path, sizeof path, "%s%s", root, rel);
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(odd_files_never_crash)
{
	char root[512];
	snprintf(root, sizeof root, "%s/odd", test_tmpdir());
	mkdir(root, 0755);
	/* a cpuinfo far over the read cap, garbage elsewhere, a fifo, a directory for a file */
	char *big = malloc(1 << 20);
	for (size_t i = 0; i < (1 << 20) - 1; i++)
		big[i] = "processor : 1\nflags : avx2\n"[i % 28];
	big[(1 << 20) - 1] = '\0';
	put(root, "/proc/cpuinfo", big);
	free(big);
	put(root, "/proc/meminfo", "MemTotal: banana kB\n");
	put(root, "/proc/self/mountinfo", "garbage\n\n1 2 3\n7 1 8:1 / / rw - ext4 /dev/sdz rw\n");
	put(root, "/sys/devices/system/cpu/online", "\xff\xfe");
	put(root, "/sys/devices/system/cpu/cpu0/topology/core_id", "x");
	put(root, "/sys/devices/system/node/node0/cpulist", "0-");
	put(root, "/etc/os-release", "NAME=\"\xc3\x28\"\n");
	put(root, "/sys/block/sdz/size", "-1\n");
	char fifo[600];
	snprintf(fifo, sizeof fifo, "%s/proc/sys/kernel/osrelease", root);
	put(root, "/proc/sys/kernel/hostname", "h\n");
	mkfifo(fifo, 0644); /* opened non-blocking: reads as empty, no hang */
	char dir[600];
	snprintf(dir, sizeof dir, "%s/proc/cmdline", root);
	mkdir(dir, 0755);

	struct inventory_opts o = { .sysroot = root, .path = "/x" };
	json_t *inv = inventory_collect(&o);
	CHECK(inv != NULL);
	char *text = inventory_text(inv, 0);
	char *dump = json_dumps(inv, 0);
	CHECK(text != NULL && dump != NULL);
	CHECK_CONTAINS(dump, "\"avx2\"");
	/* the broken UTF-8 byte became '?' instead of making the JSON invalid */
	CHECK_CONTAINS(dump, "\"name\": \"?(\"");
	CHECK(strstr(dump, "online_count") == NULL); /* "\xff\xfe" is no CPU list */
	CHECK(strstr(dump, "\"kernel\"") == NULL);   /* the fifo read as empty */
	free(text);
	free(dump);
	json_decref(inv);
}

TEST(chroot_root_unlisted_is_found_by_its_device)
{
	/* The chroot's own mountinfo has no "/"; the path's device (254:0, as stat says on that
	 * machine) leads to vda, and PID 1's view gives the file system. */
	json_t *p = stack_collect_on_device(fixture("chroot-virtio"), "/root/project", makedev(254, 0));
	CHECK(json_object_get(p, "error") == NULL);
	CHECK(json_is_false(json_object_get(p, "mount_visible")));
	CHECK_CONTAINS(json_string_value(json_object_get(p, "note")), "not in /proc/self/mountinfo");
	CHECK_CONTAINS(json_string_value(json_object_get(p, "note")), "254:0");
	CHECK_EQ_STR(json_string_value(json_object_get(p, "device")), "vda");
	CHECK_EQ_STR(json_string_value(json_object_get(p, "fstype")), "ext4");
	CHECK_EQ_STR(json_string_value(json_object_get(p, "options")), "rw,relatime,discard");
	CHECK_EQ_STR(json_string_value(json_object_get(p, "transport")), "virtio");
	CHECK(json_is_null(json_object_get(p, "mountpoint"))); /* PID 1's mount point is not ours */
	json_decref(p);
	/* a mount the chroot does list is still found by its device and point */
	p = stack_collect_on_device(fixture("chroot-virtio"), "/dev/shm/x", makedev(0, 27));
	CHECK_EQ_STR(json_string_value(json_object_get(p, "mountpoint")), "/dev/shm");
	CHECK_EQ_STR(json_string_value(json_object_get(p, "fstype")), "tmpfs");
	CHECK(json_object_get(p, "mount_visible") == NULL);
	json_decref(p);
	/* without a device, the unlisted mount is a note, not an error */
	struct inventory_opts o = { .sysroot = fixture("chroot-virtio"), .path = "/root" };
	json_t *inv = inventory_collect(&o);
	p = json_object_get(inv, "path");
	CHECK(json_object_get(p, "error") == NULL);
	CHECK_CONTAINS(json_string_value(json_object_get(p, "note")), "device is unknown");
	CHECK_EQ_STR(json_string_value(json_object_get(inv, "summary")), "2-core AMD EPYC 7B13 (KVM), 23 GiB RAM, Debian 12, Linux 6.1");
	json_decref(inv);
}

TEST(mount_tree_and_device_pick_the_mount)
{
	char root[512];
	snprintf(root, sizeof root, "%s/tree", test_tmpdir());
	mkdir(root, 0755);
	/* xfs mounted over a tmpfs on /data, listed before it (after a mount --move, say) */
	put(root, "/proc/self/mountinfo",
	    "41 40 8:17 / /data rw - xfs /dev/sdb1 rw\n"
	    "30 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
	    "40 30 0:50 / /data rw - tmpfs tmpfs rw\n"
	    "50 30 8:1 /srv/a /mnt/a rw - ext4 /dev/sda1 rw\n");
	struct mountinfo_entry m;
	int by_init;
	CHECK(mount_find(root, "/data/x", 0, 0, &m, &by_init) == MOUNT_LISTED);
	CHECK_EQ_STR(m.fstype, "xfs"); /* the mount on top, by the tree, not by line order */
	CHECK(mount_find(root, "/data/x", 1, makedev(0, 50), &m, &by_init) == MOUNT_LISTED);
	CHECK_EQ_STR(m.fstype, "tmpfs"); /* the device says the path is on the tmpfs below */
	CHECK(mount_find(root, "/mnt/a/f", 1, makedev(8, 1), &m, &by_init) == MOUNT_LISTED);
	CHECK_EQ_STR(m.mountpoint, "/mnt/a"); /* a bind mount of the same device: the longer point */
	/* a device no mount is listed with, and no /proc/1/mountinfo: major:minor only */
	CHECK(mount_find(root, "/data/x", 1, makedev(8, 17), &m, &by_init) == MOUNT_LISTED);
	put(root, "/proc/self/mountinfo", "40 30 0:50 / /tmp rw - tmpfs tmpfs rw\n");
	CHECK(mount_find(root, "/root", 1, makedev(253, 4), &m, &by_init) == MOUNT_BY_DEVICE);
	CHECK_EQ_INT(by_init, 0);
	CHECK_EQ_INT(m.major, 253);
	CHECK_EQ_INT(m.minor, 4);
	CHECK_EQ_STR(m.fstype, "");
	CHECK(mount_find(root, "/root", 0, 0, &m, &by_init) == MOUNT_UNSEEN);
}
