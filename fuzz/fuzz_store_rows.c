/* libFuzzer harness: reading runs back from the results store (src/results/store.c) when its
 * rows hold anything: another program (or a bit flip) may have written them. The input is
 * split at NUL bytes into the values of one run, bench, metric and its samples (id, host,
 * command, cmdline, label, inventory, extra, tag key, tag value, bench name, settings, metric
 * name, unit, direction, then samples), inserted with SQL straight into a store, then loaded,
 * listed and resolved. Besides memory safety: a failure is one printable line, and a run that
 * loads has the id it was asked for. */
#include "fuzz_util.h"
#include "results/record.h"
#include "results/store.h"

#include <sqlite3.h>

#define NFIELDS 14

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store *store;
	static sqlite3 *db;
	static char path[512];
	char err[1024];
	if (!store) {
		snprintf(path, sizeof path, "%s/rows.db", fuzz_scratch());
		store = store_open(path, err, sizeof err);
		FUZZ_ASSERT(store);
		FUZZ_ASSERT(sqlite3_open(path, &db) == SQLITE_OK);
		sqlite3_busy_timeout(db, 1000);
	}
	const char *f[NFIELDS + 8];
	size_t flen[NFIELDS + 8], nf = 0, pos = 0;
	while (nf < NFIELDS + 8 && pos <= size) {
		const uint8_t *z = pos < size ? memchr(data + pos, 0, size - pos) : NULL;
		size_t len = z ? (size_t)(z - (data + pos)) : size - pos;
		f[nf] = (const char *)data + pos;
		flen[nf++] = len;
		pos += len + 1;
	}
	while (nf < NFIELDS)
		f[nf] = "", flen[nf++] = 0;
	sqlite3_exec(db, "DELETE FROM runs", NULL, NULL, NULL);
	static const char *const sql[] = {
		("INSERT INTO runs (id, time_ms, host, version, command, cmdline, label, inventory, extra) "
		 "VALUES (?1, 1700000000000, ?2, '1', ?3, ?4, ?5, ?6, ?7)"),
		"INSERT INTO tags (run_id, key, value) VALUES (?1, ?8, ?9)",
		"INSERT INTO benches (bench_id, run_id, seq, name, settings) VALUES (1, ?1, 0, ?10, ?11)",
		"INSERT INTO metrics (metric_id, bench_id, seq, name, unit, direction) VALUES (1, 1, 0, ?12, ?13, ?14)",
	};
	for (size_t q = 0; q < sizeof sql / sizeof sql[0]; q++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, sql[q], -1, &st, NULL) != SQLITE_OK)
			continue;
		for (int i = 0; i < NFIELDS; i++) {
			/* The direction goes in as an integer when it reads as one; the rest as text. */
			if (i == 13 && flen[i] && flen[i] < 12) {
				/* The last field may end the input without a NUL: copy it before strtoll. */
				char num[12];
				memcpy(num, f[i], flen[i]);
				num[flen[i]] = 0;
				sqlite3_bind_int64(st, i + 1, strtoll(num, NULL, 10));
			} else
				sqlite3_bind_text(st, i + 1, f[i], (int)flen[i], SQLITE_TRANSIENT);
		}
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	for (size_t i = NFIELDS; i < nf; i++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, "INSERT INTO samples (metric_id, seq, value) VALUES (1, ?1, ?2)", -1, &st,
				       NULL) != SQLITE_OK)
			continue;
		sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
		if (flen[i] == 8) {
			double v;
			memcpy(&v, f[i], 8);
			sqlite3_bind_double(st, 2, v);
		} else {
			sqlite3_bind_text(st, 2, f[i], (int)flen[i], SQLITE_TRANSIENT);
		}
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	char id[64];
	snprintf(id, sizeof id, "%.*s", (int)(flen[0] < 40 ? flen[0] : 40), f[0]);
	err[0] = 0;
	struct record *r = store_load(store, id, err, sizeof err);
	if (r)
		record_free(r);
	else
		fuzz_check_message(err);
	struct store_filter filter = { 0 };
	struct run_summary *runs = NULL;
	size_t n = 0;
	err[0] = 0;
	if (store_list(store, &filter, &runs, &n, err, sizeof err) == 0)
		run_summaries_free(runs, n);
	else
		fuzz_check_message(err);
	return 0;
}
