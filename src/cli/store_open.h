/* What the commands that read the results store share (runs, show, export, import, rm, compare,
 * report): opening it from --db and loading runs named on the command line.  Each prints its
 * one-line error itself; the caller returns NM_EXIT_USAGE (bad name, locked or damaged store). */
#ifndef NM_CLI_STORE_OPEN_H
#define NM_CLI_STORE_OPEN_H

#include "results/record.h"
#include "results/store.h"

struct store *storecmd_open(const char *db);
struct record *storecmd_load(struct store *s, const char *name);

/* The most an input file (benchmark text, JSON records) may hold: read whole, it must fit in
 * memory; /dev/zero or a runaway pipe must not grow it until the kernel kills the process. */
#define INPUT_MAX_BYTES (1ull << 30)

/* The one way a command reads an input file: whole, into a NUL-terminated buffer.  "-" is
 * standard input.  A named pipe, a device or a directory is refused at once (opened without
 * blocking), and so is more than INPUT_MAX_BYTES.  NULL after printing one line why. */
char *storecmd_read_file(const char *path, size_t *len);

#endif
