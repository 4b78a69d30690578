/* Targets: what a path is (directory, file, block device), whether O_DIRECT works there,
 * whether it is memory-backed, its NUMA node, and which engine "auto" picks for it. */
#include "io/target.h"
#include "inventory/sysfs.h"
#include "util/cpulist.h"
#include "util/error.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int target_fs_in_memory(const char *path)
{
	struct statfs sfs;
	if (statfs(path, &sfs) < 0)
		return 0;
	return sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC;
}

/* The kernel's name of the device (/sys/dev/block/M:m is a link to .../block/NAME, or
 * .../NAME/PARTNAME for a partition), not the path the user gave: brd disks are ramN, zram
 * ones zramN, whatever /dev node or link names them. */
int target_blockdev_in_memory(dev_t rdev)
{
	char p[64], real[PATH_MAX];
	snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!realpath(p, real))
		return 0;
	char *name = strrchr(real, '/');
	name = name ? name + 1 : real;
	int ram = strncmp(name, "ram", 3) == 0 && isdigit((unsigned char)name[3]);
	return ram || (strncmp(name, "zram", 4) == 0 && isdigit((unsigned char)name[4]));
}

static int read_int_file(const char *path, long *out)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, sizeof buf, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	*out = strtol(buf, NULL, 10);
	return 0;
}

/* /sys/dev/block/M:m, or its whole disk for a partition, then device/numa_node. */
int target_numa_node(dev_t dev)
{
	char p[PATH_MAX + 32], real[PATH_MAX];
	long node;
	snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(p, real))
		return -1;
	snprintf(p, sizeof p, "%s/partition", real);
	if (access(p, F_OK) == 0) {
		char *slash = strrchr(real, '/');
		if (slash)
			*slash = '\0';
	}
	snprintf(p, sizeof p, "%s/device/numa_node", real);
	if (read_int_file(p, &node) < 0 || node < 0)
		return -1;
	return (int)node;
}

int target_node_cpulist(int node, char *buf, size_t len)
{
	return sysfs_str("", buf, len, TARGET_NODE_DIR "/node%d/cpulist", node);
}

int target_node_cpus(int node, int *cpus, unsigned max)
{
	char buf[4096];
	if (target_node_cpulist(node, buf, sizeof buf) < 0)
		return -1;
	return cpulist_cpus(buf, cpus, max);
}

/* Is the block device (or one of its partitions) mounted? /proc/self/mountinfo field 3 is
 * major:minor of the mounted device. */
int target_blockdev_mounted(dev_t rdev)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = 0;
	if (!f)
		return 1; /* cannot tell: assume it is */
	while (!found && fgets(line, sizeof line, f)) {
		unsigned maj, min;
		if (sscanf(line, "%*s %*s %u:%u", &maj, &min) != 2)
			continue;
		if (maj == major(rdev) && min == minor(rdev))
			found = 1;
		/* a partition of this disk: /sys/dev/block/M:m of the partition sits under the disk */
		if (!found && maj == major(rdev)) {
			char p[64], real[PATH_MAX], disk[PATH_MAX];
			snprintf(p, sizeof p, "/sys/dev/block/%u:%u", maj, min);
			if (!realpath(p, real))
				continue;
			snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
			if (!realpath(p, disk))
				continue;
			size_t l = strlen(disk);
			if (strncmp(real, disk, l) == 0 && real[l] == '/')
				found = 1;
		}
	}
	fclose(f);
	return found;
}

int target_direct_works(const char *path, unsigned *align)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return errno == EINVAL ? 0 : -errno;
	*align = 512;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
		int ssz;
		if (ioctl(fd, BLKSSZGET, &ssz) == 0 && ssz > 0)
			*align = (unsigned)ssz;
	} else {
#ifdef STATX_DIOALIGN
		struct statx stx;
		if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN) &&
		    stx.stx_dio_offset_align)
			*align = stx.stx_dio_offset_align;
#endif
	}
	close(fd);
	return 1;
}

int target_uring_available(void)
{
	static int cached = -1;
	if (cached < 0) {
		struct io_uring ring;
		cached = io_uring_queue_init(2, &ring, 0) == 0;
		if (cached)
			io_uring_queue_exit(&ring);
	}
	return cached;
}

int target_blockdev_size(const char *path, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = ioctl(fd, BLKGETSIZE64, size) < 0 ? -errno : 0;
	close(fd);
	return rc;
}
