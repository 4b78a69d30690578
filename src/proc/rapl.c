#include "proc/rapl.h"
#include "inventory/sysfs.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RAPL_MAX 16

struct rapl {
	int fd[RAPL_MAX];
	double range_j; /* sum of the packages' max_energy_range_uj: where the sum wraps */
	int n;
};

static int read_u64(int fd, unsigned long long *v)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	*v = strtoull(buf, NULL, 10);
	return 0;
}

/* A top-level zone "intel-rapl:N" is a package; subzones ("intel-rapl:N:M": core, dram) are
 * already inside it. */
static int is_package_zone(const char *name)
{
	const char *p = name + strlen("intel-rapl:");
	return strncmp(name, "intel-rapl:", strlen("intel-rapl:")) == 0 && *p && strspn(p, "0123456789") == strlen(p);
}

struct rapl *rapl_open(char *why, size_t whylen)
{
	const char *root = sysfs_root(NULL);
	char **zones;
	int nz = sysfs_list(root, &zones, "/sys/class/powercap");
	struct rapl *r = calloc(1, sizeof *r);
	if (!r)
		abort();
	int denied = 0;
	for (int i = 0; i < nz && r->n < RAPL_MAX; i++) {
		if (!is_package_zone(zones[i]))
			continue;
		char path[512];
		unsigned long long v, range;
		int rfd = -1, fd = -1;
		if (sysfs_path(path, sizeof path, root, "/sys/class/powercap/%s/max_energy_range_uj", zones[i]) == 0)
			rfd = open(path, O_RDONLY | O_CLOEXEC);
		if (rfd >= 0 && sysfs_path(path, sizeof path, root, "/sys/class/powercap/%s/energy_uj", zones[i]) == 0)
			fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || rfd < 0 || read_u64(fd, &v) < 0 || read_u64(rfd, &range) < 0) {
			denied |= errno == EACCES || errno == EPERM;
			if (fd >= 0)
				close(fd);
			if (rfd >= 0)
				close(rfd);
			continue;
		}
		close(rfd);
		r->fd[r->n++] = fd;
		r->range_j += (double)range / 1e6;
	}
	if (nz > 0)
		sysfs_list_free(zones, nz);
	if (r->n == 0) {
		nm_errf(why, whylen, denied ? "RAPL energy counters need root"
		       : nz < 0 ? "no RAPL counters on this machine" : "no readable RAPL counters");
		free(r);
		return NULL;
	}
	return r;
}

void rapl_close(struct rapl *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->n; i++)
		close(r->fd[i]);
	free(r);
}

double rapl_read_j(struct rapl *r)
{
	double sum = 0;
	for (int i = 0; i < r->n; i++) {
		unsigned long long v;
		if (read_u64(r->fd[i], &v) == 0)
			sum += (double)v / 1e6;
	}
	return sum;
}

double rapl_delta_j(struct rapl *r, double before_j, double after_j)
{
	double d = after_j - before_j;
	if (d < 0)
		d += r->range_j; /* one counter wrapped (at most once: runs are far shorter) */
	return d < 0 ? 0 : d; /* readings past the range (a reset counter) say nothing */
}
