/* benchstat's text and CSV renderings of bt_builder tables. */
#include "export/benchtab.h"
#include "export/texttab.h"
#include "stats/scale.h"
#include "util/gofloat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CENTER_COLS 3 /* <center> <± range> <footnotes> */
#define DELTA_COLS 3  /* <delta> <(p=... n=...)> <footnotes> */

static size_t start_col(size_t exp)
{
	return exp == 0 ? 1 : 1 + CENTER_COLS + (exp - 1) * (CENTER_COLS + DELTA_COLS);
}

struct notes {
	char **text;
	size_t n;
};

/* One cell holding the footnote marks of every warning in the lists. */
static void warn_cell(struct texttab *o, struct notes *nt, const struct bt_warnings *a, const struct bt_warnings *b)
{
	char buf[256] = "";
	const struct bt_warnings *lists[2] = { a, b };
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; lists[l] && i < lists[l]->n; i++) {
			size_t k;
			for (k = 0; k < nt->n && strcmp(nt->text[k], lists[l]->w[i]) != 0; k++)
				;
			if (k == nt->n) {
				nt->text = realloc(nt->text, (nt->n + 1) * sizeof *nt->text);
				if (!nt->text)
					abort();
				nt->text[nt->n++] = lists[l]->w[i];
			}
			char sup[32];
			tt_superscript(k + 1, sup, sizeof sup);
			if (*buf)
				strncat(buf, " ", sizeof buf - strlen(buf) - 1);
			strncat(buf, sup, sizeof buf - strlen(buf) - 1);
		}
	tt_cell(o, buf, TT_LEFT, NULL);
}

/* The column keys as header rows, one per field, a value spanning the columns it heads. */
static void header_rows(struct texttab *o, const struct bt_table *t)
{
	size_t nf;
	struct bp_field *const *fields = bp_flat_fields(t->cols[0]->proj, &nf);
	size_t redge = start_col(t->ncols + 1);
	/* each level splits the previous level's groups where the value changes */
	size_t *bounds = calloc(t->ncols + 1, sizeof *bounds), nb = 0;
	unsigned char *cut = calloc(t->ncols + 1, 1);
	if (!bounds || !cut)
		abort();
	cut[0] = 1;
	for (size_t lv = 0; lv < nf; lv++) {
		for (size_t c = 1; c < t->ncols; c++)
			if (strcmp(bp_key_get(t->cols[c], fields[lv]), bp_key_get(t->cols[c - 1], fields[lv])) != 0)
				cut[c] = 1;
		nb = 0;
		for (size_t c = 0; c < t->ncols; c++)
			if (cut[c])
				bounds[nb++] = c;
		bounds[nb] = t->ncols;
		tt_row(o);
		for (size_t i = 0; i < nb; i++) {
			size_t l = start_col(bounds[i]), r = start_col(bounds[i + 1]);
			tt_col(o, l);
			tt_span(o, r - l, bp_key_get(t->cols[bounds[i]], fields[lv]), TT_CENTER, " │ ");
		}
		tt_col(o, redge);
		tt_cell(o, "", TT_LEFT, " │");
	}
	free(bounds);
	free(cut);
	tt_row(o);
	for (size_t i = 0; i < t->ncols; i++) {
		size_t l = start_col(i);
		tt_col(o, l);
		tt_span(o, CENTER_COLS, t->unit, TT_CENTER, " │ ");
		if (i > 0)
			tt_span(o, DELTA_COLS, "vs base", TT_LEFT, "  ");
		for (size_t j = l + 1; j < tt_cur_col(o); j++)
			tt_set_shrink(o, j);
	}
	tt_col(o, redge);
	tt_cell(o, "", TT_LEFT, " │");
}

static void body_rows(struct texttab *o, struct notes *nt, const struct bt_table *t)
{
	enum scale_class cls = scale_class_of(t->unit);
	double *centers = calloc(t->ncols + 1, sizeof *centers);
	char label[1024], buf[64], pn[64], wrapped[80];
	if (!centers)
		abort();
	for (size_t r = 0; r < t->nrows; r++) {
		tt_row(o);
		bp_key_values(t->rows[r], label, sizeof label);
		tt_cell(o, label, TT_LEFT, NULL);
		size_t n = 0;
		for (size_t c = 0; c < t->ncols; c++)
			if (bt_cell_at(t, r, c))
				centers[n++] = bt_cell_at(t, r, c)->center;
		struct scaler sc = scale_common(centers, n, cls);
		for (size_t c = 0; c < t->ncols; c++) {
			const struct bt_cell *cell = bt_cell_at(t, r, c);
			if (!cell)
				continue;
			tt_col(o, start_col(c));
			tt_cell(o, scale_format(&sc, cell->center, buf, sizeof buf), TT_RIGHT, NULL);
			tt_cell(o, bt_range_pct(cell, buf, sizeof buf), TT_RIGHT, " ± ");
			warn_cell(o, nt, &cell->sample_warn, &cell->summary_warn);
			if (c > 0 && cell->baseline) {
				tt_cell(o, bt_delta(cell, buf, sizeof buf), TT_RIGHT, NULL);
				snprintf(wrapped, sizeof wrapped, "(%s)", bt_pn(cell, pn, sizeof pn));
				tt_cell(o, wrapped, TT_LEFT, NULL);
				warn_cell(o, nt, &cell->cmp_warn, NULL);
			}
		}
	}
	free(centers);
	if (t->nrows <= 1)
		return;
	tt_row(o);
	tt_cell(o, "geomean", TT_LEFT, NULL);
	for (size_t c = 0; c < t->ncols; c++) {
		const struct bt_sum *s = &t->sums[c];
		if (s->has_summary) {
			tt_col(o, start_col(c));
			tt_cell(o, scale_one(s->summary, cls, buf, sizeof buf), TT_RIGHT, NULL);
		}
		if (c > 0) {
			tt_col(o, start_col(c) + CENTER_COLS);
			if (s->has_ratio) {
				snprintf(buf, sizeof buf, "%+.2f%%", (s->ratio - 1) * 100);
				tt_cell(o, buf, TT_RIGHT, NULL);
			} else {
				tt_cell(o, "?", TT_LEFT, NULL);
			}
		}
		tt_col(o, start_col(c + 1) - 1);
		warn_cell(o, nt, &s->warn, NULL);
	}
}

static void table_text(FILE *f, const struct bt_table *t)
{
	struct texttab o = { .go_runes = 1 }; /* benchstat's layout, character for character */
	struct notes nt = { 0 };
	header_rows(&o, t);
	body_rows(&o, &nt, t);
	tt_format(&o, f);
	tt_free(&o);
	for (size_t i = 0; i < nt.n; i++) {
		char sup[32];
		tt_superscript(i + 1, sup, sizeof sup);
		fprintf(f, "%s %s\n", sup, nt.text[i]);
	}
	free(nt.text);
}

/* The table keys' changes as "key: value" lines before each table. */
static void each_table(struct bt_builder *b, void (*hdr)(void *, const char *), void (*table)(void *, const struct bt_table *),
		       void *arg)
{
	size_t nf;
	if (b->ntables == 0)
		return;
	struct bp_field *const *fields = bp_flat_fields(b->table_by, &nf);
	const struct bp_key *prev = NULL;
	for (size_t i = 0; i < b->ntables; i++) {
		const struct bt_table *t = b->tables[i];
		if (i > 0)
			hdr(arg, "");
		for (size_t k = 0; k < nf; k++) {
			if (strcmp(fields[k]->name, ".unit") == 0)
				continue;
			const char *v = bp_key_get(t->key, fields[k]);
			if (!prev || strcmp(v, bp_key_get(prev, fields[k])) != 0) {
				char line[2048];
				snprintf(line, sizeof line, "%s: %s", fields[k]->name, v);
				hdr(arg, line);
			}
		}
		prev = t->key;
		table(arg, t);
	}
}

static void text_hdr(void *arg, const char *line)
{
	fprintf(arg, "%s\n", line);
}

static void text_table(void *arg, const struct bt_table *t)
{
	table_text(arg, t);
}

void bt_write_text(FILE *f, struct bt_builder *b)
{
	each_table(b, text_hdr, text_table, f);
}

/* ---- CSV ---- */

struct csv {
	FILE *out, *warn;
	size_t row;          /* spreadsheet row of the next line (1-based) */
	char **fields;
	size_t n, cap;
};

static void field_out(FILE *f, const char *s)
{
	int quote = *s && (strpbrk(s, ",\"\r\n") || strcmp(s, "\\.") == 0 || strchr(" \t\n\v\f\r", s[0]));
	if (!quote) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void push(struct csv *c, const char *s)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		c->fields = realloc(c->fields, c->cap * sizeof *c->fields);
		if (!c->fields)
			abort();
	}
	c->fields[c->n] = strdup(s);
	if (!c->fields[c->n])
		abort();
	c->n++;
}

static void clear_to(struct csv *c, size_t col)
{
	while (c->n < col)
		push(c, "");
}

static void emit(struct csv *c)
{
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			fputc(',', c->out);
		field_out(c->out, c->fields[i]);
		free(c->fields[i]);
	}
	fputc('\n', c->out);
	c->n = 0;
	c->row++;
}

/* A warning about the next cell, as "B6: msg" (the column letters as benchstat computes them). */
static void csv_warn(struct csv *c, const struct bt_warnings *w)
{
	char name[16];
	size_t pos = sizeof name - 1;
	name[pos] = '\0';
	for (size_t x = c->n; x > 0; x /= 26)
		name[--pos] = (char)('A' + x % 26);
	if (pos == sizeof name - 1)
		name[--pos] = 'A';
	for (size_t i = 0; i < w->n; i++)
		fprintf(c->warn, "%s%zu: %s\n", name + pos, c->row, w->w[i]);
}

static size_t csv_start_col(size_t exp)
{
	return exp == 0 ? 1 : 1 + 2 + (exp - 1) * 4;
}

static void csv_table(void *arg, const struct bt_table *t)
{
	struct csv *c = arg;
	char buf[64], pn[64];
	size_t nf;
	struct bp_field *const *fields = bp_flat_fields(t->cols[0]->proj, &nf);
	for (size_t k = 0; k < nf; k++) {
		for (size_t e = 0; e < t->ncols; e++) {
			clear_to(c, csv_start_col(e));
			push(c, bp_key_get(t->cols[e], fields[k]));
		}
		clear_to(c, csv_start_col(t->ncols));
		emit(c);
	}
	for (size_t e = 0; e < t->ncols; e++) {
		clear_to(c, csv_start_col(e));
		push(c, t->unit);
		push(c, "CI");
		if (e > 0) {
			push(c, "vs base");
			push(c, "P");
		}
	}
	emit(c);
	for (size_t r = 0; r < t->nrows; r++) {
		char label[1024];
		bp_key_values(t->rows[r], label, sizeof label);
		push(c, label);
		for (size_t e = 0; e < t->ncols; e++) {
			const struct bt_cell *cell = bt_cell_at(t, r, e);
			if (!cell)
				continue;
			clear_to(c, csv_start_col(e));
			csv_warn(c, &cell->sample_warn);
			csv_warn(c, &cell->summary_warn);
			push(c, go_float(cell->center, buf, sizeof buf));
			push(c, bt_range_pct(cell, buf, sizeof buf));
			if (e > 0 && cell->baseline) {
				csv_warn(c, &cell->cmp_warn);
				push(c, bt_delta(cell, buf, sizeof buf));
				push(c, bt_pn(cell, pn, sizeof pn));
			}
		}
		emit(c);
	}
	push(c, "geomean");
	for (size_t e = 0; e < t->ncols; e++) {
		const struct bt_sum *s = &t->sums[e];
		clear_to(c, csv_start_col(e));
		csv_warn(c, &s->warn);
		if (s->has_summary)
			push(c, go_float(s->summary, buf, sizeof buf));
		if (e > 0) {
			clear_to(c, csv_start_col(e) + 2);
			if (s->has_ratio)
				snprintf(buf, sizeof buf, "%+.2f%%", (s->ratio - 1) * 100);
			push(c, s->has_ratio ? buf : "?");
		}
	}
	clear_to(c, csv_start_col(t->ncols));
	emit(c);
}

static void csv_hdr(void *arg, const char *line)
{
	struct csv *c = arg;
	push(c, line);
	emit(c);
}

void bt_write_csv(FILE *out, FILE *warnings, struct bt_builder *b)
{
	struct csv c = { out, warnings, 1, NULL, 0, 0 };
	each_table(b, csv_hdr, csv_table, &c);
	free(c.fields);
}
