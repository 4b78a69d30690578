/* pieces_run and pieces_verify on real directories: the layout on disk, what verify finds
 * after damage, nothing left behind, workers spread over directories. */
#include "test.h"

#include "pieces/format.h"
#include "pieces/run.h"
#include "pieces/verify.h"
#include "util/error.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static struct pieces_plan small_plan(const char *const *dirs, unsigned ndirs, enum pieces_backend b)
{
	return (struct pieces_plan){ .dirs = dirs, .ndirs = ndirs, .backend = b, .hash = HASH_BLAKE3,
				     .count = 10, .size = 100000, .block = 4096, .log_limit = 1 << 20,
				     .workers = 1, .read_back = 1, .keep = 1 };
}

static const char *subdir(const char *name)
{
	static char path[4][1024];
	static int k;
	char *p = path[k++ & 3];
	snprintf(p, 1024, "%s/%s", test_tmpdir(), name);
	mkdir(p, 0755);
	return p;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.' || (e->d_name[1] && e->d_name[1] != '.');
	closedir(d);
	return n;
}

/* The first file found under dir with the suffix, depth-first. */
static int find_file(const char *dir, const char *suffix, char *out, size_t len)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int found = -1;
	for (struct dirent *e; found < 0 && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[4400];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) < 0)
			continue;
		size_t n = strlen(e->d_name), m = strlen(suffix);
		if (S_ISDIR(st.st_mode))
			found = find_file(p, suffix, out, len);
		else if (n >= m && !strcmp(e->d_name + n - m, suffix)) {
			snprintf(out, len, "%s", p);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

static void flip_byte(const char *path, off_t off)
{
	int fd = open(path, O_RDWR);
	unsigned char c;
	if (pread(fd, &c, 1, off) == 1) {
		c ^= 0x40;
		if (pwrite(fd, &c, 1, off) != 1)
			abort();
	}
	close(fd);
}

static struct pieces_result res;

TEST(pieces_files_layout_and_verify)
{
	const char *dirs[] = { subdir("files") };
	struct pieces_plan p = small_plan(dirs, 1, PIECES_FILES);
	char err[1024], blob[4400], path[4400];
	struct pieces_verify_report rep;

	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), 0);
	CHECK_EQ_INT(res.nkept, 1);
	CHECK_EQ_U64(res.write.pieces, 10);
	CHECK_EQ_U64(res.write.bytes, 10 * 100000);
	CHECK_EQ_U64(res.read.pieces, 10);
	CHECK_EQ_U64(res.write.commit_lat.n, 10);
	CHECK_EQ_U64(res.corrupt, 0);
	snprintf(path, sizeof path, "%s/temp", res.kept[0]);
	CHECK_EQ_INT(count_entries(path), 0);

	/* blobs/<52-char namespace>/<2 chars>/<50 chars>.sj1, 512-byte header + data */
	snprintf(path, sizeof path, "%s/blobs", res.kept[0]);
	CHECK(find_file(path, ".sj1", blob, sizeof blob) == 0);
	const char *name = strrchr(blob, '/') + 1;
	CHECK_EQ_U64(strlen(name), 50 + 4);
	struct stat st;
	CHECK(stat(blob, &st) == 0);
	CHECK_EQ_U64(st.st_size, PIECE_HEADER_SIZE + 100000);

	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.pieces, 10);
	CHECK_EQ_U64(rep.ok, 10);
	/* The parent of a kept store works too. */
	CHECK_EQ_INT(pieces_verify(dirs[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.ok, 10);

	/* A flipped data byte, a leftover temp file. */
	flip_byte(blob, PIECE_HEADER_SIZE + 5000);
	snprintf(path, sizeof path, "%s/temp/blob-123.partial", res.kept[0]);
	close(open(path, O_CREAT | O_WRONLY, 0644));
	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.corrupt, 1);
	CHECK_EQ_U64(rep.ok, 9);
	CHECK_EQ_U64(rep.temp_files, 1);
	CHECK_EQ_INT(pieces_verify(res.kept[0], 1, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.removed, 1);
	CHECK(access(path, F_OK) < 0);

	/* A truncated piece is corrupt too. */
	flip_byte(blob, PIECE_HEADER_SIZE + 5000);
	CHECK(truncate(blob, 600) == 0);
	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.corrupt, 1);
}

static int corrupt_calls;
static void count_corrupt(void *arg, enum pieces_finding kind, const char *path, const char *why)
{
	(void)arg;
	(void)kind;
	(void)path;
	corrupt_calls += strstr(why, "hash mismatch") != NULL;
}

TEST(pieces_log_layout_and_verify)
{
	const char *dirs[] = { subdir("log") };
	struct pieces_plan p = small_plan(dirs, 1, PIECES_LOG);
	char err[1024], log[4400], path[4400];
	struct pieces_verify_report rep;

	p.sync = PIECES_FDATASYNC;
	p.sync_batch = 4;
	p.log_limit = 350000; /* three pieces per log: rotation happens */
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), 0);
	CHECK_EQ_U64(res.write.pieces, 10);
	CHECK_EQ_U64(res.write.commit_lat.n, 10);
	CHECK_EQ_U64(res.read.pieces, 10);
	snprintf(path, sizeof path, "%s/log/w000/log-00000003.log", res.kept[0]);
	CHECK(access(path, F_OK) == 0);
	snprintf(path, sizeof path, "%s/log/w000/log-00000004.log", res.kept[0]);
	CHECK(access(path, F_OK) < 0);

	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, count_corrupt, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.pieces, 10);
	CHECK_EQ_U64(rep.ok, 10);
	CHECK_EQ_U64(rep.tail_bytes, 0);

	snprintf(log, sizeof log, "%s/log/w000/log-00000001.log", res.kept[0]);
	flip_byte(log, 12345);
	int fd = open(log, O_WRONLY | O_APPEND);
	CHECK(write(fd, "unfinished", 10) == 10);
	close(fd);
	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, count_corrupt, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.corrupt, 1);
	CHECK_EQ_INT(corrupt_calls, 1);
	CHECK_EQ_U64(rep.tail_bytes, 10);
	CHECK_EQ_INT(pieces_verify(res.kept[0], 1, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.removed, 1);
	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.tail_bytes, 0);

	/* A damaged index record: the piece it pointed at (outside log 1, whose data is damaged)
	 * is found by its footer, still verifies, and repair puts it back in a rebuilt index. */
	snprintf(path, sizeof path, "%s/log/w000/index.tbl", res.kept[0]);
	int ifd = open(path, O_RDWR);
	unsigned char rec[INDEX_RECORD_SIZE];
	struct index_record ir;
	off_t off = INDEX_RECORD_SIZE;
	for (;; off += INDEX_RECORD_SIZE) {
		CHECK(pread(ifd, rec, sizeof rec, off) == sizeof rec);
		if (index_record_decode(rec, sizeof rec, &ir, NULL) == 1 && ir.log_no != 1)
			break;
	}
	close(ifd);
	flip_byte(path, off + 40);
	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.corrupt, 1);
	CHECK_EQ_U64(rep.bad_records, 1);
	CHECK_EQ_U64(rep.unindexed, 1);
	CHECK_EQ_U64(rep.pieces, 10);
	CHECK(!pieces_verify_sound(&rep));
	CHECK_EQ_INT(pieces_verify(res.kept[0], 1, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.reindexed, 1);
	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.bad_records, 0);
	CHECK_EQ_U64(rep.unindexed, 0);
	CHECK_EQ_U64(rep.corrupt, 1);
	CHECK_EQ_U64(rep.ok, 9);
}

TEST(pieces_workers_spread_over_dirs)
{
	const char *dirs[] = { subdir("d0"), subdir("d1") };
	struct pieces_plan p = small_plan(dirs, 2, PIECES_FILES);
	char err[1024];
	struct pieces_verify_report rep;
	p.workers = 3;
	p.count = 7;
	p.hash = HASH_SHA256;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), 0);
	CHECK_EQ_INT(res.nkept, 2);
	CHECK_EQ_U64(res.write.pieces, 7);
	CHECK_EQ_U64(res.read.pieces, 7);
	/* Workers 0 and 2 (3 + 2 pieces) write in d0, worker 1 (2 pieces) in d1. */
	CHECK_EQ_INT(pieces_verify(res.kept[0], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.ok, 5);
	CHECK_EQ_INT(pieces_verify(res.kept[1], 0, &rep, NULL, NULL, err, sizeof err), 0);
	CHECK_EQ_U64(rep.ok, 2);
}

TEST(pieces_run_leaves_nothing_without_keep)
{
	const char *dirs[] = { subdir("clean") };
	struct pieces_plan p = small_plan(dirs, 1, PIECES_LOG);
	char err[1024];
	p.keep = 0;
	p.hash = HASH_NONE;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), 0);
	CHECK_EQ_INT(res.nkept, 0);
	CHECK_EQ_INT(count_entries(dirs[0]), 0);
	p.backend = PIECES_FILES;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), 0);
	CHECK_EQ_INT(count_entries(dirs[0]), 0);
}

TEST(pieces_run_refuses_bad_plans)
{
	const char *dirs[] = { subdir("bad") };
	const char *missing[] = { "/nonexistent/nodemark-test" };
	struct pieces_plan p = small_plan(dirs, 1, PIECES_FILES);
	char err[1024];
	p.count = 0;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), NM_EXIT_USAGE);
	CHECK_CONTAINS(err, "--count");
	p.count = 1;
	p.size = 0;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), NM_EXIT_USAGE);
	p.size = 1ull << 40; /* with 1000 pieces, more than any test disk has */
	p.count = 1000;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), NM_EXIT_USAGE);
	CHECK_CONTAINS(err, "not enough free space");
	/* Sizes near 2^64 are refused, never wrapped past the free-space check. */
	p.size = UINT64_MAX;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), NM_EXIT_USAGE);
	CHECK_CONTAINS(err, "--size");
	p.size = (1ull << 40) + 1;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), NM_EXIT_USAGE);
	p.count = 1;
	p.size = 100;
	p.dirs = missing;
	CHECK_EQ_INT(pieces_run(&p, &res, err, sizeof err), NM_EXIT_USAGE);
	CHECK_CONTAINS(err, "/nonexistent/nodemark-test");
	CHECK_EQ_INT(count_entries(dirs[0]), 0);

	struct pieces_verify_report rep;
	CHECK_EQ_INT(pieces_verify(dirs[0], 0, &rep, NULL, NULL, err, sizeof err), NM_EXIT_USAGE);
	CHECK_CONTAINS(err, "not a piece store");
}
