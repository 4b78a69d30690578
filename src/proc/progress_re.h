/* The pattern that finds a progress number (or a time stamp) in a line of output.
 *
 * Patterns are POSIX extended regexes, plus what people type from other tools: \d \D (digits),
 * \s \w inside brackets, (?:...) groups and named groups (?P<name>...) or (?<name>...).  The
 * captured text is the first named group, else the first capture group.
 *
 * Speed matters (track reads logs of millions of lines): a pattern of the common shape
 * `literal(\d+)literal` (optionally anchored, the number as \d+, [0-9]+ or [0-9.]+) is matched
 * by hand; any other pattern is first screened by a literal that every match must contain
 * (memmem), and only lines that have it go to regexec. */
#ifndef NM_RUN_PROGRESS_RE_H
#define NM_RUN_PROGRESS_RE_H

#include <stddef.h>

struct progress_re;

/* Returns NULL with a message ("--pattern: ...") when the pattern is invalid or has no group. */
struct progress_re *progress_re_compile(const char *pattern, char *err, size_t errlen);
void progress_re_free(struct progress_re *re);

/* The captured text of the first match in line[0..len): 1 and *cap, *caplen, or 0. */
int progress_re_capture(const struct progress_re *re, const char *line, size_t len, const char **cap,
			size_t *caplen);

/* The captured text as a number: 1 and *value, or 0 (no match, or not a number). */
int progress_re_number(const struct progress_re *re, const char *line, size_t len, double *value);

/* Which path a pattern takes: 1 the hand matcher, 0 regexec. For tests and the fuzzer. */
int progress_re_is_fast(const struct progress_re *re);
/* The same capture through regexec alone (the reference the hand matcher must agree with). */
int progress_re_capture_slow(const struct progress_re *re, const char *line, size_t len, const char **cap,
			     size_t *caplen);

/* The POSIX ERE a pattern becomes (malloc'd) and the index of the group that is captured;
 * NULL with a message on error. Exposed for tests. */
char *progress_re_translate(const char *pattern, int *group, char *err, size_t errlen);

#endif
