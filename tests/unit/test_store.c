#include "test.h"
#include "results/record_json.h"
#include "results/store.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

static struct record *sample_record(const char *id, int64_t time_ms, const char *label)
{
	char *argv[] = { "disk", "--bs", "4k" };
	struct record *r = record_new("disk", 3, argv);
	snprintf(r->id, sizeof r->id, "%s", id);
	r->time_ms = time_ms;
	if (label)
		record_set_label(r, label);
	record_set_tag(r, "fs", "xfs");
	record_set_tag(r, "os", "debian");
	record_set_inventory(r, json_pack("{s:s, s:i}", "cpu", "Test CPU", "cores", 2));
	json_object_set_new(r->extra, "noise", json_real(0.5));
	struct bench *b = record_add_bench(r, "SEQ1M Q8T1 read");
	bench_set(b, "bs", json_integer(1 << 20));
	struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	metric_add(m, 1.5e9);
	metric_add(m, 1.25e9);
	metric_add(m, NAN);
	bench_metric(b, "empty", "s", LOWER_IS_BETTER);
	struct series *s = bench_series(b, "iops", "s", "op/s");
	series_add(s, 1, 100);
	series_add(s, 2, 200.5);
	uint64_t v[] = { 1000, 2000, 4096 }, c[] = { 3, 4, 1 };
	bench_add_hist(b, "clat_read", v, c, 3);
	record_add_bench(r, "bare");
	return r;
}

static char *dump(const struct record *r)
{
	json_t *j = record_to_json(r);
	char *s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return s;
}

static char *temp_db(void)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/nm-test-store-%d.db", (int)getpid());
	unlink(path);
	return path;
}

static void remove_db(const char *path)
{
	char p[96];
	unlink(path);
	snprintf(p, sizeof p, "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", path);
	unlink(p);
}

TEST(record_json_roundtrip)
{
	struct record *r = sample_record("00000001aaaa0001", 1700000000123, "base");
	char *a = dump(r), err[256];
	json_t *j = record_to_json(r);
	CHECK_EQ_STR(json_string_value(json_object_get(j, "time")), "2023-11-14T22:13:20Z");
	struct record *back = record_from_json(j, err, sizeof err);
	CHECK(back != NULL);
	char *b = dump(back);
	CHECK_EQ_STR(b, a);
	CHECK(isnan(back->benches[0]->metrics[0]->samples[2]));
	CHECK_EQ_STR(record_tag(back, "os"), "debian");
	free(a);
	free(b);
	json_decref(j);
	record_free(r);
	record_free(back);
}

TEST(record_json_errors_name_the_field)
{
	char err[256];
	struct record **v;
	CHECK(records_parse("{\"format\":\"nodemark-record\"", 27, &v, err, sizeof err) < 0);
	CHECK(strstr(err, "invalid JSON") != NULL);

	struct record *r = sample_record("00000001aaaa0001", 1, NULL);
	json_t *j = record_to_json(r);
	json_t *m = json_array_get(json_object_get(json_array_get(json_object_get(j, "benches"), 0), "metrics"), 0);
	json_array_append_new(json_object_get(m, "samples"), json_string("fast"));
	CHECK(record_from_json(j, err, sizeof err) == NULL);
	CHECK_EQ_STR(err, "benches[0].metrics[0].samples[3]: expected a number");
	json_decref(j);

	j = record_to_json(r);
	json_object_set_new(j, "id", json_string("not-hex"));
	CHECK(record_from_json(j, err, sizeof err) == NULL);
	CHECK(strncmp(err, "id: ", 4) == 0);
	json_object_set_new(j, "id", json_string("abc"));
	json_object_set_new(j, "format_version", json_integer(99));
	CHECK(record_from_json(j, err, sizeof err) == NULL);
	CHECK(strstr(err, "format_version 99") != NULL);
	json_object_set_new(j, "format_version", json_integer(1));
	json_object_del(j, "benches");
	CHECK(record_from_json(j, err, sizeof err) == NULL);
	CHECK_EQ_STR(err, "record.benches: missing");
	json_decref(j);
	record_free(r);
}

TEST(records_parse_concatenated_and_array)
{
	struct record *r1 = sample_record("0000000100000001", 1, NULL), *r2 = sample_record("0000000200000002", 2, NULL);
	char *a = dump(r1), *b = dump(r2), text[8192], err[256];
	struct record **v;
	snprintf(text, sizeof text, "%s\n%s\n", a, b);
	CHECK_EQ_INT(records_parse(text, strlen(text), &v, err, sizeof err), 2);
	CHECK_EQ_STR(v[1]->id, "0000000200000002");
	records_free(v, 2);
	snprintf(text, sizeof text, "[%s,%s]", a, b);
	CHECK_EQ_INT(records_parse(text, strlen(text), &v, err, sizeof err), 2);
	records_free(v, 2);
	snprintf(text, sizeof text, "%s [1]", a);
	CHECK(records_parse(text, strlen(text), &v, err, sizeof err) < 0);
	CHECK(strncmp(err, "record 2: ", 10) == 0);
	CHECK(v == NULL);
	free(a);
	free(b);
	record_free(r1);
	record_free(r2);
}

TEST(store_save_load_roundtrip_and_names)
{
	char *path = temp_db(), err[512], id[24];
	struct store *s = store_open(path, err, sizeof err);
	CHECK(s != NULL);
	struct record *r1 = sample_record("00000001aaaa0001", 1000, "base");
	struct record *r2 = sample_record("00000002bbbb0002", 2000, "base");
	struct record *r3 = sample_record("00000002bbbc0003", 3000, "other");
	CHECK(store_save(s, r1, err, sizeof err) == 0);
	CHECK(store_save(s, r2, err, sizeof err) == 0);
	CHECK(store_save(s, r3, err, sizeof err) == 0);
	CHECK(store_save(s, r1, err, sizeof err) < 0);
	CHECK(strstr(err, "already stored") != NULL);

	struct record *back = store_load(s, "00000001aaaa0001", err, sizeof err);
	CHECK(back != NULL);
	char *a = dump(r1), *b = dump(back);
	CHECK_EQ_STR(b, a);
	free(a);
	free(b);
	record_free(back);

	CHECK(store_resolve(s, "last", id, err, sizeof err) == 0);
	CHECK_EQ_STR(id, "00000002bbbc0003");
	CHECK(store_resolve(s, "base", id, err, sizeof err) == 0); /* newest with the label */
	CHECK_EQ_STR(id, "00000002bbbb0002");
	CHECK(store_resolve(s, "00000001", id, err, sizeof err) == 0);
	CHECK_EQ_STR(id, "00000001aaaa0001");
	CHECK(store_resolve(s, "00000002", id, err, sizeof err) < 0);
	CHECK(strstr(err, "ambiguous") != NULL);
	CHECK(store_resolve(s, "nosuch", id, err, sizeof err) < 0);
	CHECK(strstr(err, "no run \"nosuch\"") != NULL);

	struct run_summary *v;
	size_t n;
	struct store_filter f = { .label = "base" };
	CHECK(store_list(s, &f, &v, &n, err, sizeof err) == 0);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_STR(v[0].id, "00000002bbbb0002");
	CHECK_EQ_STR(v[0].tags, "fs=xfs,os=debian");
	CHECK_EQ_INT(v[0].nbenches, 2);
	run_summaries_free(v, n);
	struct store_filter g = { .tag_keys = { "fs" }, .tag_values = { "zfs" }, .ntags = 1 };
	CHECK(store_list(s, &g, &v, &n, err, sizeof err) == 0);
	CHECK_EQ_INT(n, 0);
	run_summaries_free(v, n);

	CHECK(store_delete(s, "00000002bbbb0002", err, sizeof err) == 0);
	CHECK(store_delete(s, "00000002bbbb0002", err, sizeof err) < 0);
	CHECK(store_has(s, "00000002bbbb0002", err, sizeof err) == 0);
	store_close(s);

	/* the cascade left no orphans */
	sqlite3 *db;
	sqlite3_stmt *st;
	sqlite3_open(path, &db);
	sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM benches), (SELECT count(*) FROM samples),"
			       " (SELECT count(*) FROM hist_bins), (SELECT count(*) FROM run_samples)", -1, &st, NULL);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	CHECK_EQ_INT(sqlite3_column_int(st, 0), 4);
	CHECK_EQ_INT(sqlite3_column_int(st, 1), 6);
	CHECK_EQ_INT(sqlite3_column_int(st, 2), 6);
	CHECK_EQ_INT(sqlite3_column_int(st, 3), 6);
	sqlite3_finalize(st);
	sqlite3_close(db);
	remove_db(path);
	record_free(r1);
	record_free(r2);
	record_free(r3);
}

TEST(store_failed_save_leaves_nothing)
{
	char *path = temp_db(), err[512];
	struct store *s = store_open(path, err, sizeof err);
	CHECK(s != NULL);
	sqlite3 *db;
	sqlite3_open(path, &db);
	/* make the very last insert of a run fail */
	CHECK(sqlite3_exec(db, "CREATE TRIGGER boom BEFORE INSERT ON hist_bins WHEN NEW.seq = 2"
			       " BEGIN SELECT RAISE(ABORT, 'boom'); END", NULL, NULL, NULL) == SQLITE_OK);
	struct record *r = sample_record("00000001aaaa0001", 1000, NULL);
	CHECK(store_save(s, r, err, sizeof err) < 0);
	CHECK(strstr(err, "boom") != NULL);
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM samples)", -1, &st, NULL);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	CHECK_EQ_INT(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	store_close(s);
	remove_db(path);
	record_free(r);
}

TEST(store_locked_gives_clear_error)
{
	char *path = temp_db(), err[512];
	setenv("NODEMARK_DB_BUSY_MS", "50", 1);
	struct store *s = store_open(path, err, sizeof err);
	CHECK(s != NULL);
	sqlite3 *db;
	sqlite3_open(path, &db);
	CHECK(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK);
	struct record *r = sample_record("00000001aaaa0001", 1000, NULL);
	CHECK(store_save(s, r, err, sizeof err) < 0);
	CHECK(strstr(err, "locked by another process") != NULL);
	CHECK(strstr(err, path) != NULL);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	CHECK(store_save(s, r, err, sizeof err) == 0);
	sqlite3_close(db);
	store_close(s);
	remove_db(path);
	record_free(r);
}

TEST(store_refuses_corrupt_foreign_and_newer_files)
{
	char *path = temp_db(), err[512];
	FILE *f = fopen(path, "w");
	fputs("this is not a database, just some text that is long enough to have a header\n", f);
	fclose(f);
	CHECK(store_open(path, err, sizeof err) == NULL);
	CHECK(strstr(err, "not a results store or damaged") != NULL);
	remove_db(path);

	sqlite3 *db;
	sqlite3_open(path, &db);
	sqlite3_exec(db, "CREATE TABLE photos (x)", NULL, NULL, NULL);
	sqlite3_close(db);
	CHECK(store_open(path, err, sizeof err) == NULL);
	CHECK(strstr(err, "not a nodemark results store") != NULL);
	remove_db(path);

	sqlite3_open(path, &db);
	sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
	sqlite3_close(db);
	CHECK(store_open(path, err, sizeof err) == NULL);
	CHECK(strstr(err, "newer nodemark (schema 99") != NULL);
	remove_db(path);
}

TEST(store_default_path_order)
{
	char buf[256];
	setenv("NODEMARK_DB", "/x/y.db", 1);
	CHECK_EQ_STR(store_default_path(buf, sizeof buf), "/x/y.db");
	unsetenv("NODEMARK_DB");
	setenv("XDG_DATA_HOME", "/data", 1);
	CHECK_EQ_STR(store_default_path(buf, sizeof buf), "/data/nodemark/results.db");
	setenv("XDG_DATA_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	CHECK_EQ_STR(store_default_path(buf, sizeof buf), "/home/u/.local/share/nodemark/results.db");
}
