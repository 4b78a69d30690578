/* The storage stack under a directory: mount -> dm / md / partitions -> physical disks. */
#ifndef NM_INVENTORY_STACK_H
#define NM_INVENTORY_STACK_H

#include <jansson.h>

struct mountinfo_entry;

/* The mount holding the absolute path abs (the longest mount point that prefixes it); 0 or -1. */
int stack_mount_of(const char *root, const char *abs, struct mountinfo_entry *m);

/* "path": the mount and the stack as a tree of layers (see docs/info.md); for a path whose
 * mount cannot be found, an object with an "error". */
json_t *stack_collect(const char *root, const char *path, int serials);

#endif
