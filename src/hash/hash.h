/* One interface over the hashes a piece store can use: BLAKE3 (the official C implementation
 * with its SIMD dispatch), SHA-256 (OpenSSL EVP, which picks SHA-NI/AVX2 itself) and "none"
 * (no hashing: the cost of the write path alone).
 *
 *   struct hash_ctx h = { 0 };          zeroed once; a context can be reused for many digests
 *   hash_init(&h, HASH_BLAKE3);
 *   hash_update(&h, buf, len);  ...
 *   hash_final(&h, digest);             hash_digest_size() bytes (0 for none)
 *   hash_release(&h);                   frees what SHA-256 allocated
 */
#ifndef NM_HASH_HASH_H
#define NM_HASH_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "blake3.h"

enum hash_algo {
	HASH_NONE = 0,
	HASH_BLAKE3 = 1,
	HASH_SHA256 = 2,
};
#define HASH_ALGO_MAX HASH_SHA256

#define HASH_MAX_DIGEST 32

struct hash_ctx {
	enum hash_algo algo;
	void *evp;              /* EVP_MD_CTX for SHA-256, kept between digests */
	blake3_hasher b3;
};

/* "blake3", "sha256", "none" (case-insensitive; "sha-256" too). Returns 0 or -1. */
int hash_algo_parse(const char *name, enum hash_algo *out);
const char *hash_algo_name(enum hash_algo a);    /* "blake3" */
const char *hash_algo_title(enum hash_algo a);   /* "BLAKE3", "SHA256", "NONE": for table rows */
size_t hash_digest_size(enum hash_algo a);
int hash_algo_valid(unsigned a);

/* Returns 0, or -1 when OpenSSL cannot give SHA-256 (with a message in err). */
int hash_init(struct hash_ctx *h, enum hash_algo a);
void hash_update(struct hash_ctx *h, const void *data, size_t len);
void hash_final(struct hash_ctx *h, uint8_t out[HASH_MAX_DIGEST]);
void hash_release(struct hash_ctx *h);

/* One buffer in one call. Returns 0 or -1. */
int hash_buffer(enum hash_algo a, const void *data, size_t len, uint8_t out[HASH_MAX_DIGEST]);

/* Lowercase hex of n bytes into out (2n+1 bytes). */
char *hash_hex(const uint8_t *digest, size_t n, char *out);

#endif
