/* libFuzzer harness: the Go benchmark text parser (results/gobench.c), the input of compare.
 *
 * Besides "no crash, no leak, no undefined behaviour": a failure is one printable line; a
 * success has at least one benchmark, every metric has finite samples, and the compare tables
 * built from it (against itself) hold p = 1 or "all equal" for every cell, since the two
 * columns are the same samples. */
#include "fuzz_util.h"
#include "export/compare_fmt.h"
#include "results/gobench.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	struct record *r = gobench_parse((const char *)data, size, err, sizeof err);
	if (!r) {
		fuzz_check_message(err);
		return 0;
	}
	FUZZ_ASSERT(r->nbenches > 0);
	for (size_t b = 0; b < r->nbenches; b++)
		for (size_t m = 0; m < r->benches[b]->nmetrics; m++) {
			const struct metric *mt = r->benches[b]->metrics[m];
			FUZZ_ASSERT(mt->nsamples > 0);
			for (size_t k = 0; k < mt->nsamples; k++)
				FUZZ_ASSERT(isfinite(mt->samples[k]));
		}
	struct ct_input in[2] = { { r, "a" }, { r, "b" } };
	struct ct_opts o = { 0 };
	struct ct_result res;
	if (ct_build(in, 2, &o, &res, err, sizeof err) == 0) {
		for (size_t t = 0; t < res.ntables; t++)
			for (size_t row = 0; row < res.tables[t]->nrows; row++) {
				const struct ct_cell *c = ct_cell_at(&res, res.tables[t], row, 1);
				if (c && c->has_cmp)
					FUZZ_ASSERT(c->p == 1);
			}
		FILE *devnull = fopen("/dev/null", "w");
		if (devnull) {
			ct_write_text(devnull, &res, NULL);
			ct_write_csv(devnull, &res);
			fclose(devnull);
		}
		ct_free(&res);
	}
	record_free(r);
	return 0;
}
