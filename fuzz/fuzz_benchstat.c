/* libFuzzer harness: `nodemark benchstat`'s pipeline.  The first line of the input is a -filter
 * query, the second a -col projection, the rest Go benchmark text (benchfmt).
 *
 * Besides "no crash, no leak, no undefined behaviour": a query either parses or gives a
 * message; every result kept has a name and at least one value; the tables build and render
 * as text and CSV, and every cell holds at least one value.  The filter's oracle: a query Q and
 * its negation -(Q) split every result's values between them, each value to exactly one side,
 * in order.  A measurement that is not a finite number stops the reading with a one-line
 * message, and no result read holds one. */
#include "fuzz_util.h"
#include "export/benchtab.h"
#include "results/benchfmt.h"
#include "results/benchproc.h"

#include <math.h>

static void ignore(void *arg, const char *msg)
{
	(void)arg;
	FUZZ_ASSERT(msg && *msg);
}

/* The values of r that f keeps, on a copy (f without the parser's fixed-order lists). */
static struct bf_result kept(const struct bp_filter *f, const struct bf_result *r)
{
	struct bp_filter plain = *f;
	struct bf_result c = *r;
	plain.parser = NULL;
	c.values = malloc((r->nvalues ? r->nvalues : 1) * sizeof *c.values);
	if (!c.values)
		abort();
	memcpy(c.values, r->values, r->nvalues * sizeof *c.values);
	bp_filter_apply(&plain, &c);
	return c;
}

static int same_value(const struct bf_value *a, const struct bf_value *b)
{
	return a->unit == b->unit && memcmp(&a->value, &b->value, sizeof a->value) == 0;
}

/* Q and -(Q) split r's values: every value goes to exactly one side, in order. */
static void check_split(const struct bp_filter *q, const struct bp_filter *not_q, const struct bf_result *r)
{
	struct bf_result yes = kept(q, r), no = kept(not_q, r);
	FUZZ_ASSERT(yes.nvalues + no.nvalues == r->nvalues);
	size_t y = 0, n = 0;
	for (size_t i = 0; i < r->nvalues; i++) {
		int in_yes = y < yes.nvalues && same_value(&yes.values[y], &r->values[i]);
		int in_no = n < no.nvalues && same_value(&no.values[n], &r->values[i]);
		FUZZ_ASSERT(in_yes || in_no);
		if (in_yes)
			y++;
		else
			n++;
	}
	free(yes.values);
	free(no.values);
}

static char *line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	const char *e = nl ? nl : end;
	char *s = strndup(*p, (size_t)(e - *p));
	if (!s)
		abort();
	*p = nl ? nl + 1 : end;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	if (memchr(data, '\0', size))
		return 0;
	char *query = line(&p, end), *col = line(&p, end), err[512];
	struct bp_parser parser = { 0 };
	struct bp_filter filter = { 0 };
	struct bt_builder b = { 0 };
	struct bf_set set;
	bf_init(&set);
	if (bp_filter_parse(&filter, &parser, query, err, sizeof err) < 0) {
		FUZZ_ASSERT(*err);
		goto out;
	}
	b.table_by = bp_parse(&parser, ".config", 1, err, sizeof err);
	b.row_by = bp_parse(&parser, ".fullname", 0, err, sizeof err);
	b.col_by = bp_parse(&parser, col, 0, err, sizeof err);
	if (!b.col_by) {
		FUZZ_ASSERT(*err);
		goto out;
	}
	b.residue = bp_residue(&parser);
	char refusal[1024];
	if (bf_read(&set, p, (size_t)(end - p), "fuzz.txt", "fuzz.txt", ignore, NULL, refusal, sizeof refusal) < 0)
		fuzz_check_message(refusal);
	size_t qlen = strlen(query);
	char *negated = malloc(qlen + 4);
	if (!negated)
		abort();
	snprintf(negated, qlen + 4, "-(%s)", query);
	struct bp_filter not_q = { 0 };
	int have_not = bp_filter_parse(&not_q, &parser, negated, err, sizeof err) == 0;
	free(negated);
	for (size_t i = 0; i < set.n; i++) {
		FUZZ_ASSERT(set.results[i].name && set.results[i].nvalues > 0);
		for (size_t v = 0; v < set.results[i].nvalues; v++)
			FUZZ_ASSERT(isfinite(set.results[i].values[v].value));
		if (have_not)
			check_split(&filter, &not_q, &set.results[i]);
		if (bp_filter_apply(&filter, &set.results[i]))
			bt_add(&b, &set.results[i]);
	}
	bt_finish(&b, &set, 0.05, 0.95);
	for (size_t t = 0; t < b.ntables; t++)
		for (size_t i = 0; i < b.tables[t]->nrows * b.tables[t]->ncols; i++)
			FUZZ_ASSERT(!b.tables[t]->cells[i] || b.tables[t]->cells[i]->n > 0);
	FILE *devnull = fopen("/dev/null", "w");
	if (devnull) {
		bt_write_text(devnull, &b);
		bt_write_csv(devnull, devnull, &b);
		fclose(devnull);
	}
	bp_filter_free(&not_q);
out:
	bt_free(&b);
	bp_filter_free(&filter);
	bp_parser_free(&parser);
	bf_free(&set);
	free(query);
	free(col);
	return 0;
}
