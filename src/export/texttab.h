/* Text tables laid out as benchstat lays them out (its internal texttab package): cells placed
 * by row and column, some spanning several columns, each with a left margin; a column is as
 * wide as its widest cell with the widest margin, spanning cells widen the columns they cover
 * that are not marked "shrink".  Widths are display columns (util/textwidth.h), not bytes;
 * with go_runes set, UTF-8 characters as Go counts them (utf8.RuneCountInString), so that a
 * name with a wide or combining character is laid out as benchstat lays it out. */
#ifndef NM_EXPORT_TEXTTAB_H
#define NM_EXPORT_TEXTTAB_H

#include "util/escape.h"

#include <stddef.h>
#include <stdio.h>

enum tt_align { TT_LEFT, TT_CENTER, TT_RIGHT };

struct tt_cell {
	size_t row, col, span, seq;
	char *value, *margin;
	enum tt_align align;
};

struct texttab {
	struct tt_cell *cells;
	size_t n, cap, cols;
	unsigned char *shrink;
	size_t nshrink;
	size_t cur_row, cur_col;
	int go_runes;           /* widths in UTF-8 characters, as benchstat's (nodemark benchstat) */
};

void tt_row(struct texttab *t);
/* Moves to a column at or after the current one. */
void tt_col(struct texttab *t, size_t col);
size_t tt_cur_col(const struct texttab *t);
/* margin NULL: " ", or "" in the first column or for an empty value. */
void tt_span(struct texttab *t, size_t span, const char *value, enum tt_align align, const char *margin);
void tt_cell(struct texttab *t, const char *value, enum tt_align align, const char *margin);
void tt_set_shrink(struct texttab *t, size_t col);
void tt_format(struct texttab *t, FILE *f);
void tt_free(struct texttab *t);

/* A footnote mark: i in superscript digits ("¹", "¹²"), into buf. */
void tt_superscript(size_t i, char *buf, size_t len);

/* benchstat's delta column: "~" when p > alpha, "0.00%", "?" from a zero baseline, else
 * "+12.34%" / "-5.00%". Returns buf. */
const char *tt_delta(double old, double new, double p, double alpha, char *buf, size_t len);

#endif
