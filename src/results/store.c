/* The SQLite results store.  The schema is documented in docs/schema.md; keep them in step. */
#include "results/store.h"
#include "results/record_json.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct store {
	sqlite3 *db;
	char path[4096];
	int busy_ms;
	int readonly;                   /* opened read-only: it could not be written (full disk) */
	char readonly_why[512];         /* why not */
};

/* migrations[v] takes the schema from version v to v + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	"CREATE TABLE runs ("
	"  id TEXT PRIMARY KEY,"
	"  time_ms INTEGER NOT NULL,"
	"  host TEXT NOT NULL, version TEXT NOT NULL, command TEXT NOT NULL, cmdline TEXT NOT NULL,"
	"  label TEXT,"
	"  inventory TEXT,"
	"  extra TEXT NOT NULL);"
	"CREATE INDEX runs_time ON runs(time_ms);"
	"CREATE INDEX runs_label ON runs(label);"
	"CREATE TABLE tags ("
	"  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL, value TEXT NOT NULL, UNIQUE (run_id, key));"
	"CREATE TABLE benches ("
	"  bench_id INTEGER PRIMARY KEY,"
	"  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL, name TEXT NOT NULL, settings TEXT NOT NULL);"
	"CREATE INDEX benches_run ON benches(run_id, seq);"
	"CREATE TABLE metrics ("
	"  metric_id INTEGER PRIMARY KEY,"
	"  bench_id INTEGER NOT NULL REFERENCES benches(bench_id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL, direction INTEGER NOT NULL);"
	"CREATE INDEX metrics_bench ON metrics(bench_id, seq);"
	"CREATE TABLE samples ("
	"  metric_id INTEGER NOT NULL REFERENCES metrics(metric_id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL, value REAL, PRIMARY KEY (metric_id, seq)) WITHOUT ROWID;"
	"CREATE TABLE series ("
	"  series_id INTEGER PRIMARY KEY,"
	"  bench_id INTEGER NOT NULL REFERENCES benches(bench_id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL, name TEXT NOT NULL, x_unit TEXT NOT NULL, y_unit TEXT NOT NULL);"
	"CREATE INDEX series_bench ON series(bench_id, seq);"
	"CREATE TABLE series_points ("
	"  series_id INTEGER NOT NULL REFERENCES series(series_id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL, x REAL, y REAL, PRIMARY KEY (series_id, seq)) WITHOUT ROWID;"
	"CREATE TABLE hists ("
	"  hist_id INTEGER PRIMARY KEY,"
	"  bench_id INTEGER NOT NULL REFERENCES benches(bench_id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL, name TEXT NOT NULL);"
	"CREATE INDEX hists_bench ON hists(bench_id, seq);"
	"CREATE TABLE hist_bins ("
	"  hist_id INTEGER NOT NULL REFERENCES hists(hist_id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL, value_ns INTEGER NOT NULL, count INTEGER NOT NULL,"
	"  PRIMARY KEY (hist_id, seq)) WITHOUT ROWID;"
	"CREATE VIEW run_samples AS"
	"  SELECT r.id AS run_id, r.time_ms, r.host, r.label, r.command, b.name AS bench,"
	"         m.name AS metric, m.unit, m.direction, s.seq, s.value"
	"  FROM runs r JOIN benches b ON b.run_id = r.id JOIN metrics m ON m.bench_id = b.bench_id"
	"  JOIN samples s ON s.metric_id = m.metric_id;",
};

/* --- errors ------------------------------------------------------------------- */

static int db_fail(struct store *s, const char *doing, char *err, size_t errlen)
{
	int code = sqlite3_extended_errcode(s->db) & 0xff;
	const char *msg = sqlite3_errmsg(s->db);
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return nm_errf(err, errlen, "%s: locked by another process (waited %d ms while %s)", s->path,
			       s->busy_ms, doing);
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return nm_errf(err, errlen, "%s: not a results store or damaged (%s)", s->path, msg);
	if (s->readonly && code == SQLITE_READONLY)
		return nm_errf(err, errlen, "%s: opened only for reading, since it could not be written "
					    "(%s); nothing was saved", s->path, s->readonly_why);
	if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM)
		return nm_errf(err, errlen, "%s: cannot write (%s)", s->path, msg);
	if (code == SQLITE_FULL)
		return nm_errf(err, errlen, "%s: disk full while %s", s->path, doing);
	return nm_errf(err, errlen, "%s: %s: %s", s->path, doing, msg);
}

static int exec(struct store *s, const char *sql, const char *doing, char *err, size_t errlen)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(s, doing, err, errlen);
	return 0;
}

static sqlite3_stmt *prepare(struct store *s, const char *sql, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_fail(s, "preparing a query", err, errlen);
		return NULL;
	}
	return st;
}

/* --- opening ------------------------------------------------------------------ */

const char *store_default_path(char *buf, size_t len)
{
	const char *db = getenv("NODEMARK_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	if (db && *db) {
		snprintf(buf, len, "%s", db);
		return buf;
	}
	/* The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored. */
	if (xdg && *xdg == '/') {
		snprintf(buf, len, "%s/nodemark/results.db", xdg);
		return buf;
	}
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());
		home = pw && pw->pw_dir ? pw->pw_dir : "/tmp";
	}
	snprintf(buf, len, "%s/.local/share/nodemark/results.db", home);
	return buf;
}

/* mkdir -p of the directories above path (the default location only). */
static int make_parents(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return nm_errf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		*p = '/';
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return nm_errf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
	return 0;
}

static int schema_version(struct store *s, int *version, char *err, size_t errlen)
{
	sqlite3_stmt *st = prepare(s, "PRAGMA user_version", err, errlen);
	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_fail(s, "reading the schema version", err, errlen);
	}
	*version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static int count_tables(struct store *s, int *n, char *err, size_t errlen)
{
	sqlite3_stmt *st = prepare(s, "SELECT count(*) FROM sqlite_master", err, errlen);
	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_fail(s, "reading the schema", err, errlen);
	}
	*n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static int migrate(struct store *s, char *err, size_t errlen)
{
	int version, ntables = 0;
	if (schema_version(s, &version, err, errlen) < 0)
		return -1;
	if (version == STORE_SCHEMA_VERSION)
		return 0;
	if (version > STORE_SCHEMA_VERSION)
		return nm_errf(err, errlen, "%s: written by a newer nodemark (schema %d; this one knows %d)",
			       s->path, version, STORE_SCHEMA_VERSION);
	if (exec(s, "BEGIN IMMEDIATE", "starting the schema upgrade", err, errlen) < 0)
		return -1;
	/* Read again under the write lock: another process may have just done it. */
	if (schema_version(s, &version, err, errlen) < 0 || count_tables(s, &ntables, err, errlen) < 0)
		goto fail;
	if (version == 0 && ntables > 0) {
		nm_errf(err, errlen, "%s: a SQLite database, but not a nodemark results store", s->path);
		goto fail;
	}
	for (; version < STORE_SCHEMA_VERSION; version++) {
		char pragma[64];
		if (exec(s, migrations[version], "creating the schema", err, errlen) < 0)
			goto fail;
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", version + 1);
		if (exec(s, pragma, "setting the schema version", err, errlen) < 0)
			goto fail;
	}
	if (exec(s, "COMMIT", "committing the schema", err, errlen) < 0)
		goto fail;
	return 0;
fail:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static void remove_store_files(const char *path)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	char f[4096 + 16];
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		snprintf(f, sizeof f, "%s%s", path, suffixes[i]);
		unlink(f);
	}
}

/* Before nodemark changes anything in a file it did not create (WAL mode, the schema): is it
 * a nodemark store (or an empty database), and is it whole? A store with a damaged B-tree was
 * accepted and written to; another program's database was switched to WAL before refusal. */
static int check_existing(struct store *s, char *err, size_t errlen)
{
	int version, ntables;
	if (schema_version(s, &version, err, errlen) < 0 || count_tables(s, &ntables, err, errlen) < 0)
		return -1;
	if (version == 0 && ntables > 0)
		return nm_errf(err, errlen, "%s: a SQLite database, but not a nodemark results store (left as it is)",
			       s->path);
	sqlite3_stmt *st = prepare(s, "PRAGMA quick_check(1)", err, errlen);
	if (!st)
		return -1;
	int rc = sqlite3_step(st);
	const char *verdict = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (rc != SQLITE_ROW || !verdict || strcmp(verdict, "ok") != 0) {
		char why[200];
		snprintf(why, sizeof why, "%s", verdict ? verdict : sqlite3_errmsg(s->db));
		for (char *c = why; *c; c++)
			if (*c == '\n' || *c == '\r')
				*c = ' '; /* the message is one line */
		sqlite3_finalize(st);
		return nm_errf(err, errlen, "%s: the results store is damaged (SQLite quick_check: %s); nothing was "
					    "written to it: keep a copy, then try 'sqlite3 %s .recover'", s->path, why,
			       s->path);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Open an existing store read-only, for reading when it cannot be written (a full disk, a
 * read-only mount): no WAL switch, no schema change. immutable=1 when even the shared-memory
 * file cannot be made, which is safe only without a WAL file holding committed pages. */
static int open_readonly(struct store *s)
{
	char uri[4096 + 64], wal[4096 + 8];
	struct stat st;
	sqlite3_close(s->db);
	s->db = NULL;
	if (sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	sqlite3_close(s->db);
	s->db = NULL;
	snprintf(wal, sizeof wal, "%s-wal", s->path);
	if (stat(wal, &st) == 0 && st.st_size > 0)
		return -1;
	sqlite3_str *u = sqlite3_str_new(NULL);
	sqlite3_str_appendf(u, "file:%s?immutable=1", s->path);
	char *text = sqlite3_str_finish(u);
	snprintf(uri, sizeof uri, "%s", text ? text : "");
	sqlite3_free(text);
	if (sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
	    sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	return -1;
}

/* A store opened read-only is used only at the schema this nodemark writes (no migration). */
static struct store *finish_readonly(struct store *s, char *err, size_t errlen)
{
	int version = -1;
	sqlite3_busy_timeout(s->db, s->busy_ms);
	sqlite3_extended_result_codes(s->db, 1);
	s->readonly = 1;
	if (schema_version(s, &version, err, errlen) < 0 || version != STORE_SCHEMA_VERSION) {
		if (version >= 0)
			nm_errf(err, errlen, "%s: cannot be written (%s), and its schema (%d) is not this nodemark's",
				s->path, s->readonly_why, version);
		store_close(s);
		return NULL;
	}
	return s;
}

struct store *store_open(const char *path, char *err, size_t errlen)
{
	struct store *s = calloc(1, sizeof *s);
	const char *busy = getenv("NODEMARK_DB_BUSY_MS");
	if (!s)
		abort();
	if (path) {
		snprintf(s->path, sizeof s->path, "%s", path);
	} else {
		store_default_path(s->path, sizeof s->path);
		if (make_parents(s->path, err, errlen) < 0) {
			free(s);
			return NULL;
		}
	}
	s->busy_ms = busy && *busy ? atoi(busy) : 10000;
	if (s->busy_ms < 0)
		s->busy_ms = 0;

	struct stat sb;
	int existed = stat(s->path, &sb) == 0;
	if (existed && !S_ISREG(sb.st_mode)) {
		nm_errf(err, errlen, "%s: not a regular file", s->path);
		free(s);
		return NULL;
	}
	int rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		if (s->db)
			nm_errf(err, errlen, "%s: cannot open: %s", s->path, sqlite3_errmsg(s->db));
		else
			nm_errf(err, errlen, "%s: cannot open: out of memory", s->path);
		store_close(s);
		return NULL;
	}
	sqlite3_busy_timeout(s->db, s->busy_ms);
	sqlite3_extended_result_codes(s->db, 1);
	if (existed && sb.st_size > 0 && check_existing(s, err, errlen) < 0) {
		/* Reading a WAL store needs its shared-memory file: on a full disk or a read-only
		 * mount that fails, but the store can still be read. */
		int code = sqlite3_extended_errcode(s->db) & 0xff;
		if (code != SQLITE_IOERR && code != SQLITE_FULL && code != SQLITE_CANTOPEN && code != SQLITE_READONLY)
			goto refuse;
		snprintf(s->readonly_why, sizeof s->readonly_why, "%s", err);
		if (open_readonly(s) < 0 || check_existing(s, err, errlen) < 0)
			goto refuse;
		return finish_readonly(s, err, errlen);
	}
	/* WAL: readers never wait for a writer, and a crash mid-write loses only that run.
	 * synchronous=FULL: a result that took an hour to measure is worth one more fsync. */
	int wal_failed = exec(s, "PRAGMA journal_mode = WAL", "switching to WAL mode", err, errlen) < 0;
	if (wal_failed && existed && sb.st_size > 0) {
		/* A full disk or a read-only mount: the store can still be read. */
		snprintf(s->readonly_why, sizeof s->readonly_why, "%s", err);
		if (open_readonly(s) < 0)
			goto refuse;
		return finish_readonly(s, err, errlen);
	}
	if (wal_failed ||
	    exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL", "setting up", err, errlen) < 0 ||
	    migrate(s, err, errlen) < 0) {
		/* A store we created and could not set up (a full disk) is litter: remove it. */
		char created[sizeof s->path];
		snprintf(created, sizeof created, "%s", s->path);
		store_close(s);
		if (!existed)
			remove_store_files(created);
		return NULL;
	}
	return s;
refuse:
	store_close(s);
	return NULL;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

/* --- saving ------------------------------------------------------------------- */

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_json(sqlite3_stmt *st, int i, const json_t *v)
{
	char *text = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	if (text)
		sqlite3_bind_text(st, i, text, -1, free);
	else
		sqlite3_bind_null(st, i);
}

/* Step a prepared insert and reset it for the next row. */
static int step_insert(struct store *s, sqlite3_stmt *st, char *err, size_t errlen)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, "saving the run", err, errlen);
	return 0;
}

enum { INS_RUN, INS_TAG, INS_BENCH, INS_METRIC, INS_SAMPLE, INS_SERIES, INS_POINT, INS_HIST, INS_BIN, INS_N };

static const char *const insert_sql[INS_N] = {
	("INSERT INTO runs (id, time_ms, host, version, command, cmdline, label, inventory, extra)"
	 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
	"INSERT INTO tags (run_id, key, value) VALUES (?, ?, ?)",
	"INSERT INTO benches (run_id, seq, name, settings) VALUES (?, ?, ?, ?)",
	"INSERT INTO metrics (bench_id, seq, name, unit, direction) VALUES (?, ?, ?, ?, ?)",
	"INSERT INTO samples (metric_id, seq, value) VALUES (?, ?, ?)",
	"INSERT INTO series (bench_id, seq, name, x_unit, y_unit) VALUES (?, ?, ?, ?, ?)",
	"INSERT INTO series_points (series_id, seq, x, y) VALUES (?, ?, ?, ?)",
	"INSERT INTO hists (bench_id, seq, name) VALUES (?, ?, ?)",
	"INSERT INTO hist_bins (hist_id, seq, value_ns, count) VALUES (?, ?, ?, ?)",
};

static int save_bench(struct store *s, sqlite3_stmt **ins, const char *run_id, size_t seq,
		      const struct bench *b, char *err, size_t errlen)
{
	sqlite3_bind_text(ins[INS_BENCH], 1, run_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ins[INS_BENCH], 2, (sqlite3_int64)seq);
	bind_text(ins[INS_BENCH], 3, b->name);
	bind_json(ins[INS_BENCH], 4, b->settings);
	if (step_insert(s, ins[INS_BENCH], err, errlen) < 0)
		return -1;
	sqlite3_int64 bench_id = sqlite3_last_insert_rowid(s->db);

	for (size_t i = 0; i < b->nmetrics; i++) {
		const struct metric *m = b->metrics[i];
		sqlite3_bind_int64(ins[INS_METRIC], 1, bench_id);
		sqlite3_bind_int64(ins[INS_METRIC], 2, (sqlite3_int64)i);
		bind_text(ins[INS_METRIC], 3, m->name);
		bind_text(ins[INS_METRIC], 4, m->unit ? m->unit : "");
		sqlite3_bind_int(ins[INS_METRIC], 5, m->direction);
		if (step_insert(s, ins[INS_METRIC], err, errlen) < 0)
			return -1;
		sqlite3_int64 metric_id = sqlite3_last_insert_rowid(s->db);
		for (size_t k = 0; k < m->nsamples; k++) {
			sqlite3_bind_int64(ins[INS_SAMPLE], 1, metric_id);
			sqlite3_bind_int64(ins[INS_SAMPLE], 2, (sqlite3_int64)k);
			sqlite3_bind_double(ins[INS_SAMPLE], 3, m->samples[k]); /* NaN is stored as NULL */
			if (step_insert(s, ins[INS_SAMPLE], err, errlen) < 0)
				return -1;
		}
	}
	for (size_t i = 0; i < b->nseries; i++) {
		const struct series *sr = b->series[i];
		sqlite3_bind_int64(ins[INS_SERIES], 1, bench_id);
		sqlite3_bind_int64(ins[INS_SERIES], 2, (sqlite3_int64)i);
		bind_text(ins[INS_SERIES], 3, sr->name);
		bind_text(ins[INS_SERIES], 4, sr->x_unit ? sr->x_unit : "");
		bind_text(ins[INS_SERIES], 5, sr->y_unit ? sr->y_unit : "");
		if (step_insert(s, ins[INS_SERIES], err, errlen) < 0)
			return -1;
		sqlite3_int64 series_id = sqlite3_last_insert_rowid(s->db);
		for (size_t k = 0; k < sr->n; k++) {
			sqlite3_bind_int64(ins[INS_POINT], 1, series_id);
			sqlite3_bind_int64(ins[INS_POINT], 2, (sqlite3_int64)k);
			sqlite3_bind_double(ins[INS_POINT], 3, sr->x[k]);
			sqlite3_bind_double(ins[INS_POINT], 4, sr->y[k]);
			if (step_insert(s, ins[INS_POINT], err, errlen) < 0)
				return -1;
		}
	}
	for (size_t i = 0; i < b->nhists; i++) {
		const struct histogram *h = b->hists[i];
		sqlite3_bind_int64(ins[INS_HIST], 1, bench_id);
		sqlite3_bind_int64(ins[INS_HIST], 2, (sqlite3_int64)i);
		bind_text(ins[INS_HIST], 3, h->name);
		if (step_insert(s, ins[INS_HIST], err, errlen) < 0)
			return -1;
		sqlite3_int64 hist_id = sqlite3_last_insert_rowid(s->db);
		for (size_t k = 0; k < h->n; k++) {
			sqlite3_bind_int64(ins[INS_BIN], 1, hist_id);
			sqlite3_bind_int64(ins[INS_BIN], 2, (sqlite3_int64)k);
			sqlite3_bind_int64(ins[INS_BIN], 3, (sqlite3_int64)h->value_ns[k]);
			sqlite3_bind_int64(ins[INS_BIN], 4, (sqlite3_int64)h->count[k]);
			if (step_insert(s, ins[INS_BIN], err, errlen) < 0)
				return -1;
		}
	}
	return 0;
}

static int save_run(struct store *s, sqlite3_stmt **ins, const struct record *r, char *err, size_t errlen)
{
	sqlite3_stmt *st = ins[INS_RUN];
	sqlite3_bind_text(st, 1, r->id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, r->time_ms);
	bind_text(st, 3, r->host ? r->host : "");
	bind_text(st, 4, r->version ? r->version : "");
	bind_text(st, 5, r->command ? r->command : "");
	bind_text(st, 6, r->cmdline ? r->cmdline : "");
	bind_text(st, 7, r->label);
	bind_json(st, 8, r->inventory);
	bind_json(st, 9, r->extra);
	if (step_insert(s, st, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < r->ntags; i++) {
		sqlite3_bind_text(ins[INS_TAG], 1, r->id, -1, SQLITE_STATIC);
		bind_text(ins[INS_TAG], 2, r->tag_keys[i]);
		bind_text(ins[INS_TAG], 3, r->tag_values[i]);
		if (step_insert(s, ins[INS_TAG], err, errlen) < 0)
			return -1;
	}
	for (size_t i = 0; i < r->nbenches; i++)
		if (save_bench(s, ins, r->id, i, r->benches[i], err, errlen) < 0)
			return -1;
	return 0;
}

int store_save(struct store *s, const struct record *r, char *err, size_t errlen)
{
	sqlite3_stmt *ins[INS_N] = { 0 };
	int rc = -1;

	if (!record_id_valid(r->id))
		return nm_errf(err, errlen, "run id \"%s\": expected 1 to 23 lower-case hex digits", r->id);
	int has = store_has(s, r->id, err, errlen);
	if (has < 0)
		return -1;
	if (has)
		return nm_errf(err, errlen, "%s: run %s is already stored", s->path, r->id);
	if (exec(s, "BEGIN IMMEDIATE", "starting to save the run", err, errlen) < 0)
		return -1;
	for (int i = 0; i < INS_N; i++)
		if (!(ins[i] = prepare(s, insert_sql[i], err, errlen)))
			goto out;
	if (save_run(s, ins, r, err, errlen) < 0)
		goto out;
	for (int i = 0; i < INS_N; i++) {
		sqlite3_finalize(ins[i]);
		ins[i] = NULL;
	}
	rc = exec(s, "COMMIT", "committing the run", err, errlen);
out:
	for (int i = 0; i < INS_N; i++)
		sqlite3_finalize(ins[i]);
	if (rc < 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* --- finding ------------------------------------------------------------------ */

int store_has(struct store *s, const char *id, char *err, size_t errlen)
{
	sqlite3_stmt *st = prepare(s, "SELECT 1 FROM runs WHERE id = ?", err, errlen);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return db_fail(s, "looking up a run", err, errlen);
}

/* Run a query that yields ids; copy the first into id.  Returns the number of rows seen
 * (at most 2), or -1. */
static int query_ids(struct store *s, const char *sql, const char *arg, char id[24], char *err, size_t errlen)
{
	sqlite3_stmt *st = prepare(s, sql, err, errlen);
	int n = 0, rc;
	if (!st)
		return -1;
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
	while (n < 2 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == 0)
			snprintf(id, 24, "%s", (const char *)sqlite3_column_text(st, 0));
		n++;
	}
	if (n < 2 && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return db_fail(s, "looking up a run", err, errlen);
	}
	sqlite3_finalize(st);
	return n;
}

int store_resolve(struct store *s, const char *name, char id[24], char *err, size_t errlen)
{
	int n;
	if (!*name)
		return nm_errf(err, errlen, "empty run name: expected an id, id prefix, label or \"last\"");
	if (strcmp(name, "last") == 0) {
		n = query_ids(s, "SELECT id FROM runs ORDER BY time_ms DESC, id DESC LIMIT 1", NULL, id, err,
			      errlen);
		if (n == 0)
			return nm_errf(err, errlen, "no runs in %s yet", s->path);
		return n < 0 ? -1 : 0;
	}
	if ((n = query_ids(s, "SELECT id FROM runs WHERE id = ?", name, id, err, errlen)) != 0)
		return n < 0 ? -1 : 0;
	n = query_ids(s, "SELECT id FROM runs WHERE label = ? ORDER BY time_ms DESC, id DESC LIMIT 1", name, id,
		      err, errlen);
	if (n != 0)
		return n < 0 ? -1 : 0;
	if (record_id_valid(name)) {
		n = query_ids(s, "SELECT id FROM runs WHERE substr(id, 1, length(?1)) = ?1 LIMIT 2", name, id, err,
			      errlen);
		if (n < 0)
			return -1;
		if (n == 1)
			return 0;
		if (n == 2)
			return nm_errf(err, errlen, "run \"%s\" is ambiguous: several run ids start with it", name);
	}
	return nm_errf(err, errlen, "no run \"%s\" in %s (name a run by id, id prefix, label or \"last\")", name,
		       s->path);
}

/* --- loading ------------------------------------------------------------------ */

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	if (!t)
		return NULL;
	char *d = strdup((const char *)t);
	if (!d)
		abort();
	return d;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "";
}

static double col_double(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static json_t *col_json(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? json_loads((const char *)t, JSON_DECODE_ANY, NULL) : NULL;
}

/* Each loader steps its query to the end; a step that is neither ROW nor DONE is an error. */
#define STEP_ROWS(st, rc) while (((rc) = sqlite3_step(st)) == SQLITE_ROW)

static int load_bench_parts(struct store *s, struct bench *b, sqlite3_int64 bench_id, char *err, size_t errlen)
{
	static const char *const sql[3] = {
		/* a metric without samples still comes back once, with s.seq NULL */
		"SELECT m.name, m.unit, m.direction, s.seq, s.value FROM metrics m"
		" LEFT JOIN samples s ON s.metric_id = m.metric_id WHERE m.bench_id = ? ORDER BY m.seq, s.seq",
		"SELECT r.name, r.x_unit, r.y_unit, p.seq, p.x, p.y FROM series r"
		" LEFT JOIN series_points p ON p.series_id = r.series_id WHERE r.bench_id = ? ORDER BY r.seq, p.seq",
		"SELECT h.hist_id, h.name FROM hists h WHERE h.bench_id = ? ORDER BY h.seq",
	};
	sqlite3_stmt *st;
	int rc;

	if (!(st = prepare(s, sql[0], err, errlen)))
		return -1;
	sqlite3_bind_int64(st, 1, bench_id);
	STEP_ROWS(st, rc) {
		struct metric *m = bench_metric(b, col_text(st, 0), col_text(st, 1), sqlite3_column_int(st, 2));
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			metric_add(m, col_double(st, 4));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, "loading metrics", err, errlen);

	if (!(st = prepare(s, sql[1], err, errlen)))
		return -1;
	sqlite3_bind_int64(st, 1, bench_id);
	STEP_ROWS(st, rc) {
		struct series *sr = bench_series(b, col_text(st, 0), col_text(st, 1), col_text(st, 2));
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			series_add(sr, col_double(st, 4), col_double(st, 5));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, "loading series", err, errlen);

	if (!(st = prepare(s, sql[2], err, errlen)))
		return -1;
	sqlite3_bind_int64(st, 1, bench_id);
	STEP_ROWS(st, rc) {
		sqlite3_stmt *bins = prepare(s, "SELECT value_ns, count FROM hist_bins WHERE hist_id = ? ORDER BY seq",
					     err, errlen);
		if (!bins) {
			sqlite3_finalize(st);
			return -1;
		}
		size_t n = 0, cap = 64;
		uint64_t *v = malloc(cap * sizeof *v), *c = malloc(cap * sizeof *c);
		int brc;
		if (!v || !c)
			abort();
		sqlite3_bind_int64(bins, 1, sqlite3_column_int64(st, 0));
		STEP_ROWS(bins, brc) {
			if (n == cap) {
				cap *= 2;
				v = realloc(v, cap * sizeof *v);
				c = realloc(c, cap * sizeof *c);
				if (!v || !c)
					abort();
			}
			v[n] = (uint64_t)sqlite3_column_int64(bins, 0);
			c[n++] = (uint64_t)sqlite3_column_int64(bins, 1);
		}
		sqlite3_finalize(bins);
		if (brc == SQLITE_DONE)
			bench_add_hist(b, col_text(st, 1), v, c, n);
		free(v);
		free(c);
		if (brc != SQLITE_DONE) {
			sqlite3_finalize(st);
			return db_fail(s, "loading histograms", err, errlen);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, "loading histograms", err, errlen);
	return 0;
}

static struct record *load_id(struct store *s, const char *id, char *err, size_t errlen)
{
	sqlite3_stmt *st = prepare(s,
		"SELECT id, time_ms, host, version, command, cmdline, label, inventory, extra FROM runs WHERE id = ?",
		err, errlen);
	struct record *r;
	int rc;
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		if (rc == SQLITE_DONE)
			nm_errf(err, errlen, "no run %s in %s", id, s->path);
		else
			db_fail(s, "loading a run", err, errlen);
		return NULL;
	}
	r = record_alloc();
	snprintf(r->id, sizeof r->id, "%s", col_text(st, 0));
	r->time_ms = sqlite3_column_int64(st, 1);
	r->host = col_dup(st, 2);
	r->version = col_dup(st, 3);
	r->command = col_dup(st, 4);
	r->cmdline = col_dup(st, 5);
	if (sqlite3_column_type(st, 6) != SQLITE_NULL)
		record_set_label(r, col_text(st, 6));
	json_t *inv = col_json(st, 7), *extra = col_json(st, 8);
	if (inv && json_is_object(inv))
		record_set_inventory(r, inv);
	else
		json_decref(inv);
	if (extra && json_is_object(extra)) {
		json_decref(r->extra);
		r->extra = extra;
	} else {
		json_decref(extra);
	}
	sqlite3_finalize(st);

	if (!(st = prepare(s, "SELECT key, value FROM tags WHERE run_id = ? ORDER BY rowid", err, errlen)))
		goto fail;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	STEP_ROWS(st, rc)
		record_set_tag(r, col_text(st, 0), col_text(st, 1));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_fail(s, "loading tags", err, errlen);
		goto fail;
	}

	if (!(st = prepare(s, "SELECT bench_id, name, settings FROM benches WHERE run_id = ? ORDER BY seq", err,
			   errlen)))
		goto fail;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	STEP_ROWS(st, rc) {
		struct bench *b = record_add_bench(r, col_text(st, 1));
		json_t *settings = col_json(st, 2);
		if (settings && json_is_object(settings)) {
			json_decref(b->settings);
			b->settings = settings;
		} else {
			json_decref(settings);
		}
		if (load_bench_parts(s, b, sqlite3_column_int64(st, 0), err, errlen) < 0) {
			sqlite3_finalize(st);
			goto fail;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_fail(s, "loading benchmarks", err, errlen);
		goto fail;
	}
	return r;
fail:
	record_free(r);
	return NULL;
}

struct record *store_load(struct store *s, const char *name, char *err, size_t errlen)
{
	char id[24];
	if (store_resolve(s, name, id, err, errlen) < 0)
		return NULL;
	/* One read transaction, so a run deleted meanwhile is never seen half. */
	if (exec(s, "BEGIN", "starting to read", err, errlen) < 0)
		return NULL;
	struct record *r = load_id(s, id, err, errlen);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return r;
}

/* --- deleting and listing ----------------------------------------------------- */

int store_delete(struct store *s, const char *id, char *err, size_t errlen)
{
	sqlite3_stmt *st = prepare(s, "DELETE FROM runs WHERE id = ?", err, errlen);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, "deleting a run", err, errlen);
	if (sqlite3_changes(s->db) == 0)
		return nm_errf(err, errlen, "no run %s in %s", id, s->path);
	return 0;
}

void run_summaries_free(struct run_summary *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].host);
		free(v[i].command);
		free(v[i].label);
		free(v[i].cmdline);
		free(v[i].tags);
	}
	free(v);
}

int store_list(struct store *s, const struct store_filter *f, struct run_summary **out, size_t *n,
	       char *err, size_t errlen)
{
	struct strbuf sql;
	sqlite3_stmt *st;
	int rc, arg = 1;

	*out = NULL;
	*n = 0;
	sb_init(&sql);
	sb_puts(&sql, "SELECT id, time_ms, host, command, label, cmdline,"
		      " (SELECT group_concat(kv, ',') FROM (SELECT key || '=' || value AS kv FROM tags"
		      "   WHERE run_id = runs.id ORDER BY rowid)),"
		      " (SELECT count(*) FROM benches WHERE run_id = runs.id)"
		      " FROM runs WHERE 1");
	if (f && f->host)
		sb_puts(&sql, " AND host = ?");
	if (f && f->label)
		sb_puts(&sql, " AND label = ?");
	if (f && f->command)
		sb_puts(&sql, " AND command = ?");
	for (size_t i = 0; f && i < f->ntags && i < 16; i++)
		sb_puts(&sql, f->tag_values[i]
			? " AND EXISTS (SELECT 1 FROM tags WHERE run_id = runs.id AND key = ? AND value = ?)"
			: " AND EXISTS (SELECT 1 FROM tags WHERE run_id = runs.id AND key = ?)");
	sb_puts(&sql, " ORDER BY time_ms DESC, id DESC");
	if (f && f->limit)
		sb_printf(&sql, " LIMIT %zu", f->limit);
	st = prepare(s, sql.buf, err, errlen);
	sb_free(&sql);
	if (!st)
		return -1;
	if (f && f->host)
		sqlite3_bind_text(st, arg++, f->host, -1, SQLITE_STATIC);
	if (f && f->label)
		sqlite3_bind_text(st, arg++, f->label, -1, SQLITE_STATIC);
	if (f && f->command)
		sqlite3_bind_text(st, arg++, f->command, -1, SQLITE_STATIC);
	for (size_t i = 0; f && i < f->ntags && i < 16; i++) {
		sqlite3_bind_text(st, arg++, f->tag_keys[i], -1, SQLITE_STATIC);
		if (f->tag_values[i])
			sqlite3_bind_text(st, arg++, f->tag_values[i], -1, SQLITE_STATIC);
	}

	size_t cap = 0;
	struct run_summary *v = NULL;
	STEP_ROWS(st, rc) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			v = realloc(v, cap * sizeof *v);
			if (!v)
				abort();
		}
		struct run_summary *rs = &v[(*n)++];
		memset(rs, 0, sizeof *rs);
		snprintf(rs->id, sizeof rs->id, "%s", col_text(st, 0));
		rs->time_ms = sqlite3_column_int64(st, 1);
		rs->host = col_dup(st, 2);
		rs->command = col_dup(st, 3);
		rs->label = col_dup(st, 4);
		rs->cmdline = col_dup(st, 5);
		rs->tags = col_dup(st, 6);
		if (!rs->tags && !(rs->tags = strdup("")))
			abort();
		rs->nbenches = (size_t)sqlite3_column_int64(st, 7);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		run_summaries_free(v, *n);
		*n = 0;
		return db_fail(s, "listing runs", err, errlen);
	}
	*out = v;
	return 0;
}
