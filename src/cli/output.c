#include "cli/output.h"
#include "util/atomicfile.h"
#include "util/error.h"

int cli_output(const char *path, int (*write)(FILE *fp, void *ctx), void *ctx)
{
	struct atomic_file af;
	char err[512];
	if (!path)
		path = "-";
	FILE *fp = afile_open(&af, path, err, sizeof err);
	if (!fp) {
		nm_error("%s", err);
		return -1;
	}
	if (write(fp, ctx) < 0) {
		nm_error("%s: write failed", path);
		afile_abort(&af);
		return -1;
	}
	if (afile_commit(&af, err, sizeof err) < 0) {
		nm_error("%s", err);
		return -1;
	}
	return 0;
}

struct json_out {
	const json_t *j;
	size_t flags;
};

static int write_json(FILE *fp, void *ctx)
{
	const struct json_out *o = ctx;
	json_dumpf(o->j, fp, o->flags);
	fputc('\n', fp);
	return 0;
}

int cli_output_json(const char *path, const json_t *j, size_t flags)
{
	struct json_out o = { j, flags };
	return cli_output(path, write_json, &o);
}
