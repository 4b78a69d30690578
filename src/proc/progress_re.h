/* The pattern that finds a progress number (or a time stamp) in a line of output.
 *
 * Patterns are PCRE2 (Perl) regexes, compiled with PCRE2's JIT: \d, (?:...), named groups
 * (?P<name>...) or (?<name>...), lazy and possessive quantifiers, anchors ^ $ (per line).
 * The captured text is the first named group, else the first capture group.
 *
 * Speed matters (track reads logs of millions of lines): a literal that every match must
 * contain is found first (memchr for its rarest byte, then memcmp), and only lines that hold
 * it are given to the regex. A match limit bounds the work one line can cost. */
#ifndef NM_RUN_PROGRESS_RE_H
#define NM_RUN_PROGRESS_RE_H

#include <stddef.h>

struct progress_re;

/* Returns NULL with a message (one line) when the pattern is invalid or has no group. */
struct progress_re *progress_re_compile(const char *pattern, char *err, size_t errlen);
/* A pattern that need not capture (track --until): its capture is the first group when it
 * has one, else the whole match. */
struct progress_re *progress_re_compile_any(const char *pattern, char *err, size_t errlen);
void progress_re_free(struct progress_re *re);

/* The captured text of the first match in line[0..len): 1 and *cap, *caplen, or 0.
 * Not thread-safe: one compiled pattern keeps one match buffer. */
int progress_re_capture(const struct progress_re *re, const char *line, size_t len, const char **cap,
			size_t *caplen);

/* Does the line match? */
int progress_re_matches(const struct progress_re *re, const char *line, size_t len);

/* The captured text as a number: 1 and *value, or 0 (no match, or not a number). */
int progress_re_number(const struct progress_re *re, const char *line, size_t len, double *value);

/* The same capture without the literal prefilter (the reference the prefilter must agree
 * with). For tests and the fuzzer. */
int progress_re_capture_unfiltered(const struct progress_re *re, const char *line, size_t len,
				   const char **cap, size_t *caplen);

/* The literal prefilter of a pattern (malloc'd), NULL when it has none usable. Exposed for
 * tests. */
char *progress_re_required_literal(const char *pattern, size_t *len);

#endif
