/* Facts about the machine (nodemark info), read from /proc and /sys without root where
 * possible.  Every fact records where it came from; facts that need root say so. */
#ifndef NM_INVENTORY_INVENTORY_H
#define NM_INVENTORY_INVENTORY_H

#include <jansson.h>

struct inventory_opts {
	const char *sysroot;  /* a fake root holding proc/, sys/, etc/ for tests; NULL = "/" */
	const char *path;     /* the directory whose storage stack to describe; NULL = "." */
	int serials;          /* include serial numbers and UUIDs */
};

/* The whole inventory as one JSON object (stored with every run). Never NULL. */
json_t *inventory_collect(const struct inventory_opts *o);

/* "2-core Intel Xeon (KVM), 23 GiB RAM, virtio 256 GiB ext4, Debian 12, Linux 6.18"; malloc'd. */
char *inventory_summary(const json_t *inv);

#endif
