/* Removing what nodemark wrote, on every way out: normal exit, error exit, and signals.
 *
 * A command registers each private directory or temp file it creates; atexit() removes them.
 * The signal policy (SIGINT, SIGTERM, SIGHUP), the same for every command:
 *  - a command whose long loops poll cleanup_interrupted() calls cleanup_stop_at_safe_points()
 *    first: the first signal then only sets the flag; the command stops at its next safe point,
 *    says what it saved, and exits 130 (cleanup_exit_code); at exit its registered files are
 *    removed and one line says so;
 *  - any other command is stopped by the first signal at once: the handler removes what is
 *    registered (async-signal-safe calls only), says so, and exits 130;
 *  - a second signal while a command stops does the same at once: nothing written is left,
 *    what was not saved yet is lost.
 * SIGPIPE (the reader of our output went away) is caught and ignored, so the write fails and
 * the cleanup still runs. */
#ifndef NM_UTIL_CLEANUP_H
#define NM_UTIL_CLEANUP_H

#include <signal.h>

void cleanup_init(void);                 /* main.c calls it once */
int cleanup_add(const char *path);       /* a file or a directory tree to remove at exit */
void cleanup_forget(const char *path);   /* keep it after all (--keep, or a committed output) */
void cleanup_now(const char *path);      /* remove it now and forget it */
void cleanup_all(void);                  /* remove everything registered */

/* The command stops at safe points (its long loops poll cleanup_interrupted()); see above. */
void cleanup_stop_at_safe_points(void);
/* Signals wait between these two: a path created and registered under one hold is never left
 * behind by a signal that came between its creation and its registration. */
void cleanup_hold(sigset_t *old);
void cleanup_release(const sigset_t *old);
/* A command's exit code once it returned: 130 when a signal came and it returned 0 or 2; any
 * other code (a failure, a child's status) is kept. */
int cleanup_exit_code(int rc);

/* The signal that asked us to stop, or 0. Async-signal-safe to read. */
int cleanup_interrupted(void);

/* Remove a directory tree (or a file). Returns 0, or -1 with errno set. */
int rm_tree(const char *path);

#endif
