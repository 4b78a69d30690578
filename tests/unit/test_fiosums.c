/* fio's verify checksums (hash/fiosums.c): catalogue check values turned into fio's variants,
 * and the layout of the bytes fio stores for sha1, sha256 and sha512. That the whole headers
 * match fio's is checked beside real fio (tests/cli/test_fio_verify.sh). */
#include "test.h"

#include "hash/fiosums.h"
#include "hash/hash.h"

#include <string.h>

static const char *hexs(const uint8_t *p, size_t n, char *out)
{
	return hash_hex(p, n, out);
}

TEST(fiosums_crcs)
{
	/* CRC-32C's check value of "123456789" is e3069283; fio's skips the final inversion */
	CHECK_EQ_U64(fio_sum_crc32c("123456789", 9), 0x1cf96d7cu);
	/* CRC-32/POSIX's is 765e7680 (no length); fio's skips the final inversion */
	CHECK_EQ_U64(fio_sum_crc32("123456789", 9), 0x89a1897fu);
	CHECK_EQ_U64(fio_sum_crc32c("", 0), 0xffffffffu);
	char buf[4099];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)(i * 7 + 3);
	/* the 8-byte steps and the byte tail give what a byte at a time gives */
	uint32_t whole = fio_sum_crc32c(buf, sizeof buf);
	CHECK(whole != fio_sum_crc32c(buf, sizeof buf - 1));
	CHECK(fio_sum_xxhash(buf, sizeof buf) != fio_sum_xxhash(buf + 1, sizeof buf - 1));
}

TEST(fiosums_digests)
{
	char hex[300];
	uint8_t d[128];
	fio_sum_md5("abc", 3, d);
	CHECK_EQ_STR(hexs(d, 16, hex), "900150983cd24fb0d6963f7d28e17f72");
	/* sha1("abc") is a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d; fio keeps the words in host order */
	fio_sum_sha1("abc", 3, d);
	CHECK_EQ_STR(hexs(d, 20, hex), "363e99a96a81064771253eba6cc250789dd8d09c");
}

TEST(fiosums_sha256_layout)
{
	/* the last block as fio pads it: "abc", 0x80, zeros, the bit count (24) little-endian at 56;
	 * the first eight bytes are the low bytes of the state words */
	uint8_t d[64], a[64];
	fio_sum_sha256("abc", 3, d);
	for (int i = 8; i < 56; i++)
		CHECK_EQ_INT(d[i], 0);
	CHECK_EQ_INT(d[56], 24);
	for (int i = 57; i < 64; i++)
		CHECK_EQ_INT(d[i], 0);
	fio_sum_sha256("abd", 3, a);
	CHECK(memcmp(a, d, 8) != 0);
	/* 56 bytes and more need a second padding block: then bytes 8..55 are zeros too */
	char m[60];
	memset(m, 'x', sizeof m);
	fio_sum_sha256(m, sizeof m, d);
	CHECK_EQ_INT(d[56], (sizeof m * 8) & 0xff);
	CHECK_EQ_INT(d[57], (sizeof m * 8) >> 8);
	CHECK_EQ_INT(d[20], 0);
}

TEST(fiosums_sha512_is_fios_buffer)
{
	uint8_t data[3928], d[128];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 31 + 1);
	fio_sum_sha512(data, sizeof data, d);
	/* 3928 = 30 blocks of 128 + 88: the tail, then what the first block left behind */
	CHECK(memcmp(d, data + 3840, 88) == 0);
	CHECK(memcmp(d + 88, data + 88, 40) == 0);
	fio_sum_sha512(data, 256, d);
	CHECK(memcmp(d, data, 128) == 0);
}
