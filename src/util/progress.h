/* Progress on stderr while a long job runs.  On a terminal: a live line, redrawn in place.
 * Elsewhere (a log file, cron, a pipe into tee): a plain line every 10 seconds (or the
 * interval set), so a log shows the job alive; nothing for a job shorter than that.
 * NODEMARK_NO_PROGRESS (set by the tests) or --quiet turns both off. */
#ifndef NM_UTIL_PROGRESS_H
#define NM_UTIL_PROGRESS_H

/* 1 when progress is shown at all (live or plain): callers skip the work of making the text
 * otherwise. */
int progress_enabled(void);
/* 1 when it is the live line on a terminal. */
int progress_live(void);
/* --quiet: no progress at all.  --progress=N: the plain line every N seconds. */
void progress_set_quiet(void);
void progress_set_interval(unsigned seconds);
/* Show the text: live, "\r<text>" padded to clear the old one, at most 10 times a second;
 * plain, "[HH:MM:SS] <text>\n" once the interval has passed since the first update or the
 * last line. */
void progress_update(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Erase the live line (before normal output is printed); nothing for plain lines. */
void progress_clear(void);

#endif
