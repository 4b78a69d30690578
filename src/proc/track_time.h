/* The time stamps of a job's log lines (track --time-pattern/--time-format). */
#ifndef NM_PROC_TRACK_TIME_H
#define NM_PROC_TRACK_TIME_H

#include <stddef.h>

/* A time stamp text parsed with a strptime format (plus "%s": seconds since the epoch, and a
 * fraction of a second after the format's end, ".250").  Returns 0 and seconds, or -1. */
int track_parse_time(const char *text, size_t len, const char *fmt, double *out);

struct progress_re;

/* The time of a log line from its own text (track --time-pattern's capture, parsed with fmt):
 * 0 and seconds, or -1 when the pattern does not match or the capture is no time. */
int track_line_time(const struct progress_re *tre, const char *fmt, const char *line, size_t len, double *out);

#endif
