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
