/* The results store's rows: saving a run in one transaction, loading, resolving names,
 * listing and deleting runs.  Opening and checking the file is results/store.c. */
#include "results/store.h"
#include "results/store_db.h"
#include "results/record_json.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
		return store_db_fail(s, "saving the run", err, errlen);
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
	if (store_db_exec(s, "BEGIN IMMEDIATE", "starting to save the run", err, errlen) < 0)
		return -1;
	for (int i = 0; i < INS_N; i++)
		if (!(ins[i] = store_db_prepare(s, insert_sql[i], err, errlen)))
			goto out;
	if (save_run(s, ins, r, err, errlen) < 0)
		goto out;
	for (int i = 0; i < INS_N; i++) {
		sqlite3_finalize(ins[i]);
		ins[i] = NULL;
	}
	rc = store_db_exec(s, "COMMIT", "committing the run", err, errlen);
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
	sqlite3_stmt *st = store_db_prepare(s, "SELECT 1 FROM runs WHERE id = ?", err, errlen);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_db_fail(s, "looking up a run", err, errlen);
}

/* Run a query that yields ids; copy the first into id.  Returns the number of rows seen
 * (at most 2), or -1. */
static int query_ids(struct store *s, const char *sql, const char *arg, char id[24], char *err, size_t errlen)
{
	sqlite3_stmt *st = store_db_prepare(s, sql, err, errlen);
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
		return store_db_fail(s, "looking up a run", err, errlen);
	}
	sqlite3_finalize(st);
	return n;
}

int store_last_parse(const char *name, char kind[32], long *back)
{
	*kind = 0;
	*back = 0;
	if (strncmp(name, "last", 4) != 0)
		return 0;
	const char *p = name + 4;
	if (*p == ':') {
		size_t k = strcspn(++p, "~");
		if (k == 0 || k >= 32)
			return -1;
		memcpy(kind, p, k);
		kind[k] = 0;
		p += k;
	}
	if (*p == '~') {
		char *end;
		if (p[1] < '0' || p[1] > '9')
			return -1;
		*back = strtol(p + 1, &end, 10);
		if (*end || *back > 1000000)
			return -1;
		p = end;
	}
	return *p ? (p == name + 4 ? 0 : -1) : 1;
}

int store_resolve_kind(struct store *s, const char *name, const char *kind_default, char id[24], char *err,
		       size_t errlen)
{
	int n;
	char kind[32];
	long back;
	if (!*name)
		return nm_errf(err, errlen, "empty run name: expected an id, id prefix, label or \"last\"");
	int last = store_last_parse(name, kind, &back);
	if (last < 0)
		return nm_errf(err, errlen,
			       "bad run reference \"%s\": expected last, last:KIND, last~N or last:KIND~N", name);
	if (last) {
		const char *k = *kind ? kind : kind_default;
		char sql[160];
		snprintf(sql, sizeof sql, "SELECT id FROM runs%s ORDER BY time_ms DESC, id DESC LIMIT 1 OFFSET %ld",
			 k ? " WHERE command = ?" : "", back);
		n = query_ids(s, sql, k, id, err, errlen);
		if (n < 0)
			return -1;
		if (n == 0 && k)
			return nm_errf(err, errlen, "no %s run%s in %s for \"%s\"", k, back ? "s that far back" : "",
				       s->path, name);
		if (n == 0)
			return nm_errf(err, errlen, back ? "no runs that far back in %s for \"%s\"" : "no runs in %s yet",
				       s->path, name);
		return 0;
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

int store_resolve(struct store *s, const char *name, char id[24], char *err, size_t errlen)
{
	return store_resolve_kind(s, name, NULL, id, err, errlen);
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

	if (!(st = store_db_prepare(s, sql[0], err, errlen)))
		return -1;
	sqlite3_bind_int64(st, 1, bench_id);
	STEP_ROWS(st, rc) {
		struct metric *m = bench_metric(b, col_text(st, 0), col_text(st, 1), sqlite3_column_int(st, 2));
		if (sqlite3_column_type(st, 3) == SQLITE_NULL)
			continue;
		double v = col_double(st, 4);
		if (isinf(v)) { /* NaN is a sample saved as missing (NULL); an infinity was never saved */
			nm_errf(err, errlen, "metric %s: sample %d is not a finite number (%g)", m->name,
				sqlite3_column_int(st, 3), v);
			sqlite3_finalize(st);
			return -1;
		}
		metric_add(m, v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_fail(s, "loading metrics", err, errlen);

	if (!(st = store_db_prepare(s, sql[1], err, errlen)))
		return -1;
	sqlite3_bind_int64(st, 1, bench_id);
	STEP_ROWS(st, rc) {
		struct series *sr = bench_series(b, col_text(st, 0), col_text(st, 1), col_text(st, 2));
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			series_add(sr, col_double(st, 4), col_double(st, 5));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_fail(s, "loading series", err, errlen);

	if (!(st = store_db_prepare(s, sql[2], err, errlen)))
		return -1;
	sqlite3_bind_int64(st, 1, bench_id);
	STEP_ROWS(st, rc) {
		sqlite3_stmt *bins = store_db_prepare(s, "SELECT value_ns, count FROM hist_bins WHERE hist_id = ? ORDER BY seq",
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
			return store_db_fail(s, "loading histograms", err, errlen);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_fail(s, "loading histograms", err, errlen);
	return 0;
}

static struct record *load_id(struct store *s, const char *id, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_db_prepare(s,
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
			store_db_fail(s, "loading a run", err, errlen);
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

	if (!(st = store_db_prepare(s, "SELECT key, value FROM tags WHERE run_id = ? ORDER BY rowid", err, errlen)))
		goto fail;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	STEP_ROWS(st, rc)
		record_set_tag(r, col_text(st, 0), col_text(st, 1));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_db_fail(s, "loading tags", err, errlen);
		goto fail;
	}

	if (!(st = store_db_prepare(s, "SELECT bench_id, name, settings FROM benches WHERE run_id = ? ORDER BY seq", err,
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
		store_db_fail(s, "loading benchmarks", err, errlen);
		goto fail;
	}
	return r;
fail:
	record_free(r);
	return NULL;
}

struct record *store_load(struct store *s, const char *name, char *err, size_t errlen)
{
	return store_load_kind(s, name, NULL, err, errlen);
}

struct record *store_load_kind(struct store *s, const char *name, const char *kind, char *err, size_t errlen)
{
	char id[24];
	if (store_resolve_kind(s, name, kind, id, err, errlen) < 0)
		return NULL;
	/* One read transaction, so a run deleted meanwhile is never seen half. */
	if (store_db_exec(s, "BEGIN", "starting to read", err, errlen) < 0)
		return NULL;
	struct record *r = load_id(s, id, err, errlen);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return r;
}

/* --- deleting and listing ----------------------------------------------------- */

int store_delete(struct store *s, const char *id, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_db_prepare(s, "DELETE FROM runs WHERE id = ?", err, errlen);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_fail(s, "deleting a run", err, errlen);
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
	st = store_db_prepare(s, sql.buf, err, errlen);
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
		return store_db_fail(s, "listing runs", err, errlen);
	}
	*out = v;
	return 0;
}
