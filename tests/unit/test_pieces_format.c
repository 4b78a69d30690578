/* The piece store's on-disk formats: round trips, and the decoders refusing damaged input. */
#include "test.h"

#include "pieces/format.h"

static struct piece_info sample_info(void)
{
	struct piece_info pi = { .algo = HASH_BLAKE3, .size = 2314240, .created_ns = 1700000000123456789 };
	for (int i = 0; i < 32; i++) {
		pi.hash[i] = (uint8_t)(i * 7 + 1);
		pi.id[i] = (uint8_t)(255 - i);
	}
	return pi;
}

TEST(piece_header_round_trips)
{
	struct piece_info in = sample_info(), out;
	uint8_t buf[PIECE_HEADER_SIZE];
	const char *why = NULL;
	in.has_id = 1;
	piece_header_encode(&in, buf);
	CHECK_EQ_INT(buf[0] << 8 | buf[1], PIECE_HEADER_FIELDS);
	CHECK(piece_header_decode(buf, sizeof buf, &out, &why) == 0);
	CHECK_EQ_INT(out.version, PIECE_FORMAT_VERSION);
	CHECK_EQ_INT(out.algo, HASH_BLAKE3);
	CHECK_EQ_INT(out.hash_len, 32);
	CHECK_EQ_U64(out.size, in.size);
	CHECK_EQ_U64(out.created_ns, in.created_ns);
	CHECK(memcmp(out.hash, in.hash, 32) == 0);
	CHECK(out.has_id && memcmp(out.id, in.id, 32) == 0);
	for (size_t i = 2 + PIECE_HEADER_FIELDS; i < sizeof buf; i++)
		CHECK_EQ_INT(buf[i], 0);
	/* A version-1 header (56 bytes of fields, no id) still decodes, without an id. */
	in.has_id = 0;
	piece_header_encode(&in, buf);
	CHECK_EQ_INT(buf[0] << 8 | buf[1], PIECE_HEADER_FIELDS_V1);
	CHECK(piece_header_decode(buf, sizeof buf, &out, &why) == 0);
	CHECK(!out.has_id);
}

TEST(piece_header_rejects_damage)
{
	struct piece_info in = sample_info(), out;
	uint8_t buf[PIECE_HEADER_SIZE];
	const char *why = NULL;
	in.has_id = 1;
	piece_header_encode(&in, buf);
	CHECK(piece_header_decode(buf, 1, &out, &why) < 0);
	CHECK(piece_header_decode(buf, 40, &out, &why) < 0);
	CHECK_CONTAINS(why, "truncated");

	uint8_t zero[PIECE_HEADER_SIZE] = { 0 };
	CHECK(piece_header_decode(zero, sizeof zero, &out, &why) < 0);
	CHECK_CONTAINS(why, "never written");

	/* Every single flipped bit of the fields is caught (the CRC covers them). */
	for (int byte = 2; byte < 2 + PIECE_HEADER_FIELDS; byte++) {
		buf[byte] ^= 0x10;
		CHECK(piece_header_decode(buf, sizeof buf, &out, &why) < 0);
		buf[byte] ^= 0x10;
	}
	buf[0] = 0x7f; /* length past the reserved area */
	CHECK(piece_header_decode(buf, sizeof buf, &out, &why) < 0);
	CHECK_CONTAINS(why, "length");
}

TEST(piece_header_for_none_has_no_hash)
{
	struct piece_info in = { .algo = HASH_NONE, .size = 5 }, out;
	uint8_t buf[PIECE_HEADER_SIZE];
	piece_header_encode(&in, buf);
	CHECK(piece_header_decode(buf, sizeof buf, &out, NULL) == 0);
	CHECK_EQ_INT(out.hash_len, 0);
}

TEST(log_footer_round_trips_and_rejects_damage)
{
	struct piece_info in = sample_info(), out;
	uint8_t buf[LOG_FOOTER_SIZE];
	const char *why = NULL;
	in.algo = HASH_SHA256;
	log_footer_encode(&in, buf);
	CHECK(log_footer_decode(buf, sizeof buf, &out, &why) == 0);
	CHECK_EQ_INT(out.algo, HASH_SHA256);
	CHECK_EQ_U64(out.size, in.size);
	CHECK(memcmp(out.id, in.id, 32) == 0 && memcmp(out.hash, in.hash, 32) == 0);
	CHECK(log_footer_decode(buf, sizeof buf - 1, &out, &why) < 0);
	for (int byte = 0; byte < LOG_FOOTER_SIZE; byte++) {
		buf[byte] ^= 1;
		CHECK(log_footer_decode(buf, sizeof buf, &out, &why) < 0);
		buf[byte] ^= 1;
	}
}

TEST(index_records_round_trip)
{
	struct index_record in = { .log_no = 3, .flags = INDEX_USED, .offset = 1ull << 33, .size = 99, .created_s = 17 };
	struct index_record out;
	uint8_t buf[INDEX_RECORD_SIZE], zero[INDEX_RECORD_SIZE] = { 0 };
	const char *why = NULL;
	memset(in.id, 0xab, sizeof in.id);
	index_record_encode(&in, buf);
	CHECK_EQ_INT(index_record_decode(buf, sizeof buf, &out, &why), 1);
	CHECK_EQ_U64(out.offset, in.offset);
	CHECK_EQ_U64(out.size, 99);
	CHECK_EQ_INT(out.log_no, 3);
	CHECK_EQ_INT(index_record_decode(zero, sizeof zero, &out, &why), 0);
	buf[40] ^= 4;
	CHECK_EQ_INT(index_record_decode(buf, sizeof buf, &out, &why), -1);
	CHECK_CONTAINS(why, "checksum");

	uint64_t n = 0;
	index_header_encode(1024, buf);
	CHECK(index_header_decode(buf, sizeof buf, &n, &why) == 0);
	CHECK_EQ_U64(n, 1024);
	index_header_encode(1000, buf); /* not a power of two */
	CHECK(index_header_decode(buf, sizeof buf, &n, &why) < 0);
	CHECK(index_slot(in.id, 1024) < 1024);
}

TEST(base32_matches_rfc4648_lowercase_unpadded)
{
	char out[64];
	uint8_t back[32];
	base32_encode((const uint8_t *)"foobar", 6, out);
	CHECK_EQ_STR(out, "mzxw6ytboi");
	base32_encode((const uint8_t *)"f", 1, out);
	CHECK_EQ_STR(out, "my");
	CHECK_EQ_INT(base32_decode("mzxw6ytboi", 10, back, sizeof back), 6);
	CHECK(memcmp(back, "foobar", 6) == 0);
	CHECK_EQ_INT(base32_decode("mzxw6ytbo1", 10, back, sizeof back), -1);  /* '1' is not in it */
	CHECK_EQ_INT(base32_decode("mz", 2, back, sizeof back), -1);         /* non-zero padding bits */
	CHECK_EQ_INT(base32_decode("mzxw6ytboi", 10, back, 3), -1);          /* too long for out */

	uint8_t id[32];
	for (int i = 0; i < 32; i++)
		id[i] = (uint8_t)(i * 37);
	base32_encode(id, 32, out);
	CHECK_EQ_U64(strlen(out), PIECE_ID_B32_LEN);
	CHECK_EQ_INT(base32_decode(out, PIECE_ID_B32_LEN, back, sizeof back), 32);
	CHECK(memcmp(back, id, 32) == 0);
}

TEST(crc32c_known_value)
{
	/* The standard check value of CRC-32C. */
	CHECK_EQ_U64(crc32c(0, "123456789", 9), 0xE3069283u);
}
