/* The SQLite results store.  The schema is documented in docs/schema.md; keep them in step. */
#include "results/store.h"
#include "results/store_db.h"
#include "results/record_json.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


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

int store_db_fail(struct store *s, const char *doing, char *err, size_t errlen)
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

int store_db_exec(struct store *s, const char *sql, const char *doing, char *err, size_t errlen)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_db_fail(s, doing, err, errlen);
	return 0;
}

sqlite3_stmt *store_db_prepare(struct store *s, const char *sql, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		store_db_fail(s, "preparing a query", err, errlen);
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
	sqlite3_stmt *st = store_db_prepare(s, "PRAGMA user_version", err, errlen);
	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return store_db_fail(s, "reading the schema version", err, errlen);
	}
	*version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static int count_tables(struct store *s, int *n, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_db_prepare(s, "SELECT count(*) FROM sqlite_master", err, errlen);
	if (!st)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return store_db_fail(s, "reading the schema", err, errlen);
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
	if (store_db_exec(s, "BEGIN IMMEDIATE", "starting the schema upgrade", err, errlen) < 0)
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
		if (store_db_exec(s, migrations[version], "creating the schema", err, errlen) < 0)
			goto fail;
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", version + 1);
		if (store_db_exec(s, pragma, "setting the schema version", err, errlen) < 0)
			goto fail;
	}
	if (store_db_exec(s, "COMMIT", "committing the schema", err, errlen) < 0)
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
	sqlite3_stmt *st = store_db_prepare(s, "PRAGMA quick_check(1)", err, errlen);
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

/* Read before SQLite opens the file: opening a WAL-mode database makes -wal and -shm files
 * beside it, even only to refuse it. The 100-byte header tells a file that is not SQLite,
 * another program's database (no schema version, more than the schema page) and a newer
 * store apart. With a -wal file there the header may be stale (SQLite reads the WAL): left
 * to the checks after opening, which make nothing new then. */
static int check_header(const struct store *s, char *err, size_t errlen)
{
	char wal[sizeof s->path + 8];
	struct stat st;
	unsigned char h[100];
	snprintf(wal, sizeof wal, "%s-wal", s->path);
	if (lstat(wal, &st) == 0)
		return 0;
	int fd = open(s->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0; /* SQLite's own open says why */
	ssize_t n = pread(fd, h, sizeof h, 0);
	int ok = fstat(fd, &st) == 0;
	close(fd);
	if (n < 0 || !ok)
		return 0;
	if ((size_t)n < sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
		return nm_errf(err, errlen, "%s: not a results store or damaged (not a SQLite database; left as it is)",
			       s->path);
	unsigned page = (unsigned)h[16] << 8 | h[17];
	if (page == 1)
		page = 65536;
	int32_t version = (int32_t)((uint32_t)h[60] << 24 | (uint32_t)h[61] << 16 | (uint32_t)h[62] << 8 | h[63]);
	if (version > STORE_SCHEMA_VERSION)
		return nm_errf(err, errlen, "%s: written by a newer nodemark (schema %d; this one knows %d)", s->path,
			       (int)version, STORE_SCHEMA_VERSION);
	if (version == 0 && page >= 512 && st.st_size / page > 1)
		return nm_errf(err, errlen, "%s: a SQLite database, but not a nodemark results store (left as it is)",
			       s->path);
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
	if (existed && sb.st_size > 0 && check_header(s, err, errlen) < 0) {
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
	int wal_failed = store_db_exec(s, "PRAGMA journal_mode = WAL", "switching to WAL mode", err, errlen) < 0;
	if (wal_failed && existed && sb.st_size > 0) {
		/* A full disk or a read-only mount: the store can still be read. */
		snprintf(s->readonly_why, sizeof s->readonly_why, "%s", err);
		if (open_readonly(s) < 0)
			goto refuse;
		return finish_readonly(s, err, errlen);
	}
	if (wal_failed ||
	    store_db_exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL", "setting up", err, errlen) < 0 ||
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
