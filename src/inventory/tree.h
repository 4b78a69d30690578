/* What lies on each disk, as lsblk draws it: partitions, then the devices built on them
 * (md, dm-crypt, LVM), each with the file system mounted from it and where. */
#ifndef NM_INVENTORY_TREE_H
#define NM_INVENTORY_TREE_H

#include <jansson.h>

/* A whole disk's tree: {"fstype", "mountpoint" (of the disk itself, when used whole),
 * "children": [{"name", "type", "size", "fstype", "mountpoint", "children": [...]}]}.  Mounts from root's
 * /proc/self/mountinfo; a member of md/dm says so in fstype ("linux_raid_member",
 * "crypto_LUKS", "LVM2_member") as blkid would. */
json_t *block_tree_children(const char *root, const char *disk);

#endif
