/* The output a command writes for the user (--output FILE, or standard output): written through
 * util/atomicfile.h, so a file is complete or absent.  On failure each prints one error line
 * naming the file and returns -1; 0 when the file is in place. */
#ifndef NM_CLI_OUTPUT_H
#define NM_CLI_OUTPUT_H

#include <jansson.h>
#include <stdio.h>

/* write(fp, ctx) writes the whole output; path NULL or "-" is standard output.  A write that
 * returns < 0 throws the file away ("PATH: write failed"); a failed fwrite is reported by the
 * commit, with its errno (ENOSPC named). */
int cli_output(const char *path, int (*write)(FILE *fp, void *ctx), void *ctx);

/* j dumped with json_dumpf(flags) and a newline. */
int cli_output_json(const char *path, const json_t *j, size_t flags);

#endif
