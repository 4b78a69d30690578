/* The inputs of compare and report: each word names a file of JSON records, a file of Go
 * benchmark text, or a saved run.  Files win over run names when both exist. */
#ifndef NM_CMD_COMPAREINPUT_H
#define NM_CMD_COMPAREINPUT_H

#include <stddef.h>

#include "export/comparetab.h"

struct compare_inputs {
	struct ct_input *v;
	size_t n;
	struct record **owned;
	char **owned_names;
	size_t nowned;
};

/* 0, or -1 after printing a one-line error (bad file, unknown run, bad store). */
int compare_inputs_load(struct compare_inputs *ci, const char *const *words, size_t nwords, const char *db);
void compare_inputs_free(struct compare_inputs *ci);

#endif
