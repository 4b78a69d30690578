#include "hash/hash.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const names[] = { "none", "blake3", "sha256" };
static const char *const titles[] = { "NONE", "BLAKE3", "SHA256" };
static const size_t digest_sizes[] = { 0, BLAKE3_OUT_LEN, 32 };

int hash_algo_valid(unsigned a)
{
	return a <= HASH_ALGO_MAX;
}

int hash_algo_parse(const char *name, enum hash_algo *out)
{
	for (unsigned i = 0; i <= HASH_ALGO_MAX; i++)
		if (strcasecmp(name, names[i]) == 0) {
			*out = (enum hash_algo)i;
			return 0;
		}
	if (strcasecmp(name, "sha-256") == 0) {
		*out = HASH_SHA256;
		return 0;
	}
	return -1;
}

const char *hash_algo_name(enum hash_algo a)
{
	return hash_algo_valid(a) ? names[a] : "unknown";
}

const char *hash_algo_title(enum hash_algo a)
{
	return hash_algo_valid(a) ? titles[a] : "UNKNOWN";
}

size_t hash_digest_size(enum hash_algo a)
{
	return hash_algo_valid(a) ? digest_sizes[a] : 0;
}

/* Fetched once: EVP_sha256() would look the implementation up again on every init. */
static const EVP_MD *sha256_md(void)
{
	static const EVP_MD *md;
	const EVP_MD *m = __atomic_load_n(&md, __ATOMIC_ACQUIRE);
	if (!m) {
		EVP_MD *fetched = EVP_MD_fetch(NULL, "SHA256", NULL);
		const EVP_MD *expected = NULL;
		if (!fetched)
			return NULL;
		if (__atomic_compare_exchange_n(&md, &expected, fetched, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			m = fetched;
		else {
			EVP_MD_free(fetched);
			m = expected;
		}
	}
	return m;
}

int hash_init(struct hash_ctx *h, enum hash_algo a)
{
	h->algo = a;
	switch (a) {
	case HASH_BLAKE3:
		blake3_hasher_init(&h->b3);
		return 0;
	case HASH_SHA256: {
		const EVP_MD *md = sha256_md();
		if (!md)
			return -1;
		if (!h->evp && !(h->evp = EVP_MD_CTX_new()))
			return -1;
		return EVP_DigestInit_ex(h->evp, md, NULL) == 1 ? 0 : -1;
	}
	case HASH_NONE:
		return 0;
	}
	return -1;
}

void hash_update(struct hash_ctx *h, const void *data, size_t len)
{
	switch (h->algo) {
	case HASH_BLAKE3:
		blake3_hasher_update(&h->b3, data, len);
		break;
	case HASH_SHA256:
		EVP_DigestUpdate(h->evp, data, len);
		break;
	case HASH_NONE:
		break;
	}
}

void hash_final(struct hash_ctx *h, uint8_t out[HASH_MAX_DIGEST])
{
	memset(out, 0, HASH_MAX_DIGEST);
	switch (h->algo) {
	case HASH_BLAKE3:
		blake3_hasher_finalize(&h->b3, out, BLAKE3_OUT_LEN);
		break;
	case HASH_SHA256: {
		unsigned n = 0;
		EVP_DigestFinal_ex(h->evp, out, &n);
		break;
	}
	case HASH_NONE:
		break;
	}
}

void hash_release(struct hash_ctx *h)
{
	if (h->evp)
		EVP_MD_CTX_free(h->evp);
	h->evp = NULL;
}

int hash_buffer(enum hash_algo a, const void *data, size_t len, uint8_t out[HASH_MAX_DIGEST])
{
	struct hash_ctx h = { 0 };
	if (hash_init(&h, a) < 0) {
		hash_release(&h);
		return -1;
	}
	hash_update(&h, data, len);
	hash_final(&h, out);
	hash_release(&h);
	return 0;
}

char *hash_hex(const uint8_t *d, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[2 * n] = 0;
	return out;
}
