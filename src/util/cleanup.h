/* Removing what nodemark wrote, on every way out: normal exit, error exit, and signals.
 *
 * A command registers each private directory or temp file it creates; atexit() removes them.
 * SIGINT, SIGTERM and SIGHUP only set a flag (cleanup_interrupted()), which long-running
 * loops poll so they can stop, save what finished, and return NM_EXIT_INTERRUPTED; a second
 * signal does not cut that short (it is acknowledged on stderr); a third removes the registered
 * files and directory trees at once (async-signal-safe calls only) and exits 130. SIGPIPE (the
 * reader of our output went away) is caught and ignored, so the write fails and the cleanup
 * still runs. */
#ifndef NM_UTIL_CLEANUP_H
#define NM_UTIL_CLEANUP_H

#include <signal.h>

void cleanup_init(void);                 /* main.c calls it once */
int cleanup_add(const char *path);       /* a file or a directory tree to remove at exit */
void cleanup_forget(const char *path);   /* keep it after all (--keep, or a committed output) */
void cleanup_now(const char *path);      /* remove it now and forget it */
void cleanup_all(void);                  /* remove everything registered */

/* The signal that asked us to stop, or 0. Async-signal-safe to read. */
int cleanup_interrupted(void);

/* Remove a directory tree (or a file). Returns 0, or -1 with errno set. */
int rm_tree(const char *path);

#endif
