/* Parsers for the values people type on command lines: sizes, durations, counts, tags.
 *
 * Each returns 0 on success, or -1 with a message in err of the form
 *   "4q": expected a size like 4k, 1MiB
 * so a caller only prefixes the option name ("--bs: ").  They reject empty strings,
 * garbage, negative numbers and overflow; they never read past the terminating NUL. */
#ifndef NM_UTIL_PARSE_H
#define NM_UTIL_PARSE_H

#include <stddef.h>
#include <stdint.h>

enum size_units {
	SIZE_UNITS_NODEMARK = 0, /* 4k = 4K = 4KiB = 4096, 4kB = 4KB = 4000 */
	SIZE_UNITS_FIO_1024,     /* fio's default kb_base=1024: every prefix form is a power of 2 */
	SIZE_UNITS_FIO_1000,     /* fio's kb_base=1000: 4k = 4kB = 4000, 4KiB = 4096 */
};

int parse_size(const char *s, uint64_t *out, char *err, size_t errlen);
int parse_size_units(const char *s, enum size_units units, uint64_t *out, char *err, size_t errlen);

/* Durations: "500ms", "5s", "2m", "1h30m", "1.5s", "250us"; a bare number is in
 * default_unit_ns (1e9 for seconds).  Result in nanoseconds. */
int parse_duration(const char *s, uint64_t default_unit_ns, uint64_t *ns, char *err, size_t errlen);

/* A whole number in [min, max]: digits only. */
int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen);

/* A number in [0, 100], with an optional '%'. */
int parse_percent(const char *s, double *out, char *err, size_t errlen);

/* "key=value": the key is letters, digits, '_', '.', '-'; the value is not empty.
 * On success *key and *value point into a malloc'd copy owned by *key (free(*key) only). */
int parse_tag(const char *s, char **key, char **value, char *err, size_t errlen);

/* Split "a,b,c" on sep into a NULL-terminated malloc'd array of malloc'd strings.
 * Empty items are an error ("a,,b"). Returns the count, or -1. free with free_strv(). */
int split_list(const char *s, char sep, char ***out, char *err, size_t errlen);
void free_strv(char **v);

#endif
