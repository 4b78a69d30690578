/* libFuzzer harness: `nodemark benchstat`'s pipeline.  The first line of the input is a -filter
 * query, the second a -col projection, the rest Go benchmark text (benchfmt).
 *
 * Besides "no crash, no leak, no undefined behaviour": a query either parses or gives a
 * message; every result kept has a name and at least one value; the tables build and render
 * as text and CSV, and every cell holds at least one value. */
#include "fuzz_util.h"
#include "export/benchtab.h"
#include "results/benchfmt.h"
#include "results/benchproc.h"

static void ignore(void *arg, const char *msg)
{
	(void)arg;
	FUZZ_ASSERT(msg && *msg);
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
	for (size_t i = 0; i < set.n; i++) {
		FUZZ_ASSERT(set.results[i].name && set.results[i].nvalues > 0);
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
out:
	bt_free(&b);
	bp_filter_free(&filter);
	bp_parser_free(&parser);
	bf_free(&set);
	free(query);
	free(col);
	return 0;
}
