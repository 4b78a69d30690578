/* Which mount holds a path: by its device number in /proc/self/mountinfo and the mount tree,
 * and, where that view hides it (a chroot's root is not a mount in its own view), by the
 * device alone. */
#ifndef NM_INVENTORY_MOUNT_H
#define NM_INVENTORY_MOUNT_H

#include "inventory/parsers.h"

#include <sys/types.h>

enum mount_seen {
	MOUNT_UNSEEN = -1,   /* no mount listed holds the path, and its device is unknown */
	MOUNT_LISTED = 0,    /* the path's mount, from /proc/self/mountinfo */
	MOUNT_BY_DEVICE = 1, /* not in our mountinfo: major:minor from the path's device; the file
			      * system from the device's entry in /proc/1/mountinfo when there is
			      * one (then *seen_by_init is 1); mountpoint left "" */
};

/* The mount holding the absolute path abs.  With have_dev (the path's st_dev), the listed
 * entries with that device win, the longest mount point that prefixes abs first, and of two on
 * one point the one mounted over the other; without a device match (btrfs subvolumes report
 * their own anonymous devices) the longest prefix.  root is a sysfs_root(). */
enum mount_seen mount_find(const char *root, const char *abs, int have_dev, dev_t dev, struct mountinfo_entry *m,
			   int *seen_by_init);

/* The file system type of the mounted file system holding path on this machine, from
 * statfs(2) ("ext4" is told from ext2/3 by /sys/fs/ext4/<device>); "" when unknown. */
void mount_fstype_of(const char *path, const char *device, char *out, size_t len);

/* The top directory of path's file system as this process sees it: its highest ancestor on
 * the same device (what df and stat %m print).  abs must be a real path. */
void mount_point_of(const char *abs, dev_t dev, char *out, size_t len);

#endif
