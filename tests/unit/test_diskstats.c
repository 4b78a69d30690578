/* Disk activity (inventory/diskstats.c): the stat file parser, which devices a path or a
 * stacked device brings in (fixture machines), and the deltas over a run on a fake root whose
 * counters the test moves forward. */
#include "test.h"

#include "inventory/diskstats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("TESTS_DIR");
	snprintf(path, sizeof path, "%s/fixtures/sysroot-%s", dir ? dir : "tests", name);
	return path;
}

TEST(diskstats_parse_the_kernel_line)
{
	struct disk_counters c;
	CHECK(disk_counters_parse("  9563810    30640 433091714  4437792  2715631   181978 294412368  1622897"
				  "        0   639960  6252768   271466       47 81358976   125286    99268\n", &c) == 0);
	CHECK_EQ_U64(c.ios[0], 9563810);
	CHECK_EQ_U64(c.merges[0], 30640);
	CHECK_EQ_U64(c.sectors[0], 433091714);
	CHECK_EQ_U64(c.ticks[0], 4437792);
	CHECK_EQ_U64(c.ios[1], 2715631);
	CHECK_EQ_U64(c.merges[1], 181978);
	CHECK_EQ_U64(c.ticks[1], 1622897);
	CHECK_EQ_U64(c.io_ticks, 639960);
	CHECK_EQ_U64(c.in_queue, 6252768);
	/* an old kernel's 11 fields are enough; fewer, or garbage, are not */
	CHECK(disk_counters_parse("1 2 3 4 5 6 7 8 9 10 11", &c) == 0);
	CHECK_EQ_U64(c.in_queue, 11);
	CHECK(disk_counters_parse("1 2 3 4 5 6 7 8 9 10", &c) == -1);
	CHECK(disk_counters_parse("1 2 x 4 5 6 7 8 9 10 11", &c) == -1);
	CHECK(disk_counters_parse("", &c) == -1);
}

TEST(diskstats_dm_crypt_follows_slaves_to_the_whole_disk)
{
	struct disk_activity a;
	disk_activity_init(&a, fixture("dm-crypt-nvme"));
	CHECK_EQ_INT(disk_activity_watch_device(&a, "dm-0"), 0);
	CHECK_EQ_U64(a.n, 2);
	CHECK_EQ_STR(a.dev[0].name, "dm-0");
	CHECK_EQ_INT(a.dev[0].nslaves, 1);
	/* the slave is partition nvme0n1p3: counted as its disk, as fio does */
	CHECK_EQ_STR(a.dev[a.dev[0].slave[0]].name, "nvme0n1");
	CHECK_EQ_INT(a.dev[1].nslaves, 0);
	/* watching again (a second job on the same file system) adds nothing */
	CHECK_EQ_INT(disk_activity_watch_device(&a, "dm-0"), 0);
	CHECK_EQ_INT(disk_activity_watch_device(&a, "nvme0n1p2"), 1);
	CHECK_EQ_U64(a.n, 2);
	CHECK_EQ_INT(disk_activity_watch_device(&a, "sdq"), -1);
}

TEST(diskstats_md_raid0_lists_every_member)
{
	struct disk_activity a;
	disk_activity_init(&a, fixture("md-raid0-nvme"));
	CHECK_EQ_INT(disk_activity_watch_device(&a, "md0"), 0);
	CHECK(a.dev[0].nslaves >= 2);
	CHECK_EQ_U64(a.n, 1 + a.dev[0].nslaves);
	for (unsigned i = 0; i < a.dev[0].nslaves; i++)
		CHECK(strncmp(a.dev[a.dev[0].slave[i]].name, "nvme", 4) == 0);
}

static void write_stat(const char *root, const char *name, unsigned long long k, unsigned long long io_ticks)
{
	char path[512];
	snprintf(path, sizeof path, "%s/sys/class/block/%s/stat", root, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "%llu %llu %llu %llu %llu %llu %llu %llu 0 %llu %llu 0 0 0 0\n", 10 * k, k, 80 * k, 5 * k,
		4 * k, 2 * k, 32 * k, 3 * k, io_ticks, 9 * k);
	fclose(f);
}

TEST(diskstats_deltas_and_util_over_a_run)
{
	char root[] = "/tmp/nm-diskstats-XXXXXX", dir[600];
	CHECK(mkdtemp(root) != NULL);
	snprintf(dir, sizeof dir, "%s/sys/class/block/sdz", root);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
	CHECK(system(cmd) == 0);
	write_stat(root, "sdz", 1, 1000);

	struct disk_activity a;
	disk_activity_init(&a, root);
	CHECK_EQ_INT(disk_activity_watch_device(&a, "sdz"), 0);
	disk_activity_begin(&a);
	usleep(50 * 1000);
	write_stat(root, "sdz", 3, 1000 + 20); /* busy 20 ms of ~50 */
	disk_activity_end(&a);
	CHECK(a.elapsed_ms >= 50);
	CHECK_EQ_U64(a.dev[0].delta.ios[0], 20);
	CHECK_EQ_U64(a.dev[0].delta.merges[0], 2);
	CHECK_EQ_U64(a.dev[0].delta.ticks[0], 10);
	CHECK_EQ_U64(a.dev[0].delta.ios[1], 8);
	CHECK_EQ_U64(a.dev[0].delta.merges[1], 4);
	CHECK_EQ_U64(a.dev[0].delta.ticks[1], 6);
	CHECK_EQ_U64(a.dev[0].delta.in_queue, 18);
	CHECK_NEAR(a.dev[0].util, 100.0 * 20 / (double)a.elapsed_ms, 1e-9);
	CHECK(a.dev[0].util > 0 && a.dev[0].util <= 40.0);

	/* busier than the wall clock (a merged stat of several queues): capped at 100% */
	disk_activity_begin(&a);
	write_stat(root, "sdz", 4, 1000 + 20 + 100000);
	usleep(5 * 1000);
	disk_activity_end(&a);
	CHECK_NEAR(a.dev[0].util, 100.0, 1e-9);

	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	CHECK(system(cmd) == 0);
}

TEST(diskstats_memory_file_systems_have_no_disk)
{
	struct disk_activity a;
	disk_activity_init(&a, NULL);
	CHECK_EQ_INT(disk_activity_watch_path(&a, "/dev/shm"), -1);
	CHECK_EQ_U64(a.n, 0);
	CHECK_EQ_INT(disk_activity_watch_path(&a, "/nonexistent/x"), -1);
}
