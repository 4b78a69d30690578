#include "export/texttab.h"
#include "util/textwidth.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* A cell's width: display columns, or benchstat's count of UTF-8 characters (go_runes). */
static size_t cell_width(const struct texttab *t, const char *s)
{
	if (!t->go_runes)
		return text_width(s);
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void tt_row(struct texttab *t)
{
	if (t->n > 0)
		t->cur_row++;
	t->cur_col = 0;
}

void tt_col(struct texttab *t, size_t col)
{
	if (col < t->cur_col)
		abort(); /* a layout bug: columns only move right */
	t->cur_col = col;
}

size_t tt_cur_col(const struct texttab *t)
{
	return t->cur_col;
}

void tt_span(struct texttab *t, size_t span, const char *value, enum tt_align align, const char *margin)
{
	if (!margin)
		margin = t->cur_col == 0 || !*value ? "" : " ";
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = xrealloc(t->cells, t->cap * sizeof *t->cells);
	}
	t->cells[t->n] = (struct tt_cell){ t->cur_row, t->cur_col, span, t->n, xstrdup(value), xstrdup(margin), align };
	t->n++;
	t->cur_col += span;
	if (t->cur_col > t->cols)
		t->cols = t->cur_col;
}

void tt_cell(struct texttab *t, const char *value, enum tt_align align, const char *margin)
{
	tt_span(t, 1, value, align, margin);
}

void tt_set_shrink(struct texttab *t, size_t col)
{
	if (col >= t->nshrink) {
		t->shrink = xrealloc(t->shrink, col + 1);
		memset(t->shrink + t->nshrink, 0, col + 1 - t->nshrink);
		t->nshrink = col + 1;
	}
	t->shrink[col] = 1;
}

static int is_shrink(const struct texttab *t, size_t col)
{
	return col < t->nshrink && t->shrink[col];
}

static int by_span(const void *a, const void *b)
{
	const struct tt_cell *x = a, *y = b;
	if (x->span != y->span)
		return x->span < y->span ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_place(const void *a, const void *b)
{
	const struct tt_cell *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int blank(const char *s)
{
	return strspn(s, " \t\n") == strlen(s);
}

/* A spanning cell wider than its columns: spread what is missing over the columns that may
 * grow, widest first, each to the (rounded up) average still needed. */
static void widen(const struct texttab *t, const struct tt_cell *c, long *ws, long w)
{
	long tw = 0;
	size_t cols[256], nc = 0;
	for (size_t col = c->col; col < c->col + c->span; col++)
		tw += ws[col];
	if (tw >= w)
		return;
	for (size_t col = c->col; col < c->col + c->span; col++) {
		if (is_shrink(t, col))
			w -= ws[col];
		else if (nc < 256)
			cols[nc++] = col;
	}
	for (size_t i = 1; i < nc; i++) /* stable: widest first */
		for (size_t k = i; k > 0 && ws[cols[k]] > ws[cols[k - 1]]; k--) {
			size_t tmp = cols[k];
			cols[k] = cols[k - 1];
			cols[k - 1] = tmp;
		}
	long span = (long)nc;
	for (size_t i = 0; i < nc; i++, span--) {
		long avg = (w + span - 1) / span;
		if (avg > ws[cols[i]])
			ws[cols[i]] = avg;
		w -= ws[cols[i]];
	}
}

static void spaces(FILE *f, long n)
{
	if (n < 0)
		n = -n; /* as Go's "%*s" with a negative width */
	for (long i = 0; i < n; i++)
		fputc(' ', f);
}

void tt_format(struct texttab *t, FILE *f)
{
	long *lmargin = calloc(t->cols + 1, sizeof *lmargin), *ws = calloc(t->cols + 1, sizeof *ws);
	long *offs = calloc(t->cols + 2, sizeof *offs);
	if (!lmargin || !ws || !offs)
		abort();
	for (size_t i = 0; i < t->n; i++)
		if ((long)cell_width(t, t->cells[i].margin) > lmargin[t->cells[i].col])
			lmargin[t->cells[i].col] = (long)cell_width(t, t->cells[i].margin);
	qsort(t->cells, t->n, sizeof *t->cells, by_span);
	for (size_t i = 0; i < t->n; i++) {
		const struct tt_cell *c = &t->cells[i];
		long w = (long)cell_width(t, c->value) + lmargin[c->col];
		if (c->span == 1) {
			if (w > ws[c->col])
				ws[c->col] = w;
		} else {
			widen(t, c, ws, w);
		}
	}
	long off = 0;
	for (size_t i = 0; i < t->cols; i++) {
		offs[i] = off;
		off += ws[i];
	}
	offs[t->cols] = off;

	qsort(t->cells, t->n, sizeof *t->cells, by_place);
	size_t row = 0;
	off = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct tt_cell *c = &t->cells[i];
		if (blank(c->value) && blank(c->margin))
			continue;
		for (; c->row > row; row++, off = 0)
			fputc('\n', f);
		/* off is where Go's layout believes it is, even after a cell too wide for its columns */
		spaces(f, offs[c->col] - off);
		spaces(f, lmargin[c->col] - (long)cell_width(t, c->margin));
		fputs(c->margin, f);
		off = offs[c->col] + lmargin[c->col];
		long tw = offs[c->col + c->span] - offs[c->col] - lmargin[c->col];
		long vw = (long)cell_width(t, c->value), pad = 0;
		if (c->align == TT_CENTER)
			pad = labs((tw - vw) / 2);
		else if (c->align == TT_RIGHT && tw > vw)
			pad = tw - vw;
		spaces(f, pad);
		fputs(c->value, f);
		off += pad + vw;
	}
	if (t->n > 0)
		fputc('\n', f);
	free(lmargin);
	free(ws);
	free(offs);
}

void tt_free(struct texttab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->cells[i].value);
		free(t->cells[i].margin);
	}
	free(t->cells);
	free(t->shrink);
	memset(t, 0, sizeof *t);
}

void tt_superscript(size_t i, char *buf, size_t len)
{
	static const char *digit[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
	char tmp[24];
	snprintf(tmp, sizeof tmp, "%zu", i);
	buf[0] = '\0';
	for (char *p = tmp; *p; p++)
		strncat(buf, digit[*p - '0'], len - strlen(buf) - 1);
}

const char *tt_delta(double old, double new, double p, double alpha, char *buf, size_t len)
{
	if (p > alpha)
		snprintf(buf, len, "~");
	else if (old == new)
		snprintf(buf, len, "0.00%%");
	else if (old == 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%+.2f%%", (new / old - 1.0) * 100.0);
	return buf;
}
