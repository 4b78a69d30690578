/* libFuzzer harness: fio iologs (fio/iolog.c), read onto a job as read_iolog reads them.
 *
 * Besides "no crash, no leak, no undefined behaviour" it checks what the replay relies on: a
 * failure leaves one printable line in err, and a success gives a job the engine can take
 * (targets within the limit, every entry's file one of them, sizes above zero, an I/O no larger
 * than its direction's block size, which sizes the buffers). No file is read or checked. */
#include "fuzz_fio.h"
#include "fio/iolog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char job[] = "[j]\nread_iolog=fuzz.log\n";
	struct fio_plan p;
	char err[1024];
	fio_plan_init(&p);
	p.no_include = 1;
	if (fio_parse_jobfile_text(&p, job, sizeof job - 1, "fuzz.fio", err, sizeof err) < 0 ||
	    fio_plan_finish(&p, err, sizeof err) < 0)
		abort();
	char *text = fuzz_cstring(data, size);
	fuzz_check_iolog(&p, text, size);
	free(text);
	fio_plan_free(&p);
	return 0;
}
