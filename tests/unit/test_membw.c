#include "test.h"
#include "mem/membw.h"

#include <dirent.h>
#include <stdlib.h>

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

TEST(membw_cached_read_reads_whole_file_and_removes_it)
{
	struct membw_result r[2];
	char err[256];
	CHECK(membw_cached_read(test_tmpdir(), 3 << 20, 10 * 1000000ull, 2, r, err, sizeof err) == 0);
	CHECK(r[0].bytes >= 3u << 20);
	CHECK_EQ_U64(r[0].bytes % (3u << 20), 0);
	CHECK_EQ_U64(r[1].bytes % (3u << 20), 0);
	CHECK(r[1].bytes_per_sec > 0);
	DIR *d = opendir(test_tmpdir());
	CHECK(d);
	int files = 0;
	for (struct dirent *e; (e = readdir(d));)
		files += e->d_name[0] != '.';
	closedir(d);
	CHECK_EQ_INT(files, 0);
}

TEST(membw_cached_read_names_the_file_on_error)
{
	struct membw_result r;
	char err[256];
	CHECK(membw_cached_read("/nonexistent-dir", 1 << 20, 1000, 1, &r, err, sizeof err) == -1);
	CHECK_CONTAINS(err, "/nonexistent-dir/pagecache-");
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
