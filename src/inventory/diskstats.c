/* Block device activity over a run (see diskstats.h): which devices to watch, their counters
 * before and after, and the share of the time each was busy. */
#include "inventory/diskstats.h"
#include "inventory/block.h"
#include "inventory/sysfs.h"
#include "util/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Deep enough for LVM on dm-crypt on md on partitions; a loop in a broken sysroot stops here. */
#define WATCH_MAX_DEPTH 8

void disk_activity_init(struct disk_activity *a, const char *root)
{
	memset(a, 0, sizeof *a);
	a->root = sysfs_root(root);
}

int disk_counters_parse(const char *text, struct disk_counters *c)
{
	/* read: ios merges sectors ticks; write: the same; in_flight io_ticks time_in_queue */
	unsigned long long v[11];
	const char *p = text;
	for (int i = 0; i < 11; i++) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		v[i] = strtoull(p, &end, 10);
		p = end;
	}
	memset(c, 0, sizeof *c);
	for (int d = 0; d < 2; d++) {
		c->ios[d] = v[4 * d];
		c->merges[d] = v[4 * d + 1];
		c->sectors[d] = v[4 * d + 2];
		c->ticks[d] = v[4 * d + 3];
	}
	c->io_ticks = v[9];
	c->in_queue = v[10];
	return 0;
}

static int read_counters(const struct disk_activity *a, const char *name, struct disk_counters *c)
{
	char buf[512];
	if (sysfs_read(a->root, buf, sizeof buf, "/sys/class/block/%s/stat", name) < 0)
		return -1;
	return disk_counters_parse(buf, c);
}

static int watch(struct disk_activity *a, const char *name, int depth)
{
	struct block_info b;
	if (depth > WATCH_MAX_DEPTH || block_read(a->root, name, &b) < 0)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->dev[i].name, b.disk) == 0)
			return (int)i;
	if (a->n == DISK_ACTIVITY_MAX)
		return -1;
	unsigned idx = (unsigned)a->n++;
	snprintf(a->dev[idx].name, sizeof a->dev[idx].name, "%s", b.disk);

	char **slaves = NULL;
	int ns = sysfs_list(a->root, &slaves, "/sys/class/block/%s/slaves", b.disk);
	for (int i = 0; i < ns; i++) {
		int s = watch(a, slaves[i], depth + 1);
		struct disk_activity_dev *d = &a->dev[idx];
		if (s >= 0 && (unsigned)s != idx && d->nslaves < DISK_ACTIVITY_MAX_SLAVES)
			d->slave[d->nslaves++] = (unsigned)s;
	}
	sysfs_list_free(slaves, ns);
	return (int)idx;
}

int disk_activity_watch_device(struct disk_activity *a, const char *name)
{
	return watch(a, name, 0);
}

int disk_activity_watch_path(struct disk_activity *a, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (major(dev) == 0) /* anonymous: tmpfs, overlay, NFS, ... */
		return -1;
	char name[64];
	if (block_name_of(a->root, major(dev), minor(dev), name, sizeof name) < 0)
		return -1;
	return disk_activity_watch_device(a, name) < 0 ? -1 : 0;
}

void disk_activity_begin(struct disk_activity *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (read_counters(a, a->dev[i].name, &a->dev[i].start) < 0)
			memset(&a->dev[i].start, 0, sizeof a->dev[i].start);
	a->t0_ns = clock_now_ns();
}

/* Counters only grow, but a device reset (or a sysroot edited between reads) may not: clamp. */
static uint64_t since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

void disk_activity_end(struct disk_activity *a)
{
	a->elapsed_ms = (clock_now_ns() - a->t0_ns) / 1000000;
	for (size_t i = 0; i < a->n; i++) {
		struct disk_activity_dev *d = &a->dev[i];
		struct disk_counters now;
		memset(&d->delta, 0, sizeof d->delta);
		d->util = 0;
		if (read_counters(a, d->name, &now) < 0)
			continue;
		for (int k = 0; k < 2; k++) {
			d->delta.ios[k] = since(now.ios[k], d->start.ios[k]);
			d->delta.merges[k] = since(now.merges[k], d->start.merges[k]);
			d->delta.sectors[k] = since(now.sectors[k], d->start.sectors[k]);
			d->delta.ticks[k] = since(now.ticks[k], d->start.ticks[k]);
		}
		d->delta.io_ticks = since(now.io_ticks, d->start.io_ticks);
		d->delta.in_queue = since(now.in_queue, d->start.in_queue);
		if (a->elapsed_ms)
			d->util = 100.0 * (double)d->delta.io_ticks / (double)a->elapsed_ms;
		if (d->util > 100.0)
			d->util = 100.0;
	}
}
