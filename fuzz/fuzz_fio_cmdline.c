/* libFuzzer harness: fio command lines (src/fio/cmdline.c and the option table).
 *
 * The input is the words of a command line, one per line.  Job files are refused here (they
 * would be read from disk), and so is include.  Besides "no crash, no leak, no undefined
 * behaviour": a failure is one printable line, and a success is a plan the engine can take. */
#include "fuzz_fio.h"

#define MAX_WORDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	char *argv[MAX_WORDS + 1];
	int argc = 0;
	for (char *s = text; s && argc < MAX_WORDS;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		argv[argc++] = s;
		s = nl ? nl + 1 : NULL;
	}
	argv[argc] = NULL;
	struct fio_plan p;
	char err[1024] = "";
	fio_plan_init(&p);
	p.no_jobfiles = 1;
	p.no_include = 1;
	int rc = fio_parse_args(&p, argc, argv, err, sizeof err);
	if (rc < 0)
		fuzz_check_message(err);
	else if (!p.cmdhelp)
		fuzz_check_plan(&p);
	fio_plan_free(&p);
	free(text);
	return 0;
}
