#include "util/workdir.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/units.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* Inside each work directory: who made it (pid, host, command, start), for a later run that
 * finds the directory left behind. */
#define OWNER_FILE "OWNER"
#define STALE_SHOWN 5

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

/* The directory is this process's while it lives: an exclusive flock(2) on it, held by a
 * descriptor never closed (the kernel drops it when the process ends, even by SIGKILL; it is
 * close-on-exec, so no program nodemark starts keeps it), and the OWNER record. Blocking: a
 * later run's probe (report_stale) holds the lock for an instant only. */
static void mark_owner(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return;
	flock(dfd, LOCK_EX);
	int fd = openat(dfd, OWNER_FILE, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		char host[256] = "";
		gethostname(host, sizeof host - 1);
		dprintf(fd, "pid %d\nhost %s\ncommand %s\nstarted %lld\nversion %s\n", (int)getpid(), host,
			nm_command() ? nm_command() : "?", (long long)time(NULL), NODEMARK_VERSION);
		close(fd);
	}
}

/* The value of "key VALUE" in an OWNER record, into out ("" when absent). */
static void owner_field(const char *rec, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);
	out[0] = 0;
	for (const char *p = rec; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, key, k) == 0 && p[k] == ' ') {
			size_t n = strcspn(p + k + 1, "\n");
			snprintf(out, len, "%.*s", (int)n, p + k + 1);
			return;
		}
}

/* One line about a work directory that no running process holds, or nothing (0) when it is
 * a store kept on purpose (pieces --keep: a PIECES marker and no OWNER record). */
static int describe_stale(int dfd, const char *path)
{
	char rec[1024], pid[32], host[256], cmd[64], started[32], me[256] = "", when[64] = "";
	int fd = openat(dfd, OWNER_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = fd >= 0 ? read(fd, rec, sizeof rec - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		if (faccessat(dfd, "PIECES", F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			return 0;
		nm_warn("%s was left by an earlier run (no owner recorded: an older nodemark's); if no nodemark "
			"runs here now, remove it with: rm -r '%s'",
			path, path);
		return 1;
	}
	rec[n] = 0;
	owner_field(rec, "pid", pid, sizeof pid);
	owner_field(rec, "host", host, sizeof host);
	owner_field(rec, "command", cmd, sizeof cmd);
	owner_field(rec, "started", started, sizeof started);
	time_t t = (time_t)strtoll(started, NULL, 10);
	struct tm tm;
	if (t > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof when, ", started %Y-%m-%d %H:%M:%S UTC", &tm);
	gethostname(me, sizeof me - 1);
	if (host[0] && strcmp(host, me) != 0)
		nm_warn("%s was left by nodemark %s (pid %s on host %s%s): its lock is free, but from here it cannot be "
			"told whether that host still uses it; if not, remove it with: rm -r '%s'",
			path, cmd, pid, host, when, path);
	else
		nm_warn("%s was left by nodemark %s (pid %s%s), which has ended (killed?): nothing uses it; remove it "
			"with: rm -r '%s'",
			path, cmd, pid, when, path);
	return 1;
}

/* Work directories in parent that a killed run left behind (no process holds their lock):
 * each said once per parent and process, never removed (see docs/safety.md). */
static void report_stale(const char *parent, const char *mine)
{
	static char seen[8][512];
	static unsigned nseen;
	for (unsigned i = 0; i < nseen; i++)
		if (strcmp(seen[i], parent) == 0)
			return;
	if (nseen < sizeof seen / sizeof seen[0] && strlen(parent) < sizeof seen[0])
		strcpy(seen[nseen++], parent);
	DIR *d = opendir(parent);
	if (!d)
		return;
	size_t stale = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[4200];
		if (strncmp(e->d_name, ".nodemark-", 10) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
		if (strcmp(path, mine) == 0)
			continue;
		/* only directories (a link or a file by the name is not one of ours) */
		int dfd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		if (flock(dfd, LOCK_EX | LOCK_NB) == 0) { /* nobody holds it: its run has ended */
			flock(dfd, LOCK_UN);
			if (stale < STALE_SHOWN)
				stale += (size_t)describe_stale(dfd, path);
			else
				stale++;
		}
		close(dfd);
	}
	closedir(d);
	if (stale > STALE_SHOWN)
		nm_warn("%zu more directories like these in %s (ls -d '%s'/.nodemark-*)", stale - STALE_SHOWN, parent,
			parent);
}

void workdir_keep(const char *dir)
{
	char owner[4200];
	cleanup_forget(dir);
	/* kept on purpose: no longer a leftover for a later run to report */
	snprintf(owner, sizeof owner, "%s/%s", dir, OWNER_FILE);
	unlink(owner);
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
		if (made) {
			mark_owner(out);
			report_stale(parent, out);
			return 0;
		}
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

/* The value says what made the file; only the attribute's name and this value count as the mark. */
static const char mark_value[] = "created by nodemark";

int file_mark(int fd)
{
	return fsetxattr(fd, NM_FILE_MARK, mark_value, sizeof mark_value - 1, 0);
}

int file_marked(const char *path)
{
	struct stat st;
	char v[sizeof mark_value];
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	ssize_t n = getxattr(path, NM_FILE_MARK, v, sizeof v);
	return n == (ssize_t)sizeof mark_value - 1 && memcmp(v, mark_value, (size_t)n) == 0;
}
