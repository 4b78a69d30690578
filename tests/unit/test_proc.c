/* src/proc/: spawning and measuring children, parameters. */
#include "test.h"
#include "proc/params.h"
#include "proc/spawn.h"
#include "proc/timing.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int measure(char **argv, uint64_t timeout_ns, struct spawn_sample *s)
{
	char err[256];
	struct spawn_spec spec = { .argv = argv, .in = SPAWN_IO_NULL, .out = SPAWN_IO_NULL, .out_fd = -1,
				 .timeout_ns = timeout_ns };
	return spawn_measure(&spec, s, err, sizeof err);
}

TEST(spawn_resolve_finds_programs_on_path)
{
	char err[256];
	char *p = spawn_resolve("sh", err, sizeof err);
	CHECK(p != NULL);
	CHECK(p[0] == '/');
	CHECK(access(p, X_OK) == 0);
	free(p);
	CHECK(spawn_resolve("no-such-program-nodemark", err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "command not found");
	CHECK(spawn_resolve("/etc/passwd", err, sizeof err) == NULL);
	CHECK_CONTAINS(err, "not an executable");
}

TEST(spawn_measure_reports_exit_codes_and_signals)
{
	struct spawn_sample s;
	char *ok[] = { "/bin/sh", "-c", "exit 0", NULL };
	char *three[] = { "/bin/sh", "-c", "exit 3", NULL };
	char *killed[] = { "/bin/sh", "-c", "kill -TERM $$", NULL };
	CHECK_EQ_INT(measure(ok, 0, &s), 0);
	CHECK_EQ_INT(s.exit_code, 0);
	CHECK(s.wall_ns > 0);
	CHECK_EQ_INT(measure(three, 0, &s), 0);
	CHECK_EQ_INT(s.exit_code, 3);
	CHECK_EQ_INT(measure(killed, 0, &s), 0);
	CHECK(WIFSIGNALED(s.status));
	CHECK_EQ_INT(s.exit_code, 128 + SIGTERM);
}

TEST(spawn_measure_takes_rusage_and_proc_io)
{
	struct spawn_sample s;
	/* 4 MiB through write() and 8 MiB of memory touched by the child itself. */
	char *argv[] = { "/bin/sh", "-c", "head -c 4194304 /dev/zero > /dev/null", NULL };
	CHECK_EQ_INT(measure(argv, 0, &s), 0);
	CHECK_EQ_INT(s.exit_code, 0);
	CHECK(s.io_ok);
	CHECK(s.wchar >= 4194304);
	CHECK(s.rchar >= 4194304);
	CHECK(s.max_rss > 0);
	CHECK(s.minflt > 0);
	CHECK(s.wall_ns >= s.user_ns / 4); /* sanity: both filled, same unit */
}

TEST(spawn_measure_kills_at_the_timeout)
{
	struct spawn_sample s;
	char *argv[] = { "/bin/sleep", "10", NULL };
	CHECK_EQ_INT(measure(argv, 200000000ull, &s), 0);
	CHECK(s.timed_out);
	CHECK_EQ_INT(s.exit_code, 128 + SIGKILL);
	CHECK(s.wall_ns < 5000000000ull);
}

TEST(run_parse_proc_io_reads_the_four_counters)
{
	struct spawn_sample s = { 0 };
	spawn_parse_proc_io("rchar: 11\nwchar: 22\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\n"
			  "write_bytes: 8192\ncancelled_write_bytes: 0\n", &s);
	CHECK(s.io_ok);
	CHECK_EQ_U64(s.rchar, 11);
	CHECK_EQ_U64(s.wchar, 22);
	CHECK_EQ_U64(s.read_bytes, 4096);
	CHECK_EQ_U64(s.write_bytes, 8192);
	struct spawn_sample t = { 0 };
	spawn_parse_proc_io("rchar: 11\n", &t);
	CHECK(!t.io_ok);
}

TEST(params_list_scan_and_combinations)
{
	struct params p = { 0 };
	char err[256];
	CHECK_EQ_INT(params_add_list(&p, "comp=gzip,zstd", err, sizeof err), 0);
	CHECK_EQ_INT(params_add_scan(&p, "t=1:3", err, sizeof err), 0);
	CHECK_EQ_INT(params_combinations(&p), 6);
	/* The first parameter varies fastest, as in hyperfine. */
	char *s = params_substitute(&p, 0, "{comp} -T{t} {x} {");
	CHECK_EQ_STR(s, "gzip -T1 {x} {");
	free(s);
	s = params_substitute(&p, 1, "{comp}-{t}");
	CHECK_EQ_STR(s, "zstd-1");
	free(s);
	s = params_substitute(&p, 4, "{comp}-{t}");
	CHECK_EQ_STR(s, "gzip-3");
	free(s);
	CHECK_EQ_INT(params_add_list(&p, "t=5", err, sizeof err), -1);
	CHECK_CONTAINS(err, "given twice");
	params_free(&p);
}

TEST(params_scan_decimals_and_errors)
{
	struct params p = { 0 };
	char err[256];
	CHECK_EQ_INT(params_add_scan(&p, "d=0.1:0.3:0.1", err, sizeof err), 0);
	CHECK_EQ_INT(params_combinations(&p), 3);
	CHECK_EQ_STR(params_value(&p, 2, 0), "0.3");
	CHECK_EQ_INT(params_add_scan(&p, "e=5:1", err, sizeof err), -1);
	CHECK_CONTAINS(err, "lo <= hi");
	CHECK_EQ_INT(params_add_scan(&p, "e=a:b", err, sizeof err), -1);
	CHECK_CONTAINS(err, "NAME=lo:hi[:step]");
	CHECK_EQ_INT(params_add_list(&p, "=a,b", err, sizeof err), -1);
	CHECK_EQ_INT(params_add_list(&p, "x y=a", err, sizeof err), -1);
	CHECK_EQ_INT(params_add_list(&p, "x=a,,b", err, sizeof err), -1);
	params_free(&p);
}

/* Found by fuzz_params: -P n 0 0.001 -D 1e-4 printed eleven "0"s (decimals counted after a
 * '.' only), a step below the printed precision gave equal values, -P k 81.0000000002 114 ended
 * past 114, and four scans of 100000 values made 10^20 combinations, wrapped in a size_t. */
TEST(params_scan_values_differ_and_combinations_are_bounded)
{
	struct params p = { 0 };
	char err[256];
	CHECK_EQ_INT(params_add_scan(&p, "n=0:1e-3:1e-4", err, sizeof err), 0);
	CHECK_EQ_INT(params_combinations(&p), 11);
	CHECK_EQ_STR(params_value(&p, 1, 0), "0.0001");
	CHECK_EQ_STR(params_value(&p, 10, 0), "0.0010");
	CHECK_EQ_INT(params_add_scan(&p, "m=1:1.0000000000000002:1e-16", err, sizeof err), -1);
	CHECK_CONTAINS(err, "step is too small");
	/* the count's allowance for rounding added 114.0000000002, past the end */
	CHECK_EQ_INT(params_add_scan(&p, "k=81.0000000002:114", err, sizeof err), 0);
	CHECK_EQ_INT(p.axes[1].n, 33);
	CHECK_EQ_STR(p.axes[1].values[32], "113.0000000002");
	params_free(&p);
	CHECK_EQ_INT(params_add_scan(&p, "a=1:100000", err, sizeof err), 0);
	CHECK_EQ_INT(params_add_list(&p, "b=x,y", err, sizeof err), -1);
	CHECK_CONTAINS(err, "more than 100000 combinations");
	CHECK_EQ_INT(params_add_scan(&p, "c=1:100000", err, sizeof err), -1);
	CHECK_EQ_INT(params_add_list(&p, "d=x", err, sizeof err), 0);
	CHECK_EQ_INT(params_combinations(&p), 100000);
	params_free(&p);
}

TEST(time_auto_runs_aims_at_three_seconds)
{
	struct time_plan p = { .min_runs = 10, .auto_seconds = 3.0 };
	CHECK_EQ_U64(time_auto_runs(&p, 0.001), 3000);
	CHECK_EQ_U64(time_auto_runs(&p, 1.0), 10);
	CHECK_EQ_U64(time_auto_runs(&p, 0.2), 15);
	p.min_runs = 2;
	CHECK_EQ_U64(time_auto_runs(&p, 0.55), 5); /* 5.45 rounded down, as hyperfine */
	p.min_runs = 10;
	p.max_runs = 100;
	CHECK_EQ_U64(time_auto_runs(&p, 0.001), 100);
}
