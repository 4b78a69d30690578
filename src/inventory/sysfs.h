/* Reading /proc, /sys and /etc under a sysroot (a fake root for tests, "" for the real one).
 *
 * Every reader takes the machine path as a printf format ("/sys/block/%s/size") and prefixes
 * the root.  Reads are capped (SYSFS_MAX_READ), strings are trimmed and made printable, and
 * a missing or unreadable file is a -1 with errno set (EACCES/EPERM: the fact needs root),
 * never a crash. */
#ifndef NM_INVENTORY_SYSFS_H
#define NM_INVENTORY_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SYSFS_MAX_READ (64 * 1024)

/* The root to read under: given, else $NODEMARK_SYSROOT, else the real one; "/" becomes "". */
const char *sysfs_root(const char *given);

/* root + the formatted machine path into out; -1 when it does not fit. */
int sysfs_path(char *out, size_t len, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Up to len-1 bytes (and at most SYSFS_MAX_READ) into buf, NUL-terminated; the length or -1. */
ssize_t sysfs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The file's text with surrounding whitespace trimmed and unprintable bytes replaced by '?'
 * (so it is safe in JSON); 0 or -1. */
int sysfs_str(const char *root, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A decimal integer file ("1\n", "-1"); 0 or -1 (also for garbage). */
int sysfs_long(const char *root, long long *v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

int sysfs_exists(const char *root, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The entries of a directory, sorted, without dot files; *names is malloc'd (free with
 * sysfs_list_free).  The count, or -1 when the directory cannot be read. */
int sysfs_list(const char *root, char ***names, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void sysfs_list_free(char **names, int n);

/* The machine path a sysfs link resolves to ("/sys/devices/pci0000:00/.../block/vda"),
 * following the links inside the root; 0 or -1. */
int sysfs_resolve(const char *root, char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Trim and make printable in place (what sysfs_str does to a file's text). */
void sysfs_clean(char *s);

/* strlcpy: src truncated to fit len (with its NUL). */
void sysfs_copy(char *dst, size_t len, const char *src);

/* 1 when errno says the file exists but needs privileges. */
int sysfs_needs_root(int err);

#endif
