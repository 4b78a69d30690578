/* "What changed" between two saved runs: the inventory differences (inventory/diff.h), the
 * nodemark version, and each benchmark's own settings.  For `info --diff`, and for compare,
 * report and run to show beside a comparison. */
#ifndef NM_EXPORT_CHANGES_H
#define NM_EXPORT_CHANGES_H

#include "results/record.h"

#include <jansson.h>
#include <stdio.h>

/* [{"key", "what", "a", "b"}, ...]: inventory facts first ("os.kernel"), then
 * "nodemark.version", then "settings[BENCH].KEY" for benchmarks both runs have.  Pure: no
 * I/O, no printing.  Never NULL; empty when nothing differs (or neither has an inventory). */
json_t *record_changes(const struct record *a, const struct record *b);

/* The changes as text, one per line: "  kernel  5.15.0-91-generic -> 6.5.0-9-generic";
 * "  (none)" when empty.  malloc'd. */
char *changes_text(const json_t *changes);

/* "What changed from NAME_A to NAME_B" and the changes as text, into f; nothing when either run
 * has no inventory (a file of bare results).  For compare and run's terminal output. */
void changes_write_text(FILE *f, const struct record *a, const char *name_a, const struct record *b,
			const char *name_b);

#endif
