/* fio's verify checksums (see fiosums.h for where they differ from the textbook ones). */
#include "hash/fiosums.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>

/* --- CRC tables, built once ---------------------------------------------------------------- */

static uint32_t crc32c_table[256], crc32_table[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i, m = i << 24;
		for (int k = 0; k < 8; k++) {
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;            /* Castagnoli, reflected */
			m = m & 0x80000000u ? (m << 1) ^ 0x04C11DB7u : m << 1;  /* POSIX cksum, MSB first */
		}
		crc32c_table[i] = c;
		crc32_table[i] = m;
	}
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(const uint8_t *p, size_t len)
{
	uint64_t crc = 0xffffffffu;
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t v;
		memcpy(&v, p, sizeof v);
		crc = _mm_crc32_u64(crc, v);
	}
	uint32_t c = (uint32_t)crc;
	while (len--)
		c = _mm_crc32_u8(c, *p++);
	return c;
}

static int have_sse42(void)
{
	static int cached = -1;
	int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (v < 0) {
		__builtin_cpu_init();
		v = __builtin_cpu_supports("sse4.2") ? 1 : 0;
		__atomic_store_n(&cached, v, __ATOMIC_RELAXED);
	}
	return v;
}
#endif

uint32_t fio_sum_crc32c(const void *data, size_t len)
{
#if defined(__x86_64__)
	if (have_sse42())
		return crc32c_hw(data, len);
#endif
	pthread_once(&tables_once, build_tables);
	const uint8_t *p = data;
	uint32_t crc = 0xffffffffu;
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

uint32_t fio_sum_crc32(const void *data, size_t len)
{
	pthread_once(&tables_once, build_tables);
	const uint8_t *p = data;
	uint32_t crc = 0;
	while (len--)
		crc = (crc << 8) ^ crc32_table[((crc >> 24) ^ *p++) & 0xff];
	return crc;
}

/* --- XXH32 ----------------------------------------------------------------------------------- */

#define XXH_P1 2654435761u
#define XXH_P2 2246822519u
#define XXH_P3 3266489917u
#define XXH_P4 668265263u
#define XXH_P5 374761393u

static inline uint32_t rotl32(uint32_t x, unsigned r)
{
	return (x << r) | (x >> (32 - r));
}

static inline uint32_t le32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline uint32_t xxh_round(uint32_t acc, uint32_t in)
{
	return rotl32(acc + in * XXH_P2, 13) * XXH_P1;
}

/* fio's xxhash verify uses XXH32 with seed 1. */
uint32_t fio_sum_xxhash(const void *data, size_t len)
{
	const uint32_t seed = 1;
	const uint8_t *p = data, *end = p + len;
	uint32_t h;
	if (len >= 16) {
		uint32_t v[4] = { seed + XXH_P1 + XXH_P2, seed + XXH_P2, seed, seed - XXH_P1 };
		for (; p + 16 <= end; p += 16)
			for (int i = 0; i < 4; i++)
				v[i] = xxh_round(v[i], le32(p + 4 * i));
		h = rotl32(v[0], 1) + rotl32(v[1], 7) + rotl32(v[2], 12) + rotl32(v[3], 18);
	} else
		h = seed + XXH_P5;
	h += (uint32_t)len;
	for (; p + 4 <= end; p += 4)
		h = rotl32(h + le32(p) * XXH_P3, 17) * XXH_P4;
	for (; p < end; p++)
		h = rotl32(h + *p * XXH_P5, 11) * XXH_P1;
	h ^= h >> 15;
	h *= XXH_P2;
	h ^= h >> 13;
	h *= XXH_P3;
	h ^= h >> 16;
	return h;
}

/* --- md5 and sha1 through OpenSSL ------------------------------------------------------------ */

/* Fetched once per algorithm (a fetch per digest would look the implementation up each time). */
static const EVP_MD *md_fetch(const EVP_MD **slot, const char *name)
{
	const EVP_MD *m = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (m)
		return m;
	EVP_MD *fetched = EVP_MD_fetch(NULL, name, NULL);
	const EVP_MD *expected = NULL;
	if (!fetched)
		return NULL;
	if (__atomic_compare_exchange_n(slot, &expected, fetched, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return fetched;
	EVP_MD_free(fetched);
	return expected;
}

static void evp_digest(const EVP_MD **slot, const char *name, const void *data, size_t len, uint8_t *out,
		       size_t outlen)
{
	const EVP_MD *md = md_fetch(slot, name);
	unsigned n = 0;
	if (!md || EVP_Digest(data, len, out, &n, md, NULL) != 1 || n != outlen)
		memset(out, 0, outlen); /* no digest: every check of it fails, none passes by chance */
}

void fio_sum_md5(const void *data, size_t len, uint8_t out[16])
{
	static const EVP_MD *md;
	evp_digest(&md, "MD5", data, len, out, 16);
}

void fio_sum_sha1(const void *data, size_t len, uint8_t out[20])
{
	static const EVP_MD *md;
	uint8_t d[20];
	evp_digest(&md, "SHA1", data, len, d, sizeof d);
	for (int w = 0; w < 5; w++) /* fio keeps its state words in host order */
		for (int b = 0; b < 4; b++)
			out[4 * w + b] = d[4 * w + 3 - b];
}

/* --- fio's sha256 ------------------------------------------------------------------------------ */

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr32(uint32_t x, unsigned r)
{
	return (x >> r) | (x << (32 - r));
}

/* One 64-byte block into the state (FIPS 180-4's compression function). */
static void sha256_block(uint32_t st[8], const uint8_t *blk)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 | (uint32_t)blk[4 * i + 2] << 8 |
		       blk[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		uint32_t t2 = (rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	st[0] += a, st[1] += b, st[2] += c, st[3] += d, st[4] += e, st[5] += f, st[6] += g, st[7] += h;
}

/* The message, then 0x80, zeros and the bit count as fio pads it: little-endian. The last block
 * is built in out (fio's buffer), and the low byte of each state word then overwrites its first
 * eight bytes. */
void fio_sum_sha256(const void *data, size_t len, uint8_t out[64])
{
	uint32_t st[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = data;
	size_t full = len / 64 * 64, tail = len - full;
	for (size_t i = 0; i < full; i += 64)
		sha256_block(st, p + i);
	uint64_t bits = (uint64_t)(uint32_t)len << 3; /* fio counts bytes in 32 bits */
	uint8_t blk[64];
	memcpy(blk, p + full, tail);
	blk[tail] = 0x80;
	if (tail >= 56) {
		memset(blk + tail + 1, 0, 64 - tail - 1);
		sha256_block(st, blk);
		memset(blk, 0, 56);
	} else
		memset(blk + tail + 1, 0, 56 - tail - 1);
	memcpy(blk + 56, &bits, 8);
	sha256_block(st, blk);
	memcpy(out, blk, 64);
	for (int i = 0; i < 8; i++)
		out[i] = (uint8_t)st[i];
}

/* fio stores the block buffer after a single update: its first 128 bytes are the data's first
 * 128, and the tail left after the last whole block then overwrites the front. */
void fio_sum_sha512(const void *data, size_t len, uint8_t out[128])
{
	const uint8_t *p = data;
	size_t tail = len % 128;
	memcpy(out, p, 128);
	memcpy(out, p + len - tail, tail);
}
