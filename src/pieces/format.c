#include "pieces/format.h"

#include <string.h>

/* CRC-32C (Castagnoli), bitwise-table form: the fields it covers are tens of bytes. */
uint32_t crc32c(uint32_t crc, const void *data, size_t len)
{
	static uint32_t table[256];
	static int ready;
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
			table[i] = c;
		}
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	}
	const uint8_t *p = data;
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v = 0;
	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static int fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -1;
}

/* The checks shared by header and footer: a known algorithm with its digest length. */
static int check_algo(unsigned algo, unsigned hash_len, const uint8_t *hash, const char **why)
{
	if (!hash_algo_valid(algo))
		return fail(why, "unknown hash algorithm");
	if (hash_len != hash_digest_size((enum hash_algo)algo))
		return fail(why, "hash length does not match the algorithm");
	for (unsigned i = hash_len; i < HASH_MAX_DIGEST; i++)
		if (hash[i])
			return fail(why, "bytes after the hash are not zero");
	return 0;
}

void piece_header_encode(const struct piece_info *pi, uint8_t *out)
{
	uint8_t *f = out + 2;
	memset(out, 0, PIECE_HEADER_SIZE);
	unsigned len = pi->has_id ? PIECE_HEADER_FIELDS : PIECE_HEADER_FIELDS_V1;
	out[0] = (uint8_t)(len >> 8);
	out[1] = (uint8_t)(len & 0xff);
	f[0] = PIECE_FORMAT_VERSION;
	f[1] = (uint8_t)pi->algo;
	f[2] = (uint8_t)hash_digest_size(pi->algo);
	put_u64(f + 4, pi->size);
	put_u64(f + 12, (uint64_t)pi->created_ns);
	memcpy(f + 20, pi->hash, HASH_MAX_DIGEST);
	put_u32(f + 52, crc32c(0, f, 52));
	if (pi->has_id) {
		memcpy(f + 56, pi->id, PIECE_ID_LEN);
		put_u32(f + 88, crc32c(0, f + 56, PIECE_ID_LEN));
	}
}

int piece_header_decode(const uint8_t *buf, size_t len, struct piece_info *pi, const char **why)
{
	memset(pi, 0, sizeof *pi);
	if (len < 2)
		return fail(why, "header truncated");
	size_t flen = (size_t)buf[0] << 8 | buf[1];
	if (flen == 0)
		return fail(why, "header never written (length 0)");
	if (flen < PIECE_HEADER_FIELDS_V1 || flen > PIECE_HEADER_SIZE - 2)
		return fail(why, "header length out of range");
	if (len < 2 + flen)
		return fail(why, "header truncated");
	const uint8_t *f = buf + 2;
	if (get_u32(f + 52) != crc32c(0, f, 52))
		return fail(why, "header checksum mismatch");
	if (f[0] != PIECE_FORMAT_VERSION)
		return fail(why, "unknown header version");
	if (f[3])
		return fail(why, "reserved header byte is not zero");
	if (check_algo(f[1], f[2], f + 20, why) < 0)
		return -1;
	pi->version = f[0];
	pi->algo = (enum hash_algo)f[1];
	pi->hash_len = f[2];
	pi->size = get_u64(f + 4);
	pi->created_ns = (int64_t)get_u64(f + 12);
	memcpy(pi->hash, f + 20, HASH_MAX_DIGEST);
	if (flen >= PIECE_HEADER_FIELDS) {
		if (get_u32(f + 88) != crc32c(0, f + 56, PIECE_ID_LEN))
			return fail(why, "header piece id checksum mismatch");
		memcpy(pi->id, f + 56, PIECE_ID_LEN);
		pi->has_id = 1;
	}
	return 0;
}

void log_footer_encode(const struct piece_info *pi, uint8_t out[LOG_FOOTER_SIZE])
{
	memset(out, 0, LOG_FOOTER_SIZE);
	memcpy(out, "NMLF", 4);
	out[4] = PIECE_FORMAT_VERSION;
	out[5] = (uint8_t)pi->algo;
	out[6] = (uint8_t)hash_digest_size(pi->algo);
	put_u64(out + 8, pi->size);
	put_u64(out + 16, (uint64_t)pi->created_ns);
	memcpy(out + 24, pi->id, PIECE_ID_LEN);
	memcpy(out + 56, pi->hash, HASH_MAX_DIGEST);
	put_u32(out + 92, crc32c(0, out, 92));
}

int log_footer_decode(const uint8_t *buf, size_t len, struct piece_info *pi, const char **why)
{
	memset(pi, 0, sizeof *pi);
	if (len < LOG_FOOTER_SIZE)
		return fail(why, "footer truncated");
	if (memcmp(buf, "NMLF", 4) != 0)
		return fail(why, "no footer magic");
	if (get_u32(buf + 92) != crc32c(0, buf, 92))
		return fail(why, "footer checksum mismatch");
	if (buf[4] != PIECE_FORMAT_VERSION)
		return fail(why, "unknown footer version");
	if (buf[7] || get_u32(buf + 88))
		return fail(why, "reserved footer bytes are not zero");
	if (check_algo(buf[5], buf[6], buf + 56, why) < 0)
		return -1;
	pi->version = buf[4];
	pi->algo = (enum hash_algo)buf[5];
	pi->hash_len = buf[6];
	pi->size = get_u64(buf + 8);
	pi->created_ns = (int64_t)get_u64(buf + 16);
	memcpy(pi->id, buf + 24, PIECE_ID_LEN);
	memcpy(pi->hash, buf + 56, HASH_MAX_DIGEST);
	return 0;
}

void index_header_encode(uint64_t nslots, uint8_t out[INDEX_RECORD_SIZE])
{
	memset(out, 0, INDEX_RECORD_SIZE);
	memcpy(out, "NMIX", 4);
	put_u32(out + 4, PIECE_FORMAT_VERSION);
	put_u64(out + 8, nslots);
	put_u32(out + 60, crc32c(0, out, 60));
}

int index_header_decode(const uint8_t *buf, size_t len, uint64_t *nslots, const char **why)
{
	if (len < INDEX_RECORD_SIZE)
		return fail(why, "index header truncated");
	if (memcmp(buf, "NMIX", 4) != 0)
		return fail(why, "no index magic");
	if (get_u32(buf + 60) != crc32c(0, buf, 60))
		return fail(why, "index header checksum mismatch");
	if (get_u32(buf + 4) != PIECE_FORMAT_VERSION)
		return fail(why, "unknown index version");
	uint64_t n = get_u64(buf + 8);
	/* A power of two, so probing wraps with a mask; 2^40 slots is far past any real table. */
	if (n == 0 || (n & (n - 1)) || n > (1ull << 40))
		return fail(why, "index slot count is not a power of two in range");
	*nslots = n;
	return 0;
}

void index_record_encode(const struct index_record *r, uint8_t out[INDEX_RECORD_SIZE])
{
	memcpy(out, r->id, PIECE_ID_LEN);
	put_u32(out + 32, r->log_no);
	put_u32(out + 36, r->flags);
	put_u64(out + 40, r->offset);
	put_u64(out + 48, r->size);
	put_u32(out + 56, r->created_s);
	put_u32(out + 60, crc32c(0, out, 60));
}

int index_record_decode(const uint8_t *buf, size_t len, struct index_record *r, const char **why)
{
	memset(r, 0, sizeof *r);
	if (len < INDEX_RECORD_SIZE)
		return fail(why, "index record truncated");
	int zero = 1;
	for (int i = 0; i < INDEX_RECORD_SIZE && zero; i++)
		zero = !buf[i];
	if (zero)
		return 0;
	if (get_u32(buf + 60) != crc32c(0, buf, 60))
		return fail(why, "index record checksum mismatch");
	memcpy(r->id, buf, PIECE_ID_LEN);
	r->log_no = get_u32(buf + 32);
	r->flags = get_u32(buf + 36);
	r->offset = get_u64(buf + 40);
	r->size = get_u64(buf + 48);
	r->created_s = get_u32(buf + 56);
	if (r->flags != INDEX_USED)
		return fail(why, "index record flags unknown");
	if (r->offset > UINT64_MAX - r->size - LOG_FOOTER_SIZE)
		return fail(why, "index record offset out of range");
	return 1;
}

uint64_t index_slot(const uint8_t id[PIECE_ID_LEN], uint64_t nslots)
{
	return get_u64(id) & (nslots - 1);
}

static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

void base32_encode(const uint8_t *in, size_t n, char *out)
{
	uint32_t acc = 0;
	int bits = 0;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		acc = (acc << 8) | in[i];
		bits += 8;
		while (bits >= 5) {
			out[o++] = b32[(acc >> (bits - 5)) & 31];
			bits -= 5;
		}
	}
	if (bits)
		out[o++] = b32[(acc << (5 - bits)) & 31];
	out[o] = 0;
}

int base32_decode(const char *in, size_t len, uint8_t *out, size_t outlen)
{
	uint32_t acc = 0;
	int bits = 0;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		const char *p = in[i] ? strchr(b32, in[i]) : NULL;
		if (!p)
			return -1;
		acc = (acc << 5) | (uint32_t)(p - b32);
		bits += 5;
		if (bits >= 8) {
			if (o == outlen)
				return -1;
			out[o++] = (uint8_t)(acc >> (bits - 8));
			bits -= 8;
		}
	}
	/* Leftover bits must be padding zeros and fewer than 5 (else the length was wrong). */
	if (bits >= 5 || (acc & ((1u << bits) - 1)))
		return -1;
	return (int)o;
}
