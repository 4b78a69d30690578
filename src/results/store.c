/* Placeholder until the SQLite store lands (issue: results store). */
#include "results/store.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>

struct store {
	int unused;
};

const char *store_default_path(char *buf, size_t len)
{
	const char *db = getenv("NODEMARK_DB");
	snprintf(buf, len, "%s", db ? db : "results.db");
	return buf;
}

struct store *store_open(const char *path, char *err, size_t errlen)
{
	(void)path;
	nm_errf(err, errlen, "the results store is not built yet");
	return NULL;
}

void store_close(struct store *s) { free(s); }

int store_save(struct store *s, const struct record *r, char *err, size_t errlen)
{
	(void)s;
	(void)r;
	return nm_errf(err, errlen, "the results store is not built yet");
}

struct record *store_load(struct store *s, const char *name, char *err, size_t errlen)
{
	(void)s;
	(void)name;
	nm_errf(err, errlen, "the results store is not built yet");
	return NULL;
}
