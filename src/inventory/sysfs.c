#include "inventory/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *sysfs_root(const char *given)
{
	const char *r = given ? given : getenv("NODEMARK_SYSROOT");
	if (!r || strcmp(r, "/") == 0)
		return "";
	return r;
}

static int vpath(char *out, size_t len, const char *root, const char *fmt, va_list ap)
{
	int n = snprintf(out, len, "%s", root ? root : "");
	if (n < 0 || (size_t)n >= len)
		return -1;
	int m = vsnprintf(out + n, len - (size_t)n, fmt, ap);
	if (m < 0 || (size_t)m >= len - (size_t)n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int sysfs_path(char *out, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vpath(out, len, root, fmt, ap);
	va_end(ap);
	return r;
}

static ssize_t read_capped(const char *path, char *buf, size_t len)
{
	if (len == 0)
		return -1;
	if (len > SYSFS_MAX_READ + 1)
		len = SYSFS_MAX_READ + 1;
	/* O_NONBLOCK: a fifo planted in a fake tree must not hang us. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	size_t got = 0;
	while (got < len - 1) {
		ssize_t r = read(fd, buf + got, len - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

ssize_t sysfs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	int r = vpath(path, sizeof path, root, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	return read_capped(path, buf, len);
}

void sysfs_clean(char *s)
{
	char *p = s;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	size_t n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' || p[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		s[i] = (c < 0x20 || c >= 0x7f) ? (c == '\n' || c == '\t' ? ' ' : '?') : (char)c;
	}
	s[n] = '\0';
}

int sysfs_str(const char *root, char *out, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	int r = vpath(path, sizeof path, root, fmt, ap);
	va_end(ap);
	if (len)
		out[0] = '\0';
	if (r < 0 || read_capped(path, out, len) < 0) {
		if (len)
			out[0] = '\0';
		return -1;
	}
	sysfs_clean(out);
	return 0;
}

int sysfs_long(const char *root, long long *v, const char *fmt, ...)
{
	char path[PATH_MAX], buf[64];
	va_list ap;
	va_start(ap, fmt);
	int r = vpath(path, sizeof path, root, fmt, ap);
	va_end(ap);
	if (r < 0 || read_capped(path, buf, sizeof buf) < 0)
		return -1;
	char *end;
	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (end == buf || errno)
		return -1;
	while (*end == ' ' || *end == '\n')
		end++;
	if (*end)
		return -1;
	*v = x;
	return 0;
}

int sysfs_exists(const char *root, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	int r = vpath(path, sizeof path, root, fmt, ap);
	va_end(ap);
	return r == 0 && access(path, F_OK) == 0;
}

static int cmp_names(const void *a, const void *b)
{
	/* Natural order, so nvme2n1 sorts before nvme10n1. */
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int sysfs_list(const char *root, char ***names, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	int r = vpath(path, sizeof path, root, fmt, ap);
	va_end(ap);
	*names = NULL;
	if (r < 0)
		return -1;
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0, cap = 0;
	char **v = NULL;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		if (n == 4096) /* a sane bound for any directory we list */
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			char **nv = realloc(v, (size_t)cap * sizeof *v);
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof *v, cmp_names);
	*names = v;
	return n;
}

void sysfs_list_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int sysfs_resolve(const char *root, char *out, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX], real[PATH_MAX], realroot[PATH_MAX] = "";
	va_list ap;
	va_start(ap, fmt);
	int r = vpath(path, sizeof path, root, fmt, ap);
	va_end(ap);
	if (r < 0 || !realpath(path, real))
		return -1;
	size_t rl = 0;
	if (root && *root) {
		if (!realpath(root, realroot))
			return -1;
		rl = strlen(realroot);
		/* A link that leaves the fake root is not part of the fake machine. */
		if (strncmp(real, realroot, rl) != 0 || (real[rl] != '/' && real[rl] != '\0'))
			return -1;
	}
	if (snprintf(out, len, "%s", real[rl] ? real + rl : "/") >= (int)len)
		return -1;
	return 0;
}

int sysfs_needs_root(int err)
{
	return err == EACCES || err == EPERM;
}

void sysfs_copy(char *dst, size_t len, const char *src)
{
	if (!len)
		return;
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}
