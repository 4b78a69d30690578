/* Facts about the machine (nodemark info), read from /proc and /sys without root where
 * possible.  Every fact records where it came from; facts that need root say so.
 *
 * A sysroot (NULL: $NODEMARK_SYSROOT, else the real "/") points every reader at a fake
 * tree holding proc/, sys/, etc/, run/ - the tests describe machines we do not have. */
#ifndef NM_INVENTORY_INVENTORY_H
#define NM_INVENTORY_INVENTORY_H

#include <jansson.h>

struct inventory_opts {
	const char *sysroot;  /* a fake root holding proc/, sys/, etc/ for tests; NULL = see above */
	const char *path;     /* the directory whose storage stack to describe; NULL = "." */
	int serials;          /* include serial numbers and UUIDs */
};

/* The whole inventory as one JSON object (stored with every run). Never NULL. */
json_t *inventory_collect(const struct inventory_opts *o);

/* "2-core Intel Xeon (KVM), 23 GiB RAM, virtio 256 GiB ext4, Debian 12, Linux 6.18"; malloc'd. */
char *inventory_summary(const json_t *inv);

/* The block device under the inventory's path (its "path" object) in one line: "md0: 16x NVMe
 * RAID0 56 TiB", "vda: virtio 256 GiB"; NULL when none (tmpfs).  malloc'd. */
char *inventory_path_storage(const json_t *path);

/* The inventory for people: the summary line, then a section per part; the kernel's whole
 * command line only when verbose; malloc'd. */
char *inventory_text(const json_t *inv, int verbose);

/* hw.sh's block alone (VENDOR, MEMORY, CPUs, DISKS), as run's report shows it; malloc'd. */
char *inventory_overview(const json_t *inv);

/* What lies under a directory, for the layers that adapt to it (NUMA placement, O_DIRECT,
 * picking the NVMe test set). */
struct path_device {
	char fstype[32];      /* "ext4", "tmpfs", "xfs", "zfs" */
	char mountpoint[256];
	char mount_options[256]; /* per-mount options, then the superblock's ("rw,relatime,rw") */
	char device[64];      /* top block device name, "" for tmpfs etc: "dm-0", "md0", "nvme0n1p1" */
	char transport[16];   /* of the physical device(s): "nvme", "sata", "sas", "virtio", "scsi", "mmc", "" */
	int rotational;       /* 1 when any physical device spins, -1 unknown */
	int numa_node;        /* -1 unknown */
	int memory_backed;    /* tmpfs, ramfs */
};

/* path may be a directory or a file, or a file yet to be created (its nearest existing parent
 * is used).  Without a sysroot the path's mount is found by its device (stat's st_dev against
 * mountinfo's major:minor, then the mount tree); a mount this process cannot see (a chroot's
 * root) is found by the device alone, so the device, transport and file system are still
 * known.  With a sysroot, by the longest mount point in <sysroot>/proc/self/mountinfo that is a
 * prefix of the path string (the path then names a place on the fake machine).  0, or -1 when
 * the path cannot be found or nothing is known of its mount (out is then zeroed, rotational
 * and numa_node -1). */
int inventory_path_device(const char *sysroot, const char *path, struct path_device *out);

/* Several targets (disk, pieces) on one physical disk are not independent disks: of paths[0..n),
 * the groups that share a disk (or one memory-backed or pool mount), as
 * "/a and /b are on nvme0n1; /c and /d are on sda" into out; the number of groups (0: all
 * apart).  Block devices are left out (a device is its own disk). */
int inventory_shared_disks(const char *sysroot, const char *const *paths, size_t n, char *out, size_t len);

#endif
