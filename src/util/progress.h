/* A live progress line on stderr, only when stderr is a terminal (nothing otherwise). */
#ifndef NM_UTIL_PROGRESS_H
#define NM_UTIL_PROGRESS_H

int progress_enabled(void);
/* Redraw the line: "\r<text>" padded to clear the old one. Rate-limited to 10 per second. */
void progress_update(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Erase the line (before normal output is printed). */
void progress_clear(void);

#endif
