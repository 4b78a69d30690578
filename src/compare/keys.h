/* The keys of a comparison, as benchstat's data model has them: every benchmark of every input
 * answers a KEY with a value, or has none.  --row, --col and --filter project over them.
 *
 * A KEY is a name, taken whole: "a.b" is the setting (option, tag) named a.b, never b under a
 * (nested settings are no keys).  It is, the first that holds a value (a text, a number, a
 * boolean) first:
 *   input, name, id, host, label, command, version       the input and its run
 *   a tag of the run (--tag fs=xfs; a Go configuration key such as goos)
 *   a setting of the benchmark (rw, bs, iodepth, direct, engine, hash, sync, backend, size, ...)
 *   a parameter of time's -P/-L (n), a fio job option (job_options: ioengine, ...), then a fio
 *   global option in force for the job (global_options: direct, ...)
 *   an inventory fact: kernel, os, fs, device, mount, cpu, virt
 * so a tag named kernel is the key kernel, not the inventory's (docs/compare.md). */
#ifndef NM_COMPARE_KEYS_H
#define NM_COMPARE_KEYS_H

#include <stddef.h>

#include "compare/table.h"

/* The value of key for benchmark b of input in (malloc'd, whole: values that differ anywhere
 * stay apart; a real in the shortest digits that read back); NULL when it has none. */
char *key_value(const struct ct_input *in, const struct bench *b, const char *key);

/* The same as the user spelled it: a sweep's parameter ("bs": "4k") where the setting holds its
 * number (4096).  A row or column is found by key_value (runs that spell 4k and 4096 share it)
 * and shown with the first spelling seen. */
char *key_spelling(const struct ct_input *in, const struct bench *b, const char *key); /* malloc'd */

/* 1 with *v when KEY's value is a number (a setting such as bs): rows order by it. */
int key_number(const struct ct_input *in, const struct bench *b, const char *key, double *v);

/* 1 when some benchmark of some input has key. */
int keys_known(const struct ct_input *in, size_t nin, const char *key);

/* The keys the inputs have, ", "-separated, into buf (shortened with "..." when long). */
void keys_list(const struct ct_input *in, size_t nin, char *buf, size_t len);

/* A --filter expression, KEY=GLOB or KEY!=GLOB (the key is all before the first '='; a '!'
 * before it negates): 0 with f's key malloc'd and its pattern pointing into expr, or -1 (no
 * '=', no key). */
int key_filter_parse(const char *expr, struct ct_filter *f);

/* The row of benchmark b when the columns (or rows) are another key than its name: a time
 * command run over -P/-L parameters is named with its values substituted ("sleep 0.01",
 * "sleep 0.03"); over the parameter projected (by) its row is the command as written with the
 * others substituted ("sleep 0.0{n}"), so its values stand side by side.  Otherwise the name. */
char *key_row_name(const struct bench *b, const char *by); /* malloc'd */

#endif
