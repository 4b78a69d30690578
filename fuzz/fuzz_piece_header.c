/* libFuzzer harness: the decoders `pieces verify` runs on whatever it finds on disk: the
 * files backend's piece header, the log backend's footer, index header and index records,
 * and the base32 piece ids in file names (pieces/format.h).
 *
 * Besides "no crash, no leak, no undefined behaviour": a rejection always says why, and
 * whatever decodes encodes back to the same bytes (so verify judges exactly what was written). */
#include "fuzz_util.h"
#include "pieces/format.h"

#include <string.h>

static void check_header(const uint8_t *data, size_t size)
{
	struct piece_info pi, again;
	const char *why = NULL;
	uint8_t buf[PIECE_HEADER_SIZE];
	if (piece_header_decode(data, size, &pi, &why) < 0) {
		FUZZ_ASSERT(why && *why);
		return;
	}
	FUZZ_ASSERT(hash_algo_valid(pi.algo) && pi.hash_len == hash_digest_size(pi.algo));
	piece_header_encode(&pi, buf);
	/* The fields this version knows are the same bytes (a longer header may carry more). */
	FUZZ_ASSERT(memcmp(buf + 2, data + 2, pi.has_id ? PIECE_HEADER_FIELDS : PIECE_HEADER_FIELDS_V1) == 0);
	FUZZ_ASSERT(piece_header_decode(buf, sizeof buf, &again, NULL) == 0);
	FUZZ_ASSERT(memcmp(&pi, &again, sizeof pi) == 0);
}

static void check_footer(const uint8_t *data, size_t size)
{
	struct piece_info pi;
	const char *why = NULL;
	uint8_t buf[LOG_FOOTER_SIZE];
	if (log_footer_decode(data, size, &pi, &why) < 0) {
		FUZZ_ASSERT(why && *why);
		return;
	}
	log_footer_encode(&pi, buf);
	FUZZ_ASSERT(memcmp(buf, data, LOG_FOOTER_SIZE) == 0);
}

static void check_index(const uint8_t *data, size_t size)
{
	struct index_record r;
	const char *why = NULL;
	uint8_t buf[INDEX_RECORD_SIZE];
	uint64_t nslots;
	int u = index_record_decode(data, size, &r, &why);
	if (u < 0)
		FUZZ_ASSERT(why && *why);
	if (u > 0) {
		index_record_encode(&r, buf);
		FUZZ_ASSERT(memcmp(buf, data, INDEX_RECORD_SIZE) == 0);
		FUZZ_ASSERT(index_slot(r.id, 1024) < 1024);
	}
	why = NULL;
	if (index_header_decode(data, size, &nslots, &why) < 0)
		FUZZ_ASSERT(why && *why);
	else
		FUZZ_ASSERT(nslots && !(nslots & (nslots - 1)));
}

static void check_base32(const uint8_t *data, size_t size)
{
	uint8_t out[64];
	char text[128];
	size_t n = size < 100 ? size : 100;
	int got = base32_decode((const char *)data, n, out, sizeof out);
	if (got < 0)
		return;
	/* Valid base32 is canonical: encoding the bytes gives the text back. */
	base32_encode(out, (size_t)got, text);
	FUZZ_ASSERT(strlen(text) == n && memcmp(text, data, n) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_header(data, size);
	check_footer(data, size);
	check_index(data, size);
	check_base32(data, size);
	return 0;
}
