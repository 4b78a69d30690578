/* Facts about a target path that decide how to run on it (io/ internal, but for the NUMA
 * node CPU list, which the fio front end's numa_cpu_nodes reads too). */
#ifndef NM_IO_TARGET_H
#define NM_IO_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int target_fs_in_memory(const char *path);         /* on tmpfs or ramfs (statfs) */
int target_blockdev_in_memory(dev_t rdev);         /* a brd (ramN) or zram device */
int target_numa_node(dev_t dev);                   /* the device's node, -1 unknown */
#define TARGET_NODE_DIR "/sys/devices/system/node"
/* A NUMA node's CPU list as sysfs has it ("0-3,8"; "" for a node without CPUs), of the real
 * machine; 0, or -1 when the node does not exist. */
int target_node_cpulist(int node, char *buf, size_t len);
/* The CPUs of a NUMA node into cpus[]; returns the count or -1. */
int target_node_cpus(int node, int *cpus, unsigned max);
int target_blockdev_mounted(dev_t rdev);            /* the disk or one of its partitions */
/* 1: O_DIRECT opens (align = the alignment it needs), 0: not supported here, -errno. */
int target_direct_works(const char *path, unsigned *align);
int target_uring_available(void);
int target_blockdev_size(const char *path, uint64_t *size);

#endif
