/* What results/store.c (opening, checking, migrating) and results/store_rows.c (saving,
 * loading, listing runs) share: the handle and the error and statement helpers.  Private to
 * results/. */
#ifndef NM_RESULTS_STORE_DB_H
#define NM_RESULTS_STORE_DB_H

#include <sqlite3.h>
#include <stddef.h>

struct store {
	sqlite3 *db;
	char path[4096];
	int busy_ms;
	int readonly;                   /* opened read-only: it could not be written (full disk) */
	char readonly_why[512];         /* why not */
};

/* err = what failed, in words a user can act on (locked, damaged, read-only, full); -1. */
int store_db_fail(struct store *s, const char *doing, char *err, size_t errlen);
/* Run sql; -1 with err on failure. */
int store_db_exec(struct store *s, const char *sql, const char *doing, char *err, size_t errlen);
/* A prepared statement, or NULL with err. */
sqlite3_stmt *store_db_prepare(struct store *s, const char *sql, char *err, size_t errlen);

#endif
