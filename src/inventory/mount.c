/* Which mount holds a path.  A path prefix is not enough: in a chroot the root directory is no
 * mount point in the chroot's own /proc/self/mountinfo (the kernel leaves out mounts above the
 * process's root), and a bind mount or a mount stacked over another shares its mount point.
 * The path's device number (st_dev) says which file system it is on; mountinfo's major:minor
 * and its tree say which mount that is, when it is listed. */
#include "inventory/mount.h"
#include "inventory/sysfs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

/* Copies one space-separated mountinfo field, decoding the kernel's \ooo escapes. */
static const char *field(const char *s, char *out, size_t len)
{
	size_t n = 0;
	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	while (*s && *s != ' ' && *s != '\n') {
		char c = *s++;
		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' &&
		    s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (len)
		out[n] = '\0';
	return s;
}

/* "rw,relatime" + "rw,discard" -> "rw,relatime,discard": the superblock's options that the
 * mount's own do not already say. */
static void merge_options(char *out, size_t len, const char *mopts, const char *sopts)
{
	sysfs_copy(out, len, mopts);
	size_t l = strlen(out);
	for (const char *p = sopts; *p;) {
		size_t n = strcspn(p, ",");
		int dup = 0;
		for (const char *q = mopts; *q && !dup;) {
			size_t m = strcspn(q, ",");
			dup = m == n && strncmp(p, q, n) == 0;
			q += m + (q[m] == ',');
		}
		if (!dup && n && l + n + 2 <= len) {
			if (l)
				out[l++] = ',';
			memcpy(out + l, p, n);
			out[l += n] = '\0';
		}
		p += n + (p[n] == ',');
	}
}

int parse_mountinfo_line(const char *line, struct mountinfo_entry *e)
{
	char tmp[256], mopts[256], sopts[256];
	memset(e, 0, sizeof *e);
	const char *s = line;
	/* mount id, parent id, major:minor */
	if (!(s = field(s, tmp, sizeof tmp)) || sscanf(tmp, "%u", &e->id) != 1 || !(s = field(s, tmp, sizeof tmp)) ||
	    sscanf(tmp, "%u", &e->parent) != 1 || !(s = field(s, tmp, sizeof tmp)))
		return -1;
	if (sscanf(tmp, "%u:%u", &e->major, &e->minor) != 2)
		return -1;
	if (!(s = field(s, e->root, sizeof e->root)) || !(s = field(s, e->mountpoint, sizeof e->mountpoint)) ||
	    !(s = field(s, mopts, sizeof mopts)))
		return -1;
	/* optional fields up to the lone "-" */
	for (;;) {
		if (!(s = field(s, tmp, sizeof tmp)))
			return -1;
		if (strcmp(tmp, "-") == 0)
			break;
	}
	if (!(s = field(s, e->fstype, sizeof e->fstype)) || !(s = field(s, e->source, sizeof e->source)))
		return -1;
	if (!field(s, sopts, sizeof sopts))
		sopts[0] = '\0';
	if (e->mountpoint[0] != '/')
		return -1;
	merge_options(e->options, sizeof e->options, mopts, sopts);
	sysfs_clean(e->options);
	sysfs_clean(e->source);
	sysfs_clean(e->fstype);
	return 0;
}

static int is_prefix_dir(const char *mp, const char *path)
{
	size_t n = strlen(mp);
	if (strcmp(mp, "/") == 0)
		return 1;
	return strncmp(path, mp, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* Is candidate a better answer than best?  A device match first, then the longer mount point;
 * on one point the mount stacked over the other (its parent is the other), else the later
 * line, as the kernel lists mounts in the order they were made. */
static int better(const struct mountinfo_entry *c, int c_dev, const struct mountinfo_entry *best, int best_dev)
{
	if (c_dev != best_dev)
		return c_dev > best_dev;
	size_t lc = strlen(c->mountpoint), lb = strlen(best->mountpoint);
	if (lc != lb)
		return lc > lb;
	return best->parent == c->id ? 0 : 1;
}

typedef int (*mount_pick)(const struct mountinfo_entry *e, void *arg);

/* Streams a mountinfo file and keeps the best entry that pick scores above 0 (2: matches the
 * device); 0 when one was found. */
static int scan(const char *root, const char *file, mount_pick pick, void *arg, struct mountinfo_entry *best)
{
	char path[PATH_MAX];
	if (sysfs_path(path, sizeof path, root, "%s", file) < 0)
		return -1;
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	int found = 0, best_dev = 0;
	struct mountinfo_entry e;
	for (int lines = 0; getline(&line, &cap, f) > 0 && lines < 100000; lines++) {
		int score;
		if (parse_mountinfo_line(line, &e) < 0 || (score = pick(&e, arg)) <= 0)
			continue;
		if (!found || better(&e, score == 2, best, best_dev)) {
			*best = e;
			best_dev = score == 2;
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found ? 0 : -1;
}

struct want {
	const char *abs;
	int have_dev;
	dev_t dev;
};

/* Our own view: mounts whose point prefixes the path, those on its device scoring higher. */
static int pick_listed(const struct mountinfo_entry *e, void *arg)
{
	const struct want *w = arg;
	if (!is_prefix_dir(e->mountpoint, w->abs))
		return 0;
	return w->have_dev && makedev(e->major, e->minor) == w->dev ? 2 : 1;
}

/* Another process's view (its paths are not ours): only the device counts, and of its
 * mounts the one of the whole file system (root "/") is preferred. */
static int pick_device(const struct mountinfo_entry *e, void *arg)
{
	const struct want *w = arg;
	if (makedev(e->major, e->minor) != w->dev)
		return 0;
	return strcmp(e->root, "/") == 0 ? 2 : 1;
}

enum mount_seen mount_find(const char *root, const char *abs, int have_dev, dev_t dev, struct mountinfo_entry *m,
			   int *seen_by_init)
{
	struct want w = { abs, have_dev, dev };
	*seen_by_init = 0;
	if (scan(root, "/proc/self/mountinfo", pick_listed, &w, m) == 0)
		return MOUNT_LISTED;
	if (!have_dev)
		return MOUNT_UNSEEN;
	/* A chroot: init's view (whose root is the real one) still lists the device's mount. */
	if (scan(root, "/proc/1/mountinfo", pick_device, &w, m) == 0) {
		*seen_by_init = 1;
	} else {
		memset(m, 0, sizeof *m);
		m->major = major(dev);
		m->minor = minor(dev);
	}
	m->mountpoint[0] = '\0';
	return MOUNT_BY_DEVICE;
}

void mount_fstype_of(const char *path, const char *device, char *out, size_t len)
{
	static const struct { unsigned long magic; const char *name; } types[] = {
		{ 0xEF53, "ext2/ext3" },     { 0x58465342, "xfs" },   { 0x9123683E, "btrfs" },
		{ 0x01021994, "tmpfs" },     { 0x858458f6, "ramfs" }, { 0x794c7630, "overlay" },
		{ 0x2fc12fc1, "zfs" },       { 0x6969, "nfs" },       { 0xF2F52010, "f2fs" },
		{ 0x4d44, "vfat" },          { 0x5346544e, "ntfs" },  { 0x65735546, "fuse" },
		{ 0xCA451A4E, "bcachefs" },  { 0x9fa0, "proc" },      { 0x62656572, "sysfs" },
	};
	struct statfs sf;
	out[0] = '\0';
	if (statfs(path, &sf) < 0)
		return;
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if ((unsigned long)sf.f_type == types[i].magic)
			sysfs_copy(out, len, types[i].name);
	/* ext2, 3 and 4 share one magic; a mounted ext4 has its directory in /sys/fs/ext4. */
	if (strcmp(out, "ext2/ext3") == 0 && device && *device && sysfs_exists("", "/sys/fs/ext4/%s", device))
		sysfs_copy(out, len, "ext4");
}

void mount_point_of(const char *abs, dev_t dev, char *out, size_t len)
{
	char up[PATH_MAX];
	struct stat st;
	sysfs_copy(up, sizeof up, abs);
	sysfs_copy(out, len, abs);
	for (;;) {
		char *slash = strrchr(up, '/');
		if (!slash)
			return;
		if (slash == up) {
			if (stat("/", &st) == 0 && st.st_dev == dev)
				sysfs_copy(out, len, "/");
			return;
		}
		*slash = '\0';
		if (stat(up, &st) < 0 || st.st_dev != dev)
			return;
		sysfs_copy(out, len, up);
	}
}
