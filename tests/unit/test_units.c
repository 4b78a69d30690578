/* src/util/units.c, textwidth.c and gofloat.c: how numbers are shown to people, how wide they
 * are on a terminal, and as Go prints them. */
#include "test.h"
#include "export/texttab.h"
#include "util/gofloat.h"
#include "util/textwidth.h"
#include "util/units.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

TEST(units_bytes_exact_in_the_largest_unit_that_divides)
{
	char b[32];
	CHECK_EQ_STR(units_bytes_exact(2097152, " ", b, sizeof b), "2 MiB");
	CHECK_EQ_STR(units_bytes_exact(4096, " ", b, sizeof b), "4 KiB");
	CHECK_EQ_STR(units_bytes_exact(4194305, " ", b, sizeof b), "4194305 B");
	CHECK_EQ_STR(units_bytes_exact(0, " ", b, sizeof b), "0 B");
	/* as one types it (option messages): "1GiB", a bare count of bytes */
	CHECK_EQ_STR(units_bytes_exact(1ull << 30, "", b, sizeof b), "1GiB");
	CHECK_EQ_STR(units_bytes_exact(1000, "", b, sizeof b), "1000");
	CHECK_EQ_STR(units_bytes_exact(1ull << 60, " ", b, sizeof b), "1 EiB");
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

/* One naming of a metric (run's, disk's and compare's heads, the report's charts): its words,
 * then the units its figures show, gathered from the figures under it. */
TEST(units_header_words_and_the_units_shown)
{
	char h[96], u[64] = "";
	CHECK_EQ_STR(units_header("bytes_per_sec", "MB/s", h, sizeof h), "bandwidth (MB/s)");
	CHECK_EQ_STR(units_header("read_clat_mean_ns", "µs, ms", h, sizeof h), "read mean completion latency (µs, ms)");
	CHECK_EQ_STR(units_header("iops", "IOPS", h, sizeof h), "IOPS"); /* not "IOPS (IOPS)" */
	CHECK_EQ_STR(units_header("lat_p99_ns", NULL, h, sizeof h), "p99 latency");
	CHECK_EQ_STR(units_header("major_faults", "", h, sizeof h), "major faults");
	CHECK_EQ_STR(units_header("cpu_pct", "%", h, sizeof h), "CPU %"); /* not "CPU % (%)" */
	CHECK_EQ_STR(units_header("cycles_per_byte", "cycles/B", h, sizeof h), "cycles per byte (cycles/B)");
	CHECK_EQ_STR(units_metric_words("pieces_per_sec", h, sizeof h), "piece rate");
	units_shown_add(u, sizeof u, fig(7.52e6, "lat_mean_ns", "ns"));
	units_shown_add(u, sizeof u, fig(75.2e3, "lat_mean_ns", "ns"));
	units_shown_add(u, sizeof u, fig(1.2e6, "lat_mean_ns", "ns"));
	units_shown_add(u, sizeof u, fig(4033, "total_s", "s")); /* "1h07m13s": no unit apart */
	CHECK_EQ_STR(u, "ms, µs");
	CHECK_EQ_STR(units_header("lat_mean_ns", u, h, sizeof h), "mean latency (ms, µs)");
}

static const char *gof(double v)
{
	static char buf[40];
	return go_float(v, buf, sizeof buf);
}

/* Go's %v of a float64 (strconv 'g', shortest): the texts Go prints for these doubles. */
TEST(go_float_prints_what_go_prints)
{
	CHECK_EQ_STR(gof(4.598759832824491e+07), "4.598759832824491e+07");
	CHECK_EQ_STR(gof(nextafter(4.598759832824491e+07, 0)), "4.59875983282449e+07");
	CHECK_EQ_STR(gof(0.1 + 0.2), "0.30000000000000004");
	CHECK_EQ_STR(gof(1e6), "1e+06");
	CHECK_EQ_STR(gof(123456.7), "123456.7");
	CHECK_EQ_STR(gof(100000), "100000");
	CHECK_EQ_STR(gof(0.0001), "0.0001");
	CHECK_EQ_STR(gof(0.00001), "1e-05");
	CHECK_EQ_STR(gof(1e23), "1e+23");
	CHECK_EQ_STR(gof(5e-324), "5e-324");
	CHECK_EQ_STR(gof(1.7976931348623157e308), "1.7976931348623157e+308");
	CHECK_EQ_STR(gof(2.2250738585072014e-308), "2.2250738585072014e-308");
	CHECK_EQ_STR(gof(-0.0), "-0");
	CHECK_EQ_STR(gof(NAN), "NaN");
	CHECK_EQ_STR(gof(-INFINITY), "-Inf");
	/* Powers of two, where the doubles below are twice as dense as above: the nearest 16
	 * digits miss, the next 16 up are the shortest (17 digits before this was fixed). */
	CHECK_EQ_STR(gof(ldexp(1, -1017)), "7.120236347223045e-307");
	CHECK_EQ_STR(gof(-ldexp(1, -1007)), "-7.291122019556398e-304");
	CHECK_EQ_STR(gof(ldexp(1, -705)), "5.940911144672375e-213");
}

TEST(units_ratio_fits_three_digits)
{
	char b[32];
	CHECK_EQ_STR(units_ratio(0.9714, b, sizeof b), "0.97x");
	CHECK_EQ_STR(units_ratio(44.993, b, sizeof b), "44.99x");
	CHECK_EQ_STR(units_ratio(1349.93, b, sizeof b), "1350x");
	CHECK_EQ_STR(units_ratio(NAN, b, sizeof b), "-");
}

/* Display columns, not bytes: every table that pads counts these. */
TEST(text_width_counts_columns_not_bytes)
{
	CHECK_EQ_INT((int)text_width("184 µs"), 6);               /* 7 bytes */
	CHECK_EQ_INT((int)text_width("no change beyond ±5%"), 20); /* 21 bytes */
	CHECK_EQ_INT((int)text_width("4×…"), 3);
	CHECK_EQ_INT((int)text_width("日本"), 4);                  /* wide: two columns each */
	CHECK_EQ_INT((int)text_width("e\xcc\x81"), 1);          /* e and a combining acute */
	CHECK_EQ_INT((int)text_width("\033[31mworse\033[0m"), 5); /* a colour takes no column */
	CHECK_EQ_INT(text_fill("± 3%", 6), 2);
	CHECK_EQ_INT(text_fill("too wide", 3), 0);
	/* padded cells end in one column whatever their bytes */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	text_put(f, "7.52 ms", 9, 1);
	fputs("|\n", f);
	text_put(f, "184 µs", 9, 1);
	fputs("|\n", f);
	text_put(f, "±5%", 5, 0);
	fputs("|\n", f);
	fclose(f);
	CHECK_EQ_STR(buf, "  7.52 ms|\n   184 µs|\n±5%  |\n");
	free(buf);
}

/* Every power of two and a spread of doubles read back as themselves. */
TEST(go_float_reads_back)
{
	for (int k = -1074; k <= 1023; k++) {
		double v = ldexp(1, k);
		CHECK(strtod(gof(v), NULL) == v);
	}
	uint64_t s = 88172645463325252ull;
	for (int i = 0; i < 20000; i++) {
		double v;
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		memcpy(&v, &s, sizeof v);
		if (isfinite(v))
			CHECK(strtod(gof(v), NULL) == v);
	}
}

/* A text table lays out by display columns, but benchstat's (go_runes) by UTF-8 characters as
 * Go's does: a wide name takes as many columns as it has characters there, so that nodemark
 * benchstat prints what benchstat prints. */
static char *two_rows(int go_runes)
{
	struct texttab t = { .go_runes = go_runes };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	tt_row(&t);
	tt_cell(&t, "\xe6\x97\xa5\xe6\x9c\xac", TT_LEFT, NULL); /* two wide characters */
	tt_cell(&t, "x", TT_LEFT, NULL);
	tt_row(&t);
	tt_cell(&t, "abc", TT_LEFT, NULL);
	tt_cell(&t, "y", TT_LEFT, NULL);
	tt_format(&t, f);
	tt_free(&t);
	fclose(f);
	return buf;
}

TEST(texttab_counts_go_runes_for_benchstat_and_columns_otherwise)
{
	char *go = two_rows(1), *cols = two_rows(0);
	/* Go: the name column is 3 characters wide ("abc"), so the wide name gets one space pad */
	CHECK_EQ_STR(go, "\xe6\x97\xa5\xe6\x9c\xac  x\nabc y\n");
	/* display columns: the wide name is 4 columns, "abc" gets two spaces */
	CHECK_EQ_STR(cols, "\xe6\x97\xa5\xe6\x9c\xac x\nabc  y\n");
	free(go);
	free(cols);
}
