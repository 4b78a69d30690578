/* `nodemark disk A B ...` measured in turns: one table (a row per test, a column per target,
 * the ratio to the reference and its verdict per other target) and the --json document. */
#ifndef NM_DISK_TURNS_REPORT_H
#define NM_DISK_TURNS_REPORT_H

#include <jansson.h>
#include <stdio.h>
#include "disk/turns.h"

void disk_turns_print(FILE *out, const struct disk_turns *t);
json_t *disk_turns_json(const struct disk_turns *t);

#endif
