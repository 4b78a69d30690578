#include "util/workdir.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

uint64_t random_u64(void)
{
	uint64_t v;
	if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		v = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec;
	}
	return v;
}

int workdir_create(const char *parent, char *out, size_t outlen, char *err, size_t errlen)
{
	struct stat st;
	if (stat(parent, &st) < 0)
		return nm_errf(err, errlen, "%s: %s", parent, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return nm_errf(err, errlen, "%s: not a directory", parent);
	for (int attempt = 0; attempt < 16; attempt++) {
		if ((size_t)snprintf(out, outlen, "%s/.nodemark-%08llx", parent,
				     (unsigned long long)(random_u64() & 0xffffffffu)) >= outlen)
			return nm_errf(err, errlen, "%s: path too long", parent);
		sigset_t held;
		cleanup_hold(&held);
		int made = mkdir(out, 0700) == 0;
		if (made)
			cleanup_add(out);
		cleanup_release(&held);
		if (made)
			return 0;
		if (errno != EEXIST)
			return nm_errf(err, errlen, "cannot create a directory in %s: %s", parent, strerror(errno));
	}
	return nm_errf(err, errlen, "%s: cannot find a free .nodemark-* name", parent);
}

uint64_t space_reserve(uint64_t total)
{
	uint64_t five = total / 20, gib = 1ull << 30;
	return five < gib ? five : gib;
}

int space_check(const char *dir, uint64_t need, char *err, size_t errlen)
{
	struct statvfs vfs;
	char a[32], b[32], c[32];
	if (statvfs(dir, &vfs) < 0)
		return nm_errf(err, errlen, "%s: %s", dir, strerror(errno));
	uint64_t total = (uint64_t)vfs.f_blocks * vfs.f_frsize;
	uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	uint64_t reserve = space_reserve(total);
	if (avail < reserve || avail - reserve < need)
		return nm_errf(err, errlen, "%s: not enough free space: needs %s plus %s kept free, has %s",
			       dir, units_bytes_iec(need, a, sizeof a), units_bytes_iec(reserve, b, sizeof b),
			       units_bytes_iec(avail, c, sizeof c));
	return 0;
}
