#include "test.h"
#include "proc/noise.h"
#include "proc/rapl.h"

#include <stdlib.h>
#include <sys/stat.h>

/* A fake /proc under the test's scratch directory. */
static const char *fake_proc(const char *name, const char *stat, const char *self, const char *meminfo)
{
	static char root[512];
	char path[600];
	FILE *f;

	snprintf(root, sizeof root, "%s/%s", test_tmpdir(), name);
	mkdir(root, 0700);
	snprintf(path, sizeof path, "%s/self", root);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/stat", root);
	f = fopen(path, "w");
	fputs(stat, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/self/stat", root);
	f = fopen(path, "w");
	fputs(self, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/meminfo", root);
	f = fopen(path, "w");
	fputs(meminfo, f);
	fclose(f);
	return root;
}

static const char self_a[] = "4242 (node mark) R 1 2 3 0 -1 4194560 100 0 0 0 50 10 0 0 20 0 3 0 1 1 1\n";
static const char self_b[] = "4242 (node mark) R 1 2 3 0 -1 4194560 100 0 0 0 80 20 7 3 20 0 3 0 1 1 1\n";
static const char mem_a[] = "MemTotal:       1000 kB\nMemAvailable:    800 kB\nCached:          300 kB\n"
			    "Dirty:            10 kB\nWriteback:         0 kB\n";
static const char mem_b[] = "MemTotal:       1000 kB\nMemAvailable:    700 kB\nCached:          400 kB\n"
			    "Dirty:            50 kB\nWriteback:         5 kB\n";

TEST(noise_sample_reads_proc_files)
{
	struct noise_sample s;
	char err[256];
	const char *root = fake_proc("a", "cpu  100 5 50 800 20 1 4 20 0 0\ncpu0 50 2 25 400 10 0 2 10 0 0\n"
					  "cpu1 50 3 25 400 10 1 2 10 0 0\nintr 1\n",
				     self_a, mem_a);
	CHECK(noise_sample(&s, root, err, sizeof err) == 0);
	CHECK_EQ_U64(s.user, 100);
	CHECK_EQ_U64(s.steal, 20);
	CHECK_EQ_U64(s.ncpu, 2);
	CHECK_EQ_U64(s.self_ticks, 60);
	CHECK_EQ_U64(s.cached, 300 * 1024);
	CHECK_EQ_U64(s.dirty, 10 * 1024);
}

TEST(noise_figures_subtract_our_own_cpu)
{
	struct noise_sample a, b;
	struct noise_figures f;
	char err[256];
	/* a: busy 100+5+50+1+4 = 160, total 160+800+20+20 = 1000 */
	const char *ra = fake_proc("a", "cpu  100 5 50 800 20 1 4 20\n", self_a, mem_a);
	CHECK(noise_sample(&a, ra, err, sizeof err) == 0);
	/* b: busy 300+5+150+1+4 = 460 (+300), idle 1400 (+600), iowait 40 (+20), steal 100 (+80):
	 * total +1000; our ticks +50 (60 -> 80+20 and 7+3 of waited-for children): others 250 of 1000 */
	const char *rb = fake_proc("b", "cpu  300 5 150 1400 40 1 4 100\n", self_b, mem_b);
	CHECK(noise_sample(&b, rb, err, sizeof err) == 0);
	noise_figures(&a, &b, &f);
	CHECK_NEAR(f.other_busy_pct, 25.0, 1e-9);
	CHECK_NEAR(f.steal_pct, 8.0, 1e-9);
	CHECK_NEAR(f.iowait_pct, 2.0, 1e-9);
	CHECK_EQ_U64(f.dirty_max, 50 * 1024);
	CHECK_EQ_U64(f.writeback_max, 5 * 1024);
	CHECK_EQ_U64(f.cached_end - f.cached_start, 100 * 1024);

	char why[160];
	f.seconds = 0.1; /* too short to judge */
	CHECK(noise_is_busy(&f, why, sizeof why) == 0);
	f.seconds = 10;
	CHECK(noise_is_busy(&f, why, sizeof why) == 1);
	CHECK_CONTAINS(why, "other processes used 25%");
	CHECK_CONTAINS(why, "stole 8%");
	json_t *j = noise_to_json(&f);
	CHECK(json_is_true(json_object_get(j, "busy")));
	CHECK_NEAR(json_real_value(json_object_get(j, "other_busy_pct")), 25.0, 1e-9);
	json_decref(j);
}

TEST(noise_quiet_machine_is_not_busy)
{
	struct noise_sample a, b;
	struct noise_figures f;
	char err[256], why[160];
	CHECK(noise_sample(&a, fake_proc("a", "cpu  100 0 0 900 0 0 0 0\n", self_a, mem_a), err, sizeof err) == 0);
	/* +60 busy of +1000, all of it ours (+50 self) minus... others 10 of 1000 = 1% */
	CHECK(noise_sample(&b, fake_proc("b", "cpu  160 0 0 1840 0 0 0 0\n", self_b, mem_a), err, sizeof err) == 0);
	noise_figures(&a, &b, &f);
	CHECK_NEAR(f.other_busy_pct, 1.0, 1e-9);
	f.seconds = 10;
	CHECK(noise_is_busy(&f, why, sizeof why) == 0);
}

TEST(noise_missing_proc_names_the_file)
{
	struct noise_sample s;
	char err[256];
	CHECK(noise_sample(&s, "/nonexistent-proc", err, sizeof err) == -1);
	CHECK_CONTAINS(err, "/nonexistent-proc/stat");
}

TEST(noise_monitor_on_real_proc)
{
	struct noise_monitor m;
	struct noise_figures f;
	noise_start(&m, NULL, 100);
	volatile double x = 0;
	for (int i = 0; i < 20000000; i++)
		x += i;
	CHECK(noise_stop(&m, &f) == 0);
	CHECK(f.seconds > 0);
	CHECK(f.other_busy_pct >= 0 && f.other_busy_pct <= 100);
	CHECK(f.peak_other_busy_pct >= f.other_busy_pct);
	CHECK(f.mem_total > 0);
}

/* RAPL zones are found through inventory/sysfs: package zones only, subzones skipped. */
TEST(rapl_sums_package_zones_under_the_sysroot)
{
	char root[] = "/tmp/nm-rapl-XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	char cmd[768];
	snprintf(cmd, sizeof cmd,
		 "p=%s/sys/class/powercap; mkdir -p $p/intel-rapl:0 $p/intel-rapl:1 $p/intel-rapl:0:0 &&"
		 " echo 1000000 >$p/intel-rapl:0/energy_uj && echo 262143328850 >$p/intel-rapl:0/max_energy_range_uj &&"
		 " echo 3000000 >$p/intel-rapl:1/energy_uj && echo 262143328850 >$p/intel-rapl:1/max_energy_range_uj &&"
		 " echo 99000000 >$p/intel-rapl:0:0/energy_uj && echo 1 >$p/intel-rapl:0:0/max_energy_range_uj", root);
	CHECK(system(cmd) == 0);
	setenv("NODEMARK_SYSROOT", root, 1);
	char why[128] = "";
	struct rapl *r = rapl_open(why, sizeof why);
	double j = r ? rapl_read_j(r) : -1;
	rapl_close(r);
	setenv("NODEMARK_SYSROOT", "/nonexistent-sysroot", 1);
	struct rapl *none = rapl_open(why, sizeof why);
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	CHECK(system(cmd) == 0);
	CHECK_NEAR(j, 4.0, 1e-9); /* 1 J + 3 J; the 99 J subzone is inside package 0 */
	CHECK(none == NULL);
	CHECK_CONTAINS(why, "no RAPL counters");
}
