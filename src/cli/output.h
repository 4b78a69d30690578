/* The output a command writes for the user (--output FILE, or standard output): written through
 * util/atomicfile.h, so a file is complete or absent.  On failure each prints one error line
 * naming the file and returns -1; 0 when the file is in place. */
#ifndef NM_CLI_OUTPUT_H
#define NM_CLI_OUTPUT_H

#include "cli/options.h"

#include <jansson.h>
#include <stdio.h>

/* write(fp, ctx) writes the whole output; path NULL or "-" is standard output.  A write that
 * returns < 0 throws the file away ("PATH: write failed"); a failed fwrite is reported by the
 * commit, with its errno (ENOSPC named). */
int cli_output(const char *path, int (*write)(FILE *fp, void *ctx), void *ctx);

/* j dumped with json_dumpf(flags) and a newline. */
int cli_output_json(const char *path, const json_t *j, size_t flags);

/* An output never replaces an input.  Before a command measures or writes anything, every file it
 * will write is checked against the results store (--db, $NODEMARK_DB or the default, with its
 * -wal/-shm/-journal files), every file it reads and every other file it writes: the same path,
 * or the same file (device and inode, so links and "./x" count).  A clash is refused in one line,
 * exit 2.  Outputs that are written in place (an existing character device or FIFO, "-") and
 * inputs that do not exist cannot clash. */
struct file_role {
	char what[64];     /* how the user named it: "--output", "input", "job file" */
	const char *path;  /* not copied: the caller's (argv) */
};

struct file_roles {
	struct file_role *out, *in;
	size_t nout, nin;
};

/* path NULL or "-" is ignored. */
void roles_output(struct file_roles *r, const char *what, const char *path);
void roles_input(struct file_roles *r, const char *what, const char *path);
/* Every CLI_KIND_OUTPUT row of an option table that has a value, as "--NAME". */
void roles_outputs_of(struct file_roles *r, const struct cli_option *table);

/* Checks and frees the roles: exits 2 with one line on a clash.  db: the --db value or NULL. */
void roles_check(struct file_roles *r, const char *db);

/* The usual case: the table's outputs against its inputs (each named "input"), the store and
 * each other. */
void cli_outputs_check(const struct cli_option *table, const char *const *inputs, size_t ninputs, const char *db);

#endif
