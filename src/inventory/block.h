/* Block devices as /sys describes them: one device's facts, and the list of all disks. */
#ifndef NM_INVENTORY_BLOCK_H
#define NM_INVENTORY_BLOCK_H

#include <jansson.h>
#include <stdint.h>

struct block_info {
	char name[64];        /* "nvme0n1p1", "sda", "dm-0", "md0" */
	char disk[64];        /* the whole disk of a partition, else name */
	char syspath[512];    /* where /sys/class/block/<name> resolves, machine-absolute */
	int partition;        /* 1 for a partition */
	char kind[16];        /* "disk", "part", "dm", "md", "loop", "zram", "ram" */
	char transport[16];   /* "nvme", "sata", "sas", "scsi", "virtio", "usb", "mmc", "xen", "" */
	char model[128];
	char vendor[64];
	char firmware[64];
	char serial[128];     /* only reported with --serials */
	uint64_t size;        /* bytes */
	int rotational;       /* -1 unknown */
	char scheduler[32];
	long long logical_block, physical_block; /* 0 unknown */
	int numa_node;        /* -1 unknown */
	int pcie_gen, pcie_width, pcie_max_gen, pcie_max_width; /* 0 unknown */
	char write_cache[16]; /* queue/write_cache: "write back", "write through"; "" unknown */
	long long discard_max;  /* queue/discard_max_bytes: 0 no discard, -1 unknown */
	long long nr_requests, read_ahead_kb; /* -1 unknown */
	long long metadata_bytes; /* NVMe namespace: per-LBA metadata of its LBA format; -1 unknown */
};

/* Facts about one block device by name (a partition reports its disk's queue and model);
 * 0, or -1 when root/sys/class/block/<name> does not exist. */
int block_read(const char *root, const char *name, struct block_info *b);

/* The name of the device with this major:minor (/sys/dev/block/M:m); 0 or -1. */
int block_name_of(const char *root, unsigned major, unsigned minor, char *name, size_t len);

/* "/dev/mapper/vg-root", "/dev/nvme0n1p2" -> the kernel name ("dm-3", "nvme0n1p2"); 0 or -1. */
int block_name_of_source(const char *root, const char *source, char *name, size_t len);

/* The disk's own facts (model, firmware, queue settings, PCIe link, LBA format) added to o. */
void block_disk_json(json_t *o, const struct block_info *b, int serials);

/* One device as a JSON object (serials only when asked). */
json_t *block_json(const struct block_info *b, int serials);

/* "storage": every whole disk in /sys/block with a size (loop devices without a backing
 * file, ram disks and empty drives left out). */
json_t *block_collect(const char *root, int serials);

/* "NVMe", "SATA", "virtio" ...: the transport as people write it. */
const char *block_transport_label(const char *transport);

#endif
