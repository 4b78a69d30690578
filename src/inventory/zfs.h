/* ZFS under a path: the dataset's properties and its pool's layout.  ZFS keeps these out of
 * /proc and /sys; the zfs and zpool tools read them without root.  Without the tools,
 * /proc/spl/kstat/zfs still names the pool and its health. */
#ifndef NM_INVENTORY_ZFS_H
#define NM_INVENTORY_ZFS_H

#include <jansson.h>

/* path.zfs for a mounted dataset ("tank/db"): {dataset, pool, recordsize, compression, atime,
 * sync, primarycache, properties_source, pool_health, ashift, size, vdevs, layout, ...}. */
json_t *zfs_collect(const char *root, const char *dataset);

/* The vdevs of `zpool status -P POOL`'s config section, as
 * [{"type": "mirror", "class": "data", "members": ["/dev/sda1", ...]}, ...]; a vdev that is
 * one disk is {"type": "disk", "members": [it]}.  Never NULL. */
json_t *parse_zpool_status(const char *text);

/* "mirror of 2", "raidz2 of 6", "2 disks striped", "1 disk": the data vdevs in words. */
void zfs_layout(const json_t *vdevs, char *out, size_t len);

#endif
