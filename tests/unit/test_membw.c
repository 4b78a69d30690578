#include "test.h"
#include "mem/membw.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

TEST(membw_copy_counts_whole_buffers)
{
	struct membw_result res[3];
	char err[256];
	CHECK(membw_copy(1 << 20, 2, 10 * 1000000ull, 3, res, err, sizeof err) == 0);
	for (int k = 0; k < 3; k++) {
		const struct membw_result r = res[k];
		CHECK(r.bytes >= 2u << 20); /* each thread copies at least once per pass */
		CHECK_EQ_U64(r.bytes % (1 << 20), 0);
		CHECK(r.ns > 0);
		CHECK_NEAR(r.bytes_per_sec, (double)r.bytes * 1e9 / (double)r.ns, 1e-6 * r.bytes_per_sec);
	}
}

TEST(membw_copy_rejects_nothing_to_do)
{
	struct membw_result r;
	char err[256];
	CHECK(membw_copy(0, 1, 1000, 1, &r, err, sizeof err) == -1);
	CHECK_CONTAINS(err, "memory copy");
}

static int files_in(const char *dir)
{
	DIR *d = opendir(dir);
	int files = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		files += e->d_name[0] != '.';
	closedir(d);
	return files;
}

TEST(membw_file_reads_whole_file_and_removes_it)
{
	struct membw_file f;
	struct membw_result r[2];
	char err[256];
	CHECK(membw_file_open(&f, test_tmpdir(), 3 << 20, err, sizeof err) == 0);
	CHECK(membw_file_read(&f, 10 * 1000000ull, 2, r, err, sizeof err) == 0);
	CHECK(r[0].bytes >= 3u << 20);
	CHECK_EQ_U64(r[0].bytes % (3u << 20), 0);
	CHECK_EQ_U64(r[1].bytes % (3u << 20), 0);
	CHECK(r[1].bytes_per_sec > 0);
	/* a second batch reads the same file */
	CHECK(membw_file_read(&f, 1000000ull, 1, r, err, sizeof err) == 0);
	CHECK_EQ_U64(r[0].bytes % (3u << 20), 0);
	CHECK_EQ_INT(files_in(test_tmpdir()), 1);
	membw_file_close(&f);
	membw_file_close(&f);
	CHECK_EQ_INT(files_in(test_tmpdir()), 0);
}

/* The reads start on a hot, clean file: every page cached, none dirty or under writeback (the
 * file was fsynced), and the read buffer is page aligned (a copy into a buffer 16 bytes past a
 * page, where malloc puts it, ran at a quarter of the speed on AMD EPYC). */
TEST(membw_file_is_clean_and_cached_before_the_reads)
{
	struct membw_file f;
	struct membw_cache_state cs;
	char err[256];
	long page = sysconf(_SC_PAGESIZE);
	CHECK(membw_file_open(&f, test_tmpdir(), 4 << 20, err, sizeof err) == 0);
	CHECK_EQ_U64((uintptr_t)f.buf % (uintptr_t)page, 0);
	if (membw_file_cachestat(&f, &cs) < 0) {
		fprintf(stderr, "  (cachestat(2) missing: Linux < 6.5; the dirty-page check is skipped)\n");
	} else {
		CHECK_EQ_U64(cs.cached, (4u << 20) / (uint64_t)page);
		CHECK_EQ_U64(cs.dirty, 0);
		CHECK_EQ_U64(cs.writeback, 0);
		/* the probe sees dirty pages where there are some: a write without fsync */
		CHECK(pwrite(f.fd, f.buf, 1 << 20, 0) == 1 << 20);
		CHECK(membw_file_cachestat(&f, &cs) == 0);
		CHECK(cs.dirty + cs.writeback > 0);
	}
	membw_file_close(&f);
}

TEST(membw_file_names_the_file_on_error)
{
	struct membw_file f;
	char err[256];
	CHECK(membw_file_open(&f, "/nonexistent-dir", 1 << 20, err, sizeof err) == -1);
	CHECK_CONTAINS(err, "/nonexistent-dir/pagecache-");
	membw_file_close(&f);
}

TEST(membw_copy_size_is_bounded)
{
	CHECK(membw_copy_size(8 << 20) <= 8u << 20);
	CHECK(membw_copy_size(0) >= 16u << 20);
}

/* The cache size comes through inventory/sysfs, so a sysroot fakes it. */
TEST(membw_llc_bytes_reads_the_largest_cache_under_the_sysroot)
{
	char root[] = "/tmp/nm-llc-XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "d=%s/sys/devices/system/cpu/cpu0/cache; mkdir -p $d/index0 $d/index2 $d/index3 &&"
		 " echo 32K >$d/index0/size && echo 512K >$d/index2/size && echo 16M >$d/index3/size", root);
	CHECK(system(cmd) == 0);
	setenv("NODEMARK_SYSROOT", root, 1);
	uint64_t llc = membw_llc_bytes();
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	CHECK(system(cmd) == 0);
	CHECK_EQ_U64(llc, 16ull << 20);
}
