#include "test.h"
#include "util/parse.h"

#include <stdlib.h>

static int size_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;
	char err[128];
	return parse_size(s, &v, err, sizeof err) == 0 && v == want;
}

static const char *size_err(const char *s)
{
	static char err[256];
	uint64_t v;
	err[0] = 0;
	if (parse_size(s, &v, err, sizeof err) == 0)
		return NULL;
	return err;
}

TEST(size_plain_and_binary_units)
{
	CHECK(size_ok("0", 0));
	CHECK(size_ok("2314240", 2314240));
	CHECK(size_ok("4k", 4096));
	CHECK(size_ok("4K", 4096));
	CHECK(size_ok("4KiB", 4096));
	CHECK(size_ok("4kib", 4096));
	CHECK(size_ok("1m", 1048576));
	CHECK(size_ok("1MiB", 1048576));
	CHECK(size_ok("1g", 1073741824ull));
	CHECK(size_ok("1.5GiB", 1610612736ull));
	CHECK(size_ok("1t", 1ull << 40));
	CHECK(size_ok("16EiB", 0) == 0); /* 2^64 overflows */
	CHECK(size_ok("15EiB", 15ull << 60));
	CHECK(size_ok("512b", 512));
	CHECK(size_ok("512B", 512));
}

TEST(size_decimal_units)
{
	CHECK(size_ok("4kB", 4000));
	CHECK(size_ok("4KB", 4000));
	CHECK(size_ok("1MB", 1000000));
	CHECK(size_ok("2.5GB", 2500000000ull));
	CHECK(size_ok("1TB", 1000000000000ull));
}

TEST(size_rounds_fractions_to_bytes)
{
	CHECK(size_ok("1.3k", 1331)); /* 1331.2 */
	CHECK(size_ok("0.5", 1));     /* 0.5 rounds up */
	CHECK(size_ok(".5k", 512));
}

TEST(size_rejects_garbage)
{
	CHECK_CONTAINS(size_err("4q"), "expected a size like 4k, 1MiB");
	CHECK_CONTAINS(size_err("4q"), "\"4q\"");
	CHECK_CONTAINS(size_err(""), "empty");
	CHECK_CONTAINS(size_err("-4k"), "negative");
	CHECK(size_err("k") != NULL);
	CHECK(size_err("4 k") != NULL);
	CHECK(size_err(" 4k") != NULL);
	CHECK(size_err("4kk") != NULL);
	CHECK(size_err("4KiBx") != NULL);
	CHECK(size_err("1.2.3") != NULL);
	CHECK(size_err(".") != NULL);
	CHECK(size_err("4bb") != NULL);
	CHECK(size_err("0x10") != NULL);
	CHECK(size_err("+4") != NULL);
	CHECK(size_err("nan") != NULL);
	CHECK(size_err("inf") != NULL);
}

TEST(size_rejects_overflow)
{
	CHECK_CONTAINS(size_err("18446744073709551616"), "too large");
	CHECK(size_ok("18446744073709551615", UINT64_MAX));
	CHECK_CONTAINS(size_err("99999999999999999999999999999999999999999999"), "too large");
	CHECK_CONTAINS(size_err("17179869184GiB"), "too large");
	CHECK_CONTAINS(size_err("1000000EiB"), "too large");
}

TEST(size_long_input_is_quoted_short)
{
	char big[300];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	const char *e = size_err(big);
	CHECK(e != NULL);
	CHECK(strlen(e) < 120);
}

TEST(size_fio_kb_base)
{
	uint64_t v;
	CHECK(parse_size_units("4kB", SIZE_UNITS_FIO_1024, &v, 0, 0) == 0);
	CHECK_EQ_U64(v, 4096);
	CHECK(parse_size_units("4k", SIZE_UNITS_FIO_1000, &v, 0, 0) == 0);
	CHECK_EQ_U64(v, 4000);
	CHECK(parse_size_units("4KiB", SIZE_UNITS_FIO_1000, &v, 0, 0) == 0);
	CHECK_EQ_U64(v, 4096);
}

static int dur_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;
	return parse_duration(s, 1000000000ull, &v, 0, 0) == 0 && v == want;
}

TEST(duration_units)
{
	CHECK(dur_ok("500ms", 500000000ull));
	CHECK(dur_ok("5s", 5000000000ull));
	CHECK(dur_ok("5", 5000000000ull));
	CHECK(dur_ok("2m", 120000000000ull));
	CHECK(dur_ok("1h30m", 5400000000000ull));
	CHECK(dur_ok("1h30m15s", 5415000000000ull));
	CHECK(dur_ok("1.5s", 1500000000ull));
	CHECK(dur_ok("250us", 250000ull));
	CHECK(dur_ok("250\xc2\xb5s", 250000ull));
	CHECK(dur_ok("100ns", 100ull));
	CHECK(dur_ok("1d", 86400000000000ull));
	CHECK(dur_ok("0", 0));
	CHECK(dur_ok("2min", 120000000000ull));
}

TEST(duration_rejects_garbage)
{
	uint64_t v;
	char err[128];
	CHECK(parse_duration("", 1000000000ull, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "empty");
	CHECK(parse_duration("-5s", 1000000000ull, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "negative");
	CHECK(parse_duration("5x", 1000000000ull, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "expected a duration like");
	CHECK(parse_duration("1h30", 1000000000ull, &v, err, sizeof err) < 0);
	CHECK(parse_duration("s", 1000000000ull, &v, err, sizeof err) < 0);
	CHECK(parse_duration("5 s", 1000000000ull, &v, err, sizeof err) < 0);
	CHECK(parse_duration("99999999999999999999d", 1000000000ull, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "too large");
	CHECK(parse_duration("300000d", 1000000000ull, &v, err, sizeof err) < 0);
}

TEST(count_range_and_garbage)
{
	uint64_t v;
	char err[128];
	CHECK(parse_count("32", 1, 65536, &v, err, sizeof err) == 0);
	CHECK_EQ_U64(v, 32);
	CHECK(parse_count("0", 1, 65536, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "between 1 and 65536");
	CHECK(parse_count("65537", 1, 65536, &v, err, sizeof err) < 0);
	CHECK(parse_count("-1", 0, 10, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "negative");
	CHECK(parse_count("1e3", 0, 10000, &v, err, sizeof err) < 0);
	CHECK(parse_count("", 0, 10, &v, err, sizeof err) < 0);
	CHECK(parse_count("99999999999999999999999", 0, UINT64_MAX, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "too large");
	CHECK(parse_count("18446744073709551615", 0, UINT64_MAX, &v, err, sizeof err) == 0);
	CHECK_EQ_U64(v, UINT64_MAX);
}

TEST(percent)
{
	double v;
	CHECK(parse_percent("70", &v, 0, 0) == 0);
	CHECK_NEAR(v, 70, 0);
	CHECK(parse_percent("99.9%", &v, 0, 0) == 0);
	CHECK_NEAR(v, 99.9, 1e-12);
	CHECK(parse_percent("101", &v, 0, 0) < 0);
	CHECK(parse_percent("-1", &v, 0, 0) < 0);
	CHECK(parse_percent("", &v, 0, 0) < 0);
	CHECK(parse_percent("nan", &v, 0, 0) < 0);
	CHECK(parse_percent("5%%", &v, 0, 0) < 0);
}

TEST(tag_key_value)
{
	char *k, *v, err[128];
	CHECK(parse_tag("os=ubuntu-23.10", &k, &v, err, sizeof err) == 0);
	CHECK_EQ_STR(k, "os");
	CHECK_EQ_STR(v, "ubuntu-23.10");
	free(k);
	CHECK(parse_tag("fs=a=b", &k, &v, err, sizeof err) == 0);
	CHECK_EQ_STR(v, "a=b");
	free(k);
	CHECK(parse_tag("=x", &k, &v, err, sizeof err) < 0);
	CHECK(parse_tag("x=", &k, &v, err, sizeof err) < 0);
	CHECK(parse_tag("x", &k, &v, err, sizeof err) < 0);
	CHECK_CONTAINS(err, "expected key=value");
	CHECK(parse_tag("a b=c", &k, &v, err, sizeof err) < 0);
	CHECK(parse_tag("", &k, &v, err, sizeof err) < 0);
}

TEST(split_list_items)
{
	char **v, err[64];
	CHECK_EQ_INT(split_list("blake3,sha256", ',', &v, err, sizeof err), 2);
	CHECK_EQ_STR(v[0], "blake3");
	CHECK_EQ_STR(v[1], "sha256");
	CHECK(v[2] == NULL);
	free_strv(v);
	CHECK(split_list("a,,b", ',', &v, err, sizeof err) < 0);
	CHECK(split_list("a,", ',', &v, err, sizeof err) < 0);
	CHECK(split_list("", ',', &v, err, sizeof err) < 0);
}
