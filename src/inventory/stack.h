/* The storage stack under a directory: mount -> dm / md / partitions -> physical disks. */
#ifndef NM_INVENTORY_STACK_H
#define NM_INVENTORY_STACK_H

#include <jansson.h>
#include <sys/types.h>

struct mountinfo_entry;

/* The mount holding the absolute path abs (see mount_find; on the real machine by its device,
 * so a chroot's unlisted root is found); 0 or -1. */
int stack_mount_of(const char *root, const char *abs, struct mountinfo_entry *m);

/* "path": the mount and the stack as a tree of layers (see docs/info.md); for a path whose
 * mount cannot be found, an object with an "error". */
json_t *stack_collect(const char *root, const char *path, int serials);

/* stack_collect on a sysroot, with the device the path is on given as stat(2) would give it on
 * that machine: how the tests reach the device-number lookup without the machine. */
json_t *stack_collect_on_device(const char *root, const char *path, dev_t dev);

#endif
