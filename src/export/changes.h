/* "What changed" (compare/changes.h) as people read it: one line per fact. */
#ifndef NM_EXPORT_CHANGES_H
#define NM_EXPORT_CHANGES_H

#include <jansson.h>
#include <stdio.h>

/* One change as people read it: its name into what, its values as malloc'd texts into *a and
 * *b.  A setting whose values carry a unit reads "runtime", "200 ms", "100 ms" (returns 1);
 * else the entry's "what" and its values as they are ("(none)" for a missing one; returns 0).
 * Every rendering of the list (text, Markdown, the report's table) goes through it. */
int changes_entry_text(const json_t *c, char *what, size_t wlen, char **a, char **b);

/* The changes as text, one per line: "  kernel  5.15.0-91-generic -> 6.5.0-9-generic";
 * "  (none)" when empty.  malloc'd. */
char *changes_text(const json_t *changes);

/* "What changed from NAME_A to NAME_B" and the changes as text, into f; nothing when changes
 * is NULL (the model has none: a run without an inventory).  For compare and run. */
void changes_write_text(FILE *f, const json_t *changes, const char *name_a, const char *name_b);

/* The same as a Markdown section ("## What changed from A to B" and the lines in a code block);
 * nothing when changes is NULL.  For compare and report. */
void changes_write_markdown(FILE *f, const json_t *changes, const char *name_a, const char *name_b);

#endif
