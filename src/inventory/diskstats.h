/* What the block devices under some paths did over a stretch of time: the kernel's I/O
 * counters (/sys/class/block/<dev>/stat, Documentation/block/stat.rst) read before and after,
 * and how busy each device was.  fio calls this disk utilisation ("disk_util"); `nodemark fio`
 * reports it the same way.
 *
 *   struct disk_activity a; disk_activity_init(&a, NULL);
 *   disk_activity_watch_path(&a, "/mnt/data/file");    // its disk, and what lies under it
 *   disk_activity_begin(&a);  ... the run ...  disk_activity_end(&a);
 *   a.dev[i].delta.ios[0], a.dev[i].util ...
 *
 * A partition counts as its whole disk (as fio counts it); a device-mapper or md device is
 * followed down its slaves/ directory, each slave becoming a device of its own, listed after
 * the device above it. */
#ifndef NM_INVENTORY_DISKSTATS_H
#define NM_INVENTORY_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>

#define DISK_ACTIVITY_MAX 64
#define DISK_ACTIVITY_MAX_SLAVES 32

/* [0] reads, [1] writes; ticks and io_ticks in ms. */
struct disk_counters {
	uint64_t ios[2], merges[2], sectors[2], ticks[2];
	uint64_t io_ticks;      /* ms with at least one I/O in flight */
	uint64_t in_queue;      /* ms spent by all I/Os, summed (time_in_queue) */
};

struct disk_activity_dev {
	char name[64];                          /* "vda", "dm-0", "nvme0n1" */
	struct disk_counters start, delta;
	double util;                            /* 100 * io_ticks / elapsed ms, at most 100 */
	unsigned slave[DISK_ACTIVITY_MAX_SLAVES]; /* indexes of the devices right under it */
	unsigned nslaves;
};

struct disk_activity {
	const char *root;                       /* sysroot ("" the real machine) */
	size_t n;
	struct disk_activity_dev dev[DISK_ACTIVITY_MAX];
	uint64_t t0_ns;
	uint64_t elapsed_ms;                    /* set by disk_activity_end */
};

/* root: a sysroot for tests, NULL for the real machine. */
void disk_activity_init(struct disk_activity *a, const char *root);

/* Parse a stat file's text; 0, or -1 when it has fewer than 11 numbers. */
int disk_counters_parse(const char *text, struct disk_counters *c);

/* Watch the device a kernel name stands for ("nvme0n1p3" watches nvme0n1), and everything
 * under it.  Its index, or -1 when the device is unknown or the table is full. */
int disk_activity_watch_device(struct disk_activity *a, const char *name);

/* Watch the device that holds path (a file, directory or block device node).  0, or -1 when
 * it lies on no block device (tmpfs, a network file system) or cannot be found. */
int disk_activity_watch_path(struct disk_activity *a, const char *path);

/* Read every watched device's counters: at the start, and at the end (deltas and util). */
void disk_activity_begin(struct disk_activity *a);
void disk_activity_end(struct disk_activity *a);

#endif
