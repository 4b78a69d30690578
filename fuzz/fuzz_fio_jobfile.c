/* libFuzzer harness: fio job files (fio/ (the parser)), parsed and resolved into plans.
 *
 * Besides "no crash, no leak, no undefined behaviour" it checks what `nodemark fio` relies on:
 * a failure leaves one printable line in err, and a success gives jobs the engine can take
 * (at least one, block sizes and counts above zero, targets within the limit, groups numbered
 * from 0 without gaps in job order). include is refused here: it would read files. */
#include "fuzz_fio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fio_plan p;
	char err[1024];
	fio_plan_init(&p);
	p.no_include = 1;
	err[0] = '\0';
	int rc = fio_parse_jobfile_text(&p, (const char *)data, size, "fuzz.fio", err, sizeof err);
	if (rc == 0)
		rc = fio_plan_finish(&p, err, sizeof err);
	if (rc < 0) {
		fuzz_check_message(err);
	} else {
		fuzz_check_plan(&p);
	}
	fio_plan_free(&p);
	return 0;
}
