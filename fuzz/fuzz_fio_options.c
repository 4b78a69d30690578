/* libFuzzer harness: every option of the fio option table with fuzzed values (src/fio/apply*.c,
 * plan.c).
 *
 * The input is a list of records, one per line: a byte that picks an option of the table
 * (modulo its size), then the value.  They are given to one job, as "--key=value", and the job
 * is resolved.  Each value is also checked alone (as job files are read).  A failure must be
 * one printable line, a success a plan the engine can take. */
#include "fuzz_fio.h"
#include "fio/options.h"

#define MAX_OPTS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	char *argv[MAX_OPTS + 2];
	int argc = 0;
	argv[argc++] = strdup("--name=fuzz");
	for (char *s = text; s && *s && argc < MAX_OPTS + 1;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		const struct fio_option *o = &fio_options[(unsigned char)s[0] % fio_noptions];
		const char *value = s + 1;
		char err[512] = "";
		if (fio_option_value_check(o, value, err, sizeof err) < 0)
			fuzz_check_message(err);
		if (asprintf(&argv[argc], "--%s=%s", o->name, value) < 0)
			abort();
		argc++;
		s = nl ? nl + 1 : NULL;
	}
	argv[argc] = NULL;
	struct fio_plan p;
	char err[1024] = "";
	fio_plan_init(&p);
	p.no_jobfiles = 1;
	p.no_include = 1;
	if (fio_parse_args(&p, argc, argv, err, sizeof err) < 0)
		fuzz_check_message(err);
	else
		fuzz_check_plan(&p);
	fio_plan_free(&p);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(text);
	return 0;
}
