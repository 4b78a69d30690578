#include "cli/store_open.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct store *storecmd_open(const char *db)
{
	char err[512];
	struct store *s = store_open(db, err, sizeof err);
	if (!s)
		nm_error("results store %s", err);
	return s;
}

struct record *storecmd_load(struct store *s, const char *name)
{
	char err[512];
	struct record *r = store_load(s, name, err, sizeof err);
	if (!r)
		nm_error("%s", err);
	return r;
}

char *storecmd_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	struct strbuf sb;
	char buf[65536];
	size_t n;
	if (!f) {
		nm_error("%s: %s", path, strerror(errno));
		return NULL;
	}
	sb_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(&sb, buf, n);
	int failed = ferror(f);
	if (f != stdin)
		fclose(f);
	if (failed) {
		nm_error("%s: read error", path);
		sb_free(&sb);
		return NULL;
	}
	*len = sb.len;
	return sb_detach(&sb);
}
