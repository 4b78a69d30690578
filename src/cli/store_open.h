/* What the commands that read the results store share (runs, show, export, import, rm, compare,
 * report): opening it from --db and loading runs named on the command line.  Each prints its
 * one-line error itself; the caller returns NM_EXIT_USAGE (bad name, locked or damaged store). */
#ifndef NM_CLI_STORE_OPEN_H
#define NM_CLI_STORE_OPEN_H

#include "results/record.h"
#include "results/store.h"

struct store *storecmd_open(const char *db);
struct record *storecmd_load(struct store *s, const char *name);

/* Read a whole file ("-" = stdin) into a NUL-terminated buffer. NULL after printing why. */
char *storecmd_read_file(const char *path, size_t *len);

#endif
