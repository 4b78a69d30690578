#include "test.h"
#include "results/history.h"
#include "results/store.h"
#include "stats/verdict.h"

#include <stdlib.h>
#include <unistd.h>

/* A `run` of host "h", directory /data, quick mode, with one hash figure around median. */
static struct record *run_record(int i, double median, int busy, const char *dir)
{
	char *argv[] = { "run" };
	struct record *r = record_new("run", 1, argv);
	snprintf(r->id, sizeof r->id, "6b0e%012x", i);
	r->time_ms = 1000000 + i;
	free(r->host);
	r->host = strdup("h");
	json_object_set_new(r->extra, "run", json_pack("{s:s, s:s}", "dir", dir, "mode", "quick"));
	json_object_set_new(r->extra, "noise", json_pack("{s:{s:b}}", "hash", "busy", busy));
	struct bench *b = record_add_bench(r, "hash/blake3/1t");
	bench_set(b, "phase", json_string("hash"));
	struct metric *m = bench_metric(b, "bytes_per_sec", "B/s", HIGHER_IS_BETTER);
	metric_add(m, median * 0.99);
	metric_add(m, median);
	metric_add(m, median * 1.01);
	return r;
}

TEST(history_floor_comes_from_earlier_quiet_runs_of_the_same_directory_and_mode)
{
	char path[300], err[256];
	/* in the test's own directory, removed with it however the test ends (a failed CHECK
	 * returns early and used to leave the store and its -wal/-shm files in /tmp) */
	snprintf(path, sizeof path, "%s/history.db", test_tmpdir());
	struct store *s = store_open(path, err, sizeof err);
	CHECK(s != NULL);
	static const double medians[] = { 100, 101, 99, 100, 100 };
	int i = 0;
	for (; i < 5; i++) {
		struct record *r = run_record(i, medians[i], 0, "/data");
		CHECK(store_save(s, r, err, sizeof err) == 0);
		record_free(r);
	}
	/* a busy run, and a run of another directory, say nothing about this machine's quiet spread */
	struct record *noisy = run_record(i++, 50, 1, "/data"), *other = run_record(i++, 300, 0, "/other");
	CHECK(store_save(s, noisy, err, sizeof err) == 0);
	CHECK(store_save(s, other, err, sizeof err) == 0);
	record_free(noisy);
	record_free(other);

	struct record *rec = run_record(i++, 100, 0, "/data");
	CHECK(history_noise_floors(s, rec, err, sizeof err) == 0);
	int runs = -1;
	double pct = history_saved_floor(rec, "hash/blake3/1t", "bytes_per_sec", &runs);
	CHECK_EQ_INT(runs, 5);
	CHECK_NEAR(pct, (101.0 / 99 * 101 / 99 - 1) * 100, 1e-9);
	json_t *saved = json_object_get(json_object_get(json_object_get(rec->extra, "noise_floor"), "hash/blake3/1t"),
					"bytes_per_sec");
	CHECK_EQ_STR(json_string_value(json_object_get(saved, "source")), "history");
	CHECK(isnan(history_saved_floor(rec, "hash/blake3/1t", "iops", NULL)));
	record_free(rec);

	/* with fewer quiet runs than VERDICT_HISTORY_MIN the default stays */
	rec = run_record(i++, 100, 0, "/other");
	CHECK(history_noise_floors(s, rec, err, sizeof err) == 0);
	pct = history_saved_floor(rec, "hash/blake3/1t", "bytes_per_sec", &runs);
	CHECK_EQ_INT(runs, 1);
	/* saved as the default it was, but read back as none: the current default applies */
	CHECK(isnan(pct));
	saved = json_object_get(json_object_get(json_object_get(rec->extra, "noise_floor"), "hash/blake3/1t"),
				"bytes_per_sec");
	CHECK_EQ_STR(json_string_value(json_object_get(saved, "source")), "default");
	CHECK_NEAR(json_number_value(json_object_get(saved, "pct")), HISTORY_DEFAULT_PCT, 0);
	record_free(rec);
	store_close(s);
}

TEST(history_default_floor_is_wider_for_tails_cpu_costs_and_storage)
{
	CHECK_NEAR(history_default_floor_for("hash", "hash/blake3/1t", "bytes_per_sec"), HISTORY_DEFAULT_PCT, 0);
	CHECK_NEAR(history_default_floor_for(NULL, "memory/memcpy/2t", "bytes_per_sec"), HISTORY_DEFAULT_PCT, 0);
	CHECK_NEAR(history_default_floor_for("hash", "hash/x", "cpu_ns_per_io"), HISTORY_DEFAULT_TAIL_PCT, 0);
	CHECK_NEAR(history_default_floor_for("disk", "SEQ1M Q8T1 read", "lat_mean_ns"), HISTORY_DEFAULT_STORAGE_PCT, 0);
	CHECK_NEAR(history_default_floor_for("disk", "SEQ1M Q8T1 read", "lat_p99_ns"), HISTORY_DEFAULT_STORAGE_TAIL_PCT, 0);
	CHECK_NEAR(history_default_floor_for(NULL, "pieces/files/blake3/sync/write", "pieces_per_sec"),
		   HISTORY_DEFAULT_STORAGE_PCT, 0); /* by name when there is no phase */
	char *argv[] = { "run" };
	struct record *r = record_new("run", 1, argv);
	struct bench *disk = record_add_bench(r, "odd name");
	bench_set(disk, "phase", json_string("disk"));
	CHECK_NEAR(history_default_floor(disk, "iops"), HISTORY_DEFAULT_STORAGE_PCT, 0); /* by phase */
	record_free(r);
	CHECK(HISTORY_DEFAULT_TAIL_PCT > HISTORY_DEFAULT_PCT && HISTORY_DEFAULT_STORAGE_PCT > HISTORY_DEFAULT_PCT);
}

/* A run pinned to some CPUs (list: extra.cpus_allowed; NULL: a record without it). */
static struct record *pinned_record(int i, double median, const char *list, int count)
{
	struct record *r = run_record(i, median, 0, "/data");
	json_object_del(r->extra, "cpus_allowed");
	if (list)
		json_object_set_new(r->extra, "cpus_allowed", json_pack("{s:s, s:i}", "list", list, "count", count));
	return r;
}

TEST(history_takes_only_runs_allowed_the_same_cpus)
{
	char path[300], err[256];
	/* in the test's own directory, removed with it however the test ends (a failed CHECK
	 * returns early and used to leave the store and its -wal/-shm files in /tmp) */
	snprintf(path, sizeof path, "%s/history.db", test_tmpdir());
	struct store *s = store_open(path, err, sizeof err);
	CHECK(s != NULL);
	/* five unpinned quiet runs of a small spread, then two pinned to CPU 0 and one older record
	 * without the set, all of one directory and mode */
	static const double medians[] = { 100, 101, 99, 100, 100 };
	int i = 0;
	for (; i < 5; i++) {
		struct record *r = pinned_record(i, medians[i], "0-1", 2);
		CHECK(store_save(s, r, err, sizeof err) == 0);
		record_free(r);
	}
	for (int k = 0; k < 2; k++, i++) {
		struct record *r = pinned_record(i, k ? 40 : 60, "0", 1);
		CHECK(store_save(s, r, err, sizeof err) == 0);
		record_free(r);
	}
	struct record *old = pinned_record(i++, 300, NULL, 0);
	CHECK(store_save(s, old, err, sizeof err) == 0);
	record_free(old);

	/* the pinned run: its two pinned runs, not the five unpinned ones */
	struct record *rec = pinned_record(i++, 50, "0", 1);
	int runs = -1;
	CHECK(history_noise_floors(s, rec, err, sizeof err) == 0);
	CHECK(isnan(history_saved_floor(rec, "hash/blake3/1t", "bytes_per_sec", &runs)));
	CHECK_EQ_INT(runs, 2);
	json_t *saved = json_object_get(json_object_get(json_object_get(rec->extra, "noise_floor"), "hash/blake3/1t"),
					"bytes_per_sec");
	CHECK_EQ_STR(json_string_value(json_object_get(saved, "source")), "default");
	record_free(rec);

	/* the unpinned run (its set spelt otherwise): the five unpinned runs */
	rec = pinned_record(i++, 100, "0,1", 2);
	CHECK(history_noise_floors(s, rec, err, sizeof err) == 0);
	double pct = history_saved_floor(rec, "hash/blake3/1t", "bytes_per_sec", &runs);
	CHECK_EQ_INT(runs, 5);
	CHECK_NEAR(pct, (101.0 / 99 * 101 / 99 - 1) * 100, 1e-9);
	record_free(rec);

	/* a record without the set: only the one without it */
	rec = pinned_record(i++, 100, NULL, 0);
	CHECK(history_noise_floors(s, rec, err, sizeof err) == 0);
	CHECK(isnan(history_saved_floor(rec, "hash/blake3/1t", "bytes_per_sec", &runs)));
	CHECK_EQ_INT(runs, 1);
	record_free(rec);
	store_close(s);
}
