/* src/util/units.c: how numbers are shown to people. */
#include "test.h"
#include "util/units.h"

static const char *dur(uint64_t ns)
{
	static char buf[32];
	return units_duration(ns, buf, sizeof buf);
}

TEST(units_duration_keeps_seconds_past_a_minute)
{
	CHECK_EQ_STR(dur(850), "850ns");
	CHECK_EQ_STR(dur(12300), "12.3µs");
	CHECK_EQ_STR(dur(7520000), "7.52ms");
	CHECK_EQ_STR(dur(1250000000ull), "1.25s");
	CHECK_EQ_STR(dur(346ull * 1000000000ull), "5m46s");
	CHECK_EQ_STR(dur(4033ull * 1000000000ull), "1h07m13s");
	CHECK_EQ_STR(dur(27420ull * 1000000000ull), "7h37m00s");
	/* To the nearest second: 345.6 s is 5m46s, not 5m45s. */
	CHECK_EQ_STR(dur(345600000000ull), "5m46s");
	CHECK_EQ_STR(dur(100ull * 3600 * 1000000000ull + 1000000000ull), "100h00m01s");
}

static const char *fig(double v, const char *metric, const char *unit)
{
	static char buf[48];
	return units_figure(v, metric, unit, buf, sizeof buf);
}

TEST(units_figure_one_policy)
{
	CHECK_EQ_STR(fig(15.8e9, "bytes_per_sec", "B/s"), "15.8 GB/s");   /* decimal, not 14.7 GiB/s */
	CHECK_EQ_STR(fig(523.4e6, "bytes_per_sec", "B/s"), "523 MB/s");
	CHECK_EQ_STR(fig(7.52e6, "lat_p99_ns", "ns"), "7.52 ms");          /* not 7.520M */
	CHECK_EQ_STR(fig(850, "lat_mean_ns", "ns"), "850 ns");
	CHECK_EQ_STR(fig(12.34e3, "lat_mean_ns", "ns"), "12.3 µs");
	CHECK_EQ_STR(fig(1.25, "wall_s", "s"), "1.25 s");
	CHECK_EQ_STR(fig(4033, "total_s", "s"), "1h07m13s");
	CHECK_EQ_STR(fig(12345.6, "pieces_per_sec", "op/s"), "12346 pieces/s"); /* not IOPS */
	CHECK_EQ_STR(fig(45210, "iops", "op/s"), "45210 IOPS");
	CHECK_EQ_STR(fig(3080.4, "mean_rate", "/s"), "3080 /s");
	CHECK_EQ_STR(fig(102.5, "iops", "op/s"), "102.5 IOPS"); /* a median between two counts */
	CHECK_EQ_STR(fig(0.6973, "cycles_per_byte", "cycles/B"), "0.6973 cycles/B"); /* not 697.3m */
}
